/* The closure's tensor product (closure.cuh's cl_product): or.and on
 * wgmma.mma_async.m64n128k256.s32.b1.b1.and.popc (orand_wgmma.cuh), fed through TMA and
 * mbarriers as orand_mma_wgmma.cu's kernel is (orand_tma.cuh: the stage layout, the barriers and
 * their watchdog), with two differences that the closure's short k asks for:
 * - persistent: a block per SM loops over the tiles (tile t, t + grid, ...), and the producer
 *   warp runs ahead of the consumers across tile boundaries through the stage ring, so that the
 *   next tiles' operands load while this tile's epilogue runs. k is only CL_BLOCK bits (2 stages
 *   of 512 at 1024), so a block a tile would spend most of its life starting and draining.
 * - a bit epilogue, no shared memory: the accumulator layout gives each lane (g = lane / 4,
 *   t = lane % 4), per row, 2 bits of each 8-column group; a lane makes its part of each of the
 *   row's 4 words (128 columns), three shuffles across the 4 lanes t OR the parts so that lane t
 *   holds word t, and lane t writes it: old | new where accumulating, only if that changes it.
 *   The old words of the next tile are loaded at the start of this one, so that their latency
 *   (HBM, at large n) hides behind this tile's mma.
 * The tile is 256 x 128 outputs (two warpgroups of 128 x 128, as orand_mma_wgmma.cu's), its
 * rows A's rows, its columns B's rows. */
#include "closure.cuh"
#include "orand_wgmma.cuh"

#define CL_TM OA_MMA_BM /* tile rows */
#define CL_TN OA_MMA_BN /* tile columns */

struct cl_mma_args {
  uint32_t *C;
  size_t ldc, tiles_m, tiles_n;
  int a_word0, kt_count, accumulate;
};

#ifdef OA_WGMMA_COMPILED
/* The tile of index t: along the rows of C, so that consecutive tiles of a block share A's rows
 * and the words a block writes are close together. */
__device__ __forceinline__ void cl_tile_of(size_t t, const cl_mma_args &g, size_t &tm, size_t &tn) {
  split_index(t, g.tiles_n, tm, tn);
}

/* The word that lane t of the quad writes for accumulator i, row half h of the tile (tm, tn). */
__device__ __forceinline__ uint32_t *cl_word_at(const cl_mma_args &g, size_t tm, size_t tn,
                                                unsigned wg, unsigned wv, unsigned lane, int i,
                                                int h) {
  const size_t row = tm * CL_TM + 128 * wg + 64 * i + 16 * wv + (lane >> 2) + 8 * h;
  return g.C + row * g.ldc + tn * (CL_TN / 32) + (lane & 3);
}

/* The 4 words (128 columns) of row half h of accumulator d, ORed across the quad: lane t gets
 * word t. A lane holds columns 8q + 2t + e (q 0..15, e 0..1) in registers 4q + 2h + e. */
__device__ __forceinline__ uint32_t cl_row_word(const int (&d)[64], int h, unsigned t) {
  uint32_t v[4];
#pragma unroll
  for (int w = 0; w < 4; w++) {
    uint32_t x = 0;
#pragma unroll
    for (int q = 0; q < 4; q++)
#pragma unroll
      for (int e = 0; e < 2; e++)
        x |= (uint32_t)(d[4 * (4 * w + q) + 2 * h + e] > 0) << (8 * q + e);
    v[w] = x << (2 * t);
  }
  /* lanes t, t^1 swap the words of the other parity, then t, t^2 the other half */
  const unsigned odd = t & 1, high = (t >> 1) & 1;
  uint32_t u[2];
#pragma unroll
  for (int m = 0; m < 2; m++) {
    const uint32_t keep = odd ? v[2 * m + 1] : v[2 * m], send = odd ? v[2 * m] : v[2 * m + 1];
    u[m] = keep | __shfl_xor_sync(0xffffffffu, send, 1);
  }
  const uint32_t keep = high ? u[1] : u[0], send = high ? u[0] : u[1];
  return keep | __shfl_xor_sync(0xffffffffu, send, 2);
}
#endif

__global__ void __launch_bounds__(OA_TMA_THREADS, 1)
    cl_mma_kernel(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB,
                  cl_mma_args g, unsigned *fault) {
#ifdef OA_WGMMA_COMPILED
  extern __shared__ unsigned char smem_raw[];
  const unsigned raw = (unsigned)__cvta_generic_to_shared(smem_raw);
  const unsigned base = (raw + 1023) & ~1023u, bars = base + OA_TMA_BARS;
  const oa_watch watch = {fault, *(volatile unsigned *)fault};
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const size_t tiles = g.tiles_m * g.tiles_n;
  oa_tma_setup<1, 1>(bars);

  if (warp == OA_TMA_WARPS) { /* the producer: every stage of every tile of this block */
    if (lane == 0) {
      oa_tma_prefetch_map(&tmA);
      oa_tma_prefetch_map(&tmB);
    }
    size_t use = 0; /* stages filled so far, across tiles */
    for (size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
      size_t tm, tn;
      cl_tile_of(t, g, tm, tn);
      for (int kt = 0; kt < g.kt_count; kt++, use++) {
        const unsigned s = (unsigned)(use % OA_TMA_STAGES);
        const unsigned full = bars + 8 * s, empty = bars + 8 * (OA_TMA_STAGES + s);
        if (use >= OA_TMA_STAGES)
          oa_bar_wait<false>(empty, (unsigned)((use / OA_TMA_STAGES - 1) & 1), watch);
        if (lane == 0) {
          const unsigned stage = base + s * OA_TMA_STAGE_BYTES;
          oa_bar_expect(full, OA_TMA_STAGE_BYTES);
          oa_tma_load(stage, &tmA, g.a_word0 + kt * OA_MMA_KW, (int)(tm * CL_TM), full);
          oa_tma_load(stage + OA_TMA_A_BYTES, &tmB, kt * OA_MMA_KW, (int)(tn * CL_TN), full);
        }
        __syncwarp();
      }
    }
  } else { /* two warpgroups of 128 x 128 */
    const unsigned wg = warp >> 2, wv = warp & 3, t4 = lane & 3;
    uint32_t old[2][2] = {{0, 0}, {0, 0}}, next[2][2] = {{0, 0}, {0, 0}};
    if (g.accumulate && blockIdx.x < tiles) {
      size_t tm, tn;
      cl_tile_of(blockIdx.x, g, tm, tn);
#pragma unroll
      for (int i = 0; i < 2; i++)
#pragma unroll
        for (int h = 0; h < 2; h++) next[i][h] = *cl_word_at(g, tm, tn, wg, wv, lane, i, h);
    }
    size_t use = 0;
    for (size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
      size_t tm, tn;
      cl_tile_of(t, g, tm, tn);
#pragma unroll
      for (int i = 0; i < 2; i++)
#pragma unroll
        for (int h = 0; h < 2; h++) old[i][h] = next[i][h];
      if (g.accumulate && t + gridDim.x < tiles) { /* the next tile's old words, early */
        size_t um, un;
        cl_tile_of(t + gridDim.x, g, um, un);
#pragma unroll
        for (int i = 0; i < 2; i++)
#pragma unroll
          for (int h = 0; h < 2; h++) next[i][h] = *cl_word_at(g, um, un, wg, wv, lane, i, h);
      }
      int acc[2][64];
      oa_wg_zero(acc);
      for (int kt = 0; kt < g.kt_count; kt++, use++) {
        const unsigned s = (unsigned)(use % OA_TMA_STAGES);
        oa_bar_wait<false>(bars + 8 * s, (unsigned)((use / OA_TMA_STAGES) & 1), watch);
        const unsigned stage = base + s * OA_TMA_STAGE_BYTES;
        oa_wg_stage(acc, stage, wg);
        oa_wg_wait<1>(); /* the stage before is read: release it */
        if (kt > 0)
          oa_release<1, 1>(bars + 8 * (OA_TMA_STAGES + (use - 1) % OA_TMA_STAGES), lane, 1);
      }
      oa_wg_wait<0>();
      oa_release<1, 1>(bars + 8 * (OA_TMA_STAGES + (use - 1) % OA_TMA_STAGES), lane, 1);
#pragma unroll
      for (int i = 0; i < 2; i++)
#pragma unroll
        for (int h = 0; h < 2; h++) {
          const uint32_t word = cl_row_word(acc[i], h, t4);
          uint32_t *at = cl_word_at(g, tm, tn, wg, wv, lane, i, h);
          if (!g.accumulate) *at = word;
          else if ((word | old[i][h]) != old[i][h]) *at = word | old[i][h];
        }
    }
  }
#endif
}

/* ---- host side ---- */

/* The TMA kernels' watchdog counter (orand_mma_tma.cu) is file-local there: this kernel keeps its
 * own. */
__device__ unsigned cl_mma_fault_count;

int cl_mma_available(void) {
  static signed char known[CK_MAX_DEVICES]; /* 0 not asked, 1 no, 2 yes */
  const int dev = ck_device_current();
  if (dev < 0 || dev >= CK_MAX_DEVICES) return 0;
  if (!known[dev]) {
    int major = 0;
    cudaFuncAttributes fa;
    /* oa_tma_available: Hopper or later, sm_90a code in this build, the encoder */
    const bool ok = oa_tma_available(OA_KIND_WGMMA, 1, 1) &&
                    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) == 0 &&
                    major == 9 && cudaFuncGetAttributes(&fa, cl_mma_kernel) == 0 &&
                    fa.binaryVersion >= 90 &&
                    cudaFuncSetAttribute(cl_mma_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         OA_TMA_SMEM) == 0;
    (void)cudaGetLastError();
    known[dev] = ok ? 2 : 1;
  }
  return known[dev] == 2;
}

ck_status cl_run_mma(const cl_product &p) {
  if (p.rows % CL_TM || p.cols % CL_TN || p.kw % OA_MMA_KW || p.a0 % OA_MMA_KW)
    return ck_fail(CK_ERR_INVALID,
                   "closure: a product of %zu x %zu bits, %zu words, is off the tile", p.rows,
                   p.cols, p.kw);
  CUtensorMap tmA, tmB;
  CK_TRY(oa_tensor_map(&tmA, p.A, p.a_rows, p.lda, CL_TM));
  CK_TRY(oa_tensor_map(&tmB, p.B, p.b_rows, p.ldb, CL_TN));
  CK_CUDA(cudaFuncSetAttribute(cl_mma_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               OA_TMA_SMEM),
          "allowing the closure's tensor kernel its shared memory");
  unsigned *fault = NULL;
  CK_CUDA(cudaGetSymbolAddress((void **)&fault, cl_mma_fault_count),
          "finding the closure's watchdog counter");
  int sms = 0;
  CK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, ck_device_current()),
          "asking the number of SMs");
  cl_mma_args g;
  g.C = p.C;
  g.ldc = p.ldc;
  g.tiles_m = p.rows / CL_TM;
  g.tiles_n = p.cols / CL_TN;
  g.a_word0 = (int)p.a0;
  g.kt_count = (int)(p.kw / OA_MMA_KW);
  g.accumulate = p.accumulate;
  const size_t tiles = g.tiles_m * g.tiles_n;
  const unsigned grid = (unsigned)(tiles < (size_t)sms ? tiles : (size_t)sms);
  cl_mma_kernel<<<grid, OA_TMA_THREADS, OA_TMA_SMEM>>>(tmA, tmB, g, fault);
  CK_CUDA(cudaGetLastError(), "launching the closure's tensor kernel");
  return CK_OK;
}

extern "C" int ck_closure_fault(void) {
  unsigned now = 0;
  static unsigned seen;
  if (cudaDeviceSynchronize() != cudaSuccess ||
      cudaMemcpyFromSymbol(&now, cl_mma_fault_count, sizeof now) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  const int fired = now != seen;
  seen = now;
  return fired;
}
