/* CPU reference for the sum, written independently of the GPU code: one output at a time, in
 * element order. It follows the same accumulation rules (doc in ck.h): floating point in double,
 * integers up to 32 bits exactly in int64, 64-bit integers in double, and "native" integers
 * saturating at every addition, as Octave does. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "ck.h"

#define SUM_DOUBLE(NAME, T)                                                            \
  static void NAME(const T *x, double *acc, size_t before, size_t len, size_t after) { \
    _Pragma("omp parallel for")                                                        \
    for (ptrdiff_t o = 0; o < (ptrdiff_t)(before * after); o++) {                      \
      size_t b = (size_t)o % before, a = (size_t)o / before;                           \
      const T *p = x + b + a * before * len;                                           \
      double v = 0;                                                                    \
      for (size_t l = 0; l < len; l++) v += (double)p[l * before];                     \
      acc[o] = v;                                                                      \
    }                                                                                  \
  }

#define SUM_EXACT(NAME, T)                                                           \
  static void NAME(const T *x, double *y, size_t before, size_t len, size_t after) { \
    _Pragma("omp parallel for")                                                      \
    for (ptrdiff_t o = 0; o < (ptrdiff_t)(before * after); o++) {                    \
      size_t b = (size_t)o % before, a = (size_t)o / before;                         \
      const T *p = x + b + a * before * len;                                         \
      int64_t v = 0;                                                                 \
      for (size_t l = 0; l < len; l++) v += (int64_t)p[l * before];                  \
      y[o] = (double)v;                                                              \
    }                                                                                \
  }

/* s = saturate(s + v), computed without overflowing: compare against the room left. */
#define SUM_NATIVE(NAME, T, LO, HI)                                             \
  static void NAME(const T *x, T *y, size_t before, size_t len, size_t after) { \
    _Pragma("omp parallel for")                                                 \
    for (ptrdiff_t o = 0; o < (ptrdiff_t)(before * after); o++) {               \
      size_t b = (size_t)o % before, a = (size_t)o / before;                    \
      const T *p = x + b + a * before * len;                                    \
      T s = 0;                                                                  \
      for (size_t l = 0; l < len; l++) {                                        \
        T v = p[l * before];                                                    \
        if (v > 0 && s > (T)(HI - v)) s = HI;                                   \
        else if (v < 0 && s < (T)(LO - v)) s = LO;                              \
        else s = (T)(s + v);                                                    \
      }                                                                         \
      y[o] = s;                                                                 \
    }                                                                           \
  }

#define SUM_NATIVE_U(NAME, T, HI)                                               \
  static void NAME(const T *x, T *y, size_t before, size_t len, size_t after) { \
    _Pragma("omp parallel for")                                                 \
    for (ptrdiff_t o = 0; o < (ptrdiff_t)(before * after); o++) {               \
      size_t b = (size_t)o % before, a = (size_t)o / before;                    \
      const T *p = x + b + a * before * len;                                    \
      T s = 0;                                                                  \
      for (size_t l = 0; l < len; l++) {                                        \
        T v = p[l * before], room = (T)(HI - s);                                \
        s = v > room ? (T)HI : (T)(s + v);                                      \
      }                                                                         \
      y[o] = s;                                                                 \
    }                                                                           \
  }

SUM_DOUBLE(sum_f64, double)
SUM_DOUBLE(sum_f32, float)
SUM_DOUBLE(sum_i64_d, int64_t)
SUM_DOUBLE(sum_u64_d, uint64_t)
SUM_EXACT(sum_i8_d, int8_t)
SUM_EXACT(sum_u8_d, uint8_t)
SUM_EXACT(sum_i16_d, int16_t)
SUM_EXACT(sum_u16_d, uint16_t)
SUM_EXACT(sum_i32_d, int32_t)
SUM_EXACT(sum_u32_d, uint32_t)
SUM_NATIVE(sum_i8_n, int8_t, INT8_MIN, INT8_MAX)
SUM_NATIVE_U(sum_u8_n, uint8_t, UINT8_MAX)
SUM_NATIVE(sum_i16_n, int16_t, INT16_MIN, INT16_MAX)
SUM_NATIVE_U(sum_u16_n, uint16_t, UINT16_MAX)
SUM_NATIVE(sum_i32_n, int32_t, INT32_MIN, INT32_MAX)
SUM_NATIVE_U(sum_u32_n, uint32_t, UINT32_MAX)
SUM_NATIVE(sum_i64_n, int64_t, INT64_MIN, INT64_MAX)
SUM_NATIVE_U(sum_u64_n, uint64_t, UINT64_MAX)

static void sum_native(ck_dtype t, const void *x, void *y, size_t before, size_t len,
                       size_t after) {
  switch (t) {
  case CK_INT8: sum_i8_n(x, y, before, len, after); break;
  case CK_UINT8: sum_u8_n(x, y, before, len, after); break;
  case CK_INT16: sum_i16_n(x, y, before, len, after); break;
  case CK_UINT16: sum_u16_n(x, y, before, len, after); break;
  case CK_INT32: sum_i32_n(x, y, before, len, after); break;
  case CK_UINT32: sum_u32_n(x, y, before, len, after); break;
  case CK_INT64: sum_i64_n(x, y, before, len, after); break;
  default: sum_u64_n(x, y, before, len, after); break;
  }
}

static void sum_to_double(ck_dtype t, const void *x, double *y, size_t before, size_t len,
                          size_t after) {
  switch (t) {
  case CK_DOUBLE: sum_f64(x, y, before, len, after); break;
  case CK_SINGLE: sum_f32(x, y, before, len, after); break;
  case CK_INT8: sum_i8_d(x, y, before, len, after); break;
  case CK_UINT8: sum_u8_d(x, y, before, len, after); break;
  case CK_INT16: sum_i16_d(x, y, before, len, after); break;
  case CK_UINT16: sum_u16_d(x, y, before, len, after); break;
  case CK_INT32: sum_i32_d(x, y, before, len, after); break;
  case CK_UINT32: sum_u32_d(x, y, before, len, after); break;
  case CK_INT64: sum_i64_d(x, y, before, len, after); break;
  default: sum_u64_d(x, y, before, len, after); break;
  }
}

ck_dtype ck_sum_out_dtype(ck_dtype in, ck_sum_mode mode) {
  if (mode == CK_SUM_MODE_DOUBLE) return CK_DOUBLE;
  if (in == CK_SINGLE) return CK_SINGLE;
  if (mode == CK_SUM_MODE_NATIVE) return in;
  return CK_DOUBLE;
}

ck_status ck_sum_cpu(const ck_sum_args *a) {
  const ck_dtype t = a->t;
  const void *x = a->x;
  void *y = a->y;
  const size_t before = a->before, len = a->len, after = a->after, n = before * after;
  if (a->mode == CK_SUM_MODE_NATIVE && !ck_dtype_is_float(t)) {
    sum_native(t, x, y, before, len, after);
  } else if (ck_sum_out_dtype(t, a->mode) == CK_SINGLE) { /* accumulate in double, round once */
    double *acc = malloc((n ? n : 1) * sizeof *acc);
    if (!acc) return ck_fail(CK_ERR_OUTOFMEMORY, "sum: out of host memory");
    sum_to_double(t, x, acc, before, len, after);
    for (size_t i = 0; i < n; i++) ((float *)y)[i] = (float)acc[i];
    free(acc);
  } else {
    sum_to_double(t, x, y, before, len, after);
  }
  return CK_OK;
}
