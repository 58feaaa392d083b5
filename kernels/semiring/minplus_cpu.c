/* CPU reference for the semiring products: independent of the GPU code, used by the tests for
 * sizes where Octave's own formulation (an m-by-k-by-n temporary) is too slow, and on machines
 * without a GPU. Generic in the semiring (its add and multiply: cpu_semiring.h, named by its row
 * of ck_tables.h) and instantiated for every semiring and class from the tables. Octave's
 * semantics: a floating-point NaN term is ignored unless every term is NaN; integer terms
 * saturate to the class, as Octave's arithmetic does; k == 0 gives the add's identity. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "ck.h"
#include "cpu_semiring.h"

/* Columns of C per task and rows per cache block: an 8-column block of C (IB rows) stays in L1/L2
 * while a slice of each column of A is reused 8 times. */
#define JB 8
#define IB 512

typedef void ref_fn(const void *A, const void *B, void *C, size_t m, size_t k, size_t n);
typedef void ref_arg_fn(const void *A, const void *B, void *C, double *K, size_t m, size_t k,
                        size_t n);

/* Floating point: accumulators start at NaN (every term then replaces it, and a NaN term never
 * does); the pick's comparison form vectorizes. */
#define REF_FLOAT(NAME, T, ADD, MUL)                                                         \
  static void NAME(const void *vA, const void *vB, void *vC, size_t m, size_t k, size_t n) { \
    const T *A = vA, *B = vB;                                                                \
    T *C = vC;                                                                               \
    const T empty = CK_CPU_EMPTY_##ADD(-(T)INFINITY, (T)INFINITY);                           \
    ptrdiff_t nblocks = (ptrdiff_t)((n + JB - 1) / JB);                                      \
    _Pragma("omp parallel for schedule(dynamic)")                                            \
    for (ptrdiff_t jblk = 0; jblk < nblocks; jblk++) {                                       \
      size_t j0 = (size_t)jblk * JB, j1 = j0 + JB < n ? j0 + JB : n;                         \
      for (size_t j = j0; j < j1; j++)                                                       \
        for (size_t i = 0; i < m; i++) C[i + j * m] = k ? (T)NAN : empty;                    \
      for (size_t i0 = 0; i0 < m; i0 += IB) {                                                \
        size_t i1 = i0 + IB < m ? i0 + IB : m;                                               \
        for (size_t p = 0; p < k; p++) {                                                     \
          const T *a = A + p * m;                                                            \
          for (size_t j = j0; j < j1; j++) {                                                 \
            const T b = B[p + j * k];                                                        \
            T *c = C + j * m;                                                                \
            for (size_t i = i0; i < i1; i++) {                                               \
              T t = CK_CPU_MUL_##MUL(a[i], b), v = c[i];                                     \
              c[i] = CK_CPU_PICK_##ADD(v, t);                                                \
            }                                                                                \
          }                                                                                  \
        }                                                                                    \
      }                                                                                      \
    }                                                                                        \
  }

/* Integers as Octave computes them: each term exact in W, saturated to the class, then the add. */
#define REF_INT(NAME, T, W, ADD, MUL)                                                        \
  static void NAME(const void *vA, const void *vB, void *vC, size_t m, size_t k, size_t n) { \
    const T *A = vA, *B = vB;                                                                \
    T *C = vC;                                                                               \
    const W lo = CK_CPU_LO(T), hi = CK_CPU_HI(T);                                            \
    _Pragma("omp parallel for schedule(dynamic)")                                            \
    for (ptrdiff_t jj = 0; jj < (ptrdiff_t)n; jj++) {                                        \
      size_t j = (size_t)jj;                                                                 \
      T *c = C + j * m;                                                                      \
      for (size_t i = 0; i < m; i++) c[i] = (T)CK_CPU_EMPTY_##ADD(lo, hi);                   \
      for (size_t p = 0; p < k; p++) {                                                       \
        const T *a = A + p * m;                                                              \
        const W b = B[p + j * k];                                                            \
        for (size_t i = 0; i < m; i++) {                                                     \
          W s = CK_CPU_MUL_##MUL((W)a[i], b);                                                \
          T t = (T)(s < lo ? lo : s > hi ? hi : s);                                          \
          c[i] = CK_CPU_PICK_##ADD(c[i], t);                                                 \
        }                                                                                    \
      }                                                                                      \
    }                                                                                        \
  }

/* With the witness: one output at a time, terms in k order; a term replaces the accumulator only
 * when strictly better, so K is the first k attaining C (1 where every term is NaN), as the GPU
 * computes it (ck.h). */
#define REF_ARG(NAME, T, W, ADD, MUL, LO, HI, START, SAT)                                   \
  static void NAME(const void *vA, const void *vB, void *vC, double *K, size_t m, size_t k, \
                   size_t n) {                                                              \
    const T *A = vA, *B = vB;                                                               \
    T *C = vC;                                                                              \
    const W lo = LO, hi = HI;                                                               \
    (void)lo, (void)hi;                                                                     \
    _Pragma("omp parallel for schedule(dynamic)")                                           \
    for (ptrdiff_t jj = 0; jj < (ptrdiff_t)n; jj++)                                         \
      for (size_t i = 0, j = (size_t)jj; i < m; i++) {                                      \
        T v = k ? START : (T)CK_CPU_EMPTY_##ADD(lo, hi);                                    \
        size_t id = 0;                                                                      \
        for (size_t p = 0; p < k; p++) {                                                    \
          W s = CK_CPU_MUL_##MUL((W)A[i + p * m], (W)B[p + j * k]);                         \
          T t = SAT;                                                                        \
          if (CK_CPU_BETTER_##ADD(t, v)) v = t, id = p;                                     \
        }                                                                                   \
        C[i + j * m] = v;                                                                   \
        K[i + j * m] = k ? (double)(id + 1) : 0.0;                                          \
      }                                                                                     \
  }

/* Every semiring's reference for every class the products take, and their tables. */
#define REF_NAME_(SE, E) ref_##SE##_##E
#define REF_ARG_NAME_(SE, E) ref_arg_##SE##_##E
#define REF_DEFINE_(SE, ADD, MUL, E, T, B, F)                                                     \
  CK_IF_##F(REF_FLOAT(REF_NAME_(SE, E), T, ADD, MUL) REF_ARG(                                     \
      REF_ARG_NAME_(SE, E), T, T, ADD, MUL, -(T)INFINITY, (T)INFINITY, (T)NAN, (T)s))             \
      CK_IF_NOT_##F(REF_INT(REF_NAME_(SE, E), T, CK_CPU_WIDE_##B, ADD, MUL)                       \
                        REF_ARG(REF_ARG_NAME_(SE, E), T, CK_CPU_WIDE_##B, ADD, MUL, CK_CPU_LO(T), \
                                CK_CPU_HI(T), (T)CK_CPU_EMPTY_##ADD(lo, hi),                      \
                                (T)(s < lo   ? lo                                                 \
                                    : s > hi ? hi                                                 \
                                             : s)))
CK_CPU_EACH(REF_DEFINE_)

#define REF_ENTRY_(SE, ADD, MUL, E, T, B, F) [SE][E] = REF_NAME_(SE, E),
#define REF_ARG_ENTRY_(SE, ADD, MUL, E, T, B, F) [SE][E] = REF_ARG_NAME_(SE, E),
static ref_fn *const refs[CK_NUM_SEMIRINGS][CK_NUM_DTYPES] = {CK_CPU_EACH(REF_ENTRY_)};
static ref_arg_fn *const arg_refs[CK_NUM_SEMIRINGS][CK_NUM_DTYPES] = {CK_CPU_EACH(REF_ARG_ENTRY_)};

/* or.and's K is 0 where no k has A(i,k) & B(k,j), where max.min's is the first k attaining the
 * false C (1). */
static void orand_no_witness(const ck_product *p) {
  const uint8_t *C = p->C;
  for (size_t e = 0; e < p->m * p->n; e++)
    if (!C[e]) p->K[e] = 0;
}

ck_status ck_semiring_cpu(ck_semiring s, const ck_product *p) {
  const ck_status st = ck_semiring_check(s, p->t);
  if (st != CK_OK) return st;
  if (p->K) arg_refs[s][p->t](p->A, p->B, p->C, p->K, p->m, p->k, p->n);
  else refs[s][p->t](p->A, p->B, p->C, p->m, p->k, p->n);
  if (p->K && s == CK_SR_OR_AND) orand_no_witness(p);
  return CK_OK;
}

void ck_minplus_cpu(const ck_product *p) { (void)ck_semiring_cpu(CK_SR_MIN_PLUS, p); }
