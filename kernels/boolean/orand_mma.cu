/* The tensor path: C(i,j) = (popc over k of Abits(i,:) & Bbits(j,:)) > 0, the counts made by
 * mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc (sm_80 and later; the kernel is
 * compiled away below that, and the host code never launches it there: oa_mma_available).
 *
 * Block tile OA_MMA_BM x OA_MMA_BN outputs (256 x 128), 8 warps of 64 x 64 (4 x 2), each warp
 * 4 x 8 mma tiles of 16 x 8 with 4 s32 counters a lane each: 128 counters a thread. k advances
 * OA_MMA_KW words (512 bits) a stage through an OA_MMA_STAGES-deep cp.async pipeline; each stage
 * is two mma k-steps of 256 bits.
 *
 * Fragments (PTX ISA, "Matrix Fragments for mma.m16n8k256"; groupID g = lane / 4, t = lane % 4):
 *   A, 16 x 256 bits row-major: a0 = row g, bits 32t .. 32t+31; a1 = row g+8, same bits;
 *       a2 = row g, bits 128 + 32t ..; a3 = row g+8, bits 128 + 32t ..
 *   B, 256 x 8 bits column-major: b0 = column g, bits 32t ..; b1 = column g, bits 128 + 32t ..
 *   C/D s32: c0, c1 = row g, columns 2t, 2t+1; c2, c3 = row g+8, same columns.
 * Bit q of a fragment register is element q of its 32: k = 32t + q (+128), which is bit q of
 * packed word t (+4) of the 128-bit chunk, so a register is simply a packed word. Viewed as b16,
 * a 128-bit chunk of one row is one row of an 8x8 ldmatrix matrix, and lane l receives word l % 4
 * of row l / 4: ldmatrix.x4 over (rows 0-7, chunk 0), (rows 8-15, chunk 0), (rows 0-7, chunk 1),
 * (rows 8-15, chunk 1) is exactly a0..a3, and over (columns 0-7, chunks 0 and 1), (columns 8-15,
 * chunks 0 and 1) it is b0, b1 of two neighbouring n-tiles.
 *
 * Shared memory: a stage holds the tile's rows of A and columns of B, 64 bytes (four 16-byte
 * chunks) each. Chunk c of row r is stored at chunk c ^ ((r / 2) % 4) of that row: ldmatrix
 * reads one chunk of 8 consecutive rows at a time, and with a 64-byte row pitch rows r and r+2
 * would share banks; the XOR gives the 8 rows 8 distinct 16-byte bank groups (two rows share a
 * 128-byte line, and the four pairs get four different chunk positions). The cp.async stores
 * (8 lanes = 2 rows x 4 chunks per phase) are conflict-free under the same map.
 *
 * Epilogue: the counts become bytes in shared memory, column-major with pitch BM + 16 (the
 * byte stores of a warp then touch 8 distinct banks per word group), and leave as 16-byte
 * stores down the columns of C where m allows, else as coalesced bytes. */
#include "orand.cuh"

#define OA_MMA_WARPS_M (OA_MMA_BM / OA_MMA_WM)
#define OA_MMA_MT (OA_MMA_WM / 16) /* mma tiles per warp along m */
#define OA_MMA_NT (OA_MMA_WN / 8)  /* ... along n */
#define OA_MMA_ROW_BYTES (OA_MMA_KW * 4)
#define OA_MMA_A_BYTES (OA_MMA_BM * OA_MMA_ROW_BYTES)
#define OA_MMA_STAGE_BYTES ((OA_MMA_BM + OA_MMA_BN) * OA_MMA_ROW_BYTES)
#define OA_MMA_SMEM (OA_MMA_STAGES * OA_MMA_STAGE_BYTES)
#define OA_MMA_CPITCH (OA_MMA_BM + 16)

static_assert(OA_MMA_KW == 16, "the swizzle and the loads assume 4 chunks of 16 bytes a row");
static_assert(OA_MMA_WN % 16 == 0, "B fragments are loaded two n-tiles at a time");
static_assert(OA_MMA_BN * OA_MMA_CPITCH <= OA_MMA_SMEM, "the epilogue reuses the stages");

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define OA_MMA_COMPILED 1
#endif

#ifdef OA_MMA_COMPILED
/* The byte offset of chunk c of row r within a stage's A or B part. */
__device__ __forceinline__ unsigned oa_swz(unsigned r, unsigned c) {
  return r * OA_MMA_ROW_BYTES + ((c ^ ((r >> 1) & 3)) << 4);
}

__device__ __forceinline__ void oa_cp16(unsigned dst, const void *src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src));
}
__device__ __forceinline__ void oa_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void oa_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

__device__ __forceinline__ void oa_ldmatrix4(unsigned (&r)[4], unsigned addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}

__device__ __forceinline__ void oa_mma(int (&d)[4], const unsigned (&a)[4], unsigned b0,
                                       unsigned b1) {
  asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

/* Stage kt of the tile's rows of A and columns of B into shared memory at `stage`. */
__device__ __forceinline__ void oa_load_stage(unsigned stage, const uint32_t *a, const uint32_t *b,
                                              size_t kw, size_t kt) {
  const size_t w0 = kt * OA_MMA_KW;
#pragma unroll
  for (int q = 0; q < OA_MMA_BM * 4 / OA_MMA_THREADS; q++) {
    const unsigned idx = threadIdx.x + q * OA_MMA_THREADS, r = idx >> 2, c = idx & 3;
    oa_cp16(stage + oa_swz(r, c), a + r * kw + w0 + 4 * c);
  }
#pragma unroll
  for (int q = 0; q < OA_MMA_BN * 4 / OA_MMA_THREADS; q++) {
    const unsigned idx = threadIdx.x + q * OA_MMA_THREADS, r = idx >> 2, c = idx & 3;
    oa_cp16(stage + OA_MMA_A_BYTES + oa_swz(r, c), b + r * kw + w0 + 4 * c);
  }
}
#endif

/* Tile t (of tiles_m x tiles_n) in grouped order: OA_MMA_GROUP_M tile rows at a time, down the
 * rows first, so that the blocks resident together share their rows of A and columns of B. */
__device__ __forceinline__ void oa_tile_of(size_t t, size_t tiles_m, size_t tiles_n, size_t &tm,
                                           size_t &tn) {
  const size_t per_group = (size_t)OA_MMA_GROUP_M * tiles_n;
  size_t group, in_group;
  split_index(t, per_group, group, in_group);
  const size_t first = group * OA_MMA_GROUP_M;
  const size_t rows = tiles_m - first < OA_MMA_GROUP_M ? tiles_m - first : OA_MMA_GROUP_M;
  split_index(in_group, rows, tn, tm);
  tm += first;
}

__global__ void __launch_bounds__(OA_MMA_THREADS, 1)
    oa_mma_kernel(oa_packed q, uint8_t *__restrict__ C, size_t tile0, int wide_c) {
#ifdef OA_MMA_COMPILED
  extern __shared__ __align__(128) unsigned char smem[];
  const unsigned base = (unsigned)__cvta_generic_to_shared(smem);
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned warp_m = warp % OA_MMA_WARPS_M, warp_n = warp / OA_MMA_WARPS_M;
  size_t tm, tn;
  oa_tile_of(tile0 + blockIdx.x, q.m_pad / OA_MMA_BM, q.n_pad / OA_MMA_BN, tm, tn);
  const uint32_t *a = q.A + tm * OA_MMA_BM * q.kw, *b = q.B + tn * OA_MMA_BN * q.kw;
  const size_t kt_count = q.kw / OA_MMA_KW;

  /* Each lane's ldmatrix row and chunk (see the top of the file); the XOR depends only on the
   * row within a 16-row group, since the groups start at multiples of 16. */
  const unsigned ra = lane & 15, ca = lane >> 4;
  const unsigned rb = (lane & 7) + ((lane >> 4) << 3), cb = (lane >> 3) & 1;
  unsigned a_off[2], b_off[2]; /* per 256-bit half of a stage */
#pragma unroll
  for (int h = 0; h < 2; h++) {
    a_off[h] = oa_swz(warp_m * OA_MMA_WM + ra, 2 * h + ca);
    b_off[h] = OA_MMA_A_BYTES + oa_swz(warp_n * OA_MMA_WN + rb, 2 * h + cb);
  }

  int acc[OA_MMA_MT][OA_MMA_NT][4];
#pragma unroll
  for (int i = 0; i < OA_MMA_MT; i++)
#pragma unroll
    for (int j = 0; j < OA_MMA_NT; j++)
#pragma unroll
      for (int r = 0; r < 4; r++) acc[i][j][r] = 0;

#pragma unroll
  for (int s = 0; s < OA_MMA_STAGES - 1; s++) {
    if ((size_t)s < kt_count) oa_load_stage(base + s * OA_MMA_STAGE_BYTES, a, b, q.kw, s);
    oa_commit();
  }
  for (size_t kt = 0; kt < kt_count; kt++) {
    oa_wait<OA_MMA_STAGES - 2>();
    __syncthreads(); /* stage kt is in; everyone is done with stage kt - 1, which is refilled */
    const size_t next = kt + OA_MMA_STAGES - 1;
    if (next < kt_count)
      oa_load_stage(base + (unsigned)(next % OA_MMA_STAGES) * OA_MMA_STAGE_BYTES, a, b, q.kw, next);
    oa_commit();
    const unsigned stage = base + (unsigned)(kt % OA_MMA_STAGES) * OA_MMA_STAGE_BYTES;
#pragma unroll
    for (int h = 0; h < 2; h++) {
      unsigned fa[OA_MMA_MT][4], fb[OA_MMA_NT / 2][4];
#pragma unroll
      for (int i = 0; i < OA_MMA_MT; i++)
        oa_ldmatrix4(fa[i], stage + a_off[h] + i * 16 * OA_MMA_ROW_BYTES);
#pragma unroll
      for (int j = 0; j < OA_MMA_NT / 2; j++)
        oa_ldmatrix4(fb[j], stage + b_off[h] + j * 16 * OA_MMA_ROW_BYTES);
#pragma unroll
      for (int i = 0; i < OA_MMA_MT; i++)
#pragma unroll
        for (int j = 0; j < OA_MMA_NT; j++)
          oa_mma(acc[i][j], fa[i], fb[j / 2][2 * (j & 1)], fb[j / 2][2 * (j & 1) + 1]);
    }
  }
  oa_wait<0>();
  __syncthreads(); /* the stages are free: the epilogue's byte tile goes over them */

  const unsigned g = lane >> 2, t = lane & 3;
#pragma unroll
  for (int i = 0; i < OA_MMA_MT; i++)
#pragma unroll
    for (int j = 0; j < OA_MMA_NT; j++) {
      const unsigned row = warp_m * OA_MMA_WM + i * 16 + g;
      const unsigned col = warp_n * OA_MMA_WN + j * 8 + 2 * t;
      smem[col * OA_MMA_CPITCH + row] = acc[i][j][0] > 0;
      smem[(col + 1) * OA_MMA_CPITCH + row] = acc[i][j][1] > 0;
      smem[col * OA_MMA_CPITCH + row + 8] = acc[i][j][2] > 0;
      smem[(col + 1) * OA_MMA_CPITCH + row + 8] = acc[i][j][3] > 0;
    }
  __syncthreads();
  const size_t i0 = tm * OA_MMA_BM, j0 = tn * OA_MMA_BN;
  if (wide_c) { /* m % 16 == 0: a 16-byte piece of a column is all in or all out */
#pragma unroll
    for (int s = 0; s < OA_MMA_BN * OA_MMA_BM / 16 / OA_MMA_THREADS; s++) {
      const unsigned idx = threadIdx.x + s * OA_MMA_THREADS;
      const unsigned col = idx / (OA_MMA_BM / 16), row = (idx % (OA_MMA_BM / 16)) * 16;
      const size_t i = i0 + row, j = j0 + col;
      if (i < q.m && j < q.n)
        *(uint4 *)(C + j * q.m + i) = *(const uint4 *)(smem + col * OA_MMA_CPITCH + row);
    }
  } else {
    for (unsigned idx = threadIdx.x; idx < OA_MMA_BN * OA_MMA_BM; idx += OA_MMA_THREADS) {
      const unsigned col = idx / OA_MMA_BM, row = idx % OA_MMA_BM;
      const size_t i = i0 + row, j = j0 + col;
      if (i < q.m && j < q.n) C[j * q.m + i] = smem[col * OA_MMA_CPITCH + row];
    }
  }
#endif
}

int oa_mma_available(void) {
  int dev = 0, major = 0;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  if (major < 8) return 0;
  /* The code that would run: its PTX must be for sm_80 or later, or the body is empty. */
  return ck_kernel_built((const void *)oa_mma_kernel, 80);
}

static ck_status oa_run_cpasync(const oa_packed &q, uint8_t *C) {
  CK_CUDA(cudaFuncSetAttribute(oa_mma_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               OA_MMA_SMEM),
          "allowing the or.and tensor kernel its shared memory");
  const size_t tiles = (q.m_pad / OA_MMA_BM) * (q.n_pad / OA_MMA_BN);
  const int wide_c = q.m % 16 == 0 && ((uintptr_t)C & 15) == 0;
  for (size_t t0 = 0; t0 < tiles; t0 += OA_MAX_GRID) {
    const size_t count = tiles - t0 < OA_MAX_GRID ? tiles - t0 : OA_MAX_GRID;
    oa_mma_kernel<<<(unsigned)count, OA_MMA_THREADS, OA_MMA_SMEM>>>(q, C, t0, wide_c);
    CK_CUDA(cudaGetLastError(), "launching the or.and tensor kernel");
  }
  return CK_OK;
}

/* ---- the variants (orand.cuh says what each kind does) ----
 * cm x cn: the cluster's tiles down and across (1 x 1: no cluster). Ordered by what they try:
 * the cp.async original, the TMA producer with the mma.sync warps (multicast 1 x 2, 2 x 2, none),
 * then wgmma (sm_90a builds) likewise. */
struct oa_variant {
  const char *name;
  int kind, cm, cn;
};
static const oa_variant oa_variants[] = {
    {"cp.async 4 stages, 8 mma.sync warps (the original)", OA_KIND_CPASYNC, 1, 1},
    {"TMA multicast, cluster 1x2 (A shared), mma.sync", OA_KIND_TMA, 1, 2},
    {"TMA multicast, cluster 2x2 (A and B shared), mma.sync", OA_KIND_TMA, 2, 2},
    {"TMA, no cluster, mma.sync", OA_KIND_TMA, 1, 1},
    {"wgmma (sm_90a), TMA multicast, cluster 1x2", OA_KIND_WGMMA, 1, 2},
    {"wgmma (sm_90a), TMA multicast, cluster 2x2", OA_KIND_WGMMA, 2, 2},
    {"wgmma (sm_90a), TMA, no cluster", OA_KIND_WGMMA, 1, 1},
};
#define OA_NUM_VARIANTS ((int)(sizeof oa_variants / sizeof oa_variants[0]))

/* Process-wide, set by the dev driver before it runs anything (not meant to change under a
 * running product); the variant that ran, per host thread as the path is. By default
 * (CK_ORAND_VARIANT_AUTO) the first of OA_VARIANT_ORDER that can run: wgmma where the build has
 * sm_90a code (v6: 4523 Tpair/s at 32768^3 on an H100, 88% of the mma.sync ceiling), else the
 * TMA pipeline with mma.sync (v3: 3301), else the cp.async original (v0: 2483); every variant
 * with a cluster ran slower than its plain form (orand.cuh). */
static const int oa_variant_order[] = {6, 3};
static int oa_variant_now = CK_ORAND_VARIANT_AUTO;
static thread_local int oa_variant_ran = -1;

extern "C" int ck_orand_set_variant(int v) {
  const int prev = oa_variant_now;
  if ((v >= 0 && v < OA_NUM_VARIANTS) || v == CK_ORAND_VARIANT_AUTO) oa_variant_now = v;
  return prev;
}
extern "C" int ck_orand_last_variant(void) { return oa_variant_ran; }
extern "C" const char *ck_orand_variant_name(int v) {
  return v >= 0 && v < OA_NUM_VARIANTS ? oa_variants[v].name : NULL;
}

/* The automatic choice's variants have no cluster: the padding of one block tile. */
void oa_mma_padding(size_t *rows, size_t *cols) {
  const int id = oa_variant_now == CK_ORAND_VARIANT_AUTO ? 0 : oa_variant_now;
  *rows = (size_t)OA_MMA_BM * oa_variants[id].cm;
  *cols = (size_t)OA_MMA_BN * oa_variants[id].cn;
}

/* Whether variant id runs q here. The TMA kinds address rows with 32-bit coordinates, and need
 * the cluster's padding (which the operands have unless the variant changed since they were
 * packed). */
static bool oa_variant_runs(int id, const oa_packed &q) {
  const oa_variant &v = oa_variants[id];
  return v.kind != OA_KIND_CPASYNC && q.m_pad % ((size_t)OA_MMA_BM * v.cm) == 0 &&
         q.n_pad % ((size_t)OA_MMA_BN * v.cn) == 0 && q.m_pad < 0x7fffffffu &&
         q.n_pad < 0x7fffffffu && q.kw < 0x7fffffffu && oa_tma_available(v.kind, v.cm, v.cn);
}

ck_status oa_run_mma(const oa_packed &q, uint8_t *C) {
  const bool automatic = oa_variant_now == CK_ORAND_VARIANT_AUTO;
  const int tries = automatic ? (int)(sizeof oa_variant_order / sizeof oa_variant_order[0]) : 1;
  for (int t = 0; t < tries; t++) {
    const int id = automatic ? oa_variant_order[t] : oa_variant_now;
    if (!oa_variant_runs(id, q)) continue;
    const oa_variant &v = oa_variants[id];
    oa_variant_ran = id;
    const ck_status s = oa_run_tma(q, C, v.kind, v.cm, v.cn);
    /* A watchdog that fired (a barrier wait of over 2 s: the kernel gave up, its C is wrong)
     * has the product made again by the cp.async kernel. Asking waits for the device. */
    if (s != CK_OK || !ck_orand_variant_fault()) return s;
    break;
  }
  oa_variant_ran = 0;
  return oa_run_cpasync(q, C);
}
