/* max.min and min.max on single and double operands, run on their values' ranks (gpu_mxm's
 * "warptile").
 *
 * These two semirings only compare, so a product commutes with any map that keeps order and
 * equality. Every value of A and B is replaced by its rank among the distinct values of both, the
 * product runs on the ranks in an integer class, and C's ranks are mapped back. The integer
 * compares run far faster than double's (on an H100 a double pick is DSETP and two SELs:
 * 3.1 Tpair/s; 32-bit words 8.2 and packed 16-bit 16.3, doc/semirings.md). The ranks are uint16
 * where there are at most 65536 distinct values, and int32 otherwise.
 *
 * The answer is the class path's, element for element, K included:
 *   - equal values get equal ranks, and order is kept, so every compare of the product answers
 *     the same on ranks as on values, and the first k that attains C(i,j) is the same k;
 *   - k >= 1, so every C(i,j) is one of the terms, which is a value of A or B and so in the table.
 * The call falls back to the class path for:
 *   - NaN, because min and max ignore a NaN operand and ADD ignores a NaN term, and no single rank
 *     does both;
 *   - -0 beside +0, which are equal as values but apart as keys;
 *   - more than 2^31 - 1 values, beyond a rank's range;
 *   - single data with more than 65536 distinct values, where int32's compares gain nothing on
 *     FMNMX's.
 *
 * The ranks come from one radix sort of (key, position) pairs, where a key is the value's bits
 * made to order as unsigned integers. A scan of "differs from the one before" then gives each
 * sorted pair its rank, which goes back to its position; the first of each run fills the table.
 * The verdict (the flags and the count of distinct values) is read back once, after all that is
 * queued. The plan decides whether a call ranks at all (plan.c; the sizes where it pays are in
 * plan_policy.h). */
#include <cub/cub.cuh>

#include "minplus.cuh"
#include "ranks.cuh"

bool mr_ruled_out(unsigned flags) {
  return (flags & MR_NAN) || (flags & (MR_NEG_ZERO | MR_POS_ZERO)) == (MR_NEG_ZERO | MR_POS_ZERO);
}

/* keys[i] and pos[i] = i, over A's values then B's; the flags OR-ed into v->flags. */
template <class T>
__global__ void mr_keys(const T *__restrict__ A, size_t na, const T *__restrict__ B, size_t count,
                        typename mr_key<T>::K *__restrict__ keys, uint32_t *__restrict__ pos,
                        mr_verdict *v) {
  unsigned flags = 0;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
    const T x = i < na ? A[i] : B[i - na];
    flags |= x != x ? MR_NAN : x == (T)0 ? (signbit(x) ? MR_NEG_ZERO : MR_POS_ZERO) : 0u;
    keys[i] = mr_key<T>::of(x);
    pos[i] = (uint32_t)i;
  }
  for (int o = 16; o; o /= 2) flags |= __shfl_xor_sync(0xffffffffu, flags, o);
  if (threadIdx.x % 32 == 0 && flags) atomicOr(&v->flags, flags);
}

/* heads[i] = 1 where sorted key i differs from the one before (the first of its run). */
template <class K>
__global__ void mr_heads(const K *__restrict__ keys, uint32_t *__restrict__ heads, size_t count) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) heads[i] = i == 0 || keys[i] != keys[i - 1];
}

/* After the inclusive scan of the heads (ends[i] = rank + 1): each position gets its rank,
 * uint16 where the distinct values fit, and the first of each run puts its key in the table. */
template <class K>
__global__ void mr_scatter(const K *__restrict__ keys, const uint32_t *__restrict__ pos,
                           const uint32_t *__restrict__ ends, size_t count,
                           uint32_t *__restrict__ ranks, K *__restrict__ table, mr_verdict *v) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const uint32_t distinct = ends[count - 1], r = ends[i] - 1;
  if (distinct <= 65536u) ((uint16_t *)ranks)[pos[i]] = (uint16_t)r;
  else ranks[pos[i]] = r;
  if (i == 0 || keys[i] != keys[i - 1]) table[r] = keys[i];
  if (i == 0) v->distinct = distinct;
}

template <class T, class R>
__global__ void mr_values_out(const R *__restrict__ ranks, const typename mr_key<T>::K *table,
                              T *__restrict__ C, size_t count) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) C[i] = mr_key<T>::value(table[ranks[i]]);
}

static void *mr_alloc(size_t bytes, bool *ok) {
  void *p = NULL;
  if (*ok && ck_dev_alloc(&p, bytes) != CK_OK) *ok = false;
  return p;
}

template <class T> ck_status mr_make_ranks(const T *A, const T *B, mr_ranks<T> *r, bool *ok) {
  typedef typename mr_key<T>::K K;
  const int n_items = (int)r->count;
  K *keys[2];
  uint32_t *pos[2];
  mr_verdict *dv = NULL;
  void *tmp = NULL;
  size_t sort_bytes = 0, scan_bytes = 0;
  cub::DoubleBuffer<K> kb(NULL, NULL);
  cub::DoubleBuffer<uint32_t> pb(NULL, NULL);
  CK_CUDA(cub::DeviceRadixSort::SortPairs(NULL, sort_bytes, kb, pb, n_items),
          "sizing the sort of ranks");
  CK_CUDA(cub::DeviceScan::InclusiveSum(NULL, scan_bytes, (uint32_t *)NULL, n_items),
          "sizing the scan of ranks");
  *ok = true;
  for (int b = 0; b < 2; b++) {
    keys[b] = (K *)mr_alloc(r->count * sizeof(K), ok);
    pos[b] = (uint32_t *)mr_alloc(r->count * sizeof(uint32_t), ok);
  }
  r->ranks = (uint32_t *)mr_alloc(r->count * sizeof(uint32_t), ok);
  dv = (mr_verdict *)mr_alloc(sizeof *dv, ok);
  tmp = mr_alloc(sort_bytes > scan_bytes ? sort_bytes : scan_bytes, ok);
  ck_status s = CK_OK;
  if (*ok) {
    kb = cub::DoubleBuffer<K>(keys[0], keys[1]);
    pb = cub::DoubleBuffer<uint32_t>(pos[0], pos[1]);
    s = ck_cuda_check(cudaMemsetAsync(dv, 0, sizeof *dv), "clearing the verdict of ranks");
    mr_keys<T><<<grid_for(r->count / 4 + 1, MP_THREADS), MP_THREADS>>>(
        A, r->na, B, r->count, kb.Current(), pb.Current(), dv);
  }
  if (*ok && s == CK_OK)
    s = ck_cuda_check(cub::DeviceRadixSort::SortPairs(tmp, sort_bytes, kb, pb, n_items),
                      "sorting values for their ranks");
  if (*ok && s == CK_OK) {
    uint32_t *const ends = pb.Alternate();
    mr_heads<K><<<grid_for(r->count, MP_THREADS), MP_THREADS>>>(kb.Current(), ends, r->count);
    s = ck_cuda_check(cub::DeviceScan::InclusiveSum(tmp, scan_bytes, ends, n_items),
                      "scanning the ranks");
    r->table = kb.Alternate(); /* the sort's spare buffer, as large as the keys */
    if (s == CK_OK)
      mr_scatter<K><<<grid_for(r->count, MP_THREADS), MP_THREADS>>>(
          kb.Current(), pb.Current(), ends, r->count, r->ranks, r->table, dv);
    if (s == CK_OK) s = ck_cuda_check(cudaGetLastError(), "ranking values");
    if (s == CK_OK)
      s = ck_cuda_check(cudaMemcpy(&r->verdict, dv, sizeof *dv, cudaMemcpyDeviceToHost),
                        "reading the verdict of ranks");
  }
  /* what stays: the ranks and the table (the spare key buffer) */
  for (int b = 0; b < 2; b++) {
    if (!(*ok && s == CK_OK && keys[b] == r->table)) ck_dev_free(keys[b]);
    ck_dev_free(pos[b]);
  }
  ck_dev_free(dv), ck_dev_free(tmp);
  if (!*ok || s != CK_OK) {
    ck_dev_free(r->ranks);
    r->ranks = NULL, r->table = NULL;
  }
  return s;
}

template ck_status mr_make_ranks<float>(const float *, const float *, mr_ranks<float> *, bool *);
template ck_status mr_make_ranks<double>(const double *, const double *, mr_ranks<double> *,
                                         bool *);

/* The product on the ranks in class IT, and C's ranks back to values. */
template <class T, class IT> static ck_status mr_run(const ck_product *p, const mr_ranks<T> &r) {
  const size_t nc = p->m * p->n;
  IT *const ranks = (IT *)r.ranks;
  IT *dC = NULL;
  if (ck_dev_alloc((void **)&dC, nc * sizeof(IT)) != CK_OK) return CK_ERR_OUTOFMEMORY;
  ck_product q = *p;
  q.t = sizeof(IT) == 2 ? CK_UINT16 : CK_INT32;
  q.A = ranks, q.B = r.same ? ranks : ranks + r.na, q.C = dC;
  ck_status s = ck_minplus_device(&q);
  if (s == CK_OK) {
    mr_values_out<T, IT><<<grid_for(nc, MP_THREADS), MP_THREADS>>>(dC, r.table, (T *)p->C, nc);
    s = ck_cuda_check(cudaGetLastError(), "mapping ranks back to values");
  }
  ck_dev_free(dC);
  return s;
}

template <class T> static ck_status mr_rank_typed(const ck_product *p, int *done) {
  mr_ranks<T> r = {};
  r.na = p->m * p->k;
  r.same = p->A == p->B && r.na == p->k * p->n;
  r.count = r.same ? r.na : r.na + p->k * p->n;
  if (r.count > (size_t)INT_MAX) return CK_OK;
  bool ok = false;
  ck_status s = mr_make_ranks<T>((const T *)p->A, (const T *)p->B, &r, &ok);
  if (s != CK_OK || !ok) return s;
  const bool narrow = r.verdict.distinct <= 65536u;
  if (!mr_ruled_out(r.verdict.flags) && (narrow || sizeof(T) == 8)) {
    s = narrow ? mr_run<T, uint16_t>(p, r) : mr_run<T, int32_t>(p, r);
    if (s == CK_OK) *done = 1;
    else if (s == CK_ERR_OUTOFMEMORY) s = CK_OK; /* no room for C's ranks: the class path */
  }
  if (s != CK_OK) cudaDeviceSynchronize(); /* nothing may still use the ranks */
  ck_dev_free(r.ranks), ck_dev_free(r.table);
  return s;
}

ck_status mp_try_rank(const ck_product *p, int *done) {
  *done = 0;
  if (p->kernel != CK_MINPLUS_WARPTILE || p->m == 0 || p->n == 0 || p->k == 0) return CK_OK;
  if (p->semiring != CK_SR_MAX_MIN && p->semiring != CK_SR_MIN_MAX) return CK_OK;
  if (!(p->plan ? p->plan->narrow : ck_plan_narrow_default(p))) return CK_OK;
  if (p->t == CK_DOUBLE) return mr_rank_typed<double>(p, done);
  if (p->t == CK_SINGLE) return mr_rank_typed<float>(p, done);
  return CK_OK;
}
