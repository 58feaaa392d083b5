/* CPU reference for the min-plus product: independent of the GPU code, used by the tests for
 * sizes where Octave's own formulation (an m-by-k-by-n temporary) is too slow, and on machines
 * without a GPU. Same semantics: NaN terms ignored unless all are NaN; k == 0 gives +Inf. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

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

/* Integers as Octave computes them: each sum saturated to the class, then the minimum; HI (the
 * identity of the minimum) where there are no terms. */
#define MINPLUS_CPU_INT(NAME, T, W, LO, HI)                                                     \
  static void NAME(const T *A, const T *B, T *C, size_t m, size_t k, size_t n) {                \
    _Pragma("omp parallel for schedule(dynamic)")                                                \
    for (ptrdiff_t jj = 0; jj < (ptrdiff_t)n; jj++) {                                             \
      size_t j = (size_t)jj;                                                                      \
      T *c = C + j * m;                                                                           \
      for (size_t i = 0; i < m; i++) c[i] = HI;                                                   \
      for (size_t p = 0; p < k; p++) {                                                            \
        const T *a = A + p * m;                                                                   \
        const W b = B[p + j * k];                                                                 \
        for (size_t i = 0; i < m; i++) {                                                          \
          W s = (W)a[i] + b;                                                                      \
          T t = (T)(s < (W)LO ? (W)LO : s > (W)HI ? (W)HI : s);                                   \
          if (t < c[i]) c[i] = t;                                                                 \
        }                                                                                         \
      }                                                                                           \
    }                                                                                             \
  }

MINPLUS_CPU(minplus_cpu_double, double)
MINPLUS_CPU(minplus_cpu_single, float)
MINPLUS_CPU_INT(minplus_cpu_i8, int8_t, int, INT8_MIN, INT8_MAX)
MINPLUS_CPU_INT(minplus_cpu_u8, uint8_t, int, 0, UINT8_MAX)
MINPLUS_CPU_INT(minplus_cpu_i16, int16_t, int, INT16_MIN, INT16_MAX)
MINPLUS_CPU_INT(minplus_cpu_u16, uint16_t, int, 0, UINT16_MAX)
MINPLUS_CPU_INT(minplus_cpu_i32, int32_t, int64_t, INT32_MIN, INT32_MAX)
MINPLUS_CPU_INT(minplus_cpu_u32, uint32_t, int64_t, 0, UINT32_MAX)

/* With the witness: one output at a time, terms in k order, the same rules as the GPU (ck.h). */
#define MINPLUS_ARG_CPU_FLOAT(NAME, T)                                                          \
  static void NAME(const T *A, const T *B, T *C, double *K, size_t m, size_t k, size_t n) {     \
    _Pragma("omp parallel for schedule(dynamic)")                                                \
    for (ptrdiff_t jj = 0; jj < (ptrdiff_t)n; jj++)                                              \
      for (size_t i = 0, j = (size_t)jj; i < m; i++) {                                           \
        T v = k ? (T)NAN : (T)INFINITY;                                                          \
        size_t id = 0;                                                                           \
        for (size_t p = 0; p < k; p++) {                                                         \
          T t = A[i + p * m] + B[p + j * k];                                                     \
          if (t < v || (isnan(v) && !isnan(t))) v = t, id = p;                                   \
        }                                                                                        \
        C[i + j * m] = v;                                                                        \
        K[i + j * m] = k ? (double)(id + 1) : 0.0;                                               \
      }                                                                                          \
  }

#define MINPLUS_ARG_CPU_INT(NAME, T, W, LO, HI)                                                 \
  static void NAME(const T *A, const T *B, T *C, double *K, size_t m, size_t k, size_t n) {     \
    _Pragma("omp parallel for schedule(dynamic)")                                                \
    for (ptrdiff_t jj = 0; jj < (ptrdiff_t)n; jj++)                                              \
      for (size_t i = 0, j = (size_t)jj; i < m; i++) {                                           \
        T v = HI;                                                                                \
        size_t id = 0;                                                                           \
        for (size_t p = 0; p < k; p++) {                                                         \
          W s = (W)A[i + p * m] + (W)B[p + j * k];                                               \
          T t = (T)(s < (W)LO ? (W)LO : s > (W)HI ? (W)HI : s);                                  \
          if (p == 0 || t < v) v = t, id = p;                                                    \
        }                                                                                        \
        C[i + j * m] = v;                                                                        \
        K[i + j * m] = k ? (double)(id + 1) : 0.0;                                               \
      }                                                                                          \
  }

MINPLUS_ARG_CPU_FLOAT(minplus_arg_double, double)
MINPLUS_ARG_CPU_FLOAT(minplus_arg_single, float)
MINPLUS_ARG_CPU_INT(minplus_arg_i8, int8_t, int, INT8_MIN, INT8_MAX)
MINPLUS_ARG_CPU_INT(minplus_arg_u8, uint8_t, int, 0, UINT8_MAX)
MINPLUS_ARG_CPU_INT(minplus_arg_i16, int16_t, int, INT16_MIN, INT16_MAX)
MINPLUS_ARG_CPU_INT(minplus_arg_u16, uint16_t, int, 0, UINT16_MAX)
MINPLUS_ARG_CPU_INT(minplus_arg_i32, int32_t, int64_t, INT32_MIN, INT32_MAX)
MINPLUS_ARG_CPU_INT(minplus_arg_u32, uint32_t, int64_t, 0, UINT32_MAX)

static void minplus_arg_cpu(const ck_product *p) {
  const void *A = p->A, *B = p->B;
  void *C = p->C;
  double *K = p->K;
  const size_t m = p->m, k = p->k, n = p->n;
  switch (p->t) {
  case CK_SINGLE: minplus_arg_single(A, B, C, K, m, k, n); break;
  case CK_INT8: minplus_arg_i8(A, B, C, K, m, k, n); break;
  case CK_UINT8: minplus_arg_u8(A, B, C, K, m, k, n); break;
  case CK_INT16: minplus_arg_i16(A, B, C, K, m, k, n); break;
  case CK_UINT16: minplus_arg_u16(A, B, C, K, m, k, n); break;
  case CK_INT32: minplus_arg_i32(A, B, C, K, m, k, n); break;
  case CK_UINT32: minplus_arg_u32(A, B, C, K, m, k, n); break;
  default: minplus_arg_double(A, B, C, K, m, k, n); break;
  }
}

void ck_minplus_cpu(const ck_product *p) {
  if (p->K) {
    minplus_arg_cpu(p);
    return;
  }
  const void *A = p->A, *B = p->B;
  void *C = p->C;
  const size_t m = p->m, k = p->k, n = p->n;
  switch (p->t) {
  case CK_SINGLE: minplus_cpu_single(A, B, C, m, k, n); break;
  case CK_INT8: minplus_cpu_i8(A, B, C, m, k, n); break;
  case CK_UINT8: minplus_cpu_u8(A, B, C, m, k, n); break;
  case CK_INT16: minplus_cpu_i16(A, B, C, m, k, n); break;
  case CK_UINT16: minplus_cpu_u16(A, B, C, m, k, n); break;
  case CK_INT32: minplus_cpu_i32(A, B, C, m, k, n); break;
  case CK_UINT32: minplus_cpu_u32(A, B, C, m, k, n); break;
  default: minplus_cpu_double(A, B, C, m, k, n); break;
  }
}
