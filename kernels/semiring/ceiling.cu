/* The compute ceiling of a semiring kernel on this GPU: the rate of pair updates
 * v = ADD(v, MUL(x, y)) from registers only, with no memory traffic, in the same
 * 8x8-accumulator shape a register-blocked kernel uses. A kernel's Tpair/s over this rate says
 * how much of the arithmetic pipe it uses. Integer classes are probed on the instructions their
 * fastest exact path uses: for min.+ and max.+ the DPX min-add or max-add on 32-bit words for
 * int32/uint32, and on two 16-bit halves (two pairs per instruction) for the 8- and 16-bit
 * classes; for max.min and min.max two compares on words or on halves. or.and's probes are the
 * boolean family's (kernels/boolean). */
#include <math.h>

#include "ck_internal.h"
#include "dispatch.cuh"
#include "orand.h"
#include "semiring.cuh"

#define R 8
#define ITERS 4000
#define BLOCK 256
#define BLOCKS_PER_SM 8

/* v = pick(v, term(y, x)) of the semiring SR in each representation (semiring.cuh: the
 * kernels' own sr_acc for single and double, operands in the warptile kernel's order: its term
 * takes the inner loop's operand first, minplus_float.cu); PAIRS: pair updates per call. The
 * order matters to double max.min and min.max, whose selects keep the first operand on ties:
 * the other order probed 3.07 Tpair/s on an H100, below the kernel's 3.09 (doc/NOTES.md). */
template <class SR, class F> struct probe_float {
  typedef F T;
  enum { PAIRS = 1 };
  static __device__ __forceinline__ T update(T v, T x, T y) {
    typedef sr_acc<SR, F> acc;
    return acc::pick(v, acc::term(y, x));
  }
};
template <class SR> struct probe_u32 {
  typedef unsigned T;
  enum { PAIRS = 1 };
  static __device__ __forceinline__ T update(T v, T x, T y) { return SR::step_u32(x, y, v); }
};
template <class SR> struct probe_u16x2 {
  typedef unsigned T;
  enum { PAIRS = 2 };
  static __device__ __forceinline__ T update(T v, T x, T y) { return SR::step_u16x2(x, y, v); }
};

/* Operands rotate between iterations so the compiler cannot hoist the updates out of the loop.
 * The trip count is a run-time argument, as in the reference ceilings program: a constant one lets
 * the compiler unroll the outer loop, which measured 5% slower (doc/NOTES.md). */
template <class P>
__global__ void __launch_bounds__(BLOCK)
    ceiling_kernel(typename P::T *out, typename P::T seed, int iters) {
  typedef typename P::T T;
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
      for (int j = 0; j < R; j++) v[i][j] = P::update(v[i][j], x[i], y[j]);
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
    for (int j = 0; j < R; j++) s = P::update(s, v[i][j], v[j][i]);
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}

/* One launch of probe P's kernel (ck_time_events runs it). */
template <class P> struct probe_launch {
  unsigned blocks;
  typename P::T *out, seed;
  static ck_status run(void *ctx) {
    const probe_launch *l = (const probe_launch *)ctx;
    ceiling_kernel<P><<<l->blocks, BLOCK>>>(l->out, l->seed, ITERS);
    return ck_cuda_check(cudaGetLastError(), "running the ceiling probe");
  }
};

/* The probe P's rate in pair updates per second: the median of REPS timed launches after a
 * warm-up, on BLOCKS_PER_SM blocks per SM. */
template <class P> static ck_status time_probe(typename P::T seed, double *pairs_per_second) {
  enum { REPS = 7 };
  typedef typename P::T T;
  CK_TRY(ck_device_init());
  int sms = 0, dev = 0;
  CK_CUDA(cudaGetDevice(&dev), "querying the device");
  CK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "querying SMs");
  probe_launch<P> l = {(unsigned)(sms * BLOCKS_PER_SM), NULL, seed};
  CK_TRY(ck_dev_alloc((void **)&l.out, (size_t)l.blocks * BLOCK * sizeof(T)));
  double times[REPS];
  const ck_status s = ck_time_events(probe_launch<P>::run, &l, 1, REPS, times);
  ck_dev_free(l.out);
  CK_TRY(s);
  const double pairs = (double)l.blocks * BLOCK * ITERS * R * R * P::PAIRS;
  *pairs_per_second = pairs / (ck_median(times, REPS) * 1e-3);
  return CK_OK;
}

/* Semiring SR on class t: single and double in the class; 32-bit integers on one word per pair
 * (DPX for the + semirings), the 8- and 16-bit classes two halves per word. */
template <class SR> static ck_status probe_semiring(ck_dtype t, double *rate) {
  if (t == CK_SINGLE) return time_probe<probe_float<SR, float>>(1.0f, rate);
  if (t == CK_DOUBLE) return time_probe<probe_float<SR, double>>(1.0, rate);
  if constexpr (std::is_same<SR, sr_max_times>::value) {
    return ck_fail(CK_ERR_INVALID, "max.* takes single and double");
  } else {
    if (t == CK_INT32 || t == CK_UINT32) return time_probe<probe_u32<SR>>(1u, rate);
    return time_probe<probe_u16x2<SR>>(0x10001u, rate);
  }
}

extern "C" ck_status ck_semiring_ceiling(ck_semiring s, ck_dtype t, int path, double *rate) {
  if (s == CK_SR_OR_AND) return ck_orand_ceiling(path ? path : CK_ORAND_TENSOR, rate);
  CK_TRY(ck_semiring_check(s, t));
  return ck_with_semiring(s, CK_ERR_INVALID, [&](auto sr) {
    typedef typename decltype(sr)::type SR;
    if constexpr (std::is_same<SR, sr_or_and>::value) return CK_ERR_INVALID;
    else return probe_semiring<SR>(t, rate);
  });
}

extern "C" ck_status ck_minplus_ceiling(ck_dtype t, double *pairs_per_second) {
  return ck_semiring_ceiling(CK_SR_MIN_PLUS, t, 0, pairs_per_second);
}
