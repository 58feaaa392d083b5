/* The TMA variants' common device code (orand_mma_tma.cu, orand_mma_wgmma.cu; orand.cuh says
 * what they try): the stage layout, mbarriers with a watchdog, the producer warp with its
 * multicast loads, the cluster's tile order and the byte epilogue.
 *
 * A block: OA_TMA_WARPS mma (consumer) warps, then one producer warp whose lane 0 issues every
 * load. Stage s (of OA_TMA_STAGES) holds the tile's 256 rows of A then its 128 columns of B, 64
 * bytes (512 bits of k) each, in variant 0's layout: chunk c of row r at chunk c ^ ((r / 2) % 4).
 * That is the TMA's 64-byte swizzle (16-byte chunk bits [4,6) XOR address bits [7,9)) for a box
 * 64 bytes wide whose destination is 512-byte aligned, and also the canonical K-major layout of
 * a wgmma operand with 64-byte swizzle (8-row groups 512 bytes apart). Every region starts on a
 * multiple of 1024 bytes: the dynamic shared memory is aligned by hand.
 *
 * Barriers, per stage: full[s] (1 arrival: the own producer's arrive.expect_tx of the whole
 * stage, then the bytes of every load into this block, its own and its cluster peers'
 * multicasts, complete it) and empty[s] (one arrival per mma warp of every block that receives
 * this block's loads: the blocks of its cluster row, which get its slice of A, and of its
 * column, which get its slice of B; itself included). Use j of stage s is iteration
 * kt = j * STAGES + s: consumers wait full[s] for parity j & 1, producers wait empty[s] for
 * parity (j - 1) & 1 before refilling. A block's loads reach a peer only after every receiver
 * released the stage, so no barrier ever sees arrivals of two uses mixed. */
#ifndef CK_ORAND_TMA_CUH
#define CK_ORAND_TMA_CUH

#include <cuda.h> /* CUtensorMap (the type only: the encoding is looked up at run time) */

#include "orand.cuh"

#define OA_TMA_ROW 64 /* bytes of one row of A (or column of B) in a stage: OA_MMA_KW words */
#define OA_TMA_A_BYTES (OA_MMA_BM * OA_TMA_ROW)
#define OA_TMA_STAGE_BYTES ((OA_MMA_BM + OA_MMA_BN) * OA_TMA_ROW)
#define OA_TMA_BARS (OA_TMA_STAGES * OA_TMA_STAGE_BYTES) /* the barriers, after the stages */
#define OA_TMA_SMEM (OA_TMA_BARS + 2 * 8 * OA_TMA_STAGES + 1024) /* + the alignment slack */
#define OA_TMA_CPITCH (OA_MMA_BM + 16) /* the epilogue's byte tile, as variant 0's */

static_assert(OA_MMA_KW * 4 == OA_TMA_ROW, "a stage row is one 64-byte swizzle span");
static_assert(OA_TMA_STAGE_BYTES % 1024 == 0, "stages keep the 1024-byte alignment");
static_assert(OA_MMA_BN * OA_TMA_CPITCH <= OA_TMA_BARS, "the epilogue reuses the stages");
static_assert(OA_TMA_WARPS * 32 == 256, "the epilogue and the warp tiles assume 8 mma warps");

/* The TMA kernels' common signature (orand_mma_tma.cu launches both kinds). */
typedef void (*oa_tma_kernel_t)(const CUtensorMap, const CUtensorMap, oa_packed, uint8_t *, size_t,
                                int, unsigned *);
/* orand_mma_wgmma.cu: its kernel for a cluster shape (NULL: none such), and whether this
 * build's device code for the current GPU is sm_90a code (arch=compute_90a), which alone has
 * wgmma and the multicast loads. */
oa_tma_kernel_t oa_wgmma_kernel(int cm, int cn);
int oa_sm90a_built(void);
/* orand_mma_tma.cu: the tensor map of rows x kw words at base (row-major, pitch kw), read in
 * boxes of box_rows x OA_MMA_KW words with the 64-byte swizzle of the stage layout. */
ck_status oa_tensor_map(CUtensorMap *map, const uint32_t *base, size_t rows, size_t kw,
                        unsigned box_rows);

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define OA_TMA_COMPILED 1
/* The multicast loads are compiled for sm_90a only: ptxas warns that elsewhere (the package's
 * compute_90 PTX, also run on later GPUs) they may be much slower. Without them only the
 * variants without clusters are built; the others run as variant 0. */
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define OA_TMA_MULTICAST 1
#endif

__device__ __forceinline__ unsigned oa_cluster_rank() {
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
}
__device__ __forceinline__ void oa_cluster_sync() {
  asm volatile("barrier.cluster.arrive;\nbarrier.cluster.wait;\n" ::: "memory");
}

__device__ __forceinline__ void oa_bar_init(unsigned bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void oa_bar_expect(unsigned bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes)
               : "memory");
}
/* The watchdog's counter (*fault, never reset) and its value when the thread started (f0). */
struct oa_watch {
  unsigned *fault;
  unsigned f0;
};
/* Waits for the phase of parity `par` of barrier `bar` to complete; CLUSTER: acquire at cluster
 * scope (the empty barriers, which remote blocks' consumers arrive on). The watchdog: a wait of
 * over OA_TMA_WATCHDOG_NS counts a fault and returns, and so does any wait once the counter
 * moved during the kernel, so a pipeline bug gives a wrong result and a count (read by
 * ck_orand_variant_fault) instead of a hung GPU. All in one asm block, loop included: written
 * as a C loop, ptxas serializes the wgmma kernel's pipeline (warning C7514), control flow
 * between a wgmma and its wait_group being more than it follows. */
#define OA_BAR_WAIT_ASM(SEM)                                        \
  "{\n.reg .pred P1;\n.reg .b32 spin, f;\n.reg .b64 t0, t1;\n"      \
  "mbarrier.try_wait.parity" SEM ".shared::cta.b64 P1, [%0], %1;\n" \
  "@P1 bra OA_DONE;\n"                                              \
  "mov.u64 t0, %%globaltimer;\n"                                    \
  "mov.u32 spin, 0;\n"                                              \
  "OA_LOOP:\n"                                                      \
  "mbarrier.try_wait.parity" SEM ".shared::cta.b64 P1, [%0], %1;\n" \
  "@P1 bra OA_DONE;\n"                                              \
  "add.u32 spin, spin, 1;\n"                                        \
  "and.b32 f, spin, 63;\n"                                          \
  "setp.ne.u32 P1, f, 0;\n"                                         \
  "@P1 bra OA_LOOP;\n"                                              \
  "ld.volatile.u32 f, [%2];\n"                                      \
  "setp.ne.u32 P1, f, %3;\n"                                        \
  "@P1 bra OA_DONE;\n"                                              \
  "mov.u64 t1, %%globaltimer;\n"                                    \
  "sub.u64 t1, t1, t0;\n"                                           \
  "setp.lt.u64 P1, t1, %4;\n"                                       \
  "@P1 bra OA_LOOP;\n"                                              \
  "red.add.u32 [%2], 1;\n"                                          \
  "OA_DONE:\n}\n"
template <bool CLUSTER>
__device__ __forceinline__ void oa_bar_wait(unsigned bar, unsigned par, const oa_watch &w) {
  if (CLUSTER)
    asm volatile(OA_BAR_WAIT_ASM(".acquire.cluster")::"r"(bar), "r"(par), "l"(w.fault), "r"(w.f0),
                 "l"(OA_TMA_WATCHDOG_NS)
                 : "memory");
  else
    asm volatile(OA_BAR_WAIT_ASM("")::"r"(bar), "r"(par), "l"(w.fault), "r"(w.f0),
                 "l"(OA_TMA_WATCHDOG_NS)
                 : "memory");
}
#undef OA_BAR_WAIT_ASM

/* Arrives on the barrier at the same offset in block `rank` of the cluster (itself included). */
__device__ __forceinline__ void oa_bar_arrive_at(unsigned bar, unsigned rank) {
  asm volatile("{\n.reg .b32 r;\nmapa.shared::cluster.u32 r, %0, %1;\n"
               "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [r];\n}\n" ::"r"(bar),
               "r"(rank)
               : "memory");
}
__device__ __forceinline__ void oa_bar_arrive(unsigned bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}

/* The box at (c0 words, c1 rows) of `map` into this block's shared memory at dst, completing
 * on bar; _mc: the same into every block of `mask` (same offsets, each on its own bar). */
__device__ __forceinline__ void oa_tma_load(unsigned dst, const CUtensorMap *map, int c0, int c1,
                                            unsigned bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(dst),
               "l"(map), "r"(c0), "r"(c1), "r"(bar)
               : "memory");
}
__device__ __forceinline__ void oa_tma_load_mc(unsigned dst, const CUtensorMap *map, int c0, int c1,
                                               unsigned bar, unsigned short mask) {
#ifdef OA_TMA_MULTICAST
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
               ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(dst),
               "l"(map), "r"(c0), "r"(c1), "r"(bar), "h"(mask)
               : "memory");
#else
  __trap(); /* never launched: oa_tma_available */
#endif
}
__device__ __forceinline__ void oa_tma_prefetch_map(const CUtensorMap *map) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(map) : "memory");
}

/* The block's tile: cluster `cl` takes super-tile (CM x CN tiles) number cl in grouped order
 * (as oa_tile_of, OA_MMA_GROUP_M tile rows a group), and its block `rank` = rm * CN + cn the
 * tile (rm, cn) of it. The padding makes tiles_m and tiles_n multiples of CM and CN. */
template <int CM, int CN>
__device__ __forceinline__ void oa_cluster_tile(size_t cl, unsigned rank, size_t tiles_m,
                                                size_t tiles_n, size_t &tm, size_t &tn) {
  const size_t sm = tiles_m / CM, sn = tiles_n / CN;
  const size_t G = OA_MMA_GROUP_M / CM > 0 ? OA_MMA_GROUP_M / CM : 1;
  size_t group, in_group, stm, stn;
  split_index(cl, G * sn, group, in_group);
  const size_t first = group * G, rows = sm - first < G ? sm - first : G;
  split_index(in_group, rows, stn, stm);
  tm = (first + stm) * CM + rank / CN;
  tn = stn * CN + rank % CN;
}

/* The blocks that receive this block's loads (and so arrive on its empty barriers): its
 * cluster row (A) and column (B). */
template <int CM, int CN> __device__ __forceinline__ unsigned oa_peers(unsigned rank) {
  unsigned mask = 0;
#pragma unroll
  for (int r = 0; r < CM * CN; r++)
    if (r / CN == (int)(rank / CN) || r % CN == (int)(rank % CN)) mask |= 1u << r;
  return mask;
}

/* Sets up the barriers (thread 0) and makes them visible to the cluster before any load or
 * remote arrival: every thread of every block of the cluster calls it. */
template <int CM, int CN> __device__ __forceinline__ void oa_tma_setup(unsigned bars) {
  if (threadIdx.x == 0) {
    const unsigned receivers = __popc(oa_peers<CM, CN>(oa_cluster_rank()));
    for (int s = 0; s < OA_TMA_STAGES; s++) {
      oa_bar_init(bars + 8 * s, 1);
      oa_bar_init(bars + 8 * (OA_TMA_STAGES + s), OA_TMA_WARPS * receivers);
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  if (CM * CN > 1) oa_cluster_sync();
  else __syncthreads();
}

/* What both TMA kernels (orand_mma_tma.cu, orand_mma_wgmma.cu) know from their start: the
 * shared memory aligned for the 64-byte swizzle and its barriers after the stages, the watchdog,
 * the thread's place, the block's tile and the stages of k; with the barriers made. */
struct oa_tma_block {
  unsigned base, bars;
  unsigned char *smem;
  oa_watch watch;
  unsigned lane, warp, rank;
  size_t tm, tn, kt_count;
};
template <int CM, int CN>
__device__ __forceinline__ oa_tma_block oa_tma_begin(unsigned char *smem_raw, const oa_packed &q,
                                                     size_t cluster0, unsigned *fault) {
  oa_tma_block b;
  const unsigned raw = (unsigned)__cvta_generic_to_shared(smem_raw);
  b.base = (raw + 1023) & ~1023u;
  b.bars = b.base + OA_TMA_BARS;
  b.smem = smem_raw + (b.base - raw);
  b.watch = {fault, *(volatile unsigned *)fault};
  b.lane = threadIdx.x & 31;
  b.warp = threadIdx.x >> 5;
  b.rank = CM * CN > 1 ? oa_cluster_rank() : 0;
  oa_cluster_tile<CM, CN>(cluster0 + blockIdx.x / (CM * CN), b.rank, q.m_pad / OA_MMA_BM,
                          q.n_pad / OA_MMA_BN, b.tm, b.tn);
  b.kt_count = q.kw / OA_MMA_KW;
  oa_tma_setup<CM, CN>(b.bars);
  return b;
}

/* The producer warp: every stage's loads, issued by its lane 0 (leader); all its lanes wait, so
 * that the warp never diverges for long (it meets the others at the final cluster barrier).
 * This block (rm, cn) loads rows [cn, cn + 1) * BM / CN of its tile's A for its cluster row,
 * and columns [rm, rm + 1) * BN / CM of its tile's B for its cluster column (the tensor maps'
 * boxes are those slices). */
template <int CM, int CN>
__device__ __forceinline__ void oa_produce(const CUtensorMap *tmA, const CUtensorMap *tmB,
                                           unsigned stages, unsigned bars, size_t tm, size_t tn,
                                           size_t kt_count, const oa_watch &watch, bool leader) {
  const unsigned rank = CM * CN > 1 ? oa_cluster_rank() : 0, rm = rank / CN, cn = rank % CN;
  const int arow = (int)(tm * OA_MMA_BM + cn * (OA_MMA_BM / CN));
  const int brow = (int)(tn * OA_MMA_BN + rm * (OA_MMA_BN / CM));
  const unsigned a_dst = cn * (OA_MMA_BM / CN) * OA_TMA_ROW;
  const unsigned b_dst = OA_TMA_A_BYTES + rm * (OA_MMA_BN / CM) * OA_TMA_ROW;
  const unsigned short a_mask = (unsigned short)(((1u << CN) - 1) << (rm * CN));
  unsigned short b_mask = 0;
#pragma unroll
  for (int r = 0; r < CM; r++) b_mask |= (unsigned short)(1u << (r * CN + cn));
  if (leader) {
    oa_tma_prefetch_map(tmA);
    oa_tma_prefetch_map(tmB);
  }
  for (size_t kt = 0; kt < kt_count; kt++) {
    const unsigned s = (unsigned)(kt % OA_TMA_STAGES);
    const unsigned full = bars + 8 * s, empty = bars + 8 * (OA_TMA_STAGES + s);
    if (kt >= OA_TMA_STAGES)
      oa_bar_wait<true>(empty, (unsigned)((kt / OA_TMA_STAGES - 1) & 1), watch);
    if (leader) {
      oa_bar_expect(full, OA_TMA_STAGE_BYTES);
      const unsigned stage = stages + s * OA_TMA_STAGE_BYTES;
      const int w = (int)(kt * OA_MMA_KW);
      if (CN > 1) oa_tma_load_mc(stage + a_dst, tmA, w, arow, full, a_mask);
      else oa_tma_load(stage + a_dst, tmA, w, arow, full);
      if (CM > 1) oa_tma_load_mc(stage + b_dst, tmB, w, brow, full, b_mask);
      else oa_tma_load(stage + b_dst, tmB, w, brow, full);
    }
    __syncwarp();
  }
}

/* A consumer warp is done reading stage s: one arrival on the empty[s] of each block that
 * loads into this one (lane r signals block r). */
template <int CM, int CN>
__device__ __forceinline__ void oa_release(unsigned empty, unsigned lane, unsigned peers) {
  __syncwarp();
  if (CM * CN == 1) {
    if (lane == 0) oa_bar_arrive(empty);
  } else if (lane < CM * CN && ((peers >> lane) & 1)) {
    oa_bar_arrive_at(empty, lane);
  }
}

/* The consumers' named barrier (the producer warp is not in it). */
__device__ __forceinline__ void oa_consumers_sync() {
  asm volatile("bar.sync 1, %0;\n" ::"n"(OA_TMA_WARPS * 32) : "memory");
}

/* The byte tile (column-major, pitch OA_TMA_CPITCH, in shared memory at tile) out to C, by the
 * consumer threads, as variant 0 does. */
__device__ __forceinline__ void oa_store_tile(const unsigned char *tile, const oa_packed &q,
                                              uint8_t *__restrict__ C, size_t tm, size_t tn,
                                              int wide_c) {
  const size_t i0 = tm * OA_MMA_BM, j0 = tn * OA_MMA_BN;
  const unsigned nt = OA_TMA_WARPS * 32;
  if (wide_c) {
#pragma unroll
    for (unsigned s = 0; s < OA_MMA_BN * OA_MMA_BM / 16 / nt; s++) {
      const unsigned idx = threadIdx.x + s * nt;
      const unsigned col = idx / (OA_MMA_BM / 16), row = (idx % (OA_MMA_BM / 16)) * 16;
      const size_t i = i0 + row, j = j0 + col;
      if (i < q.m && j < q.n)
        *(uint4 *)(C + j * q.m + i) = *(const uint4 *)(tile + col * OA_TMA_CPITCH + row);
    }
  } else {
    for (unsigned idx = threadIdx.x; idx < OA_MMA_BN * OA_MMA_BM; idx += nt) {
      const unsigned col = idx / OA_MMA_BM, row = idx % OA_MMA_BM;
      const size_t i = i0 + row, j = j0 + col;
      if (i < q.m && j < q.n) C[j * q.m + i] = tile[col * OA_TMA_CPITCH + row];
    }
  }
}
#endif /* OA_TMA_COMPILED */

#endif
