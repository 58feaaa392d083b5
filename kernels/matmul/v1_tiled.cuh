/* Matmul ladder v1 "tiled16" and "tiled32" (Kirk & Hwu's tiled multiply; one template, the tile
 * width TW is its parameter).
 *
 * What it adds over v0: reuse through shared memory. A TW x TW block stages a tile of A and one of
 * B in shared memory per phase, each element loaded from global memory once per block instead of
 * once per thread, so global traffic falls by a factor of TW. Consecutive threads take consecutive
 * columns, so the loads of both tiles and the store of C coalesce ("corner turning" for A: it is
 * read along rows, so its tile load is coalesced too). TW = 32 doubles the reuse of TW = 16 with
 * four times the threads per block; the two ran at 17.4% and 15.9% of cuBLAS at n = 8192
 * (doc/NOTES.md): the inner loop still loads two shared-memory values per multiply-add.
 *
 * Any shape: the loads outside the matrices read zeros, and the store is checked. */
#ifndef CK_MM_V1_TILED_CUH
#define CK_MM_V1_TILED_CUH

template <class T, int TW>
__global__ void mm_tiled(int M, int N, int K, const T *__restrict__ A, const T *__restrict__ B,
                         T *__restrict__ C) {
  __shared__ T As[TW][TW], Bs[TW][TW];
  int tx = threadIdx.x, ty = threadIdx.y;
  int i = blockIdx.y * TW + ty, j = blockIdx.x * TW + tx;
  T acc = 0;
  for (int ph = 0; ph < K; ph += TW) {
    As[ty][tx] = (i < M && ph + tx < K) ? A[(size_t)i * K + ph + tx] : (T)0;
    Bs[ty][tx] = (ph + ty < K && j < N) ? B[(size_t)(ph + ty) * N + j] : (T)0;
    __syncthreads();
#pragma unroll
    for (int p = 0; p < TW; p++) acc += As[ty][p] * Bs[p][tx];
    __syncthreads();
  }
  if (i < M && j < N) C[(size_t)i * N + j] = acc;
}

#endif
