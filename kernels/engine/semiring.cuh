/* Semirings as types: all the arithmetic of a semiring product lives here, and the kernels, the
 * merges, the witness searches and the shortest-path rounds take it from here instead of spelling
 * min and +. The models are CUTLASS's functional structs and cuASR's semiring configurations: an
 * "add" (the reduction over k) and a "multiply" (how a term is made of A(i,k) and B(k,j)),
 * combined as one type.
 *
 *   class facts   sr_class<T>: the wide type W in which a term of two T is exact, the class's
 *                 bounds, whether it is floating point
 *   adds          sr_min, sr_max: the reduction (pick), its strict "better" with Octave's NaN
 *                 rule (a NaN term never wins; anything beats a NaN accumulator), "beats" and
 *                 "take" (a value with its witness) where no value is NaN, the identity
 *                 an empty reduction gives, and the word forms on unsigned 32-bit words and on
 *                 two 16-bit halves (DPX and SIMD intrinsics)
 *   multiplies    sr_plus: the term, its identity, and how it may run on integer words
 *                 (SR_WORDS_SHIFT: shift-invariant, a - s and b - s give the term shifted by
 *                 2s, which is what lets integer classes run on unsigned DPX words); sr_min and
 *                 sr_max as multiplies (SR_WORDS_ORDER: any order-preserving map is exact);
 *                 sr_times
 *   semirings     sr_semiring<ADD, MUL>, with the fused word step of the hardware (DPX
 *                 VIADDMNMX for min.+ and max.+) and what makes a path unbounded: sr_min_plus,
 *                 sr_max_plus, sr_max_min, sr_min_max, sr_max_times, sr_or_and (ck_tables.h)
 *   accumulation  sr_acc<SR, T>: how SR accumulates class T: its start value, pick, saturation
 *                 to the class (Octave's integer arithmetic saturates), better, store, empty
 *
 * Floating-point accumulators start at NaN, not at the add's identity: fminf/fmaxf return the
 * other operand when one is NaN, so a NaN term is ignored and the result stays NaN only when
 * every term is NaN, which is exactly Octave's min and max. Integer accumulators start beyond
 * every term in the wide type and saturate once at the store, exact because saturation is
 * monotone: min_k sat(t_k) == sat(min_k t_k). */
#ifndef CK_SEMIRING_CUH
#define CK_SEMIRING_CUH

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <type_traits>

/* ---- class facts ---- */
template <class T> struct sr_class;
template <> struct sr_class<float> {
  typedef float W;
  enum { is_float = 1 };
};
template <> struct sr_class<double> {
  typedef double W;
  enum { is_float = 1 };
};
#define SR_INT_CLASS(T, WIDE, LO, HI)                                \
  template <> struct sr_class<T> {                                   \
    typedef WIDE W;                                                  \
    enum { is_float = 0 };                                           \
    static __host__ __device__ __forceinline__ T lo() { return LO; } \
    static __host__ __device__ __forceinline__ T hi() { return HI; } \
  };
SR_INT_CLASS(int8_t, int, INT8_MIN, INT8_MAX)
SR_INT_CLASS(uint8_t, int, 0, UINT8_MAX)
SR_INT_CLASS(int16_t, int, INT16_MIN, INT16_MAX)
SR_INT_CLASS(uint16_t, int, 0, UINT16_MAX)
SR_INT_CLASS(int32_t, long long, INT32_MIN, INT32_MAX)
SR_INT_CLASS(uint32_t, long long, 0, UINT32_MAX)
#undef SR_INT_CLASS

/* The quiet NaN a floating-point accumulator starts at (the bits the kernels always used). */
__device__ __forceinline__ float sr_start_nan(float) { return __int_as_float(0x7fffffff); }
__device__ __forceinline__ double sr_start_nan(double) {
  return __longlong_as_double(0x7fffffffffffffffLL);
}

/* How a multiply may run on unsigned integer words (see the top). */
enum sr_words {
  SR_WORDS_NONE = 0, /* no exact form on unsigned words */
  SR_WORDS_SHIFT,    /* (a - s) op (b - r) == (a op b) - (s + r): operands shift into words */
  SR_WORDS_ORDER     /* depends on the order of the operands only: any monotone map is exact */
};

/* ---- adds ---- */
struct sr_min {
  /* the reduction; for floats fminf/fmin, which ignore a NaN operand */
  static __device__ __forceinline__ float pick(float v, float t) { return fminf(v, t); }
  static __device__ __forceinline__ double pick(double v, double t) { return fmin(v, t); }
  template <class W> static __device__ __forceinline__ W pick(W v, W t) { return t < v ? t : v; }
  /* double for the semirings that only compare (sr_acc::selects): a compare and a select, ties
   * keeping v, the first, as Octave's min does. fmin took about nine instructions on sm_90 (its
   * rule for zeros, min (-0, +0) == -0 either way, costs a LOP3 and moves), this four: max.min
   * in double ran 2.04x as fast (doc/NOTES.md) */
  static __device__ __forceinline__ double pick_first(double v, double t) {
    return t < v || v != v ? t : v;
  }
  /* strictly better: t replaces v (ties keep v, the earlier k; NaN never wins) */
  template <class W> static __host__ __device__ __forceinline__ bool better(W t, W v) {
    if constexpr (std::is_floating_point<W>::value) return t < v || (v != v && t == t);
    else return t < v;
  }
  /* strictly better where no value is NaN (the shortest-path rounds, which refuse NaN) */
  template <class W> static __host__ __device__ __forceinline__ bool beats(W t, W v) {
    return t < v;
  }
  /* t and its witness it replace v and its witness id where t beats v (the shortest-path
   * rounds' step with next hops). The test is spelled `== true` on purpose: cicc compiles a
   * plain `if (beats(t, v))` into the inverted compare (setp.geu with the selects swapped),
   * which left ptxas spilling in the double row strip of APSP (ap_strip_kernel<double, double,
   * 256, false>: 128 registers and 20 bytes of spills against 142 and none); with `== true` it
   * emits setp.lt, as for the compare spelled out in the kernel before the semiring types, and
   * the strip kernels' SASS is a0b8504's again. Same results either way. */
  template <class W, class I>
  static __host__ __device__ __forceinline__ void take(W &v, I &id, W t, I it) {
    if (beats(t, v) == true) v = t, id = it;
  }
  /* an empty reduction, and the value of no path */
  template <class T> static __host__ __device__ __forceinline__ T empty() {
    if constexpr (sr_class<T>::is_float) return (T)INFINITY;
    else return sr_class<T>::hi();
  }
  /* in the wide type W: beyond every term whose exact value lies in [lo, hi] */
  template <class W> static __device__ __forceinline__ W beyond(W lo, W hi) { return hi + 1; }
  /* word forms: unsigned 32-bit words, and two 16-bit halves per word */
  static __device__ __forceinline__ uint32_t pick_u32(uint32_t v, uint32_t t) {
    return t < v ? t : v;
  }
  static __device__ __forceinline__ uint32_t pick_u16x2(uint32_t v, uint32_t t) {
    return __vminu2(v, t);
  }
  /* each half of the result all ones where t's half is strictly better */
  static __device__ __forceinline__ uint32_t better_u16x2(uint32_t t, uint32_t v) {
    return __vcmpltu2(t, v);
  }
  /* the word no term beats: what empty sums and padding hold */
  static constexpr uint32_t none_word = 0xffffffffu;
  /* the halves' running pick kept within [lo, hi] (same bound in both halves) from where it
   * starts (start_u16x2), so that it moves one way only, and how far each half moved */
  static __device__ __forceinline__ uint32_t start_u16x2(uint32_t lo, uint32_t hi) { return hi; }
  static __device__ __forceinline__ uint32_t clamp_pick_u16x2(uint32_t v, uint32_t t, uint32_t lo,
                                                              uint32_t hi) {
    return __vmaxu2(__vminu2(v, t), lo);
  }
  static __device__ __forceinline__ uint32_t moved_u16x2(uint32_t was, uint32_t now) {
    return was - now;
  }
  /* as a multiply (max.min, or.and): the term is the pick itself, which ignores a NaN operand as
   * Octave's min (a, b) does; it stays within the operands' range */
  enum { words = SR_WORDS_ORDER };
  template <class W> static __host__ __device__ __forceinline__ W term(W a, W b) {
#ifdef __CUDA_ARCH__
    return pick(a, b); /* floating point: one FMNMX */
#else
    return b < a || a != a ? b : a;
#endif
  }
  template <class T> static __host__ __device__ __forceinline__ T one() { return empty<T>(); }
  template <class W> static __device__ __forceinline__ W term_lo(W lo, W hi) { return lo; }
  template <class W> static __device__ __forceinline__ W term_hi(W lo, W hi) { return hi; }
  static __device__ __forceinline__ uint32_t term_u32(uint32_t a, uint32_t b) { return min(a, b); }
  static __device__ __forceinline__ uint32_t term_u16x2(uint32_t a, uint32_t b) {
    return __vminu2(a, b);
  }
};

struct sr_max {
  static __device__ __forceinline__ float pick(float v, float t) { return fmaxf(v, t); }
  static __device__ __forceinline__ double pick(double v, double t) { return fmax(v, t); }
  template <class W> static __device__ __forceinline__ W pick(W v, W t) { return t > v ? t : v; }
  static __device__ __forceinline__ double pick_first(double v, double t) {
    return t > v || v != v ? t : v;
  }
  template <class W> static __host__ __device__ __forceinline__ bool better(W t, W v) {
    if constexpr (std::is_floating_point<W>::value) return t > v || (v != v && t == t);
    else return t > v;
  }
  template <class W> static __host__ __device__ __forceinline__ bool beats(W t, W v) {
    return t > v;
  }
  template <class W, class I>
  static __host__ __device__ __forceinline__ void take(W &v, I &id, W t, I it) {
    if (beats(t, v) == true) v = t, id = it; /* `== true`: see sr_min::take */
  }
  template <class T> static __host__ __device__ __forceinline__ T empty() {
    if constexpr (sr_class<T>::is_float) return (T)-INFINITY;
    else return sr_class<T>::lo();
  }
  template <class W> static __device__ __forceinline__ W beyond(W lo, W hi) { return lo - 1; }
  static __device__ __forceinline__ uint32_t pick_u32(uint32_t v, uint32_t t) {
    return t > v ? t : v;
  }
  static __device__ __forceinline__ uint32_t pick_u16x2(uint32_t v, uint32_t t) {
    return __vmaxu2(v, t);
  }
  static __device__ __forceinline__ uint32_t better_u16x2(uint32_t t, uint32_t v) {
    return __vcmpgtu2(t, v);
  }
  static constexpr uint32_t none_word = 0u;
  static __device__ __forceinline__ uint32_t start_u16x2(uint32_t lo, uint32_t hi) { return lo; }
  static __device__ __forceinline__ uint32_t clamp_pick_u16x2(uint32_t v, uint32_t t, uint32_t lo,
                                                              uint32_t hi) {
    return __vminu2(__vmaxu2(v, t), hi);
  }
  static __device__ __forceinline__ uint32_t moved_u16x2(uint32_t was, uint32_t now) {
    return now - was;
  }
  /* as a multiply (min.max): see sr_min */
  enum { words = SR_WORDS_ORDER };
  template <class W> static __host__ __device__ __forceinline__ W term(W a, W b) {
#ifdef __CUDA_ARCH__
    return pick(a, b); /* floating point: one FMNMX */
#else
    return b > a || a != a ? b : a;
#endif
  }
  template <class T> static __host__ __device__ __forceinline__ T one() { return empty<T>(); }
  template <class W> static __device__ __forceinline__ W term_lo(W lo, W hi) { return lo; }
  template <class W> static __device__ __forceinline__ W term_hi(W lo, W hi) { return hi; }
  static __device__ __forceinline__ uint32_t term_u32(uint32_t a, uint32_t b) { return max(a, b); }
  static __device__ __forceinline__ uint32_t term_u16x2(uint32_t a, uint32_t b) {
    return __vmaxu2(a, b);
  }
};

/* ---- multiplies ---- */

struct sr_plus {
  enum { words = SR_WORDS_SHIFT };
  template <class W> static __host__ __device__ __forceinline__ W term(W a, W b) { return a + b; }
  /* the identity: the empty path's value */
  template <class T> static __host__ __device__ __forceinline__ T one() { return (T)0; }
  /* the exact terms of two values of [lo, hi], in the wide type */
  template <class W> static __device__ __forceinline__ W term_lo(W lo, W hi) { return lo + lo; }
  template <class W> static __device__ __forceinline__ W term_hi(W lo, W hi) { return hi + hi; }
  /* on words of shifted operands, whole or as two halves: the spreads fit, so no half carries */
  static __device__ __forceinline__ uint32_t term_u32(uint32_t a, uint32_t b) { return a + b; }
  static __device__ __forceinline__ uint32_t term_u16x2(uint32_t a, uint32_t b) { return a + b; }
};

/* times (max.*): floating point only (ck_tables.h says why); one FMUL per term */
struct sr_times {
  enum { words = SR_WORDS_NONE };
  template <class W> static __host__ __device__ __forceinline__ W term(W a, W b) { return a * b; }
  template <class T> static __host__ __device__ __forceinline__ T one() { return (T)1; }
};

/* ---- semirings ---- */
template <class ADD, class MUL> struct sr_semiring {
  typedef ADD add;
  typedef MUL mul;
  /* whether the products of integer classes run on words by order alone (no ranges, no guess) */
  static constexpr bool by_order = (int)MUL::words == (int)SR_WORDS_ORDER;
};

/* min.+ (tropical): shortest paths. Its fused word steps are Hopper's DPX min-add, one
 * VIADDMNMX per pair (per two pairs on 16-bit halves); a path is unbounded on a negative cycle. */
struct sr_min_plus : sr_semiring<sr_min, sr_plus> {
  /* a closed diagonal entry d (the best cycle through its vertex) that makes paths unbounded */
  template <class W> static __host__ __device__ __forceinline__ bool unbounded(W d) {
    return add::beats(d, mul::template one<W>());
  }
  static __device__ __forceinline__ uint32_t step_u32(uint32_t a, uint32_t b, uint32_t c) {
    return __viaddmin_u32(a, b, c);
  }
  static __device__ __forceinline__ uint32_t step_u16x2(uint32_t a, uint32_t b, uint32_t c) {
    return __viaddmin_u16x2(a, b, c);
  }
};

/* max.+ (Viterbi, longest and critical paths): DPX's max-add; unbounded on a positive cycle. */
struct sr_max_plus : sr_semiring<sr_max, sr_plus> {
  template <class W> static __host__ __device__ __forceinline__ bool unbounded(W d) {
    return add::beats(d, mul::template one<W>());
  }
  static __device__ __forceinline__ uint32_t step_u32(uint32_t a, uint32_t b, uint32_t c) {
    return __viaddmax_u32(a, b, c);
  }
  static __device__ __forceinline__ uint32_t step_u16x2(uint32_t a, uint32_t b, uint32_t c) {
    return __viaddmax_u16x2(a, b, c);
  }
};

/* max.min (widest paths) and min.max (minimax paths): compares only, two per pair; always
 * bounded. On words of order-preserving maps: two VIMNMX, or two SIMD halves. */
struct sr_max_min : sr_semiring<sr_max, sr_min> {
  template <class W> static __host__ __device__ __forceinline__ bool unbounded(W) { return false; }
  static __device__ __forceinline__ uint32_t step_u32(uint32_t a, uint32_t b, uint32_t c) {
    return max(min(a, b), c);
  }
  static __device__ __forceinline__ uint32_t step_u16x2(uint32_t a, uint32_t b, uint32_t c) {
    return __vmaxu2(__vminu2(a, b), c);
  }
};
struct sr_min_max : sr_semiring<sr_min, sr_max> {
  template <class W> static __host__ __device__ __forceinline__ bool unbounded(W) { return false; }
  static __device__ __forceinline__ uint32_t step_u32(uint32_t a, uint32_t b, uint32_t c) {
    return min(max(a, b), c);
  }
  static __device__ __forceinline__ uint32_t step_u16x2(uint32_t a, uint32_t b, uint32_t c) {
    return __vminu2(__vmaxu2(a, b), c);
  }
};

/* max.* (most reliable paths): unbounded where a cycle's product exceeds 1. */
struct sr_max_times : sr_semiring<sr_max, sr_times> {
  template <class W> static __host__ __device__ __forceinline__ bool unbounded(W d) {
    return add::beats(d, mul::template one<W>());
  }
};

/* or.and on logical 0 and 1: max.min there; the GPU runs it bit-packed (kernels/boolean). */
struct sr_or_and : sr_max_min {};

/* ---- how a semiring accumulates a class ---- */
template <class SR, class T> struct sr_acc {
  typedef sr_class<T> C;
  typedef typename C::W W;
  typedef typename SR::add add;
  typedef typename SR::mul mul;
  enum { is_float = C::is_float };
  /* max.min and min.max in double pick and make terms by a compare and a select (pick_first) */
  static constexpr bool selects = SR::by_order && std::is_same<W, double>::value;
  /* what an accumulator starts at: NaN for floats (see the top), else beyond every term */
  static __device__ __forceinline__ W init() {
    if constexpr (is_float) return sr_start_nan(W());
    else
      return add::beyond(mul::term_lo((W)C::lo(), (W)C::hi()),
                         mul::term_hi((W)C::lo(), (W)C::hi()));
  }
  /* one term, exact in W */
  static __host__ __device__ __forceinline__ W term(W a, W b) {
#ifdef __CUDA_ARCH__
    if constexpr (selects) return mul::pick_first(a, b);
#endif
    return mul::term(a, b);
  }
  static __device__ __forceinline__ W pick(W v, W t) {
    if constexpr (selects) return add::pick_first(v, t);
    else return add::pick(v, t);
  }
  /* Octave's saturation of an integer term to the class */
  static __device__ __forceinline__ W sat(W t) {
    if constexpr (is_float) return t;
    else return t < (W)C::lo() ? (W)C::lo() : t > (W)C::hi() ? (W)C::hi() : t;
  }
  static __device__ __forceinline__ bool better(W t, W v) { return add::better(t, v); }
  static __device__ __forceinline__ T store(W v) { return (T)sat(v); }
  static __host__ __device__ __forceinline__ T empty() { return add::template empty<T>(); }
  static __host__ __device__ __forceinline__ T lowest() { return C::lo(); }
  /* one pair update of a running v: its pick with the term */
  static __device__ __forceinline__ W step(W v, T a, T b) { return pick(v, term((W)a, (W)b)); }
};

#endif
