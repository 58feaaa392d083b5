/* Reference points for the small-size goals of gpu_minplus (doc/minplus.md): the events' time of
 * an empty kernel (what any product timed by events pays before its work), and cuBLAS Sgemm/Dgemm
 * at the min-plus benchmark's shapes as a fraction of their own n = 8192 rate. Events, 5 warm-ups,
 * median of 50. Not part of the package; on a machine with the CUDA toolkit and a GPU:
 *   nvcc -O2 -arch=sm_90 bench/bench_floor.cu -lcublas -o /tmp/bench_floor && /tmp/bench_floor */
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cublas_v2.h>
__global__ void empty_kernel() {}
template <class F> static double med_ms(F f, int reps = 50) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<float> t;
  for (int r = 0; r < reps + 5; r++) {
    cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); if (r >= 5) t.push_back(ms);
  }
  std::sort(t.begin(), t.end()); return t[t.size() / 2];
}
int main() {
  printf("empty kernel, 1 block: %.4f ms\n", med_ms([] { empty_kernel<<<1, 32>>>(); }, 200));
  printf("empty kernel, 528 blocks of 128: %.4f ms\n", med_ms([] { empty_kernel<<<528, 128>>>(); }, 200));
  printf("two empty kernels: %.4f ms\n", med_ms([] { empty_kernel<<<528, 128>>>(); empty_kernel<<<528, 128>>>(); }, 200));
  cublasHandle_t h; cublasCreate(&h);
  int shapes[][3] = {{8192, 8192, 8192}, {4096, 4096, 4096}, {2048, 2048, 2048}, {1024, 1024, 1024},
                     {1000, 1000, 1000}, {8192, 256, 8192}, {256, 8192, 256}};
  for (int dbl = 0; dbl < 2; dbl++) {
    size_t es = dbl ? 8 : 4; void *A, *B, *C;
    cudaMalloc(&A, 8192ull * 8192 * es); cudaMalloc(&B, 8192ull * 8192 * es); cudaMalloc(&C, 8192ull * 8192 * es);
    cudaMemset(A, 0, 8192ull * 8192 * es); cudaMemset(B, 0, 8192ull * 8192 * es);
    double base = 0;
    for (auto &s : shapes) {
      int m = s[0], k = s[1], n = s[2];
      double ms = med_ms([&] {
        if (dbl) { double al = 1, be = 0; cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &al, (double *)A, m, (double *)B, k, &be, (double *)C, m); }
        else { float al = 1, be = 0; cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &al, (float *)A, m, (float *)B, k, &be, (float *)C, m); }
      }, m == 8192 && k == 8192 ? 15 : 50);
      double rate = 2.0 * m * (double)n * k / ms / 1e9;
      if (!base) base = rate;
      printf("cublas%s %dx%dx%d: %.4f ms %.2f TFLOP/s, %.1f%% of its 8192 rate\n", dbl ? "Dgemm" : "Sgemm", m, k, n, ms, rate, 100 * rate / base);
    }
    cudaFree(A); cudaFree(B); cudaFree(C);
  }
  return 0;
}
