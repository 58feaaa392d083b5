/* The 8- and 16-bit classes of max.+, max.min and min.max on the single-precision warptile
 * kernel: every value of these classes, and every sum of two of them, is exact in single, so the
 * product of the values as singles is the product of the class, saturated once as it is stored
 * (max_k sat(t_k) == sat(max_k t_k)). max.min and min.max never leave the class's range, and the
 * witness is the single product's too: their terms are the same values, so are their ties. max.+
 * with the witness does not widen: Octave's ties are between saturated sums, which single does
 * not see (two sums past intmax tie in the class); it runs v2's wide accumulation. These
 * semirings' own word paths (packed halves, DPX max-add) are still to come: until then this is
 * their integers' fastest exact path, at the single kernel's rate, over twice v2's. */
#include "minplus.cuh"

template <class T>
__global__ void widen_values(const T *__restrict__ src, float *__restrict__ dst, size_t count) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) dst[i] = (float)src[i];
}

/* Back into the class, saturated (exact: every value is a whole number within single's range). */
template <class T>
__global__ void narrow_values(const float *__restrict__ src, T *__restrict__ dst, size_t count) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const float lo = (float)sr_class<T>::lo(), hi = (float)sr_class<T>::hi();
  dst[i] = (T)fminf(fmaxf(src[i], lo), hi);
}

template <class T> static void widen(const T *src, float *dst, size_t count) {
  if (count) widen_values<T><<<grid_for(count, MP_THREADS), MP_THREADS>>>(src, dst, count);
}

template <class T, bool ARG, class SR>
ck_status mp_run_widened(const mp_problem<T, SR> &q, bool *took) {
  *took = false;
  if constexpr (sizeof(T) > 2 || std::is_same<SR, sr_min_plus>::value ||
                (ARG && (int)SR::mul::words == (int)SR_WORDS_SHIFT)) {
    return CK_OK;
  } else {
    const size_t m = q.m, k = q.k, n = q.n;
    float *buf = NULL; /* A, B and C as singles, one allocation */
    if (ck_dev_alloc((void **)&buf, (m * k + k * n + m * n) * sizeof(float)) != CK_OK)
      return CK_OK; /* no room: v2 runs instead, in less */
    float *a = buf, *b = a + m * k, *c = b + k * n;
    widen(q.A, a, m * k);
    widen(q.B, b, k * n);
    ck_status s = ck_cuda_check(cudaGetLastError(), "widening integers to single");
    const mp_problem<float, SR> w = {a, b, c, q.K, m, k, n};
    ck_plan_note_class(CK_SINGLE); /* the class the arithmetic runs in */
    if (s == CK_OK) s = mp_run_warptile_float<float, ARG, SR>(w);
    if (s == CK_OK && m * n) {
      narrow_values<T><<<grid_for(m * n, MP_THREADS), MP_THREADS>>>(c, q.C, m * n);
      s = ck_cuda_check(cudaGetLastError(), "storing a widened product");
    }
    ck_dev_free(buf);
    *took = s == CK_OK;
    return s;
  }
}

#define WIDEN_INST_(T, SR)                                                            \
  template ck_status mp_run_widened<T, false, SR>(const mp_problem<T, SR> &, bool *); \
  template ck_status mp_run_widened<T, true, SR>(const mp_problem<T, SR> &, bool *);
#define WIDEN_SR_(SR)     \
  WIDEN_INST_(int8_t, SR) \
  WIDEN_INST_(uint8_t, SR) WIDEN_INST_(int16_t, SR) WIDEN_INST_(uint16_t, SR)
WIDEN_SR_(sr_max_plus)
WIDEN_SR_(sr_max_min)
WIDEN_SR_(sr_min_max)
