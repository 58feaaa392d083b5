/* The compute ceiling of a min-plus kernel on this GPU: the rate of pair updates v = min(v, x + y)
 * from registers only, with no memory traffic, in the same 8x8-accumulator shape a register-blocked
 * kernel uses. A kernel's Tpair/s over this rate says how much of the arithmetic pipe it uses. */
#include <math.h>
#include <stdlib.h>

#include "ck_internal.h"

#define R 8
#define ITERS 4000
#define BLOCK 256
#define BLOCKS_PER_SM 8

template <class T> __device__ __forceinline__ T pair_min(T v, T t);
template <> __device__ __forceinline__ float pair_min(float v, float t) { return fminf(v, t); }
template <> __device__ __forceinline__ double pair_min(double v, double t) { return fmin(v, t); }

/* Operands rotate between iterations so the compiler cannot hoist the updates out of the loop.
 * The trip count is a run-time argument, as in the reference ceilings program: a constant one lets
 * the compiler unroll the outer loop, which measured 5% slower (doc/NOTES.md). */
template <class T> __global__ void __launch_bounds__(BLOCK) ceiling_kernel(T *out, T seed, int iters) {
  T x[R], y[R], v[R][R];
#pragma unroll
  for (int i = 0; i < R; i++) {
    x[i] = seed * (T)(i * 7 + threadIdx.x);
    y[i] = seed * (T)(i * 3 + 2 * threadIdx.x + 1);
  }
#pragma unroll
  for (int i = 0; i < R; i++)
#pragma unroll
    for (int j = 0; j < R; j++) v[i][j] = seed * (T)(1000 + i * R + j + threadIdx.x);
  for (int it = 0; it < iters; it++) {
#pragma unroll
    for (int i = 0; i < R; i++)
#pragma unroll
      for (int j = 0; j < R; j++) v[i][j] = pair_min(v[i][j], x[i] + y[j]);
#pragma unroll
    for (int i = 0; i < R; i++) {
      T t = x[i];
      x[i] = y[(i + 1) % R];
      y[(i + 1) % R] = t;
    }
  }
  T s = v[0][0];
#pragma unroll
  for (int i = 0; i < R; i++)
#pragma unroll
    for (int j = 0; j < R; j++) s = pair_min(s, v[i][j] + v[j][i]);
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}

static int cmp_float(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

extern "C" ck_status ck_minplus_ceiling(ck_dtype t, double *pairs_per_second) {
  enum { REPS = 7 };
  if (!ck_dtype_is_float(t))
    return ck_fail(CK_ERR_INVALID, "the ceiling probe measures single and double only");
  CK_TRY(ck_device_init());
  int sms = 0, dev = 0;
  CK_CUDA(cudaGetDevice(&dev), "querying the device");
  CK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "querying SMs");
  unsigned blocks = (unsigned)(sms * BLOCKS_PER_SM);
  void *out = NULL;
  CK_TRY(ck_dev_alloc(&out, (size_t)blocks * BLOCK * sizeof(double)));
  cudaEvent_t start = NULL, stop = NULL;
  float times[REPS];
  cudaError_t e = cudaEventCreate(&start);
  if (e == cudaSuccess) e = cudaEventCreate(&stop);
  for (int r = -1; r < REPS && e == cudaSuccess; r++) { /* r == -1: warm-up */
    cudaEventRecord(start, 0);
    if (t == CK_SINGLE)
      ceiling_kernel<float><<<blocks, BLOCK>>>((float *)out, 1.0f, ITERS);
    else
      ceiling_kernel<double><<<blocks, BLOCK>>>((double *)out, 1.0, ITERS);
    if ((e = cudaGetLastError()) != cudaSuccess) break;
    cudaEventRecord(stop, 0);
    if ((e = cudaEventSynchronize(stop)) == cudaSuccess && r >= 0)
      e = cudaEventElapsedTime(&times[r], start, stop);
  }
  if (start) cudaEventDestroy(start);
  if (stop) cudaEventDestroy(stop);
  ck_dev_free(out);
  if (e != cudaSuccess) return ck_cuda_status(e, "running the ceiling probe");
  qsort(times, REPS, sizeof times[0], cmp_float);
  double pairs = (double)blocks * BLOCK * ITERS * R * R;
  *pairs_per_second = pairs / (times[REPS / 2] * 1e-3);
  return CK_OK;
}
