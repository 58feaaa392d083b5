/* The integer classes of max.+, max.min and min.max on the floating-point warptile kernels: every
 * value of the 8- and 16-bit classes, and every sum of two of them, is exact in single (of the
 * 32-bit classes, in double), so the product of the values as singles is the product of the
 * class, saturated once as it is stored (max_k sat(t_k) == sat(max_k t_k)). max.min and min.max never leave the class's range, and the
 * witness is the single product's too: their terms are the same values, so are their ties. max.+
 * with the witness does not widen: Octave's ties are between saturated sums, which single does
 * not see (two sums past intmax tie in the class); it runs v2's wide accumulation. These
 * semirings' own word paths (packed halves, DPX max-add) are still to come: until then this is
 * their integers' fastest exact path, at the single kernel's rate, over twice v2's. */
#include "minplus.cuh"

/* The floating-point class that holds class T's values and their sums exactly. */
template <class T>
using mp_wide_float = typename std::conditional<(sizeof(T) <= 2), float, double>::type;

/* Whether semiring SR's products of class T (with the witness: ARG) widen exactly. */
template <class T, bool ARG, class SR> struct mp_widens {
  static constexpr bool value = !std::is_same<SR, sr_min_plus>::value &&
                                !(ARG && (int)SR::mul::words == (int)SR_WORDS_SHIFT);
};

template <class T, class F>
__global__ void widen_values(const T *__restrict__ src, F *__restrict__ dst, size_t count) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) dst[i] = (F)src[i];
}

/* Back into the class, saturated (exact: every value is a whole number within F's range). */
template <class T, class F>
__global__ void narrow_values(const F *__restrict__ src, T *__restrict__ dst, size_t count) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const F lo = (F)sr_class<T>::lo(), hi = (F)sr_class<T>::hi();
  dst[i] = (T)fmin(fmax(src[i], lo), hi);
}

template <class T, class F> static void widen(const T *src, F *dst, size_t count) {
  if (count) widen_values<T, F><<<grid_for(count, MP_THREADS), MP_THREADS>>>(src, dst, count);
}

/* The widened copies of a problem's operands and result (a batch's every page), in one
 * allocation; false where there is no room (the caller then runs the class's own path). */
template <class T, class SR> struct mp_widened {
  typedef mp_wide_float<T> F;
  F *buf = NULL;
  mp_problem<F, SR> w;
  bool make(const mp_problem<T, SR> &q) {
    const size_t ca = q.pg.pages_a() * q.m * q.k, cb = q.pg.pages_b() * q.k * q.n,
                 cc = (q.pg.count ? q.pg.count : 1) * q.m * q.n;
    if (ck_dev_alloc((void **)&buf, (ca + cb + cc) * sizeof(F)) != CK_OK) return false;
    w = {buf, buf + ca, buf + ca + cb, q.K, q.m, q.k, q.n, q.pg};
    widen(q.A, buf, ca);
    widen(q.B, buf + ca, cb);
    ck_plan_note_class(sizeof(F) == 4 ? CK_SINGLE : CK_DOUBLE); /* the class it runs in */
    return true;
  }
  /* The result back into the class; *took says whether it was made. Out of memory inside the
   * floating-point kernel's own passes: not taken, and the class's own path runs in less. */
  ck_status done(const mp_problem<T, SR> &q, ck_status s, bool *took) {
    const size_t cc = (q.pg.count ? q.pg.count : 1) * q.m * q.n;
    if (s == CK_OK && cc) {
      narrow_values<T, F><<<grid_for(cc, MP_THREADS), MP_THREADS>>>(w.C, q.C, cc);
      s = ck_cuda_check(cudaGetLastError(), "storing a widened product");
    }
    ck_dev_free(buf);
    *took = s == CK_OK;
    return s == CK_ERR_OUTOFMEMORY ? CK_OK : s;
  }
};

/* 2-D: the 8- and 16-bit classes (the 32-bit ones in double ran no faster than v2). */
template <class T, bool ARG, class SR>
ck_status mp_run_widened(const mp_problem<T, SR> &q, bool *took) {
  *took = false;
  if constexpr (sizeof(T) > 2 || !mp_widens<T, ARG, SR>::value) {
    return CK_OK;
  } else {
    mp_widened<T, SR> x;
    if (!x.make(q)) return CK_OK; /* no room: v2 runs instead, in less */
    ck_status s = ck_cuda_check(cudaGetLastError(), "widening integers");
    if (s == CK_OK) s = mp_run_warptile_float<float, ARG, SR>(x.w);
    return x.done(q, s, took);
  }
}

/* A batch of pages in one launch of the paged kernels: every integer class (page by page, v2
 * took 0.14 ms a page of 64^3). */
template <class T, bool ARG, class SR>
ck_status mp_run_pages_widened(const mp_problem<T, SR> &q, bool *took) {
  *took = false;
  if constexpr (!mp_widens<T, ARG, SR>::value) {
    return CK_OK;
  } else {
    mp_widened<T, SR> x;
    if (!x.make(q)) return CK_OK;
    ck_status s = ck_cuda_check(cudaGetLastError(), "widening integers");
    if (s == CK_OK) s = mp_run_pages_float<typename mp_widened<T, SR>::F, ARG, SR>(x.w);
    return x.done(q, s, took);
  }
}

#define WIDEN_INST_(T, SR)                                                                  \
  template ck_status mp_run_widened<T, false, SR>(const mp_problem<T, SR> &, bool *);       \
  template ck_status mp_run_widened<T, true, SR>(const mp_problem<T, SR> &, bool *);        \
  template ck_status mp_run_pages_widened<T, false, SR>(const mp_problem<T, SR> &, bool *); \
  template ck_status mp_run_pages_widened<T, true, SR>(const mp_problem<T, SR> &, bool *);
/* clang-format off */
#define WIDEN_SR_(SR) \
  WIDEN_INST_(int8_t, SR) WIDEN_INST_(uint8_t, SR) WIDEN_INST_(int16_t, SR) \
  WIDEN_INST_(uint16_t, SR) WIDEN_INST_(int32_t, SR) WIDEN_INST_(uint32_t, SR)
/* clang-format on */
WIDEN_SR_(sr_max_plus)
WIDEN_SR_(sr_max_min)
WIDEN_SR_(sr_min_max)
