/* The wgmma pieces the sm_90a kernels share (orand_mma_wgmma.cu, closure_mma.cu): the
 * shared-memory descriptor of a stage's operand (orand_mma_wgmma.cu derives it), the fence,
 * commit and wait, and wgmma.mma_async m64n128k256 .b1 and.popc on 64 s32 accumulators a
 * thread. The accumulator layout (PTX "wgmma .m64nNk256 D fragment"): warp v of the warpgroup
 * has rows 16v .. 16v+15; register r of a lane (g = lane / 4, t = lane % 4) is row
 * 16v + g + 8 ((r/2)%2), column 8 (r/4) + 2t + r%2. */
#ifndef CK_ORAND_WGMMA_CUH
#define CK_ORAND_WGMMA_CUH

#include "orand_tma.cuh"

/* wgmma exists in sm_90a code only (the build's arch=compute_90a); elsewhere the kernel is
 * empty and oa_sm90a_built says so. */
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define OA_WGMMA_COMPILED 1
#endif

#define OA_WG_N 128 /* columns a wgmma (the tile's all) */
static_assert(OA_MMA_BN == OA_WG_N && OA_MMA_BM == 2 * 128, "2 warpgroups of 128 x 128");

#ifdef OA_WGMMA_COMPILED
__device__ __forceinline__ uint64_t oa_desc(unsigned addr) {
  return (uint64_t)((addr & 0x3FFFF) >> 4) | (1ull << 16) |
         ((uint64_t)((8 * OA_TMA_ROW) >> 4) << 32) | (2ull << 62);
}
__device__ __forceinline__ void oa_wg_fence() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void oa_wg_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
template <int N> __device__ __forceinline__ void oa_wg_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}

#define OA_R8(b)                                                                              \
  "+r"(d[b]), "+r"(d[b + 1]), "+r"(d[b + 2]), "+r"(d[b + 3]), "+r"(d[b + 4]), "+r"(d[b + 5]), \
      "+r"(d[b + 6]), "+r"(d[b + 7])
/* d += popc(A & B) over 256 bits, A 64 rows and B 128 columns from shared memory. */
__device__ __forceinline__ void oa_wgmma128(int (&d)[64], uint64_t da, uint64_t db) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n128k256.s32.b1.b1.and.popc "
               "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
               " %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
               " %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
               " %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63},"
               " %64, %65, p;\n}\n"
               : OA_R8(0), OA_R8(8), OA_R8(16), OA_R8(24), OA_R8(32), OA_R8(40), OA_R8(48),
                 OA_R8(56)
               : "l"(da), "l"(db), "r"(1));
}
#undef OA_R8

/* The accumulators of a warpgroup's 128 x 128 outputs (two m64 halves), zeroed. */
__device__ __forceinline__ void oa_wg_zero(int (&acc)[2][64]) {
#pragma unroll
  for (int i = 0; i < 2; i++)
#pragma unroll
    for (int r = 0; r < 64; r++) acc[i][r] = 0;
}

/* Warpgroup wg's share of the stage at `stage` (rows 128 wg .. +127 of A, all of B): its two
 * k-steps of 256 bits on both accumulators, 4 wgmma issued as one committed group. */
__device__ __forceinline__ void oa_wg_stage(int (&acc)[2][64], unsigned stage, unsigned wg) {
  oa_wg_fence();
#pragma unroll
  for (int h = 0; h < 2; h++) {
    const uint64_t db = oa_desc(stage + OA_TMA_A_BYTES + 32 * h);
#pragma unroll
    for (int i = 0; i < 2; i++)
      oa_wgmma128(acc[i], oa_desc(stage + (128 * wg + 64 * i) * OA_TMA_ROW + 32 * h), db);
  }
  oa_wg_commit();
}
#endif

#endif
