/* The min-plus family's shared device definitions: how each class accumulates (mp_traits), one
 * pair update, index helpers, the problem descriptor, and the runners each file of the family
 * exports to the dispatch in minplus.cu:
 *   minplus_ladder.cu    v0 naive, v1 coalesced, v2 register-blocked (also the wide fallback)
 *   minplus_float.cu     v3 warptile for single and double
 *   minplus_dpx.cu       v3 warptile for the integer classes, through DPX words (its Ops in
 *                        minplus_dpx.cuh)
 * Tuning constants live in minplus_policy.cuh; split-K and the witness fix-up, shared by both
 * warptile paths, in minplus_warptile.cuh.
 *
 * All matrices are column-major as Octave stores them: A is m-by-k, B is k-by-n, C is m-by-n and
 * C(i,j) = min_k A(i,k) + B(k,j). Floating-point accumulators start at NaN, not +Inf: fmin/fminf
 * return the other operand when one is NaN, so a NaN term is ignored and the result stays NaN only
 * when every term is NaN, which is exactly Octave's min. (k == 0 is handled by the dispatch: +Inf
 * everywhere.) */
#ifndef CK_MINPLUS_CUH
#define CK_MINPLUS_CUH

#include <limits.h>
#include <math.h>
#include <stdint.h>

#include "ck_internal.h"
#include "minplus_policy.cuh"

/* How each class accumulates (W), starts (init: the identity of the min, or NaN for floating
 * point as explained above), combines and is stored.
 * Integers: Octave adds with saturation, and saturation is monotone, so
 *   min_k sat(a_k + b_k) == sat(min_k (a_k + b_k))
 * with the sums exact in a wider type: the kernels take the exact minimum in W and saturate once
 * at the store. */
template <class T> struct mp_traits;
template <> struct mp_traits<float> {
  typedef float W;
  static __device__ __forceinline__ W init() { return __int_as_float(0x7fffffff); }
  static __device__ __forceinline__ W min(W v, W t) { return fminf(v, t); }
  static __device__ __forceinline__ W sat(W t) { return t; }
  static __device__ __forceinline__ bool less(W t, W v) { return t < v || (v != v && t == t); }
  static __device__ __forceinline__ float store(W v) { return v; }
  static __host__ __device__ __forceinline__ float empty() { return INFINITY; }
  enum { is_float = 1 };
};
template <> struct mp_traits<double> {
  typedef double W;
  static __device__ __forceinline__ W init() { return __longlong_as_double(0x7fffffffffffffffLL); }
  static __device__ __forceinline__ W min(W v, W t) { return fmin(v, t); }
  static __device__ __forceinline__ W sat(W t) { return t; }
  static __device__ __forceinline__ bool less(W t, W v) { return t < v || (v != v && t == t); }
  static __device__ __forceinline__ double store(W v) { return v; }
  static __host__ __device__ __forceinline__ double empty() { return INFINITY; }
  enum { is_float = 1 };
};
#define MP_INT_TRAITS(T, WIDE, LO, HI)                                                            \
  template <> struct mp_traits<T> {                                                               \
    typedef WIDE W;                                                                               \
    static __device__ __forceinline__ W init() { return (W)HI + (W)HI + 1; } /* above any sum */ \
    static __device__ __forceinline__ W min(W v, W t) { return t < v ? t : v; }                   \
    static __device__ __forceinline__ W sat(W t) { return t < (W)LO ? (W)LO : t > (W)HI ? (W)HI : t; } \
    static __device__ __forceinline__ bool less(W t, W v) { return t < v; }                       \
    static __device__ __forceinline__ T store(W v) { return (T)sat(v); }                          \
    static __host__ __device__ __forceinline__ T empty() { return HI; }                           \
    static __host__ __device__ __forceinline__ T lowest() { return LO; }                          \
    enum { is_float = 0 };                                                                        \
  };
MP_INT_TRAITS(int8_t, int, INT8_MIN, INT8_MAX)
MP_INT_TRAITS(uint8_t, int, 0, UINT8_MAX)
MP_INT_TRAITS(int16_t, int, INT16_MIN, INT16_MAX)
MP_INT_TRAITS(uint16_t, int, 0, UINT16_MAX)
MP_INT_TRAITS(int32_t, long long, INT32_MIN, INT32_MAX)
MP_INT_TRAITS(uint32_t, long long, 0, UINT32_MAX)
#undef MP_INT_TRAITS

/* Whether single or double v is not a whole number of magnitude at most lim, or is -0: what keeps
 * such data off the integer paths (minplus_narrow.cu, apsp.cu). NaN and +-Inf are not whole. */
template <class T> __device__ __forceinline__ bool mp_not_whole(T v, T lim) {
  return !(fabs(v) <= lim) || v != trunc(v) || (v == 0 && signbit(v));
}

/* A batch of products of one shape (paged products): page z < count of C and K is the product
 * of page z * sa of A and page z * sb of B, counted from the pages the problem's A and B point
 * at (a step of 0 broadcasts one page). count == 0: one 2-D product. */
struct mp_pages {
  size_t count, sa, sb;
  size_t pages_a() const { return count ? (count - 1) * sa + 1 : 1; } /* pages of A it reads */
  size_t pages_b() const { return count ? (count - 1) * sb + 1 : 1; }
};

/* One product on the device: operands, result and (with the witness) K, the smallest k attaining
 * each minimum, 1-based, as a double; with pg.count, a batch of them (pages). */
template <class T> struct mp_problem {
  const T *A, *B;
  T *C;
  double *K;
  size_t m, k, n;
  mp_pages pg;
};

/* One pair update. Without the witness: the class's minimum. With it, Octave's [m, i] = min: a
 * term replaces the minimum only when strictly smaller (ties keep the smallest k) or when the
 * minimum is still NaN (NaN terms never win); integers compare their saturated sums, since
 * Octave's ties are between saturated values. */
template <class T, bool ARG>
__device__ __forceinline__ void mp_update(typename mp_traits<T>::W &v, int &id,
                                          typename mp_traits<T>::W t, int p) {
  typedef mp_traits<T> tr;
  if (ARG) {
    t = tr::sat(t);
    if (tr::less(t, v)) {
      v = t;
      id = p;
    }
  } else {
    v = tr::min(v, t);
  }
}

static inline unsigned grid_for(size_t work, unsigned threads) {
  return (unsigned)((work + threads - 1) / threads);
}

static inline size_t round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }

/* idx = q * d + r. 64-bit division is a long software sequence; the passes over operands and
 * outputs that index this way measured twice as slow as their bytes allow, so the common case
 * of sizes within 32 bits divides in 32 bits (the branch is the same for the whole grid). */
__device__ __forceinline__ void split_index(size_t idx, size_t d, size_t &q, size_t &r) {
  if ((idx | d) >> 32) {
    q = idx / d;
    r = idx % d;
  } else {
    unsigned q32 = (unsigned)idx / (unsigned)d;
    q = q32;
    r = (unsigned)idx - q32 * (unsigned)d;
  }
}

/* dst (padded_cols-by-rows, padded rows zero) = transpose of src (rows-by-cols), through a shared
 * tile so that both the reads and the writes are coalesced. Launch: transpose_grid, dim3(32, 8). */
template <class T>
__global__ void transpose_pad(const T *__restrict__ src, T *__restrict__ dst, size_t rows,
                              size_t cols, size_t padded_cols) {
  __shared__ T tile[32][33]; /* +1 column: no bank conflicts on the transposed read */
  const size_t row_tiles = (rows + 31) / 32; /* one flat grid: no 65535 limit on either side */
  size_t r0 = (blockIdx.x % row_tiles) * 32, c0 = (blockIdx.x / row_tiles) * 32;
  for (int y = threadIdx.y; y < 32; y += blockDim.y) {
    size_t r = r0 + threadIdx.x, c = c0 + y;
    tile[y][threadIdx.x] = (r < rows && c < cols) ? src[r + c * rows] : (T)0;
  }
  __syncthreads();
  for (int y = threadIdx.y; y < 32; y += blockDim.y) {
    size_t c = c0 + threadIdx.x, r = r0 + y; /* dst(c, r) = src(r, c) */
    if (c < padded_cols && r < rows) dst[c + r * padded_cols] = tile[threadIdx.x][y];
  }
}

static inline unsigned transpose_grid(size_t rows, size_t cols) {
  return (unsigned)(((rows + 31) / 32) * ((cols + 31) / 32));
}

/* The SMs of the current device (1 if it cannot be asked), asked once. */
int mp_sm_count(void);
/* minplus_narrow.cu: integer-valued single and double operands on the integer paths; *done = 1
 * when it has computed the product. mp_note_path: what ck_minplus_last_path reports. */
ck_status mp_try_narrow(const ck_product *p, int *done);
void mp_note_path(ck_dtype t);

/* The runners (ARG: with the witness K). Each checks its own launches. */
template <class T, bool ARG> ck_status mp_run_naive(const mp_problem<T> &p);
template <class T, bool ARG> ck_status mp_run_coalesced(const mp_problem<T> &p);
template <class T, bool ARG> ck_status mp_run_regblock(const mp_problem<T> &p);
template <class T, bool ARG> ck_status mp_run_warptile_float(const mp_problem<T> &p);
template <class T, bool ARG> ck_status mp_run_warptile_int(const mp_problem<T> &p);
/* The same over a batch (p.pg.count > 0) in one launch of the paged kernels; the integer runner
 * sets *took = false, having computed nothing, when the sums need v2's wide accumulation. */
template <class T, bool ARG> ck_status mp_run_pages_float(const mp_problem<T> &p);
template <class T, bool ARG> ck_status mp_run_pages_int(const mp_problem<T> &p, bool *took);

/* Explicit instantiations of a runner for each class it serves, in the file that defines it. */
#define MP_INSTANTIATE(RUN, T)                                   \
  template ck_status RUN<T, false>(const mp_problem<T> &p);      \
  template ck_status RUN<T, true>(const mp_problem<T> &p);
#define MP_INSTANTIATE_INTS(RUN)                                 \
  MP_INSTANTIATE(RUN, int8_t)                                    \
  MP_INSTANTIATE(RUN, uint8_t)                                   \
  MP_INSTANTIATE(RUN, int16_t)                                   \
  MP_INSTANTIATE(RUN, uint16_t)                                  \
  MP_INSTANTIATE(RUN, int32_t)                                   \
  MP_INSTANTIATE(RUN, uint32_t)
#define MP_INSTANTIATE_ALL(RUN) \
  MP_INSTANTIATE(RUN, double)   \
  MP_INSTANTIATE(RUN, float)    \
  MP_INSTANTIATE_INTS(RUN)

#endif
