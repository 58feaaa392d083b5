/* All-pairs shortest paths on the GPU: the driver of blocked Floyd-Warshall (apsp.cuh has the
 * algorithm and the work types). What it does around the rounds (apsp_rounds.cu): survey the
 * weights (NaN, -Inf, a negative diagonal, the integer range), pick the work type, convert W into
 * the padded work matrix, run the rounds, and convert back, on each device's share of the rows
 * (one share on one device).
 *
 * Longest paths (max.+) run as shortest paths on -W (NEG): max (a + b) = -min (-a + -b) and
 * negation is exact, so D = -D' and P = P' (the same strict improvements in the same order), a
 * positive cycle is a negative cycle of -W, and max.+'s "no edge" (-Inf, intmin) is min.+'s
 * (+Inf, intmax) once negated. A zero length comes back +0: sums of -W's zeros can give -0
 * where W's give +0. */
#include <limits.h>
#include <stdlib.h>
#include <type_traits>

#include "apsp.cuh"
#include "dispatch.cuh"

/* ---- the survey ---- */

struct ap_facts {
  int nan, neginf;  /* floating point: any NaN, any -Inf off the diagonal */
  int negdiag;      /* the smallest vertex with a negative diagonal entry; INT_MAX: none */
  int fraction;     /* floating point: an edge that is not an integer of at most 2^31, or -0 */
  long long lo, hi; /* the extremes of the edges (not "no edge", off the diagonal) */
};

/* An edge of single or double data that the integer work types cannot take as it is. */
template <class Tc> __device__ __forceinline__ bool ap_fraction(Tc v) {
  return mp_not_whole(v, (Tc)2147483648.0);
}

/* No edge in W: the ADD's identity (+Inf or intmax for min.+; -Inf or intmin for max.+, NEG). */
template <class Tc, bool NEG> __device__ __forceinline__ bool ap_no_edge(Tc v) {
  if constexpr (mp_traits<Tc>::is_float) return v == (NEG ? -(Tc)INFINITY : (Tc)INFINITY);
  else return v == (NEG ? mp_traits<Tc>::lowest() : mp_traits<Tc>::empty());
}

/* W's columns c0 .. c0 + cols - 1 (W points at column c0), as the shortest-path problem sees
 * them: -W for NEG (integers in 64 bits, where -intmin fits). */
template <class Tc, bool NEG>
__global__ void ap_survey(const Tc *__restrict__ W, size_t n, size_t c0, size_t cols, ap_facts *f) {
  long long lo = LLONG_MAX, hi = LLONG_MIN;
  int nan = 0, neginf = 0, negdiag = INT_MAX, fraction = 0;
  const size_t count = cols * n, stride = (size_t)gridDim.x * blockDim.x;
  for (size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x; idx < count; idx += stride) {
    const Tc v = W[idx];
    size_t c, r; /* W(r, c) */
    split_index(idx, n, c, r);
    c += c0;
    if (r == c) {
      if (std::is_signed<Tc>::value && (NEG ? v > (Tc)0 : v < (Tc)0))
        negdiag = min(negdiag, (int)r);
      continue;
    }
    if (ap_no_edge<Tc, NEG>(v)) continue;
    if constexpr (mp_traits<Tc>::is_float) {
      const Tc u = NEG ? -v : v;
      nan |= u != u;
      neginf |= u == -(Tc)INFINITY;
      if (u != u || u == -(Tc)INFINITY) continue;
      if (ap_fraction(v)) { /* v, not u: the integer work types give +0 for -W's zeros too */
        fraction = 1;
        continue;
      }
    }
    const long long w = NEG ? -(long long)v : (long long)v;
    lo = min(lo, w);
    hi = max(hi, w);
  }
  for (int o = 16; o > 0; o /= 2) {
    lo = min(lo, __shfl_xor_sync(0xffffffffu, lo, o));
    hi = max(hi, __shfl_xor_sync(0xffffffffu, hi, o));
    nan |= __shfl_xor_sync(0xffffffffu, nan, o);
    neginf |= __shfl_xor_sync(0xffffffffu, neginf, o);
    fraction |= __shfl_xor_sync(0xffffffffu, fraction, o);
    negdiag = min(negdiag, __shfl_xor_sync(0xffffffffu, negdiag, o));
  }
  if (threadIdx.x % 32) return;
  if (nan) atomicOr(&f->nan, 1);
  if (neginf) atomicOr(&f->neginf, 1);
  if (fraction) atomicOr(&f->fraction, 1);
  if (negdiag != INT_MAX) atomicMin(&f->negdiag, negdiag);
  if (lo != LLONG_MAX) {
    atomicMin(&f->lo, lo);
    atomicMax(&f->hi, hi);
  }
}

/* "No edge" in work type T for data of class Tc: the class's intmax for integers (apsp.cuh),
 * for single and double data in an integer work type the largest value whose sum with another
 * cannot wrap. */
template <class Tc, class T> __host__ __device__ __forceinline__ T ap_no_path() {
  if constexpr (mp_traits<T>::is_float) return (T)INFINITY;
  else if constexpr (mp_traits<Tc>::is_float) return sizeof(T) == 2 ? (T)INT16_MAX : (T)INT32_MAX;
  else return (T)mp_traits<Tc>::empty();
}

/* ---- conversions ----
 * In: a share's rows of X (rows x np, X's row r0 first) from W's columns r0 .. as they lie in
 * memory (so X is W transposed, apsp.cuh): the diagonal 0, no edge `inf`, the padding isolated
 * vertices; N the next hop of each edge (its column). X may be W itself (same element size,
 * np == n): each element is read, then written, by the same thread. */
template <class Tc, class T, bool NEG>
__global__ void ap_convert_in(const Tc *W, size_t n, T *X, int *N, size_t np, size_t r0,
                              size_t rows, T inf) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= rows * np) return;
  size_t lr, c;
  split_index(idx, np, lr, c);
  const size_t r = r0 + lr;
  bool edge = false;
  T x = r == c ? (T)0 : inf;
  if (r < n && c < n && r != c) {
    const Tc v = W[lr * n + c];
    edge = !ap_no_edge<Tc, NEG>(v);
    if constexpr (!NEG) {
      if (edge) x = (T)v;
    } else if constexpr (mp_traits<Tc>::is_float) {
      if (edge) x = (T)-v;
    } else {
      if (edge) x = (T)(-(long long)v);
    }
  }
  X[idx] = x;
  if (N) N[idx] = edge ? (int)c + 1 : 0;
}

/* Out: a share's columns of D (cols of them) in the class of W, and of P. Integers run in double
 * saturate to the class, and a length of intmax or more is no path (P 0), as in the integer work
 * types. Single and double data run in an integer work type (ap_pick_float) have no path at its
 * "no edge" (ap_no_path) and above, +Inf. */
template <class T, class Tc, bool NEG>
__global__ void ap_convert_out(const T *X, const int *N, size_t np, Tc *D, int32_t *P, size_t n,
                               size_t cols) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= cols * n) return;
  size_t r, c;
  split_index(idx, n, r, c);
  const T x = X[r * np + c];
  int nx = N ? N[r * np + c] : 0;
  typedef mp_traits<Tc> tr;
  Tc d;
  if constexpr (mp_traits<Tc>::is_float && !mp_traits<T>::is_float) {
    const bool none = x >= ap_no_path<Tc, T>();
    d = NEG ? (none ? -(Tc)INFINITY : (Tc)0 - (Tc)x) : (none ? (Tc)INFINITY : (Tc)x);
  } else if constexpr (mp_traits<Tc>::is_float) {
    d = NEG ? (Tc)0 - (Tc)x : (Tc)x; /* 0 - x: +0 for a zero length, -Inf for no path */
  } else if constexpr (!mp_traits<T>::is_float) { /* min.+ alone: max.+ integers run in double */
    d = (Tc)x;
  } else if (!NEG) {
    if (x >= (double)tr::empty()) d = tr::empty(), nx = 0;
    else if (x <= (double)tr::lowest()) d = tr::lowest();
    else d = (Tc)x;
  } else { /* max.+: a length no longer than intmin is none; beyond intmax saturates */
    if (-x <= (double)tr::lowest()) d = tr::lowest(), nx = 0;
    else if (-x >= (double)tr::empty()) d = tr::empty();
    else d = (Tc)-x;
  }
  D[idx] = d;
  if (P) P[idx] = nx;
}

/* The work type of an integer class and its range (apsp.cuh). */
enum ap_form { AP_DOUBLE, AP_U32, AP_U16, AP_CLASS };

static ap_form ap_pick_form(ck_dtype t, const ap_facts &f) {
  if (t == CK_UINT32 || f.lo < 0) return AP_DOUBLE;
  return t == CK_INT32 || t == CK_UINT16 ? AP_U32 : AP_U16;
}

/* Single and double data whose edges are all nonnegative integers run in an integer work type
 * when nothing can differ (issue 17, as gpu_minplus does): every shortest path's length, at most
 * (n - 1) times the longest edge, is below the work type's "no edge" (ap_no_path), so no sum that
 * can win reaches it, and, for single, at most 2^24, so that the float path's sums are exact too.
 * Then D and P are the float path's bit for bit. Otherwise (fractions, -0, negative edges, longer
 * paths, or a plan that does not narrow: narrowing off) they work in their own class. */
static ap_form ap_pick_float(ck_dtype t, const ap_facts &f, size_t n, bool narrow) {
  if (f.fraction || f.lo < 0 || !narrow) return AP_CLASS;
  const double longest = f.lo <= f.hi ? (double)(n - 1) * (double)f.hi : 0.0;
  if (t == CK_SINGLE && longest > 16777216.0) return AP_CLASS;
  return longest < INT16_MAX ? AP_U16 : longest < INT32_MAX ? AP_U32 : AP_CLASS;
}

/* What each share's device keeps beside its rows: the survey's facts and the negative-cycle
 * flag. */
struct ap_scratch {
  ap_facts f;
  int neg;
};

/* The rounds' slabs in work type T for class Tc: each share's X and N in its D and P where the
 * work type's values are the class's as they lie, else allocated; W converted into them. */
template <class Tc, class T, bool NEG>
static ck_status ap_load(ck_apsp_args *a, const ck_apsp_part *parts, int count, ap_scratch **sc,
                         ap_matrix<T, sr_min_plus> *slabs, bool &in_place) {
  const size_t n = a->n, np = round_up(n, AP_BLOCK);
  in_place = !NEG && np == n && sizeof(T) == sizeof(Tc) &&
             (bool)mp_traits<T>::is_float == (bool)mp_traits<Tc>::is_float;
  for (int i = 0; i < count; i++) {
    const ck_apsp_part &p = parts[i];
    ap_matrix<T, sr_min_plus> &m = slabs[i];
    m = {in_place ? (T *)p.D : NULL, in_place ? p.P : NULL, np, p.r0, p.rows, &sc[i]->neg, p.dev};
    CK_TRY(ck_device_use(p.dev));
    if (!m.X) CK_TRY(ck_dev_alloc((void **)&m.X, p.rows * np * sizeof(T)));
    if (a->P && !m.N) CK_TRY(ck_dev_alloc((void **)&m.N, p.rows * np * sizeof(int)));
    ap_convert_in<Tc, T, NEG><<<grid_for(p.rows * np, MP_THREADS), MP_THREADS>>>(
        (const Tc *)p.W, n, m.X, m.N, np, p.r0, p.rows, ap_no_path<Tc, T>());
    CK_CUDA(cudaGetLastError(), "converting the weights");
  }
  return CK_OK;
}

/* The smallest vertex on a negative cycle that any share saw (INT_MAX: none). */
static ck_status ap_cycle(const ck_apsp_part *parts, int count, ap_scratch **sc, int &found) {
  found = INT_MAX;
  for (int i = 0; i < count; i++) {
    int v = INT_MAX;
    CK_TRY(ck_device_use(parts[i].dev));
    CK_CUDA(cudaMemcpy(&v, &sc[i]->neg, sizeof(int), cudaMemcpyDeviceToHost),
            "reading the negative-cycle flag");
    if (v < found) found = v;
  }
  return CK_OK;
}

/* The whole device call for class Tc in work type T. */
template <class Tc, class T, bool NEG>
static ck_status ap_run(ck_apsp_args *a, const ck_apsp_part *parts, int count, ap_scratch **sc) {
  ap_matrix<T, sr_min_plus> slabs[CK_SPREAD_WORKERS] = {};
  bool in_place = false;
  ck_status st = ap_load<Tc, T, NEG>(a, parts, count, sc, slabs, in_place);
  if (st == CK_OK) st = ap_rounds<T, sr_min_plus>(slabs, count, a);
  int found = INT_MAX;
  if (st == CK_OK) st = ap_cycle(parts, count, sc, found);
  if (st == CK_OK && found != INT_MAX) st = ck_apsp_unbounded(a, (size_t)found, 0);
  for (int i = 0; st == CK_OK && !in_place && i < count; i++) {
    const size_t cols = parts[i].cols;
    st = ck_device_use(parts[i].dev);
    if (st != CK_OK) break;
    ap_convert_out<T, Tc, NEG><<<grid_for(cols * a->n, MP_THREADS), MP_THREADS>>>(
        slabs[i].X, slabs[i].N, slabs[i].np, (Tc *)parts[i].D, parts[i].P, a->n, cols);
    st = ck_cuda_check(cudaDeviceSynchronize(), "converting shortest paths");
  }
  for (int i = 0; !in_place && i < count; i++) { /* after a failure too: the rounds waited */
    if (ck_device_use(parts[i].dev) != CK_OK) continue;
    if (st != CK_OK) (void)cudaDeviceSynchronize();
    ck_dev_free(slabs[i].X);
    ck_dev_free(slabs[i].N);
  }
  return st;
}

/* Every share's survey, put together. */
template <class Tc, bool NEG>
static ck_status ap_survey_all(const ck_apsp_args *a, const ck_apsp_part *parts, int count,
                               ap_scratch **sc, ap_facts &f) {
  const ap_scratch init = {{0, 0, INT_MAX, 0, LLONG_MAX, LLONG_MIN}, INT_MAX};
  f = init.f;
  for (int i = 0; i < count; i++) {
    const size_t cols = parts[i].cols;
    CK_TRY(ck_device_use(parts[i].dev));
    CK_TRY(ck_dev_alloc((void **)&sc[i], sizeof(ap_scratch)));
    CK_CUDA(cudaMemcpy(sc[i], &init, sizeof init, cudaMemcpyHostToDevice), "clearing the survey");
    const unsigned most = (unsigned)mp_sm_count() * 8, need = grid_for(cols * a->n, MP_THREADS);
    ap_survey<Tc, NEG><<<(need < most ? need : most), MP_THREADS>>>((const Tc *)parts[i].W, a->n,
                                                                    parts[i].r0, cols, &sc[i]->f);
  }
  for (int i = 0; i < count; i++) {
    ap_facts g;
    CK_TRY(ck_device_use(parts[i].dev));
    CK_CUDA(cudaMemcpy(&g, &sc[i]->f, sizeof g, cudaMemcpyDeviceToHost), "surveying the weights");
    f.nan |= g.nan, f.neginf |= g.neginf, f.fraction |= g.fraction;
    f.negdiag = g.negdiag < f.negdiag ? g.negdiag : f.negdiag;
    f.lo = g.lo < f.lo ? g.lo : f.lo;
    f.hi = g.hi > f.hi ? g.hi : f.hi;
  }
  return CK_OK;
}

template <class Tc, bool NEG>
static ck_status ap_class(ck_apsp_args *a, const ck_apsp_part *parts, int count, ap_scratch **sc) {
  ap_facts f;
  CK_TRY((ap_survey_all<Tc, NEG>(a, parts, count, sc, f)));
  if (f.nan || f.neginf)
    return ck_fail(CK_ERR_INVALID, "edge weights must not be %s", ck_apsp_refused(a->semiring));
  if (f.negdiag != INT_MAX) return ck_apsp_unbounded(a, (size_t)f.negdiag, 1);
  /* max.+ on integers in double: the integer work types' "no path" is the class's intmax, which
   * in -W is the weight -intmax, a path (max.+'s none is intmin) */
  const ap_form form = mp_traits<Tc>::is_float ? ap_pick_float(a->t, f, a->n, a->plan->narrow)
                       : NEG                   ? AP_DOUBLE
                                               : ap_pick_form(a->t, f);
  a->plan->work /* found: the work type */ = form == AP_U32      ? CK_UINT32
                                             : form == AP_U16    ? CK_UINT16
                                             : form == AP_DOUBLE ? CK_DOUBLE
                                                                 : a->t;
  if constexpr (!NEG || mp_traits<Tc>::is_float) { /* max.+ integers never take these */
    if (form == AP_U32) return ap_run<Tc, uint32_t, NEG>(a, parts, count, sc);
    if (form == AP_U16) return ap_run<Tc, uint16_t, NEG>(a, parts, count, sc);
  }
  if constexpr (mp_traits<Tc>::is_float) return ap_run<Tc, Tc, NEG>(a, parts, count, sc);
  else return ap_run<Tc, double, NEG>(a, parts, count, sc);
}

template <class Tc>
static ck_status ap_class_parts(ck_apsp_args *a, const ck_apsp_part *parts, int count) {
  ap_scratch *sc[CK_SPREAD_WORKERS] = {};
  const int back = ck_device_current();
  ck_status st = a->semiring == CK_SR_MAX_PLUS ? ap_class<Tc, true>(a, parts, count, sc)
                                               : ap_class<Tc, false>(a, parts, count, sc);
  for (int i = 0; i < count; i++) ck_dev_free(sc[i]);
  if (back >= 0) ck_device_use(back);
  return st;
}

extern "C" size_t ck_apsp_block(void) { return AP_BLOCK; }

extern "C" ck_status ck_apsp_parts(ck_apsp_args *a, const ck_apsp_part *parts, int count) {
  CK_TRY(ck_device_init());
  if (a->n == 0) return CK_OK;
  if (a->n > (size_t)INT_MAX - AP_BLOCK)
    return ck_fail(CK_ERR_INVALID, "shortest paths: n = %zu is too large", a->n);
  if (count < 1 || count > CK_SPREAD_WORKERS)
    return ck_fail(CK_ERR_INVALID, "shortest paths run on 1 to %d devices", CK_SPREAD_WORKERS);
  if ((int)a->t < 0 || a->t >= CK_NUM_DTYPES || !(CK_PRODUCT_CLASSES >> a->t & 1u))
    return ck_fail(CK_ERR_INVALID,
                   "shortest paths take double, single and integers up to 32 bits, not %s",
                   ck_dtype_name(a->t));
  if (a->semiring != CK_SR_MIN_PLUS && a->semiring != CK_SR_MAX_PLUS)
    return ck_fail(CK_ERR_INVALID, "the GPU's path rounds take min.+ and max.+, not %s",
                   ck_plan_semiring_name((int)a->semiring));
  return ck_with_class<CK_PRODUCT_CLASSES>(a->t, CK_ERR_INVALID, [&](auto c) {
    return ap_class_parts<typename decltype(c)::type>(a, parts, count);
  });
}
