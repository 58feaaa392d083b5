/* Widest (max.min) and minimax (min.max) paths of single and double weights on the ranks of
 * their values, as gpu_mxm's products of these semirings run (ranks.cuh, minplus_rank.cu): the
 * rounds only compare, so a one-to-one map of the weights that keeps their order gives the same
 * paths, and the rounds on integer keys run 2.5 to 5 times as fast as double's compares
 * (doc/apsp.md). Every value of W is ranked; W' holds rank + 1 for an edge and the integer
 * class's "no edge" elsewhere; the integer call runs on W' (uint16 for at most AR_U16_MOST
 * distinct values, else int32, on the keys of apsp.cu); D' goes back through the table of
 * values. P is the integer call's: the same strict improvements in the same order. D and P are
 * the class path's bit for bit: equal values get equal ranks, and every D(i, j) off the diagonal
 * is an edge's value or "no path".
 *
 * The class path runs instead where ranks cannot be exact or do not pay: NaN (refused there),
 * -0 beside +0 (equal values, apart as keys), single data with more distinct values than uint16
 * keys hold (int32 keys compare no faster than FMNMX), several shares (ranks are of the whole
 * W), narrowing off, and graphs too small for the sort to pay (plan_policy.h, the products'
 * thresholds: n^3 pairs over n^2 values). */
#include <limits.h>

#include "apsp.cuh"
#include "plan_policy.h"
#include "ranks.cuh"

/* uint16 keys: rank + 1 of an edge in 1 .. 65534, 0 and 65535 the empty path and "no path". */
#define AR_U16_MOST 65534u

/* The integer keys' "no edge" and empty path for min.max (MAX = false) or max.min. */
template <class IT, bool MAX> __device__ __forceinline__ IT ar_none() {
  return MAX ? sr_class<IT>::lo() : sr_class<IT>::hi();
}
template <class IT, bool MAX> __device__ __forceinline__ IT ar_one() {
  return MAX ? sr_class<IT>::hi() : sr_class<IT>::lo();
}

/* W' from W and its ranks R (uint16 or uint32, as RT). */
template <class T, class RT, class IT, bool MAX>
__global__ void ar_in(const T *__restrict__ W, const RT *__restrict__ R, IT *__restrict__ Wp,
                      size_t n) {
  const size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= n * n) return;
  const T v = W[idx];
  const bool edge = idx % n != idx / n && v != (MAX ? -(T)INFINITY : (T)INFINITY);
  Wp[idx] = edge ? (IT)(R[idx] + 1u) : ar_none<IT, MAX>();
}

/* D from D' through the table of keys. */
template <class T, class IT, bool MAX>
__global__ void ar_out(const IT *__restrict__ Dp, const typename mr_key<T>::K *__restrict__ table,
                       T *__restrict__ D, size_t count) {
  const size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= count) return;
  const IT x = Dp[idx];
  const T inf = MAX ? -(T)INFINITY : (T)INFINITY; /* no path; the empty path is -inf */
  D[idx] = x == ar_none<IT, MAX>()  ? inf
           : x == ar_one<IT, MAX>() ? -inf
                                    : mr_key<T>::value(table[(size_t)(x - (IT)1)]);
}

/* The integer call on W' (class IT) and D back; W' is the integer call's D too. The ranks go
 * back to the pool once W' is queued (stream-ordered), the table stays for D. */
template <class T, class RT, class IT, bool MAX>
static ck_status ar_run(ck_apsp_args *a, const ck_apsp_part &part, mr_ranks<T> &r) {
  const size_t n = a->n, count = n * n;
  IT *Wp = NULL;
  CK_TRY(ck_dev_alloc((void **)&Wp, count * sizeof(IT)));
  ar_in<T, RT, IT, MAX>
      <<<grid_for(count, MP_THREADS), MP_THREADS>>>((const T *)part.W, (const RT *)r.ranks, Wp, n);
  ck_status s = ck_cuda_check(cudaGetLastError(), "keying the weights");
  ck_dev_free(r.ranks);
  r.ranks = NULL;
  ck_apsp_args b = *a;
  b.t = sizeof(IT) == 2 ? CK_UINT16 : CK_INT32;
  ck_apsp_part q = part;
  q.W = Wp, q.D = Wp;
  if (s == CK_OK) s = ck_apsp_parts(&b, &q, 1);
  if (s == CK_OK) {
    ar_out<T, IT, MAX>
        <<<grid_for(count, MP_THREADS), MP_THREADS>>>(Wp, r.table, (T *)part.D, count);
    s = ck_cuda_check(cudaGetLastError(), "mapping keys back to weights");
    if (s == CK_OK) s = ck_cuda_check(cudaDeviceSynchronize(), "mapping keys back to weights");
  }
  a->cycle_vertex = b.cycle_vertex;
  ck_dev_free(Wp);
  return s;
}

template <class T> static ck_status ar_try(ck_apsp_args *a, const ck_apsp_part &part, int *done) {
  mr_ranks<T> r = {};
  r.na = r.count = a->n * a->n;
  r.same = true;
  if (r.count >= (size_t)INT_MAX) return CK_OK;
  bool ok = false;
  ck_status s = mr_make_ranks<T>((const T *)part.W, (const T *)part.W, &r, &ok);
  if (s != CK_OK || !ok) return s;
  /* the ranks are uint16 up to 65536 distinct values (ranks.cuh), the keys up to AR_U16_MOST */
  const unsigned distinct = r.verdict.distinct;
  const bool u16 = distinct <= AR_U16_MOST, max = a->semiring == CK_SR_MAX_MIN;
  if (!mr_ruled_out(r.verdict.flags) && (u16 || sizeof(T) == 8)) {
    if (u16)
      s = max ? ar_run<T, uint16_t, uint16_t, true>(a, part, r)
              : ar_run<T, uint16_t, uint16_t, false>(a, part, r);
    else if (distinct <= 65536u)
      s = max ? ar_run<T, uint16_t, int32_t, true>(a, part, r)
              : ar_run<T, uint16_t, int32_t, false>(a, part, r);
    else
      s = max ? ar_run<T, uint32_t, int32_t, true>(a, part, r)
              : ar_run<T, uint32_t, int32_t, false>(a, part, r);
    if (s == CK_OK) *done = 1;
    /* no room for W' or the integer call's work: the class path, which needs less (in place
     * where n is whole blocks) */
    else if (s == CK_ERR_OUTOFMEMORY) s = CK_OK;
  }
  if (s != CK_OK) cudaDeviceSynchronize(); /* nothing may still use the ranks */
  ck_dev_free(r.ranks), ck_dev_free(r.table);
  return s;
}

ck_status ap_try_ranks(ck_apsp_args *a, const ck_apsp_part *parts, int count, int *done) {
  *done = 0;
  const double n = (double)a->n;
  if (count != 1 || a->pages || !a->plan || !a->plan->narrow || n * n * n < CK_RANK_MIN_PAIRS ||
      n < CK_RANK_MIN_DEPTH)
    return CK_OK;
  if (a->semiring != CK_SR_MAX_MIN && a->semiring != CK_SR_MIN_MAX) return CK_OK;
  CK_TRY(ck_device_use(parts[0].dev));
  if (a->t == CK_DOUBLE) return ar_try<double>(a, parts[0], done);
  if (a->t == CK_SINGLE) return ar_try<float>(a, parts[0], done);
  return CK_OK;
}
