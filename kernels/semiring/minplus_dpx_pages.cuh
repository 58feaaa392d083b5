/* The DPX path's Ops for a batch of products (paged products, warptile_paged): the stores into
 * each page of C, and the Op of a batch read as it is, which checks the guessed shift block by
 * block and stores whole runs of a column (eight rows packed, four on 32-bit words). minplus_dpx_run.cuh runs them. */
#ifndef CK_MINPLUS_DPX_PAGES_CUH
#define CK_MINPLUS_DPX_PAGES_CUH

#include "minplus_dpx.cuh"

/* The largest of a warp's 32 values: one instruction on sm_80 and later, shuffles before. */
__device__ __forceinline__ uint32_t mp_warp_max(uint32_t v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_max_sync(0xffffffffu, v);
#else
#pragma unroll
  for (int d = 16; d > 0; d /= 2) v = max(v, __shfl_xor_sync(0xffffffffu, v, d));
  return v;
#endif
}

/* Words back into the result's class for a batch of products: page z's C starts z * m * n
 * elements on (the plane is the page, warptile_paged). */
template <class SR, bool PACK, class TC = void>
struct mp_dpx_page_sums : mp_dpx_sums<SR, PACK, TC> {
  template <bool ARG>
  __device__ __forceinline__ void store(uint32_t v, uint32_t id, int i, int j, int Mr, int Nr,
                                        int plane) const {
    mp_dpx_out<PACK, TC> o = this->out;
    const size_t before = (size_t)plane * o.m * Mr; /* Mr: n, the columns of C */
    o.C = (char *)o.C + before * o.bytes;
    if (ARG) o.K += before;
    o.put((size_t)i, (size_t)j, v, id, ARG);
  }
};

/* A packed word's two outputs in the class, each in the low bits of its half (a 32-bit word's
 * one output), where the shifts
 * are those the raw kernels read with (sum 0, or -256 for int8; max.min and min.max: the class's
 * minimum, once): one SIMD min (or min and max) where the per-half conversion took about ten ALU
 * instructions per output, a third of the 64^3-page kernel's non-DPX work (ncu, H100). */
template <class TC, class SR> __device__ __forceinline__ uint32_t mp_raw_word_out(uint32_t v) {
  if constexpr (SR::by_order) /* in the class already: a signed class's top bits flip back */
    return !std::is_signed<TC>::value ? v
           : sizeof(TC) == 1          ? v ^ 0x00800080u /* a byte in each half */
                                      : mp_raw_flip<TC, true>(v);
  else if constexpr (std::is_same<TC, int32_t>::value) return min(v, 0x7fffffffu);
  else if constexpr (std::is_same<TC, uint32_t>::value) return v; /* every sum fits */
  else if constexpr (std::is_same<TC, int16_t>::value) return __vminu2(v, 0x7fff7fffu);
  else if constexpr (std::is_same<TC, uint16_t>::value) return v; /* every sum fits */
  else if constexpr (std::is_same<TC, uint8_t>::value) return __vminu2(v, 0x00ff00ffu);
  else return __vmaxu2(__vminu2(v, 0x017f017fu), 0x00800080u); /* int8: v - 256 in [-128, 127] */
}
template <class TC, class SR> __host__ __device__ constexpr long long mp_raw_base() {
  if constexpr (SR::by_order) return std::is_signed<TC>::value ? -(1LL << (8 * sizeof(TC) - 1)) : 0;
  else return std::is_same<TC, int8_t>::value ? -256 : 0;
}

/* The paged form of mp_dpx_raw_op: a batch read as it is, on packed halves (PACK) or on 32-bit
 * words (the 32-bit classes; the 2-D form reads those through the plain Op). Two things differ
 * from the 2-D form, both for the small pages, where the kernel's start and end weigh most:
 * - The stores. Each thread holds four consecutive words (eight rows of one column of C) in each
 *   of its groups, and writes them in one 16-byte (8-byte for 8 bits) store, where the words
 *   were stored by halves: a warp's 2-byte stores touched 16 sectors for 64 bytes, and at 64^3 x
 *   4096 the L2 ran at 84% of its throughput with DRAM at 23% (ncu, H100).
 * - The check of the guessed shift 0 (16-bit classes): a block's outputs depend only on the
 *   panels it loads, so each block bounds what it loads and judges its own sums: int16 fits
 *   where no value is negative (any two nonnegative int16 fit a half), uint16 where its largest
 *   two add up to at most 65535; the same for int32 and uint32 on words (which spared a range
 *   pass and the host's wait for it: int32 64^3 x 4096 took 0.197 ms, 0.35 of the 2-D rate). A
 *   block whose sums may not fit computes its tile again, exactly, in the wide type from the
 *   operands (exact_tile) and sets *missed (a host word, ck_device_flags),
 *   so that the host need neither check the ranges before the product (a range pass over both
 *   operands, 28 us at 64^3 x 4096, a fifth of it) nor wait for the product to check them after
 *   (20-25 us of every call); it reads *missed at its next call, to steer its guess. */
template <class TC, bool ARG, class SR, bool PACK = true>
struct mp_dpx_raw_page_op : warptile_paged<mp_op<mp_dpx_page_sums<SR, PACK, TC>, ARG>> {
  typedef typename std::conditional<PACK, mp_raw_a<TC, mp_raw_flips<TC, SR>>,
                                    mp_raw_word<TC, mp_raw_flips<TC, SR>>>::type SrcA;
  typedef typename std::conditional<PACK, mp_raw_b<TC, mp_raw_flips<TC, SR>>,
                                    mp_raw_word<TC, mp_raw_flips<TC, SR>>>::type SrcB;
  typedef mp_op<mp_dpx_page_sums<SR, PACK, TC>, ARG> Base;
  /* for exact_tile: Octave's B (K x Mr per page) and A (as words: rows 2w and 2w + 1 of a
   * column in word w, K x Nr per page), where the kernel's "A" and "B" start */
  const TC *oct_b;
  const uint32_t *oct_a;
  int K;
  int *missed;
  /* max.min and min.max read at the class's minimum, which is known: nothing to check */
  static constexpr bool checks = sizeof(TC) >= 2 && !ARG && !SR::by_order,
                        is_signed = std::is_signed<TC>::value;
  typedef typename mp_traits<TC, SR>::W W;

  /* moved on to the pages from z on, as the kernel's operands are (warptile_launch_pages) */
  void sources_from(size_t z) {
    oct_b += z * this->step_a;
    oct_a += z * this->step_b;
  }

  struct Watch {
    uint32_t a, b; /* Octave's A ("B" words) and B: OR of the bits, or the largest halves */
    bool miss;     /* the block's verdict: its sums may not fit a half */
  };
  /* the block's largest A and B (uint16, uint32) */
  static __device__ __forceinline__ uint32_t *block_tops() {
    __shared__ uint32_t tops[2];
    return tops;
  }
  /* the tops are cleared before the kernel's first barrier, and raised only after its last */
  static __device__ __forceinline__ Watch watch_start() {
    if (checks && !is_signed && threadIdx.x == 0) block_tops()[0] = block_tops()[1] = 0;
    return {0u, 0u, false};
  }
  /* two words into w: one three-input instruction (the kernel's DPX pipe is the ALU's) */
  static __device__ __forceinline__ void watch_two(uint32_t &w, uint32_t x, uint32_t y) {
    w = is_signed ? w | x | y : PACK ? __vimax3_u16x2(w, x, y) : __vimax3_u32(w, x, y);
  }
  static __device__ __forceinline__ void watch_raw(uint32_t &w, const uint2 &r) {
    watch_two(w, r.x, r.y);
  }
  static __device__ __forceinline__ void watch_raw(uint32_t &w, const uint4 &r) {
    watch_two(w, r.x, r.y);
    watch_two(w, r.z, r.w);
  }
  __device__ __forceinline__ void watch_a(Watch &w, const typename SrcA::Raw &r) const {
    if constexpr (checks) watch_raw(w.b, r);
  }
  __device__ __forceinline__ void watch_b(Watch &w, const typename SrcB::Raw &r) const {
    if constexpr (checks) watch_raw(w.a, r);
  }
  /* the largest value of word x: of its halves when packed */
  static __device__ __forceinline__ uint32_t top_of(uint32_t x) {
    return PACK ? max(x & 0xffffu, x >> 16) : x;
  }
  __device__ __forceinline__ void watch_end(Watch &w) const {
    if constexpr (checks) {
      if constexpr (is_signed) {
        w.miss = __syncthreads_or((w.a | w.b) & (PACK ? 0x80008000u : 0x80000000u)) != 0;
      } else {
        const uint32_t top_a = mp_warp_max(top_of(w.a)), top_b = mp_warp_max(top_of(w.b));
        uint32_t *tops = block_tops();
        if (threadIdx.x % 32 == 0) {
          atomicMax(&tops[0], top_a);
          atomicMax(&tops[1], top_b);
        }
        __syncthreads();
        w.miss = (unsigned long long)tops[0] + tops[1] > (PACK ? 0xffffu : 0xffffffffu);
      }
      if (w.miss && threadIdx.x == 0 && missed) *(volatile int *)missed = 1;
    }
  }

  /* One half of a word of A (the word, unpacked) as a number of the class. */
  static __device__ __forceinline__ W half_of(uint32_t x, int h) {
    if constexpr (!PACK) return is_signed ? (W)(int32_t)x : (W)x;
    const uint32_t u = (x >> 16 * h) & 0xffffu;
    return is_signed ? (W)(int16_t)u : (W)u;
  }

  /* What exact_tile reads and writes, for the block's page: Octave's B (B(p, j) at B[j * K + p]),
   * A as words (rows 2w and 2w + 1 of column p at A[p * Nr + w]) and C (m x Mr). */
  struct Exact {
    const TC *B;
    const uint32_t *A;
    TC *C;
    size_t m;
    int K, Mr, Nr;
  };
  __device__ __forceinline__ Exact exact_page() const {
    size_t page_b, page_a;
    this->page_offsets(page_b, page_a);
    const size_t m = this->sums.out.m;
    return {oct_b + page_b,
            oct_a + page_a,
            (TC *)this->sums.out.C + (size_t)blockIdx.z * m * this->Mr,
            m,
            K,
            this->Mr,
            this->Nr};
  }

  /* This thread's outputs, exactly: sums in the wide type, saturated to the class as Octave's
   * are (the saturated minimum is the minimum of the saturated sums). The panels are the ones
   * the block has just read, in L2 and mostly in L1. */
  template <int NA, int NB, class At>
  static __device__ __forceinline__ void exact_tile(const Exact e, At at) {
    typedef mp_traits<TC, SR> tr;
    const int lane = threadIdx.x % 32;
    for (int a = 0; a < NA; a++)
      for (int b = 0; b < NB; b++) {
        const int2 p = at(a, b, lane);
        if (p.x >= e.Mr || p.y >= e.Nr) continue;
        const TC *col = e.B + (size_t)p.x * e.K; /* B(:, j), j = p.x */
        constexpr int H = PACK ? 2 : 1;          /* outputs per word */
        W lo[H];
        for (int h = 0; h < H; h++) lo[h] = tr::init();
        for (int kk = 0; kk < e.K; kk++) {
          const uint32_t x = e.A[(size_t)kk * e.Nr + p.y];
          const W y = col[kk];
#pragma unroll
          for (int h = 0; h < H; h++) lo[h] = tr::pick(lo[h], tr::term(half_of(x, h), y));
        }
#pragma unroll
        for (int h = 0; h < H; h++) {
          const size_t i = (size_t)H * p.y + h;
          if (i < e.m) e.C[(size_t)p.x * e.m + i] = tr::store(lo[h]);
        }
      }
  }

  static constexpr bool stores_whole = !ARG;
  /* Accumulators 4g .. 4g + 3 of a row are consecutive words (TN = 4: minplus_policy.cuh): rows
   * 2w .. 2w + 7 of one column of C, one 16-byte store (8-byte for 8 bits). Whether a thread's
   * groups all are whole and aligned is judged once, from its last accumulator (the largest row
   * and word), so that the stores run straight: judged per group, with the conversion's choice of
   * shift per word, the epilogue took 730 instructions per block and a fifth of the 64^3 int16
   * kernel's warp time (ncu, H100). Only threads at a ragged page's edges store output by output;
   * the shift is the raw kernels' own wherever mp_dpx_raw_page_op runs (reads_raw). On 32-bit
   * words the four are four rows, one 16-byte store. */
  template <int NA, int NB, class At>
  __device__ __forceinline__ void store_tile(const typename Base::Acc (&acc)[NA][NB], At at,
                                             const Watch &w) const {
    static_assert(NB % 4 == 0, "four words per store");
    if (checks && w.miss) {
      exact_tile<NA, NB>(exact_page(), at);
      return;
    }
    const int lane = threadIdx.x % 32;
    const mp_dpx_out<PACK, TC> &o = this->sums.out;
    TC *C = (TC *)o.C + (size_t)blockIdx.z * o.m * this->Mr;
    const int2 last = at(NA - 1, NB - 1, lane);
    constexpr int R = PACK ? 8 : 4; /* the rows of one store */
    /* with m a multiple of R, the Nr = m / 2 (or m) words hold all m rows */
    const bool whole = last.x < this->Mr && last.y < this->Nr && o.m % R == 0 &&
                       (uintptr_t)C % (R * sizeof(TC)) == 0 && o.base == mp_raw_base<TC, SR>();
    if (!whole) {
#pragma unroll
      for (int a = 0; a < NA; a++)
#pragma unroll
        for (int b = 0; b < NB; b++) this->store(acc[a][b], at(a, b, lane).x, at(a, b, lane).y);
      return;
    }
#pragma unroll
    for (int a = 0; a < NA; a++) {
      TC *col = C + (size_t)at(a, 0, lane).x * o.m;
#pragma unroll
      for (int g = 0; g < NB / 4; g++) {
        uint32_t q[4]; /* each half: one output in its low bits (a word: one output) */
#pragma unroll
        for (int e = 0; e < 4; e++) q[e] = mp_raw_word_out<TC, SR>(acc[a][4 * g + e].v);
        TC *dst = col + (PACK ? 2 : 1) * at(a, 4 * g, lane).y;
        if constexpr (sizeof(TC) >= 2) *(uint4 *)dst = make_uint4(q[0], q[1], q[2], q[3]);
        else /* bytes 0 and 2 of each word */
          *(uint2 *)dst = make_uint2(__byte_perm(q[0], q[1], 0x6420),
                                     __byte_perm(q[2], q[3], 0x6420));
      }
    }
  }
};

/* The Op's own view of its operands moved on to the pages from z on, where it has one. */
template <class O> static auto sources_from(O &o, size_t z, int) -> decltype(o.sources_from(z)) {
  return o.sources_from(z);
}
template <class O> static void sources_from(O &, size_t, long) {}

#endif
