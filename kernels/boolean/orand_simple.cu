/* The SIMPLE path: one thread per output, down the columns of C, scanning the packed words of its
 * row of A and column of B until the first word with a common bit. Nothing is tiled or
 * reordered, so it is the reference the tensor and LOP3 paths are checked against on the GPU,
 * and it makes its own K (the first hit is the witness), independently of orand_witness.cu. */
#include "orand.cuh"

__global__ void __launch_bounds__(OA_THREADS)
    oa_simple_kernel(oa_packed q, uint8_t *__restrict__ C, double *__restrict__ K) {
  const size_t total = q.m * q.n, stride = (size_t)gridDim.x * blockDim.x;
  for (size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += stride) {
    size_t i, j;
    split_index(idx, q.m, j, i);
    const uint32_t *a = q.A + i * q.kw, *b = q.B + j * q.kw;
    size_t first = 0; /* 1-based k of the first pair; 0: none */
    for (size_t w = 0; w < q.kw; w++) {
      const uint32_t x = a[w] & b[w];
      if (x) {
        first = 32 * w + (size_t)__ffs((int)x);
        break;
      }
    }
    C[idx] = first != 0;
    if (K) K[idx] = (double)first;
  }
}

ck_status oa_run_simple(const oa_packed &q, uint8_t *C, double *K) {
  const size_t blocks = (q.m * q.n + OA_THREADS - 1) / OA_THREADS;
  oa_simple_kernel<<<(unsigned)(blocks < OA_MAX_GRID ? blocks : OA_MAX_GRID), OA_THREADS>>>(q, C,
                                                                                            K);
  CK_CUDA(cudaGetLastError(), "launching the or.and simple kernel");
  return CK_OK;
}
