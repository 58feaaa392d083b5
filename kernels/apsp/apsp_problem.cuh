/* The path problems as the rounds run them (apsp.cu has how each maps onto its rounds' semiring)
 * and the work values: W's weights into the work type and back, one element at a time. The 2-D
 * rounds' conversions and the batched kernels' (both in apsp.cu) share them. */
#ifndef CK_APSP_PROBLEM_CUH
#define CK_APSP_PROBLEM_CUH

#include <type_traits>

#include "apsp.cuh"

/* ---- the path problems ---- */

/* Path problem S (a ck_semiring) as the rounds run it: SR, their semiring; SUMS, whether its
 * multiply is + (the sums' range decides the work type); REV, whether the work values reverse
 * W's order (max.+, max.min). */
template <int S> struct ap_problem {
  static constexpr bool SUMS = S == CK_SR_MIN_PLUS || S == CK_SR_MAX_PLUS;
  static constexpr bool REV = S == CK_SR_MAX_PLUS || S == CK_SR_MAX_MIN;
  static constexpr bool TIMES = S == CK_SR_MAX_TIMES;
  typedef typename std::conditional<
      SUMS, sr_min_plus, typename std::conditional<TIMES, sr_max_times, sr_min_max>::type>::type SR;

  /* No edge in W: the ADD's identity (+Inf or intmax where it is min, -Inf or intmin where it is
   * max; max.*: 0, and -Inf, below every weight). */
  template <class Tc> static __device__ __forceinline__ bool no_edge(Tc v) {
    typedef mp_traits<Tc> tr;
    if constexpr (TIMES) return v <= (Tc)0;
    else if constexpr (tr::is_float) return v == (REV ? -(Tc)INFINITY : (Tc)INFINITY);
    else return v == (REV ? tr::lowest() : tr::empty());
  }
  /* A weight refused (anywhere, the diagonal too, as the cpu kernel does): NaN; for the sums the
   * infinity opposite "no edge" (unbounded sums, or NaN where it meets "no edge"); for max.*
   * a negative weight other than -Inf. */
  template <class Tc> static __device__ __forceinline__ bool refused(Tc v) {
    if constexpr (!mp_traits<Tc>::is_float) return false;
    else if constexpr (SUMS) return v != v || v == (REV ? (Tc)INFINITY : -(Tc)INFINITY);
    else if constexpr (TIMES) return v != v || (v < (Tc)0 && v != -(Tc)INFINITY);
    else return v != v;
  }
  /* A diagonal weight better than the empty path: an unbounded path through its vertex. */
  template <class Tc> static __device__ __forceinline__ bool unbounded_self(Tc v) {
    if constexpr (TIMES) return v > (Tc)1;
    else if constexpr (!SUMS || !std::is_signed<Tc>::value) return false;
    else return REV ? v > (Tc)0 : v < (Tc)0;
  }
};

/* ---- the work values ---- */

/* The keys of the compare-only problems' integer classes (above): W's value v as an unsigned
 * key of work type T, in order (min.max) or reversed (max.min), and back. The largest key,
 * intmax - intmin, is W's "no edge", and the work type's largest word is "no path" (for 8-bit
 * classes beyond their own largest key). */
template <class Tc, class T, bool REV> __device__ __forceinline__ T ap_key(Tc v) {
  typedef sr_class<Tc> C;
  return REV ? (T)((long long)C::hi() - (long long)v) : (T)((long long)v - (long long)C::lo());
}
template <class Tc, bool REV> __device__ __forceinline__ Tc ap_unkey(unsigned x) {
  typedef sr_class<Tc> C;
  return REV ? (Tc)((long long)C::hi() - (long long)x) : (Tc)((long long)C::lo() + (long long)x);
}
template <class Tc> __device__ __forceinline__ long long ap_key_span() {
  return (long long)sr_class<Tc>::hi() - (long long)sr_class<Tc>::lo();
}

/* "No path" in work type T for data of class Tc in problem S: the rounds' semiring's zero
 * (apsp.cuh, ap_zero) for single and double in their own class and for keys; for the sums in an
 * integer work type, the class's intmax for integers (apsp.cuh), for single and double the
 * largest value whose sum with another cannot wrap. */
template <class Tc, class T, int S> __host__ __device__ __forceinline__ T ap_no_path() {
  typedef ap_problem<S> Pb;
  if constexpr (mp_traits<T>::is_float || !Pb::SUMS) return ap_zero<typename Pb::SR, T>();
  else if constexpr (mp_traits<Tc>::is_float) return sizeof(T) == 2 ? (T)INT16_MAX : (T)INT32_MAX;
  else if constexpr (Pb::REV && sizeof(Tc) < 4) return (T)(-(long long)mp_traits<Tc>::lowest());
  else return (T)mp_traits<Tc>::empty();
}

/* Edge weight v of class Tc as work value of type T. */
template <class Tc, class T, int S> __device__ __forceinline__ T ap_work_value(Tc v) {
  typedef ap_problem<S> Pb;
  if constexpr (!Pb::SUMS && !mp_traits<Tc>::is_float) return ap_key<Tc, T, Pb::REV>(v);
  else if constexpr (!Pb::REV) return (T)v;
  else if constexpr (mp_traits<Tc>::is_float) return (T)-v;
  else return (T)(-(long long)v);
}

/* Weight v of class Tc as a work value, no edge as `inf` (the caller's "no path"): edge says
 * whether it is an edge. */
template <class Tc, class T, int S>
__device__ __forceinline__ T ap_in_value(Tc v, T inf, bool &edge) {
  edge = !ap_problem<S>::template no_edge<Tc>(v);
  return edge ? ap_work_value<Tc, T, S>(v) : inf;
}

/* D's value of work value x (or whether it is no path, `none`), for the sums of an integer class
 * in double, the compare-only problems, and max.*. Integers run in double saturate to the class,
 * and a length of intmax or more is no path, as in the integer work types (max.+: intmin or
 * less). */
template <class T, class Tc, int S> __device__ __forceinline__ Tc ap_out_value(T x, bool &none) {
  typedef ap_problem<S> Pb;
  typedef mp_traits<Tc> tr;
  if constexpr (!Pb::SUMS && !tr::is_float) {
    none = (long long)x >= ap_key_span<Tc>();
    return none ? (Pb::REV ? tr::lowest() : tr::empty()) : ap_unkey<Tc, Pb::REV>((unsigned)x);
  } else if constexpr (!Pb::SUMS) {
    none = false; /* single and double keep their own "no path" (+-Inf, or max.*'s 0) */
    return Pb::REV ? -x : x;
  } else if constexpr (!Pb::REV) {
    none = x >= (double)tr::empty();
    return none ? tr::empty() : x <= (double)tr::lowest() ? tr::lowest() : (Tc)x;
  } else {
    none = -x <= (double)tr::lowest();
    return none ? tr::lowest() : -x >= (double)tr::empty() ? tr::empty() : (Tc)-x;
  }
}

/* D's element of work value x in the class of W, and its next hop nx (0 where there is no
 * path). Single and double data run in an integer work type (the sums, ap_pick_float) have no
 * path at its "no edge" (ap_no_path) and above, +Inf (max.+: -Inf). */
template <class T, class Tc, int S> __device__ __forceinline__ Tc ap_out_element(T x, int &nx) {
  typedef ap_problem<S> Pb;
  if constexpr (mp_traits<Tc>::is_float && !mp_traits<T>::is_float) {
    const bool none = x >= ap_no_path<Tc, T, S>();
    const Tc inf = Pb::REV ? -(Tc)INFINITY : (Tc)INFINITY;
    return none ? inf : Pb::REV ? (Tc)0 - (Tc)x : (Tc)x;
  } else if constexpr (mp_traits<Tc>::is_float && Pb::SUMS) {
    return Pb::REV ? (Tc)0 - (Tc)x : (Tc)x; /* 0 - x: +0 for a zero length, -Inf for no path */
  } else if constexpr (Pb::SUMS && !mp_traits<T>::is_float) { /* integer words */
    if constexpr (Pb::REV) { /* at "no path" or beyond: a length of intmin or less, none */
      const bool none = x >= ap_no_path<Tc, T, S>();
      if (none) nx = 0;
      return none ? mp_traits<Tc>::lowest() : (Tc)(-(long long)x);
    } else {
      return (Tc)x;
    }
  } else {
    bool none;
    const Tc d = ap_out_value<T, Tc, S>(x, none);
    if (none) nx = 0;
    return d;
  }
}

#endif
