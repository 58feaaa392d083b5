/* CPU reference for all-pairs paths: plain Floyd-Warshall with the predecessor matrix,
 * independent of the GPU's blocked algorithm (the tests compare the two), and the "cpu" kernel
 * of gpu_apsp on machines without a GPU. Column-major as Octave stores W: round k updates every
 * column j from D(k, j) and column k, in parallel over columns. Column k and row k do not change
 * in round k (D(k, k) is the empty path, MUL's identity), so the columns are independent.
 * Generic in the semiring (its add and multiply: cpu_semiring.h) and instantiated for every
 * semiring but or.and and every class it takes (ck_tables.h). Floating point computes in the
 * class of W; integers in 64 bits, exactly, saturated at the end. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ck_internal.h"
#include "cpu_semiring.h"

/* Rounds between looks at the caller's Ctrl-C. */
#define CANCEL_EVERY 16

/* Weights refused besides NaN, by the multiply: a sum through the infinity opposite "no edge"
 * would be unbounded (or NaN where it meets the other); products are of weights >= 0, where -Inf
 * is taken for "no edge". */
#define REFUSED_PLUS(v, none) ((v) == -(none))
#define REFUSED_MIN(v, none) 0
#define REFUSED_MAX(v, none) 0
#define REFUSED_TIMES(v, none) ((v) < 0 && !isinf(v))
/* "No path" from ADD's identity e: max.*'s paths weigh >= 0, where max's identity is 0 (the
 * output's "no path" too). */
#define NOPATH_PLUS(e) (e)
#define NOPATH_MIN(e) (e)
#define NOPATH_MAX(e) (e)
#define NOPATH_TIMES(e) 0
/* By the class's floating column: the type the rounds work in, its bounds, and "no path" in the
 * rounds (integers: beyond every sum of n - 1 weights of 32 bits). */
#define WORK_1(T) T
#define WORK_0(T) int64_t
#define LO_1(T) (-(T)INFINITY)
#define LO_0(T) CK_CPU_LO(T)
#define HI_1(T) ((T)INFINITY)
#define HI_0(T) CK_CPU_HI(T)
#define NONE_1(ADD, noedge) (noedge)
#define NONE_0(ADD, noedge) CK_CPU_EMPTY_##ADD(-INT64_MAX / 4, INT64_MAX / 4)

/* One round of Floyd-Warshall through vertex k, with the predecessors when P; NONE: no path,
 * never combined (for integers it is a number, and a sum with it could look like a path). */
#define FW_ROUND(NAME, WT, ADD, MUL)                                 \
  static void NAME(WT *D, int32_t *P, size_t n, size_t k, WT NONE) { \
    const WT *dk = D + k * n; /* column k: D(i, k) */                \
    _Pragma("omp parallel for schedule(static)")                     \
    for (ptrdiff_t jj = 0; jj < (ptrdiff_t)n; jj++) {                \
      const size_t j = (size_t)jj;                                   \
      const WT dkj = D[k + j * n];                                   \
      if (!CK_CPU_BETTER_##ADD(dkj, NONE)) continue;                 \
      WT *dj = D + j * n;                                            \
      int32_t *pj = P ? P + j * n : NULL;                            \
      const int32_t pkj = P ? pj[k] : 0;                             \
      for (size_t i = 0; i < n; i++) {                               \
        if (!CK_CPU_BETTER_##ADD(dk[i], NONE)) continue;             \
        const WT s = CK_CPU_MUL_##MUL(dk[i], dkj);                   \
        if (CK_CPU_BETTER_##ADD(s, dj[i])) {                         \
          dj[i] = s;                                                 \
          if (pj) pj[i] = pkj;                                       \
        }                                                            \
      }                                                              \
    }                                                                \
  }

/* The rounds, stopping at an unbounded path (a diagonal better than the empty path ONE: for
 * min.+ a negative cycle) or when the caller cancels. */
#define FW_ALL(NAME, WT, ADD, ROUND, SE)                                                       \
  static ck_status NAME(ck_apsp_args *a, WT *D, WT NONE, WT ONE) {                             \
    const size_t n = a->n;                                                                     \
    for (size_t k = 0; k < n; k++) {                                                           \
      if (k % CANCEL_EVERY == 0 && a->cancelled && a->cancelled(a->ctx))                       \
        return ck_fail(CK_ERR_INTERRUPTED, "%s paths (cpu): interrupted at vertex %zu of %zu", \
                       ck_apsp_paths(SE), k, n);                                               \
      ROUND(D, a->P, n, k, NONE);                                                              \
      for (size_t i = 0; i < n; i++)                                                           \
        if (CK_CPU_BETTER_##ADD(D[i + i * n], ONE)) return ck_apsp_unbounded(a, i, 0);         \
      if (a->progress && k % 256 == 255) a->progress(a->ctx, k + 1, n);                        \
    }                                                                                          \
    return CK_OK;                                                                              \
  }

/* D and P before the first round: W with the diagonal ONE (W(i, i) added to it, which only an
 * unbounded path changes), no edge NONE; P(i, j) = i where there is an edge. */
#define FW_START(NAME, T, WT, ADD, MUL, SE)                                                   \
  static ck_status NAME(ck_apsp_args *a, WT *work, WT NONE, WT NOEDGE, WT ONE) {              \
    const size_t n = a->n;                                                                    \
    for (size_t j = 0; j < n; j++)                                                            \
      for (size_t i = 0; i < n; i++) {                                                        \
        const size_t idx = i + j * n;                                                         \
        const WT v = ((const T *)a->W)[idx];                                                  \
        if (v != v || REFUSED_##MUL(v, NONE))                                                 \
          return ck_fail(CK_ERR_INVALID, "edge weights must not be %s", ck_apsp_refused(SE)); \
        if (i == j && CK_CPU_BETTER_##ADD(v, ONE)) return ck_apsp_unbounded(a, i, 1);         \
        const int edge = i != j && CK_CPU_BETTER_##ADD(v, NOEDGE);                            \
        work[idx] = i == j ? ONE : edge ? v : NONE;                                           \
        if (a->P) a->P[idx] = edge ? (int32_t)(i + 1) : 0;                                    \
      }                                                                                       \
    return CK_OK;                                                                             \
  }

/* The whole call for semiring SE on class T. Floating point works in D itself (it may be W:
 * start reads each element before writing it); integers in their own matrix, then saturated:
 * a value no better than the class's "no edge" is none, the others clamped to the class (sums
 * pass it on either side). */
#define FW_RUN(NAME, SE, ADD, MUL, T, F, START, ALL)                                          \
  static ck_status NAME(ck_apsp_args *a) {                                                    \
    typedef WORK_##F(T) WT;                                                                   \
    const size_t n = a->n;                                                                    \
    const WT lo = LO_##F(T), hi = HI_##F(T);                                                  \
    const WT noedge = NOPATH_##MUL(CK_CPU_EMPTY_##ADD(lo, hi)), none = NONE_##F(ADD, noedge); \
    WT *work = F ? (WT *)a->D : malloc(n * n * sizeof(WT));                                   \
    if (!work)                                                                                \
      return ck_fail(CK_ERR_OUTOFMEMORY, "%s paths (cpu): no host memory for n = %zu",        \
                     ck_apsp_paths(SE), n);                                                   \
    ck_status s = START(a, work, none, noedge, (WT)CK_CPU_UNIT_##MUL(lo, hi));                \
    if (s == CK_OK) s = ALL(a, work, none, (WT)CK_CPU_UNIT_##MUL(lo, hi));                    \
    if (s == CK_OK && !F)                                                                     \
      for (size_t idx = 0; idx < n * n; idx++) {                                              \
        WT v = work[idx];                                                                     \
        if (!CK_CPU_BETTER_##ADD(v, noedge)) {                                                \
          v = noedge;                                                                         \
          if (a->P) a->P[idx] = 0;                                                            \
        }                                                                                     \
        ((T *)a->D)[idx] = (T)(v < lo ? lo : v > hi ? hi : v);                                \
      }                                                                                       \
    if (!F) free(work);                                                                       \
    return s;                                                                                 \
  }

#define FW_DEFINE_(SE, ADD, MUL, E, T, B, F)                     \
  FW_ROUND(round_##SE##_##E, WORK_##F(T), ADD, MUL)              \
  FW_ALL(all_##SE##_##E, WORK_##F(T), ADD, round_##SE##_##E, SE) \
  FW_START(start_##SE##_##E, T, WORK_##F(T), ADD, MUL, SE)       \
  FW_RUN(run_##SE##_##E, SE, ADD, MUL, T, F, start_##SE##_##E, all_##SE##_##E)
CK_CPU_EACH_NUMERIC(FW_DEFINE_)

typedef ck_status run_fn(ck_apsp_args *a);
#define FW_ENTRY_(SE, ADD, MUL, E, T, B, F) [SE][E] = run_##SE##_##E,
static run_fn *const runs[CK_NUM_SEMIRINGS][CK_NUM_DTYPES] = {CK_CPU_EACH_NUMERIC(FW_ENTRY_)};

ck_status ck_apsp_cpu(ck_apsp_args *a) {
  CK_TRY(ck_apsp_check(a->semiring, a->t)); /* the planner's rules: a direct call meets them too */
  if (a->n == 0) return CK_OK;
  return runs[a->semiring][a->t](a);
}
