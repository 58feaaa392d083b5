/* CPU reference for all-pairs shortest paths: plain Floyd-Warshall with the predecessor matrix,
 * independent of the GPU's blocked algorithm (the tests compare the two), and the "cpu" kernel
 * of gpu_apsp on machines without a GPU. Column-major as Octave stores W: round k updates every
 * column j from D(k, j) and column k, in parallel over columns. Column k and row k do not change
 * in round k (D(k, k) = 0), so the columns are independent.
 * Floating point adds in the class of W; integers in 64 bits, exactly, saturated at the end. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ck.h"
#include "cpu_semiring.h"

/* Rounds between looks at the caller's Ctrl-C. */
#define CANCEL_EVERY 16

/* The semiring the reference runs, by its add's and multiply's forms (cpu_semiring.h): shortest
 * paths take min.+ (ck_plan_apsp refuses the others). */
#define BETTER CK_CPU_BETTER_MIN
#define TIMES CK_CPU_MUL_PLUS
#define EMPTY CK_CPU_EMPTY_MIN
#define ONE CK_CPU_ONE_PLUS

/* One round of Floyd-Warshall through vertex k, with the predecessors when P; NONE: no path (the
 * add's identity, checked where combining with it could make a better path: integers with
 * negative weights). */
#define FW_ROUND(NAME, T)                                          \
  static void NAME(T *D, int32_t *P, size_t n, size_t k, T NONE) { \
    const T *dk = D + k * n; /* column k: D(i, k) */               \
    _Pragma("omp parallel for schedule(static)")                   \
    for (ptrdiff_t jj = 0; jj < (ptrdiff_t)n; jj++) {              \
      const size_t j = (size_t)jj;                                 \
      const T dkj = D[k + j * n];                                  \
      if (!BETTER(dkj, NONE)) continue;                            \
      T *dj = D + j * n;                                           \
      int32_t *pj = P ? P + j * n : NULL;                          \
      const int32_t pkj = P ? pj[k] : 0;                           \
      for (size_t i = 0; i < n; i++) {                             \
        if (!BETTER(dk[i], NONE)) continue;                        \
        const T s = TIMES(dk[i], dkj);                             \
        if (BETTER(s, dj[i])) {                                    \
          dj[i] = s;                                               \
          if (pj) pj[i] = pkj;                                     \
        }                                                          \
      }                                                            \
    }                                                              \
  }
FW_ROUND(fw_round_f, float)
FW_ROUND(fw_round_d, double)
FW_ROUND(fw_round_i, int64_t)

/* An integer class's bounds, and element idx of an array of it: a case for each integer class
 * the products take (ck_tables.h). */
#define INT_CASE_(a, E, T, N, B, F, P, L, MX) CK_IF_##P(CK_IF_NOT_##F(case E : a(T)))
#define BOUNDS_(T)                                          \
  *lo = (int64_t)CK_CPU_LO(T), *hi = (int64_t)CK_CPU_HI(T); \
  return;
#define LOAD_(T) return ((const T *)W)[idx];
#define STORE_(T)       \
  ((T *)D)[idx] = (T)v; \
  return;

static void int_bounds(ck_dtype t, int64_t *lo, int64_t *hi) {
  switch (t) {
    CK_CLASS_TABLE(INT_CASE_, BOUNDS_)
  default: *lo = *hi = 0;
  }
}

static int64_t int_load(ck_dtype t, const void *W, size_t idx) {
  switch (t) {
    CK_CLASS_TABLE(INT_CASE_, LOAD_)
  default: return 0;
  }
}

static void int_store(ck_dtype t, void *D, size_t idx, int64_t v) {
  switch (t) {
    CK_CLASS_TABLE(INT_CASE_, STORE_)
  default: return;
  }
}

/* The rounds, stopping at an unbounded path (a diagonal better than the empty path: for min.+ a
 * negative cycle) or when the caller cancels. */
#define FW_ALL(NAME, T, ROUND)                                                                 \
  static ck_status NAME(ck_apsp_args *a, T *D, T INF) {                                        \
    const size_t n = a->n;                                                                     \
    for (size_t k = 0; k < n; k++) {                                                           \
      if (k % CANCEL_EVERY == 0 && a->cancelled && a->cancelled(a->ctx))                       \
        return ck_fail(CK_ERR_INTERRUPTED,                                                     \
                       "shortest paths (cpu): interrupted at vertex %zu of %zu", k, n);        \
      ROUND(D, a->P, n, k, INF);                                                               \
      for (size_t i = 0; i < n; i++)                                                           \
        if (BETTER(D[i + i * n], (T)ONE)) {                                                    \
          a->cycle_vertex = i + 1;                                                             \
          return ck_fail(CK_ERR_NEGCYCLE, "the graph has a negative cycle through vertex %zu", \
                         i + 1);                                                               \
        }                                                                                      \
      if (a->progress && k % 256 == 255) a->progress(a->ctx, k + 1, n);                        \
    }                                                                                          \
    return CK_OK;                                                                              \
  }
FW_ALL(fw_all_f, float, fw_round_f)
FW_ALL(fw_all_d, double, fw_round_d)
FW_ALL(fw_all_i, int64_t, fw_round_i)

/* D and P before the first round: W with the diagonal 0, no edge INF; P(i, j) = i where there is
 * an edge. NaN, -Inf and a negative diagonal are refused here. */
static ck_status start(ck_apsp_args *a, void *work) {
  const size_t n = a->n;
  const ck_dtype t = a->t;
  for (size_t j = 0; j < n; j++)
    for (size_t i = 0; i < n; i++) {
      const size_t idx = i + j * n;
      int edge;
      if (t == CK_SINGLE || t == CK_DOUBLE) {
        double v = t == CK_SINGLE ? ((const float *)a->W)[idx] : ((const double *)a->W)[idx];
        if (isnan(v) || (isinf(v) && v < 0))
          return ck_fail(CK_ERR_INVALID, "edge weights must not be NaN or -Inf (no edge is +Inf)");
        if (i == j && BETTER(v, (double)ONE)) {
          a->cycle_vertex = i + 1;
          return ck_fail(
              CK_ERR_NEGCYCLE,
              "the graph has a negative cycle: vertex %zu has a negative weight to itself", i + 1);
        }
        edge = i != j && BETTER(v, EMPTY(-INFINITY, INFINITY));
        v = i == j ? ONE : v;
        if (t == CK_SINGLE) ((float *)work)[idx] = (float)v;
        else ((double *)work)[idx] = v;
      } else {
        int64_t lo, hi, v = int_load(t, a->W, idx);
        int_bounds(t, &lo, &hi);
        if (i == j && BETTER(v, (int64_t)ONE)) {
          a->cycle_vertex = i + 1;
          return ck_fail(
              CK_ERR_NEGCYCLE,
              "the graph has a negative cycle: vertex %zu has a negative weight to itself", i + 1);
        }
        edge = i != j && v != EMPTY(lo, hi);
        ((int64_t *)work)[idx] = i == j ? ONE : edge ? v : EMPTY(-INT64_MAX / 4, INT64_MAX / 4);
      }
      if (a->P) a->P[idx] = edge ? (int32_t)(i + 1) : 0;
    }
  return CK_OK;
}

ck_status ck_apsp_cpu(ck_apsp_args *a) {
  const size_t n = a->n;
  const ck_dtype t = a->t;
  if ((int)t < 0 || t >= CK_INT64)
    return ck_fail(CK_ERR_INVALID,
                   "shortest paths take double, single and integers up to 32 bits, not %s",
                   ck_dtype_name(t));
  if (n == 0) return CK_OK;
  const int is_int = t != CK_SINGLE && t != CK_DOUBLE;
  /* floating point works in D itself (it may be W: start reads each element before writing it) */
  void *work = is_int ? malloc(n * n * sizeof(int64_t)) : a->D;
  if (!work)
    return ck_fail(CK_ERR_OUTOFMEMORY, "shortest paths (cpu): no host memory for n = %zu", n);
  ck_status s = start(a, work);
  if (s == CK_OK) {
    if (t == CK_SINGLE) s = fw_all_f(a, (float *)work, EMPTY(-INFINITY, INFINITY));
    else if (t == CK_DOUBLE) s = fw_all_d(a, (double *)work, EMPTY(-INFINITY, INFINITY));
    else s = fw_all_i(a, (int64_t *)work, EMPTY(-INT64_MAX / 4, INT64_MAX / 4));
  }
  if (s == CK_OK && is_int) /* saturate: a length no better than the class's "no edge" is none */
    for (size_t idx = 0; idx < n * n; idx++) {
      int64_t lo, hi, v = ((int64_t *)work)[idx];
      int_bounds(t, &lo, &hi);
      if (!BETTER(v, EMPTY(lo, hi))) {
        v = EMPTY(lo, hi);
        if (a->P) a->P[idx] = 0;
      } else if (v < lo) {
        v = lo;
      }
      int_store(t, a->D, idx, v);
    }
  if (is_int) free(work);
  return s;
}
