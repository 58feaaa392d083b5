/* CPU reference for the min-plus product: independent of the GPU code, used by the tests for
 * sizes where Octave's own formulation (an m-by-k-by-n temporary) is too slow, and on machines
 * without a GPU. Same semantics: NaN terms ignored unless all are NaN; k == 0 gives +Inf. */
#include <math.h>
#include <stddef.h>

#include "ck.h"

/* Columns of C per task and rows per cache block: an 8-column block of C (IB rows) stays in L1/L2
 * while a slice of each column of A is reused 8 times. */
#define JB 8
#define IB 512

/* minNum: the non-NaN operand if exactly one is NaN. The comparison form vectorizes. */
#define MINPLUS_CPU(NAME, T)                                                                    \
  static void NAME(const T *A, const T *B, T *C, size_t m, size_t k, size_t n) {                \
    ptrdiff_t nblocks = (ptrdiff_t)((n + JB - 1) / JB);                                           \
    _Pragma("omp parallel for schedule(dynamic)")                                                \
    for (ptrdiff_t jblk = 0; jblk < nblocks; jblk++) {                                            \
      size_t j0 = (size_t)jblk * JB, j1 = j0 + JB < n ? j0 + JB : n;                              \
      for (size_t j = j0; j < j1; j++)                                                            \
        for (size_t i = 0; i < m; i++) C[i + j * m] = k ? (T)NAN : (T)INFINITY;                   \
      for (size_t i0 = 0; i0 < m; i0 += IB) {                                                     \
        size_t i1 = i0 + IB < m ? i0 + IB : m;                                                    \
        for (size_t p = 0; p < k; p++) {                                                          \
          const T *a = A + p * m;                                                                 \
          for (size_t j = j0; j < j1; j++) {                                                      \
            const T b = B[p + j * k];                                                             \
            T *c = C + j * m;                                                                     \
            for (size_t i = i0; i < i1; i++) {                                                    \
              T t = a[i] + b, v = c[i];                                                           \
              c[i] = (t < v || v != v) ? t : v;                                                   \
            }                                                                                     \
          }                                                                                       \
        }                                                                                         \
      }                                                                                           \
    }                                                                                             \
  }

MINPLUS_CPU(minplus_cpu_double, double)
MINPLUS_CPU(minplus_cpu_single, float)

void ck_minplus_cpu(ck_dtype t, const void *A, const void *B, void *C, size_t m, size_t k,
                    size_t n) {
  if (t == CK_SINGLE)
    minplus_cpu_single((const float *)A, (const float *)B, (float *)C, m, k, n);
  else
    minplus_cpu_double((const double *)A, (const double *)B, (double *)C, m, k, n);
}
