/* dev/ceilings: the rates a kernel of this package is measured against, probed on this GPU in
 * one run, standalone (no package code): the min-plus pair update v = min(v, x + y) from
 * registers only, per representation; the device-to-device copy bandwidth; pinned transfers
 * each way between host and device; cuBLAS SGEMM and DGEMM.
 * Usage: dev/ceilings [GEMM_N] (default 8192). Exit status 2 without a GPU.
 *
 * Pair updates are counted as the package counts them (kernels/semiring/ceiling.cu): one per
 * scalar min(v, x + y), two per instruction on 16-bit halves. Each thread holds an 8x8 block of
 * accumulators and 8 + 8 operands, the shape of a register-blocked kernel: 64 independent
 * updates per step hide the pipeline latency, and enough threads fill every SM. */
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define R 8
#define BLOCK 256
#define BLOCKS_PER_SM 8
#define REPS 7
#define TARGET_MS 20.0 /* per timed run: long enough that launch costs vanish */

static void check(cudaError_t e, const char *what) {
  if (e == cudaSuccess) return;
  fprintf(stderr, "ceilings: %s: %s\n", what, cudaGetErrorString(e));
  exit(1);
}

static void check_blas(cublasStatus_t s, const char *what) {
  if (s == CUBLAS_STATUS_SUCCESS) return;
  fprintf(stderr, "ceilings: %s: cuBLAS status %d\n", what, (int)s);
  exit(1);
}

/* ---- the min-plus update in each representation; PAIRS per call ---- */
struct f32_op {
  typedef float T;
  enum { PAIRS = 1 };
  static __device__ __forceinline__ T from(unsigned s) { return (float)(s & 1023); }
  static __device__ __forceinline__ T up(T v, T x, T y) { return fminf(v, x + y); }
};
struct f64_op {
  typedef double T;
  enum { PAIRS = 1 };
  static __device__ __forceinline__ T from(unsigned s) { return (double)(s & 1023); }
  static __device__ __forceinline__ T up(T v, T x, T y) { return fmin(v, x + y); }
};
struct i32_plain_op {
  typedef int T;
  enum { PAIRS = 1 };
  static __device__ __forceinline__ T from(unsigned s) { return (int)(s & 1023); }
  static __device__ __forceinline__ T up(T v, T x, T y) { return min(v, x + y); }
};
struct i32_dpx_op {
  typedef int T;
  enum { PAIRS = 1 };
  static __device__ __forceinline__ T from(unsigned s) { return (int)(s & 1023); }
  static __device__ __forceinline__ T up(T v, T x, T y) { return __viaddmin_s32(x, y, v); }
};
struct i16x2_dpx_op {
  typedef unsigned T;
  enum { PAIRS = 2 };
  static __device__ __forceinline__ T from(unsigned s) { return (s & 1023) * 0x10001u; }
  static __device__ __forceinline__ T up(T v, T x, T y) { return __viaddmin_s16x2(x, y, v); }
};

/* The operands rotate every step, so that no update can be hoisted out of the loop; the trip
 * count arrives at run time, so the loop is not unrolled past one step. */
template <class Op>
__global__ void __launch_bounds__(BLOCK)
    minplus_probe(typename Op::T *out, unsigned seed, int steps) {
  typedef typename Op::T T;
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  T x[R], y[R], v[R][R];
#pragma unroll
  for (int i = 0; i < R; i++) {
    x[i] = Op::from(seed + tid + 7 * i);
    y[i] = Op::from(seed * 3 + tid + 11 * i);
  }
#pragma unroll
  for (int i = 0; i < R; i++)
#pragma unroll
    for (int j = 0; j < R; j++) v[i][j] = Op::from(seed + 1000 + tid + R * i + j);
  for (int s = 0; s < steps; s++) {
#pragma unroll
    for (int i = 0; i < R; i++)
#pragma unroll
      for (int j = 0; j < R; j++) v[i][j] = Op::up(v[i][j], x[i], y[j]);
    const T first = x[0];
#pragma unroll
    for (int i = 0; i < R - 1; i++) x[i] = y[i + 1], y[i + 1] = x[i + 1];
    x[R - 1] = y[0];
    y[0] = first;
  }
  T acc = v[0][0];
#pragma unroll
  for (int i = 0; i < R; i++)
#pragma unroll
    for (int j = 0; j < R; j++) acc = Op::up(acc, v[i][j], v[j][i]);
  out[tid] = acc; /* keeps every update live */
}

/* Median of REPS event-timed calls of f, after one warm-up, in ms. */
template <class F> static double median_ms(F f) {
  cudaEvent_t a, b;
  check(cudaEventCreate(&a), "creating events");
  check(cudaEventCreate(&b), "creating events");
  std::vector<double> t;
  for (int r = -1; r < REPS; r++) {
    check(cudaEventRecord(a), "recording an event");
    f();
    check(cudaGetLastError(), "launching");
    check(cudaEventRecord(b), "recording an event");
    check(cudaEventSynchronize(b), "running");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, a, b), "reading an event");
    if (r >= 0) t.push_back(ms);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(t.begin(), t.end());
  return t[REPS / 2];
}

/* Pair updates per second; the step count is scaled from a short run to about TARGET_MS. */
template <class Op> static double minplus_rate(int sms) {
  const unsigned blocks = (unsigned)(sms * BLOCKS_PER_SM);
  typename Op::T *out = NULL;
  check(cudaMalloc(&out, (size_t)blocks * BLOCK * sizeof *out), "allocating");
  int steps = 256;
  double ms = median_ms([&] { minplus_probe<Op><<<blocks, BLOCK>>>(out, 12345u, steps); });
  steps = (int)std::min(1e6, std::max(256.0, steps * TARGET_MS / std::max(ms, 1e-3)));
  ms = median_ms([&] { minplus_probe<Op><<<blocks, BLOCK>>>(out, 12345u, steps); });
  cudaFree(out);
  return (double)blocks * BLOCK * steps * R * R * Op::PAIRS / (ms * 1e-3);
}

/* Bytes read plus bytes written per second by cudaMemcpy within the device. */
static double copy_rate(size_t bytes) {
  void *src = NULL, *dst = NULL;
  check(cudaMalloc(&src, bytes), "allocating");
  check(cudaMalloc(&dst, bytes), "allocating");
  check(cudaMemset(src, 1, bytes), "clearing");
  double ms = median_ms([&] { cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice); });
  cudaFree(src);
  cudaFree(dst);
  return 2.0 * (double)bytes / (ms * 1e-3);
}

/* Bytes per second one way between pinned host memory and the device (to, or from, it). */
static double host_rate(size_t bytes, bool to_device) {
  void *host = NULL, *dev = NULL;
  check(cudaMallocHost(&host, bytes), "allocating pinned memory");
  check(cudaMalloc(&dev, bytes), "allocating");
  memset(host, 1, bytes);
  double ms = median_ms([&] {
    if (to_device) cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice);
    else cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost);
  });
  cudaFreeHost(host);
  cudaFree(dev);
  return (double)bytes / (ms * 1e-3);
}

/* Integers 0..999 scaled to [0, 1): never zeros, which would flatter the power draw. */
template <class T> __global__ void fill(T *p, size_t count) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) p[i] = (T)((i * 2654435761u >> 7) % 1000) / (T)1000;
}

/* cuBLAS GEMM C = A B at n x n x n in FLOP/s (2 n^3 per product), default math mode. */
template <class T> static double gemm_rate(cublasHandle_t h, int n) {
  const size_t count = (size_t)n * n;
  T *A, *B, *C;
  check(cudaMalloc(&A, count * sizeof(T)), "allocating");
  check(cudaMalloc(&B, count * sizeof(T)), "allocating");
  check(cudaMalloc(&C, count * sizeof(T)), "allocating");
  fill<T><<<(unsigned)((count + 255) / 256), 256>>>(A, count);
  fill<T><<<(unsigned)((count + 255) / 256), 256>>>(B, count);
  const T one = 1, zero = 0;
  double ms = median_ms([&] {
    const cublasOperation_t N = CUBLAS_OP_N;
    if constexpr (sizeof(T) == 4)
      check_blas(cublasSgemm(h, N, N, n, n, n, &one, A, n, B, n, &zero, C, n), "SGEMM");
    else check_blas(cublasDgemm(h, N, N, n, n, n, &one, A, n, B, n, &zero, C, n), "DGEMM");
  });
  cudaFree(A);
  cudaFree(B);
  cudaFree(C);
  return 2.0 * n * (double)n * n / (ms * 1e-3);
}

static void row(const char *what, double value, const char *unit) {
  printf("%-42s %10.3f %s\n", what, value, unit);
  fflush(stdout);
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 8192;
  int count = 0, dev = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    fprintf(stderr, "ceilings: no GPU: %s\n",
            e != cudaSuccess ? cudaGetErrorString(e) : "none visible");
    return 2;
  }
  if (n < 1) {
    fprintf(stderr, "usage: dev/ceilings [GEMM_N]\n");
    return 2;
  }
  cudaDeviceProp p;
  check(cudaGetDevice(&dev), "querying the device");
  check(cudaGetDeviceProperties(&p, dev), "querying the device");
  printf("ceilings on %s (sm_%d%d, %d SMs); medians of %d runs, events\n", p.name, p.major, p.minor,
         p.multiProcessorCount, REPS);
  const int sms = p.multiProcessorCount;
  row("min-plus single (FADD + FMNMX)", minplus_rate<f32_op>(sms) / 1e12, "Tpair/s");
  row("min-plus double (DADD + min)", minplus_rate<f64_op>(sms) / 1e12, "Tpair/s");
  row("min-plus int32 (DPX __viaddmin_s32)", minplus_rate<i32_dpx_op>(sms) / 1e12, "Tpair/s");
  row("min-plus int16x2 (DPX __viaddmin_s16x2)", minplus_rate<i16x2_dpx_op>(sms) / 1e12, "Tpair/s");
  row("min-plus int32 (min(v, x + y), no intrinsic)", minplus_rate<i32_plain_op>(sms) / 1e12,
      "Tpair/s");
  row("copy on the device (read + written)", copy_rate((size_t)1 << 30) / 1e9, "GB/s");
  row("host to device (pinned, 256 MiB)", host_rate((size_t)1 << 28, true) / 1e9, "GB/s");
  row("device to host (pinned, 256 MiB)", host_rate((size_t)1 << 28, false) / 1e9, "GB/s");
  cublasHandle_t h;
  check_blas(cublasCreate(&h), "creating a cuBLAS handle");
  char what[64];
  snprintf(what, sizeof what, "cuBLAS SGEMM %d", n);
  row(what, gemm_rate<float>(h, n) / 1e12, "TFLOP/s");
  snprintf(what, sizeof what, "cuBLAS DGEMM %d", n);
  row(what, gemm_rate<double>(h, n) / 1e12, "TFLOP/s");
  cublasDestroy(h);
  return 0;
}
