/* The integer word paths' Ops for warptile.cuh, for semiring SR: how the words are summed
 * (Hopper's DPX min-add or max-add for min.+ and max.+, two compares for max.min and min.max;
 * over 32-bit words or packed 16-bit halves), how the witness keeps its tiles, how split slices
 * merge, and how words go back into the result's class. The plan around them (ranges, shifts,
 * packing) and the runners are in minplus_dpx_run.cuh. */
#ifndef CK_MINPLUS_DPX_CUH
#define CK_MINPLUS_DPX_CUH

#include <type_traits>

#include "minplus_warptile.cuh"
template <class SR, bool PACK, bool ARG> struct merge_take_word {
  typedef typename SR::add add;
  __device__ __forceinline__ void operator()(uint32_t &v, uint32_t &id, uint32_t t,
                                             uint32_t idt) const {
    if (PACK) {
      if (ARG) {
        uint32_t wins = add::better_u16x2(t, v);
        id = (idt & wins) | (id & ~wins);
      }
      v = add::pick_u16x2(v, t);
    } else if (add::better(t, v)) {
      v = t;
      if (ARG) id = idt;
    }
  }
};

/* DPX words back into the result's class: C(row, col) = sat(base + word) for Octave's m x n C,
 * where word (col, w) of the transposed product holds row w, or rows 2w and 2w + 1 in its low and
 * high halves when packed; with the witness, the tile of each (from id, the same way) into K for
 * witness_fixup.
 * TC void: the class is a value (its bounds and size), not a template parameter. The word
 * kernels differ between the integer classes only in this store, a uniform branch in the
 * epilogue, so one set of them serves all six: this file's warptile kernels fell from 140 to 60
 * and its sm_90 compile from 64 to about 45 s (the build is the slowest part of a first
 * `make check`). The kernels that read the narrow classes as they are (the small products, where
 * the epilogue weighs most) keep a store compiled for their class: with the class as a value
 * they ran 1.5-7% slower at 1024^3 to 2048^3 and 256 x 8192 x 256 (doc/NOTES.md). */
template <bool PACK, class TC = void> struct mp_dpx_out {
  enum { pack = PACK };
  void *C;
  double *K;
  size_t m;
  long long base;   /* the shifts of A and B */
  long long lo, hi; /* the class's bounds */
  int bytes;        /* its element size */
  __device__ __forceinline__ void put(size_t col, size_t w, uint32_t v, uint32_t id,
                                      bool arg) const {
#pragma unroll
    for (int h = 0; h < (PACK ? 2 : 1); h++) {
      size_t row = PACK ? 2 * w + h : w;
      if (row < m) {
        const size_t at = col * m + row;
        if constexpr (!std::is_void<TC>::value) {
          typedef mp_traits<TC> tr;
          ((TC *)C)[at] = tr::store((typename tr::W)(base + (PACK ? (v >> 16 * h) & 0xffffu : v)));
        } else if constexpr (PACK) { /* 8- and 16-bit classes: every value fits an int */
          int x = (int)base + (int)((v >> 16 * h) & 0xffffu);
          x = min(max(x, (int)lo), (int)hi);
          if (bytes == 1) ((uint8_t *)C)[at] = (uint8_t)x; /* the class's bits, modulo 2^8 */
          else ((uint16_t *)C)[at] = (uint16_t)x;
        } else {
          long long x = base + v;
          x = x < lo ? lo : x > hi ? hi : x;
          if (bytes == 1) ((uint8_t *)C)[at] = (uint8_t)x;
          else if (bytes == 2) ((uint16_t *)C)[at] = (uint16_t)x;
          else ((uint32_t *)C)[at] = (uint32_t)x;
        }
        if (arg) K[at] = PACK ? (id >> 16 * h) & 0xffffu : id;
      }
    }
  }
};

/* Integers through Hopper's DPX min-add (one VIADDMNMX per pair, or per two pairs packed as
 * 16-bit halves; max.+ the same with max-add). DPX adds wrap, Octave's saturate, so the operands
 * are first shifted by their minima (a - min A >= 0, b - min B >= 0) into unsigned words; when
 * the two spreads add up to less than the word's range no sum can wrap, the unsigned minimum is
 * exact, and the store adds the shifts back in 64 bits and saturates to the class:
 * min_k sat(s_k) == sat(min_k s_k). The host checks the spreads (int_path) and otherwise falls
 * back to v2's wide accumulation. max.min and min.max only compare: both operands shift by the
 * class's minimum, which maps every value into a word (a half for 8 and 16 bits) in order, and
 * no term leaves the class. Other GPUs run the same intrinsics in software.
 * The witness compares sums clamped to [lo, hi], the shifted sums at which the class saturates,
 * since Octave's ties are between saturated values. Packed, each half keeps its own tile in the
 * same half of id (so tiles must be below 2^16), without compares: for min the running minimum
 * starts at hi and stays in [lo, hi], so the clamped update max(min(v, t), lo) can only lower
 * it, the difference v - nv subtracts both halves at once without a borrow, min(difference, 1)
 * is 1 in each half that improved, and times the tile (which only grows) it raises that half's
 * id by a max (for max, mirrored: sr_max's clamp_pick_u16x2 and moved_u16x2). Four ALU
 * operations and one multiply per tile, where SIMD compare masks took about ten and made the
 * witness 1.45x the kernel without it (doc/NOTES.md). */
template <class SR_, bool PACK, class TC = void> struct mp_dpx_sums {
  typedef uint32_t T;
  uint32_t lo, hi;  /* packed: the same bound in both halves */
  uint32_t *planes; /* split into planes: the words of each plane; NULL: the result */
  uint32_t *tiles;  /* split, with the witness: their tiles (packed like the words) */
  mp_dpx_out<PACK, TC> out;
  typedef SR_ SR;
  static __device__ __forceinline__ T identity() { return SR::add::none_word; }
  __device__ __forceinline__ T witness_start() const {
    return PACK ? SR::add::start_u16x2(lo, hi) : identity();
  }
  static __device__ __forceinline__ T addmin(T a, T b, T c) {
    return PACK ? SR::step_u16x2(a, b, c) : SR::step_u32(a, b, c);
  }
  static __device__ __forceinline__ T term(T a, T b) {
    return PACK ? SR::mul::term_u16x2(a, b) : SR::mul::term_u32(a, b);
  }
  __device__ __forceinline__ void keep(T &v, uint32_t &id, T t, uint32_t tile) const {
    if (PACK) {
      uint32_t nv = SR::add::clamp_pick_u16x2(v, t, lo, hi); /* within the class's bounds */
      id = __vmaxu2(id, __vminu2(SR::add::moved_u16x2(v, nv), 0x00010001u) * tile);
      v = nv;
    } else {
      t = min(max(t, lo), hi); /* saturated to the class */
      if (SR::add::better(t, v)) {
        v = t;
        id = tile;
      }
    }
  }
  template <bool ARG> using take = merge_take_word<SR, PACK, ARG>;
  template <bool ARG>
  __device__ __forceinline__ void store(T v, uint32_t id, int i, int j, int Mr, int Nr,
                                        int plane) const {
    if (planes) {
      size_t at = plane_at(i, j, Mr, Nr, plane);
      planes[at] = v;
      if (ARG) tiles[at] = id;
    } else {
      out.put((size_t)i, (size_t)j, v, id, ARG);
    }
  }
};
template <class SR, bool PACK, bool ARG, class TC = void>
using mp_dpx_op = mp_op<mp_dpx_sums<SR, PACK, TC>, ARG>;

/* The packed kernel reading the 8- and 16-bit operands themselves instead of a packed copy (no
 * packing pass, and no word buffers of two to four times the operands' size). It applies only
 * where the shifts are the class's minimum for 8 bits (every spread fits a half) or 0 for 16 bits
 * (min.+ and max.+: the guess), or the class's minimum for max.min and min.max, and the shape is
 * whole tiles: then the "B" words, rows 2w and 2w + 1 of a column of Octave's A, are consecutive
 * elements (for 16 bits the very bits of the word), and an "A" word is one element of Octave's
 * B, in both halves. Byte permutes widen them; a signed class's shift by its minimum (FLIP) is a
 * flip of each element's top bit. */
template <class TC, class SR>
constexpr bool mp_raw_flips = std::is_signed<TC>::value && (sizeof(TC) == 1 || SR::by_order);
template <class TC, bool FLIP> __device__ __forceinline__ uint32_t mp_raw_flip(uint32_t x) {
  return !FLIP             ? x
         : sizeof(TC) == 1 ? x ^ 0x80808080u
         : sizeof(TC) == 2 ? x ^ 0x80008000u
                           : x ^ 0x80000000u;
}

template <class TC, bool FLIP> struct mp_raw_a {
  typedef TC Elem;
  typedef typename std::conditional<sizeof(TC) == 2, uint2, uint32_t>::type Raw;
  static __device__ __forceinline__ Raw load(const TC *p) { return *(const Raw *)p; }
  static __device__ __forceinline__ vec16<uint32_t> widen(Raw r) {
    vec16<uint32_t> v;
    if constexpr (sizeof(TC) == 2) {
      r.x = mp_raw_flip<TC, FLIP>(r.x);
      r.y = mp_raw_flip<TC, FLIP>(r.y);
      v.e[0] = __byte_perm(r.x, 0, 0x1010);
      v.e[1] = __byte_perm(r.x, 0, 0x3232);
      v.e[2] = __byte_perm(r.y, 0, 0x1010);
      v.e[3] = __byte_perm(r.y, 0, 0x3232);
    } else {
      r = mp_raw_flip<TC, FLIP>(r);
      v.e[0] = __byte_perm(r, 0, 0x4040);
      v.e[1] = __byte_perm(r, 0, 0x4141);
      v.e[2] = __byte_perm(r, 0, 0x4242);
      v.e[3] = __byte_perm(r, 0, 0x4343);
    }
    return v;
  }
};

/* Words read as they are, four at a time, each flipped where FLIP: the 32-bit classes' "A" or
 * "B" words (a batch of pages, mp_dpx_raw_page_op), and the 16-bit classes' "B" words, each a
 * pair of elements. */
template <class TC, bool FLIP> struct mp_raw_word {
  typedef uint32_t Elem;
  typedef uint4 Raw;
  static __device__ __forceinline__ Raw load(const Elem *p) { return *(const uint4 *)p; }
  static __device__ __forceinline__ vec16<uint32_t> widen(Raw r) {
    vec16<uint32_t> v;
    v.e[0] = mp_raw_flip<TC, FLIP>(r.x);
    v.e[1] = mp_raw_flip<TC, FLIP>(r.y);
    v.e[2] = mp_raw_flip<TC, FLIP>(r.z);
    v.e[3] = mp_raw_flip<TC, FLIP>(r.w);
    return v;
  }
};

/* The 8-bit classes' "B" words: each pair of elements (Elem) widened into a word's halves. */
template <class TC, bool FLIP> struct mp_raw_b_bytes {
  typedef uint16_t Elem;
  typedef uint2 Raw;
  static __device__ __forceinline__ Raw load(const Elem *p) { return *(const Raw *)p; }
  static __device__ __forceinline__ vec16<uint32_t> widen(Raw r) {
    vec16<uint32_t> v;
    r.x = mp_raw_flip<TC, FLIP>(r.x);
    r.y = mp_raw_flip<TC, FLIP>(r.y);
    v.e[0] = __byte_perm(r.x, 0, 0x4140);
    v.e[1] = __byte_perm(r.x, 0, 0x4342);
    v.e[2] = __byte_perm(r.y, 0, 0x4140);
    v.e[3] = __byte_perm(r.y, 0, 0x4342);
    return v;
  }
};

/* Elem: the pair of elements that makes one "B" word. */
template <class TC, bool FLIP>
using mp_raw_b = typename std::conditional<sizeof(TC) == 2, mp_raw_word<TC, FLIP>,
                                           mp_raw_b_bytes<TC, FLIP>>::type;

template <class TC, bool ARG, class SR> struct mp_dpx_raw_op : mp_dpx_op<SR, true, ARG, TC> {
  typedef mp_raw_a<TC, mp_raw_flips<TC, SR>> SrcA;
  typedef mp_raw_b<TC, mp_raw_flips<TC, SR>> SrcB;
};

#endif
