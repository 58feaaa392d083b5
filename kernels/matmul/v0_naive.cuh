/* Matmul ladder v0 "naive": one thread per output of C, reading A and B straight from global
 * memory. The starting point the other versions are measured against.
 *
 * Consecutive threads take consecutive rows, so a warp reads 32 different rows of A (stride K: one
 * memory transaction per thread) and writes C with stride N; only B's element is shared by the
 * warp. Every multiply-add loads two values, and nothing is reused from a fast memory except what
 * the caches happen to keep: it runs at about 1% of cuBLAS (doc/NOTES.md).
 *
 * Row-major operands, as every version here (matmul.cu says why): A is M x K, B K x N, C M x N. */
#ifndef CK_MM_V0_NAIVE_CUH
#define CK_MM_V0_NAIVE_CUH

template <class T>
__global__ void mm_naive(int M, int N, int K, const T *__restrict__ A, const T *__restrict__ B,
                         T *__restrict__ C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= M || j >= N) return;
  T acc = 0;
  for (int p = 0; p < K; p++) acc += A[(size_t)i * K + p] * B[(size_t)p * N + j];
  C[(size_t)i * N + j] = acc;
}

#endif
