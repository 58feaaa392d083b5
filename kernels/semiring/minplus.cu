/* Semiring product dispatch: the C entry points of kernels/runtime/ck.h onto the family's runners
 * (minplus.cuh lists the files) by semiring and class, or.and onto the bit-packed boolean family
 * (kernels/boolean), plus the merge of slices of k (inputs larger than the device) and the random
 * device inputs of the benchmarks. */
#include "dispatch.cuh"
#include "minplus.cuh"
#include "orand.h"

int mp_sm_count(void) { return ck_device_sms(); }

template <class T> __global__ void fill_value(T *p, size_t count, T value) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < count) p[idx] = value;
}

/* v3 runs on a 2-D grid of int-indexed tiles; beyond that v2 slices the product. Integer classes
 * run v3 on words (minplus_dpx_run.cuh), which gives way to v2 where no word holds the sums.
 * Small single and double products run on the small kernel, which needs no padded copies and
 * shares k out inside its blocks, or where k is shallow on v1 (MP_SMALL_PAIRS, MS_MIN_DEPTH). */
template <class T, bool ARG, class SR> static ck_status run_warptile(const mp_problem<T, SR> &q) {
  if (round_up(q.n, 128) / 64 > MP_MAX_GRID_Y || q.m > (size_t)INT_MAX - 256)
    return mp_run_regblock<T, ARG>(q);
  if constexpr (mp_traits<T, SR>::is_float) {
    if ((double)q.m * (double)q.n * (double)q.k <= MP_SMALL_PAIRS && q.k <= MP_SMALL_DEPTH)
      return q.k >= MS_MIN_DEPTH ? mp_run_small<T, ARG>(q) : mp_run_coalesced<T, ARG>(q);
    return mp_run_warptile_float<T, ARG>(q);
  } else return mp_run_warptile_int<T, ARG>(q);
}

template <class T, bool ARG, class SR>
static ck_status run_minplus(int kernel, const mp_problem<T, SR> &q) {
  size_t outputs = q.m * q.n;
  if (outputs == 0) return CK_OK;
  if (q.k > (size_t)INT_MAX - 1) return ck_fail(CK_ERR_INVALID, "k must be below 2^31");
  if (q.k == 0) {
    fill_value<T>
        <<<grid_for(outputs, MP_THREADS), MP_THREADS>>>(q.C, outputs, mp_traits<T, SR>::empty());
    if (ARG) fill_value<double><<<grid_for(outputs, MP_THREADS), MP_THREADS>>>(q.K, outputs, 0.0);
    CK_CUDA(cudaGetLastError(), "filling an empty semiring product");
    return CK_OK;
  }
  switch (kernel) {
  case CK_MINPLUS_NAIVE: return mp_run_naive<T, ARG>(q);
  case CK_MINPLUS_COALESCED: return mp_run_coalesced<T, ARG>(q);
  case CK_MINPLUS_REGBLOCK: return mp_run_regblock<T, ARG>(q);
  case CK_MINPLUS_WARPTILE: return run_warptile<T, ARG>(q);
  default: return ck_fail(CK_ERR_INVALID, "kernel %d is not a GPU semiring kernel", kernel);
  }
}

template <class T, class SR> static ck_status run_typed(const ck_product *p) {
  const mp_problem<T, SR> q = {(const T *)p->A, (const T *)p->B, (T *)p->C, p->K, p->m, p->k, p->n};
  ck_plan_note_class(p->t); /* the DPX runners note their words */
  return p->K ? run_minplus<T, true>(p->kernel, q) : run_minplus<T, false>(p->kernel, q);
}

/* or.and: the bit-packed paths by kernel: naive and coalesced the plain one, regblock LOP3 on
 * words, warptile the 1-bit tensor cores where the GPU has them. */
static ck_status run_orand(const ck_product *p) {
  static const int paths[CK_MINPLUS_NUM_GPU] = {CK_ORAND_SIMPLE, CK_ORAND_SIMPLE, CK_ORAND_LOP3,
                                                CK_ORAND_AUTO};
  if (p->kernel < 0 || p->kernel >= CK_MINPLUS_NUM_GPU)
    return ck_fail(CK_ERR_INVALID, "kernel %d is not a GPU semiring kernel", p->kernel);
  ck_plan_note_class(p->t);
  const ck_status s = ck_orand_device(p, paths[p->kernel]);
  const int ran = ck_orand_last_path();
  const ck_words w = ran == CK_ORAND_TENSOR ? CK_WORDS_B1MMA
                     : ran == CK_ORAND_LOP3 ? CK_WORDS_LOP3
                                            : CK_WORDS_BITS;
  if (s == CK_OK && ran != CK_ORAND_AUTO) ck_plan_note_path(w, CK_SHIFTS_NONE, 0); /* AUTO: none */
  return s;
}

static ck_status run_device(const ck_product *p) {
  CK_TRY(ck_semiring_check(p->semiring, p->t));
  if (p->semiring == CK_SR_OR_AND) return run_orand(p);
  int looked = 0; /* done on integer paths, narrowed or ranked */
  CK_TRY(p->semiring == CK_SR_MIN_PLUS ? mp_try_narrow(p, &looked) : mp_try_rank(p, &looked));
  if (looked) return CK_OK;
  return ck_with_semiring(p->semiring, CK_ERR_INVALID, [&](auto sr) {
    typedef typename decltype(sr)::type SR;
    if constexpr (std::is_same<SR, sr_or_and>::value) return CK_ERR_INVALID;
    else
      return ck_with_class<sr_classes<SR>::mask>(p->t, CK_ERR_INVALID, [&](auto c) {
        return run_typed<typename decltype(c)::type, SR>(p);
      });
  });
}

/* Device arrays; what the runners find goes into p's plan (bound for the product: a spread
 * worker's thread carries its own), from the call's first product (a narrowed product's is the
 * integer product inside it). */
extern "C" ck_status ck_minplus_device(const ck_product *p) {
  return ck_plan_run_bound(run_device, p);
}

/* ---- paged products: a run of pages in one launch (pages.c cuts the pages into runs) ---- */

/* Whether the run goes to one launch of the paged kernels rather than page by page through the
 * 2-D path (minplus_policy.cuh says why): the warptile kernel, a batch, shapes the grid and int
 * offsets take, and pages small enough to gain. force: whenever it can. */
static bool pages_batch(const ck_product *p, const ck_page_run *r) {
  const size_t m = p->m, k = p->k, n = p->n, limit = (size_t)INT_MAX - 256;
  if (p->kernel != CK_MINPLUS_WARPTILE || r->count < 2 || m * n == 0 || k == 0 || m > limit ||
      n > limit || k > limit || round_up(n, 64) / 64 > MP_MAX_GRID_Y)
    return false;
  if (r->force) return true;
  const double blocks = (double)r->count * (double)round_up(m, 64) / 64 * (double)round_up(n, 64) /
                        64;
  return m * n < MP_PAGES_LOOP_OUTPUTS &&
         !(k >= MP_PAGES_DEEP_K && blocks < (double)mp_sm_count() * MP_PAGES_FILL_BLOCKS);
}

template <class T, class SR>
static ck_status run_pages_typed(const ck_product *p, const ck_page_run *r, int *done) {
  const mp_problem<T, SR> q = {(const T *)p->A,
                               (const T *)p->B,
                               (T *)p->C,
                               p->K,
                               p->m,
                               p->k,
                               p->n,
                               {r->count, r->a_step, r->b_step}};
  bool took = true;
  ck_status s;
  if constexpr (mp_traits<T, SR>::is_float)
    s = p->K ? mp_run_pages_float<T, true>(q) : mp_run_pages_float<T, false>(q);
  else s = p->K ? mp_run_pages_int<T, true>(q, &took) : mp_run_pages_int<T, false>(q, &took);
  *done = s == CK_OK && took;
  return s;
}

extern "C" ck_status ck_minplus_pages_device(const ck_product *p, const ck_page_run *r, int *done) {
  *done = 0;
  if (!pages_batch(p, r)) return CK_OK;
  ck_plan *const before = ck_plan_bind(p->plan ? p->plan : ck_plan_bound());
  /* a class outside the semiring's: page by page, where the 2-D form gives the error */
  const ck_status s = ck_with_semiring(p->semiring, CK_OK, [&](auto sr) {
    typedef typename decltype(sr)::type SR;
    if constexpr (std::is_same<SR, sr_or_and>::value) return CK_OK; /* page by page */
    else
      return ck_with_class<sr_classes<SR>::mask>(p->t, CK_OK, [&](auto c) {
        ck_plan_note_class(p->t);
        return run_pages_typed<typename decltype(c)::type, SR>(p, r, done);
      });
  });
  if (*done && p->plan && before != p->plan) ck_plan_noted(p->plan);
  ck_plan_bind(before);
  return s;
}

/* ---- combining the products of consecutive slices of k (inputs larger than the device) ----
 * C = ADD(C, Ct), with Octave's rules: NaN terms never win, ties keep the earlier (smaller) k;
 * K takes Kt + k0 where Ct wins. The terms are already saturated, so integers just compare. */
template <class T, class SR>
__global__ void merge_slices(T *__restrict__ C, double *__restrict__ K, const T *__restrict__ Ct,
                             const double *__restrict__ Kt, size_t count, double k0) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= count) return;
  typedef mp_traits<T, SR> tr;
  typedef typename tr::W W;
  W v = (W)C[idx], t = (W)Ct[idx];
  if (tr::better(t, v)) {
    C[idx] = Ct[idx];
    if (K) K[idx] = Kt[idx] + k0;
  }
}

extern "C" ck_status ck_minplus_merge_device(ck_semiring s, ck_dtype t, void *dC, double *dK,
                                             const void *dCt, const double *dKt, size_t count,
                                             size_t k0) {
  if (count == 0) return CK_OK;
  CK_TRY(ck_semiring_check(s, t));
  unsigned g = grid_for(count, MP_THREADS);
  ck_with_semiring(s, 0, [&](auto sr) {
    typedef typename decltype(sr)::type SR;
    return ck_with_class<sr_classes<SR>::mask>(t, 0, [&](auto c) {
      typedef typename decltype(c)::type T;
      merge_slices<T, SR><<<g, MP_THREADS>>>((T *)dC, dK, (const T *)dCt, dKt, count, (double)k0);
      return 0;
    });
  });
  CK_CUDA(cudaGetLastError(), "merging slices of a semiring product");
  return CK_OK;
}

/* ---- random device inputs for the benchmarks: integers 0..999 stored as T (wrapped for 8-bit
 * classes), from a hash of the index, so no host data or transfer is needed to time a kernel;
 * of kind CK_DATA_FRACTIONS each plus 0.5 (floating point only), CK_DATA_WIDE 0..2^20 - 1;
 * logical always 0 or 1, half of each (CK_DATA_BITS). ---- */
template <class T> __global__ void fill_random(T *p, size_t count, uint32_t seed, int kind) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= count) return;
  uint32_t h = (uint32_t)idx * 2654435761u ^ seed ^ (uint32_t)(idx >> 32);
  h ^= h >> 13;
  h *= 0x5bd1e995u;
  h ^= h >> 15;
  if (kind == CK_DATA_BITS) p[idx] = (T)(h >> 7 & 1u);
  else if (kind == CK_DATA_WIDE) p[idx] = (T)(h % (1u << 20));
  else if (kind == CK_DATA_FRACTIONS) p[idx] = (T)((double)(h % 1000u) + 0.5);
  else p[idx] = (T)(h % 1000u);
}

extern "C" ck_status ck_fill_random_device(ck_dtype t, void *p, size_t count, uint32_t seed) {
  return ck_fill_random_kind(t, p, count, seed, CK_DATA_INTS);
}

extern "C" ck_status ck_fill_random_kind(ck_dtype t, void *p, size_t count, uint32_t seed,
                                         int kind) {
  if (count == 0) return CK_OK;
  unsigned g = grid_for(count, MP_THREADS);
  if (t == CK_LOGICAL) kind = CK_DATA_BITS;
  const bool known = ck_with_class<~0u>(t, false, [&](auto c) {
    typedef typename decltype(c)::type T;
    fill_random<T><<<g, MP_THREADS>>>((T *)p, count, seed, kind);
    return true;
  });
  if (!known) return ck_fail(CK_ERR_INVALID, "cannot fill class %d", (int)t);
  CK_CUDA(cudaGetLastError(), "filling random inputs");
  return CK_OK;
}
