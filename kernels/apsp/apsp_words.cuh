/* The arithmetic of min-plus-like products in a work type's words, shared by the rounds'
 * warptile products (apsp_warptile.cu) and a graph by tiles' products with next hops
 * (apsp_graph_paths.cu): both track each output's winner by stretches of the depth (a warptile
 * tile, a graph's chunk), keeping the stretch where the running pick t improved on v. */
#ifndef CK_APSP_WORDS_CUH
#define CK_APSP_WORDS_CUH

#include "apsp.cuh"

/* Each work type's arithmetic in semiring SR: the identity of the add, one pair update (for min.+
 * min (c, a + b)), and the running pick v taking a stretch's t, with the stretch (tile) where t
 * is better. With next hops t either restarts each stretch (its first term a + b, where single
 * and double spare an FMNMX) or runs on from v (RUNS_ON: the integer words, where a restart
 * cost the packed halves a min and a compare per stretch; t <= v then). */
template <class T, class SR> struct ap_words;
/* Single and double: min.+ one FADD and one FMNMX, min.max two FMNMX, max.* an FMUL and an FMNMX.
 * Double min.max compares and selects (SELECTS): fmin and fmax cost about nine instructions
 * each on sm_90 for their rules on NaN and zeros (semiring.cuh), and the rounds see no NaN. */
template <class F, class SR> struct ap_words_fp {
  typedef F W;
  typedef typename SR::add add;
  typedef typename SR::mul mul;
  enum { E = 1, RUNS_ON = 0 };
  static constexpr bool SELECTS = SR::by_order && sizeof(F) == 8;
  static __device__ __forceinline__ W identity() { return ap_zero<SR, W>(); }
  static __device__ __forceinline__ W term(W a, W b) {
    if constexpr (SELECTS) return mul::beats(a, b) ? a : b;
    else return mul::term(a, b);
  }
  static __device__ __forceinline__ W addmin(W a, W b, W c) {
    const W t = term(a, b);
    if constexpr (SELECTS) return add::beats(t, c) ? t : c;
    else return add::pick(c, t);
  }
  static __device__ __forceinline__ W pick(W v, W t) {
    if constexpr (SELECTS) return add::beats(t, v) ? t : v;
    else return add::pick(v, t);
  }
  static __device__ __forceinline__ void keep(W &v, uint32_t &id, W t, uint32_t tile) {
    if (add::beats(t, v)) v = t, id = tile;
  }
};
template <class SR> struct ap_words<float, SR> : ap_words_fp<float, SR> {};
template <class SR> struct ap_words<double, SR> : ap_words_fp<double, SR> {};
/* Unsigned words: min.+ values below 2^31 (no sum wraps) on DPX min-add; min.max keys of the whole
 * word on two VIMNMX. */
template <class SR> struct ap_words<uint32_t, SR> {
  typedef uint32_t W;
  enum { E = 1, RUNS_ON = 1 };
  static __device__ __forceinline__ W identity() { return SR::add::none_word; }
  static __device__ __forceinline__ W term(W a, W b) { return SR::mul::term_u32(a, b); }
  static __device__ __forceinline__ W addmin(W a, W b, W c) { return SR::step_u32(a, b, c); }
  static __device__ __forceinline__ W pick(W v, W t) { return SR::add::pick_u32(v, t); }
  static __device__ __forceinline__ void keep(W &v, uint32_t &id, W t, uint32_t tile) {
    if (SR::add::beats(t, v)) id = tile;
    v = t;
  }
};
/* Two 16-bit values per word (min.+: values below 2^15, no half wraps, so a + b adds both halves;
 * min.max: keys of the whole half, two SIMD compares).
 * keep without compares, as gpu_minplus's packed witness does: how far each half moved (t only
 * moves one way from v: moved_u16x2) is nonzero in each half that improved, capped at 1 and times
 * the tile (which only grows) it raises that half's id by a max. */
template <class SR> struct ap_words<uint16_t, SR> {
  typedef uint32_t W;
  enum { E = 2, RUNS_ON = 1 };
  static __device__ __forceinline__ W identity() { return SR::add::none_word; }
  static __device__ __forceinline__ W term(W a, W b) { return SR::mul::term_u16x2(a, b); }
  static __device__ __forceinline__ W addmin(W a, W b, W c) { return SR::step_u16x2(a, b, c); }
  static __device__ __forceinline__ W pick(W v, W t) { return SR::add::pick_u16x2(v, t); }
  static __device__ __forceinline__ void keep(W &v, uint32_t &id, W t, uint32_t tile) {
    id = __vmaxu2(id, __vminu2(SR::add::moved_u16x2(v, t), 0x00010001u) * tile);
    v = t;
  }
};

#endif
