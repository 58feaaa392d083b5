/* Matmul ladder v4 "vectorized": v3's kernel (v3_regblock.cuh) with VEC = true, which stages the
 * tiles through this function.
 *
 * What it adds over v3: wider loads and a layout for the inner loop. The tiles are staged with
 * 16-byte global loads (four singles or two doubles per instruction, a quarter or half of v3's load
 * instructions), and A's tile is stored transposed, As[p][row], so that a thread's TM values of A
 * for one step p are contiguous in shared memory, as its TN values of B already are. It ran at
 * 39.5% of cuBLAS at n = 8192, against v3's 32.9% (doc/NOTES.md). */
#ifndef CK_MM_V4_VECTORIZED_CUH
#define CK_MM_V4_VECTORIZED_CUH

#include "warptile.cuh" /* vec16, load16 */
#include "v3_regblock.cuh"

/* Stage a BM x BK tile of A transposed (As[p][row]), so the inner loop reads A's column slice
 * contiguously, and a BK x BN tile of B as is, both with 16-byte global loads. */
template <class T, int BM, int BN, int BK, int NT>
__device__ __forceinline__ void stage_tiles(const T *A, const T *B, int K, int N, T *As, T *Bs) {
  const int E = 16 / sizeof(T);
  for (int idx = threadIdx.x; idx < BM * BK / E; idx += NT) {
    int r = idx / (BK / E), c = (idx % (BK / E)) * E;
    vec16<T> v = load16(A + (size_t)r * K + c);
#pragma unroll
    for (int e = 0; e < E; e++) As[(c + e) * BM + r] = v.e[e];
  }
  for (int idx = threadIdx.x; idx < BK * BN / E; idx += NT) {
    int r = idx / (BN / E), c = (idx % (BN / E)) * E;
    *(uint4 *)&Bs[r * BN + c] = load16(B + (size_t)r * N + c).raw;
  }
}

#endif
