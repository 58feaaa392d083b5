/* The min-plus family's shared device definitions: how each class accumulates (mp_traits), one
 * pair update, index helpers, the problem descriptor, and the runners each file of the family
 * exports to the dispatch in minplus.cu:
 *   minplus_ladder.cu    v0 naive, v1 coalesced, v2 register-blocked (also the wide fallback)
 *   minplus_float.cu     v3 warptile for single and double
 *   minplus_small.cu     warptile's small single and double products, in one launch
 *   minplus_dpx_run.cuh  v3 warptile for the integer classes on words: DPX min-add and max-add,
 *                        compares (its Ops in minplus_dpx.cuh; instantiated per semiring in
 *                        minplus_dpx.cu, minplus_dpx_max.cu, minplus_dpx_maxmin.cu,
 *                        minplus_dpx_minmax.cu)
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
#include "index.cuh"
#include "minplus_policy.cuh"
#include "semiring.cuh"

/* The family's semirings: every one of the table's but or.and (kernels/boolean), min.+ the first
 * (gpu_minplus). How a class accumulates under one (the wide type W, the start value, pick,
 * saturation, better, store) is sr_acc's. The runners take the semiring as a template argument
 * SR through their problem (mp_problem<T, SR>); the narrowing of single and double onto the
 * integer paths (minplus_narrow.cu) is min.+'s. */
typedef sr_min_plus mp_sr;
template <class T, class SR = mp_sr> using mp_traits = sr_acc<SR, T>;

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
template <class T, class SR = mp_sr> struct mp_problem {
  typedef SR sr;
  const T *A, *B;
  T *C;
  double *K;
  size_t m, k, n;
  mp_pages pg;
};

/* One pair update with term t. Without the witness: the semiring's pick. With it, Octave's
 * [m, i] = min (or max): a term replaces the accumulator only when strictly better (ties keep
 * the smallest k) or when it is still NaN (NaN terms never win); integers compare their
 * saturated terms, since Octave's ties are between saturated values. */
template <class T, bool ARG, class SR = mp_sr>
__device__ __forceinline__ void mp_update(typename mp_traits<T, SR>::W &v, int &id,
                                          typename mp_traits<T, SR>::W t, int p) {
  typedef mp_traits<T, SR> tr;
  if (ARG) {
    t = tr::sat(t);
    if (tr::better(t, v)) {
      v = t;
      id = p;
    }
  } else {
    v = tr::pick(v, t);
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
/* minplus_narrow.cu: integer-valued single and double operands on the integer paths, where the
 * plan looks; *done = 1 when it has computed the product. */
ck_status mp_try_narrow(const ck_product *p, int *done);
/* minplus_rank.cu: single and double max.min and min.max on their values' ranks, where the plan
 * looks; *done = 1 when it has computed the product. */
ck_status mp_try_rank(const ck_product *p, int *done);

/* The runners (ARG: with the witness K). Each checks its own launches. */
template <class T, bool ARG, class SR> ck_status mp_run_naive(const mp_problem<T, SR> &p);
template <class T, bool ARG, class SR> ck_status mp_run_coalesced(const mp_problem<T, SR> &p);
template <class T, bool ARG, class SR> ck_status mp_run_regblock(const mp_problem<T, SR> &p);
template <class T, bool ARG, class SR> ck_status mp_run_small(const mp_problem<T, SR> &p);
template <class T, bool ARG, class SR> ck_status mp_run_warptile_float(const mp_problem<T, SR> &p);
template <class T, bool ARG, class SR> ck_status mp_run_warptile_int(const mp_problem<T, SR> &p);
/* The same over a batch (p.pg.count > 0) in one launch of the paged kernels; the integer runner
 * sets *took = false, having computed nothing, when the sums need v2's wide accumulation. */
template <class T, bool ARG, class SR> ck_status mp_run_pages_float(const mp_problem<T, SR> &p);
template <class T, bool ARG, class SR>
ck_status mp_run_pages_int(const mp_problem<T, SR> &p, bool *took);

/* Explicit instantiations of a runner for each class it serves, in the file that defines it. */
#define MP_INSTANTIATE_SR(RUN, T, SR)                               \
  template ck_status RUN<T, false, SR>(const mp_problem<T, SR> &p); \
  template ck_status RUN<T, true, SR>(const mp_problem<T, SR> &p);
/* ... for every semiring of the family and every class it takes (FILTER ANY), or its floating
 * point classes (FILTER FLOATS). */
#define MP_FILTER_ANY(F) 1
#define MP_FILTER_FLOATS(F) F
#define MP_CALL_(m, args) m args
#define MP_SR_ROW_(x, E, T, N, B, F, P, L, MX) MP_CALL_(MP_SR_ROW2_, (MP_UNPACK_ x, T, F, P, L))
#define MP_UNPACK_(RUN, SR, W, FILTER) RUN, SR, W, FILTER
#define MP_SR_ROW2_(RUN, SR, W, FILTER, T, F, P, L) \
  CK_IF(CK_TAKES_##W(F, P, L))                      \
  (CK_IF(MP_FILTER_##FILTER(F))(CK_IF_NOT_##L(MP_INSTANTIATE_SR(RUN, T, SR))))
#define MP_SR_EACH_(x, E, TYPE, NAME, ALIAS, CLASSES, ADD, MUL) \
  CK_CLASS_TABLE(MP_SR_ROW_, (MP_CALL_(MP_FIRST2_, x), TYPE, CLASSES, MP_CALL_(MP_SECOND2_, x)))
#define MP_FIRST2_(a, b) a
#define MP_SECOND2_(a, b) b
#define MP_INSTANTIATE_SEMIRINGS(RUN, FILTER) CK_SEMIRING_TABLE(MP_SR_EACH_, (RUN, FILTER))

#endif
