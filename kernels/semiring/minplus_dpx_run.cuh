/* The v3 warptile for the integer classes of semiring SR, over unsigned words: 32-bit words, or
 * two 16-bit values packed in a word (int8 to uint16 where they fit). min.+ and max.+ run on
 * Hopper's DPX min-add and max-add: the operands are shifted into words by their minima, found
 * by minplus_ranges.cuh or guessed 0, and sums no word holds fall back to v2's wide accumulation
 * (minplus_ladder.cu). max.min and min.max compare only: both operands shift by the class's
 * minimum, always exact, no ranges. The Ops the kernels run are in minplus_dpx.cuh; this file
 * plans the words and runs them, 2-D or paged. Each semiring's instantiations are a file of their
 * own (minplus_dpx_*.cu), so that they compile in parallel. */
#ifndef CK_MINPLUS_DPX_RUN_CUH
#define CK_MINPLUS_DPX_RUN_CUH

#include "minplus_dpx.cuh"
#include "minplus_dpx_pages.cuh"
#include "minplus_ranges.cuh"

template <class SR, bool ARG, class Out>
__global__ void merge_word_planes(const uint32_t *__restrict__ P, const uint32_t *__restrict__ Pt,
                                  int splits, size_t rows, size_t words, Out out) {
  const bool PACK = Out::pack;
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t v = 0, id = 0;
  if (merge_runs(P, ARG ? Pt : (const uint32_t *)NULL, splits, rows * words, idx, v, id,
                 merge_take_word<SR, PACK, ARG>())) {
    size_t col, w;
    split_index(idx, words, col, w);
    out.put(col, w, v, id, ARG);
  }
}

/* ---- the DPX path's plan: value ranges, then shifted (and, when packed, paired) words ----
 * The shifts must not exceed the operands' minima, and the spreads above them must fit the word.
 * Most integer min-plus inputs are nonnegative (weights, with intmax as "no edge"), and then a
 * shift of 0 always fits int16 halves and int32 words. So the product first runs on that guess:
 * the packing finds the ranges as it goes (int32 operands of whole tiles, which shift 0 lets the
 * kernel read as they are, have a range pass instead), the product is queued behind it, and the
 * host checks the ranges while the kernel runs (a batch of 16- or 32-bit pages read as they are
 * checks the guess in each block instead, and needs no host check: mp_dpx_raw_page_op). A miss queues
 * the product again from the ranges, and the class then waits for its ranges (guess_missed)
 * until an input shows the guess would have held. (Checking after the product instead, the
 * host's wait left the GPU idle between calls: int16 1024^3 took 0.080-0.091 ms against 0.075
 * before, doc/NOTES.md.) */

/* One word: x - shift (exact in 32 bits whenever the shift fits), in both halves when packed. */
template <class T>
__device__ __forceinline__ uint32_t dpx_word(T x, uint32_t shift, bool pack, T &lo, T &hi) {
  widen_range(x, lo, hi);
  uint32_t u = (uint32_t)x - shift;
  return pack ? u | u << 16 : u;
}

/* Four consecutive row-major "A" words (Mp x Kp) from Octave's B (k x n), starting at idx (a
 * multiple of 4; Kp is one too, so the four share a row): B(p, j) - shift, duplicated into both
 * halves when packed; padding is the add's none_word (all ones for min, 0 for max), so that with
 * "B"'s zero padding a padded term never wins (min.+: all ones, the largest sum, which cannot
 * wrap; max.+ and max.min: 0; min.max: all ones). */
template <class T>
__device__ __forceinline__ uint4 dpx_quad_a(const T *__restrict__ B, size_t idx, size_t k, size_t n,
                                            size_t Kp, uint32_t shift, bool pack, uint32_t pad,
                                            T &lo, T &hi) {
  size_t j, p;
  split_index(idx, Kp, j, p);
  uint32_t u[4];
  const T *src = B + j * k + p;
#pragma unroll
  for (int e = 0; e < 4; e++)
    u[e] = j < n && p + e < k ? dpx_word(src[e], shift, pack, lo, hi) : pad;
  return make_uint4(u[0], u[1], u[2], u[3]);
}

/* Four consecutive row-major "B" words (Kp x Np) from Octave's A (m x k): A(i, p) - shift, rows
 * 2w and 2w + 1 in the low and high halves when packed; zero padding. */
template <class T>
__device__ __forceinline__ uint4 dpx_quad_b(const T *__restrict__ A, size_t idx, size_t m, size_t k,
                                            size_t Np, uint32_t shift, bool pack, T &lo, T &hi) {
  size_t p, c;
  split_index(idx, Np, p, c);
  uint32_t u[4] = {0, 0, 0, 0};
  if (p < k) {
    const T *col = A + p * m;
#pragma unroll
    for (int e = 0; e < 4; e++) {
      size_t i = pack ? 2 * (c + e) : c + e;
      if (i < m) u[e] = dpx_word(col[i], shift, false, lo, hi);
      if (pack && i + 1 < m) u[e] |= dpx_word(col[i + 1], shift, false, lo, hi) << 16;
    }
  }
  return make_uint4(u[0], u[1], u[2], u[3]);
}

/* One packing of both operands into words: Octave's B into the row-major "A" words wa (Mp x Kp),
 * Octave's A into the "B" words wb (Kp x Np). Each shift is the minimum the device found
 * (shifts_at: the record) when the host has not read it yet, else shift_a and shift_b; with
 * `range`, the operands' ranges go there too, under `tag`. */
template <class T> struct mp_packing {
  const T *A, *B;
  uint32_t *wa, *wb;
  size_t m, k, n, Mp, Np, Kp;
  const long long *shifts_at;
  long long shift_a, shift_b;
  bool pack;
  long long *range, tag;
  uint32_t pad; /* the "A" words' padding: dpx_quad_a */
};

/* Both operands' words in one launch (blockIdx.y: "A" words, then "B" words), four per thread
 * and trip with one 16-byte store. PAGED: every page of each (pages_a of A, pages_b of B), the
 * words of a page after those of the page before. (The pages are not fields of P: a larger P
 * changed the 2-D kernel's code.) */
template <class T, bool RANGES, bool PAGED>
__device__ __forceinline__ void pack_words(const mp_packing<T> &P, size_t pages_a, size_t pages_b) {
  typedef mp_traits<T> tr;
  const T *__restrict__ A = P.A, *__restrict__ B = P.B;
  const bool a = blockIdx.y == 0;
  const size_t per_page = (a ? P.Mp * P.Kp : P.Kp * P.Np) / 4;
  const size_t quads = PAGED ? per_page * (a ? pages_b : pages_a) : per_page;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  const uint32_t shift = (uint32_t)(a ? (P.shifts_at ? mp_min_of(P.shifts_at[1]) : P.shift_b)
                                      : (P.shifts_at ? mp_min_of(P.shifts_at[0]) : P.shift_a));
  uint4 *__restrict__ out = (uint4 *)(a ? P.wa : P.wb);
  T lo = tr::empty(), hi = tr::lowest();
  auto quad = [&](size_t q) {
    if constexpr (PAGED) {
      size_t page;
      split_index(q, per_page, page, q);
      return a ? dpx_quad_a(B + page * P.k * P.n, 4 * q, P.k, P.n, P.Kp, shift, P.pack, P.pad, lo,
                            hi)
               : dpx_quad_b(A + page * P.m * P.k, 4 * q, P.m, P.k, P.Np, shift, P.pack, lo, hi);
    } else {
      return a ? dpx_quad_a(B, 4 * q, P.k, P.n, P.Kp, shift, P.pack, P.pad, lo, hi)
               : dpx_quad_b(A, 4 * q, P.m, P.k, P.Np, shift, P.pack, lo, hi);
    }
  };
  for (size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x; q < quads; q += 2 * stride) {
    const bool two = q + stride < quads; /* two quads' loads in flight before either store */
    uint4 w0 = quad(q), w1 = two ? quad(q + stride) : w0;
    out[q] = w0;
    if (two) out[q + stride] = w1;
  }
  if (RANGES) publish_range((long long)lo, (long long)hi, P.range, P.tag, a ? 1 : 0);
}

template <class T, bool RANGES> __global__ void dpx_words(const mp_packing<T> P) {
  pack_words<T, RANGES, false>(P, 1, 1);
}

template <class T, bool RANGES>
__global__ void dpx_words_pages(const mp_packing<T> P, size_t pages_a, size_t pages_b) {
  pack_words<T, RANGES, true>(P, pages_a, pages_b);
}

/* pages_a, pages_b: 0 for a 2-D product. */
template <class T>
static void launch_dpx_words(const mp_packing<T> &P, size_t pages_a, size_t pages_b) {
  const size_t wa = P.Mp * P.Kp * (pages_b ? pages_b : 1),
               wb = P.Kp * P.Np * (pages_a ? pages_a : 1);
  dim3 grid(pass_blocks((wa > wb ? wa : wb) / 4, 2 * MP_THREADS), 2);
  if (pages_a && P.range) dpx_words_pages<T, true><<<grid, MP_THREADS>>>(P, pages_a, pages_b);
  else if (pages_a) dpx_words_pages<T, false><<<grid, MP_THREADS>>>(P, pages_a, pages_b);
  else if (P.range) dpx_words<T, true><<<grid, MP_THREADS>>>(P);
  else dpx_words<T, false><<<grid, MP_THREADS>>>(P);
}

enum mp_int_path { MP_INT_WIDE, MP_INT_U32, MP_INT_U16X2 };

/* Packed, the witness's tiles must fit a half. */
static bool packed_tiles_fit(size_t k, bool arg) {
  const size_t bk = v3_cfg<uint32_t, true>::type::BK;
  return !arg || round_up(k, bk) / bk <= 0x10000;
}

/* Whether shifts s_a, s_b keep every term of the path exact, from h = min A, min B, max A,
 * max B: neither above its minimum, and the spreads above them adding up within the word (a half
 * when packed); for a semiring that only compares, one shift for both and the larger spread
 * within the word. */
template <class SR>
static bool shifts_fit(const long long h[4], long long s_a, long long s_b, mp_int_path path) {
  long long top = path == MP_INT_U16X2 ? 0xffff : 0xffffffffLL;
  if (SR::by_order)
    return s_a == s_b && h[0] >= s_a && h[1] >= s_a && h[2] - s_a <= top && h[3] - s_a <= top;
  return h[0] >= s_a && h[1] >= s_b && (h[2] - s_a) + (h[3] - s_b) <= top; /* < 2^35: exact */
}

/* The shifts a product's words take from h: the minima, or for a semiring that only compares
 * the smaller of them for both (the class's minimum, by_order's known shift). */
template <class SR> static void word_shifts(const long long h[4], long long *s_a, long long *s_b) {
  *s_a = SR::by_order && h[1] < h[0] ? h[1] : h[0];
  *s_b = SR::by_order && h[0] < h[1] ? h[0] : h[1];
}

/* What the store adds back to a word: the sum of the shifts, or the one shift. */
template <class SR> static long long word_base(const long long h[4]) {
  long long s_a, s_b;
  word_shifts<SR>(h, &s_a, &s_b);
  return SR::by_order ? s_a : s_a + s_b;
}

/* Which path keeps every term exact when shifted (word_shifts). */
template <class T, class SR> static mp_int_path int_path(const long long h[4], size_t k, bool arg) {
  long long s_a, s_b;
  word_shifts<SR>(h, &s_a, &s_b);
  return sizeof(T) <= 2 && packed_tiles_fit(k, arg) && shifts_fit<SR>(h, s_a, s_b, MP_INT_U16X2)
             ? MP_INT_U16X2
         : shifts_fit<SR>(h, s_a, s_b, MP_INT_U32) ? MP_INT_U32
                                                   : MP_INT_WIDE;
}

/* The path taken before the ranges are known: packed for the narrow classes (where the common
 * small weights fit), 32-bit words for the others. */
template <class T> static mp_int_path likely_path(size_t k, bool arg) {
  return sizeof(T) <= 2 && packed_tiles_fit(k, arg) ? MP_INT_U16X2 : MP_INT_U32;
}

/* 8-bit classes need no ranges: any two spreads (at most 255 each) fit a half, and the class's
 * own bounds serve as shifts. Nor do the semirings that only compare: the class's minimum maps
 * every value into the word. */
template <class T, class SR> static bool ranges_known(void) {
  return sizeof(T) == 1 || SR::by_order;
}

/* Whether the class's last product missed the guess of shift 0 (and so waits for its ranges). */
template <class T, class SR> static bool &guess_missed(void) {
  static thread_local bool missed = false; /* a heuristic: each worker thread keeps its own */
  return missed;
}

/* Where a batch's blocks note that the guess of shift 0 missed (mp_dpx_raw_page_op): a host word
 * of the lane for each 16- and 32-bit class of min.+ and of max.+; none (NULL) where the lane has
 * no flags. */
struct mp_flag {
  volatile int *host;
  int *dev;
};
template <class T, class SR> static mp_flag missed_flag(void) {
  mp_flag f = {NULL, NULL};
  if (ck_device_flags(&f.host, &f.dev) != CK_OK) return {NULL, NULL}; /* then no steering */
  const int at = CK_FLAGS_MISSED + (std::is_signed<T>::value ? 0 : 1) + (sizeof(T) == 4 ? 2 : 0) +
                 (std::is_same<SR, sr_min_plus>::value ? 0 : 4); /* 8 of CK_FLAG_WORDS */
  return {f.host + at, f.dev + at};
}

/* Whether the blocks of a batch found the class's last guess wrong: the class then waits for its
 * ranges, as after a miss the host found. A product still running may set the word after it is
 * read; the call after this one sees it then. */
template <class T, class SR> static void read_missed(void) {
  const mp_flag f = missed_flag<T, SR>();
  if (f.host && *f.host) {
    *f.host = 0;
    guess_missed<T, SR>() = true;
  }
}

/* The shifted sum x as a bound for the witness's clamp: within the word, or in both halves. */
static uint32_t clamp_word(long long x, bool pack) {
  long long top = pack ? 0xffff : 0xffffffffLL;
  uint32_t u = x < 0 ? 0u : x > top ? (uint32_t)top : (uint32_t)x;
  return pack ? u * 0x10001u : u;
}

/* How run_v3_dpx learns its shifts: known (h), on their way from the device (the record read
 * `rd`, the packing shifting by the record itself), or guessed 0 and checked while the product
 * runs (the record at `d` filled by the packing, or by a range pass where there is none). */
enum mp_shifts { MP_SHIFTS_KNOWN, MP_SHIFTS_PENDING, MP_SHIFTS_GUESSED };

/* What a DPX product knows of its shifts: h = min A, min B, max A, max B as far as `how` says
 * (all four once the product returns), and with MP_SHIFTS_PENDING the read that brings them. */
struct mp_shift_plan {
  long long h[MP_RECORD];
  mp_shifts how;
  mp_record_read *rd;
};

/* Whether the kernel reads the operands as they are, without packing (mp_dpx_raw_op; 32-bit
 * classes: the words themselves, or mp_dpx_raw_page_op for a batch): shifts of 0 (a guess) for
 * the 16- and 32-bit classes of min.+ and max.+, or the class's minimum (known) for 8 bits and
 * for every class of max.min and min.max; whole tiles; aligned for the kernel's loads (B, whose "A" words
 * these are, may be a panel of a larger array: minplus_host.c). The kernel then widens every
 * word it loads, each time a tile is read again, where the packing widened each once: one byte
 * permute per word: next to nothing for the 16-bit product, but about 3% of the kernel for 8
 * bits (whose "B" words need one too) and for the witness's kernel (BK = 16, fewer pairs per
 * word). The packing's share falls as n grows, so those are read as they are only below 2^32
 * pairs (H100: 1.05-1.19x at 1024^3 and 256 x 8192 x 256, even at 2048^3; the 16-bit witness
 * 0.975-0.99x at 8192^3; doc/NOTES.md). */
template <class T, class SR, bool PACK, bool ARG>
static bool reads_raw(const mp_problem<T, SR> &q, size_t Mp, size_t Np, size_t Kp, size_t words,
                      const mp_shift_plan &sh) {
  const size_t m = q.m, k = q.k, n = q.n;
  const long long *h = sh.h;
  const mp_shifts how = sh.how;
  /* the shift each operand is read with: 8 bits (and every class of by_order) the class's
   * minimum, a flip of the top bit for signed ones (mp_raw_flips); else 0. A batch's 32-bit
   * words are read by mp_dpx_raw_page_op, which flips; the 2-D kernel reads them as they are:
   * int32 at the guess of 0, uint32 at its minimum 0. */
  const long long shift = sizeof(T) == 1 || SR::by_order ? (long long)sr_class<T>::lo() : 0;
  const bool kind =
      PACK ? sizeof(T) <= 2
      : q.pg.count > 0
          ? sizeof(T) == 4
          : std::is_same<T,
                         typename std::conditional<SR::by_order, uint32_t, int32_t>::type>::value;
  const bool shifts = how == MP_SHIFTS_GUESSED
                          ? shift == 0
                          : how == MP_SHIFTS_KNOWN && h[0] == shift && h[1] == shift;
  const size_t align_a = PACK ? 4 * sizeof(T) : 16, align_b = PACK ? 8 * sizeof(T) : 16;
  const bool small = !PACK || (sizeof(T) == 2 && !ARG) ||
                     (double)m * (double)k * (double)n < MP_RAW_SMALL_PAIRS;
  return kind && shifts && small && Mp == n && Np == words && Kp == k && (!PACK || m % 2 == 0) &&
         (uintptr_t)q.B % align_a == 0 && (uintptr_t)q.A % align_b == 0;
}

/* The DPX product on packed (PACK) or 32-bit words; *took is false when the shifts turned out
 * to need another path (then, unless guessed, nothing was run). Operands whose shape is already
 * whole tiles are read as they are where the shifts allow (reads_raw). PAGED: a batch of
 * products (q.pg), packed and run in one launch each, on the paged tiles. */
template <class T, class SR, bool PACK, bool ARG, bool PAGED>
static ck_status run_v3_dpx(const mp_problem<T, SR> &q, mp_shift_plan &sh, bool *took) {
  const T *dA = q.A, *dB = q.B;
  const size_t m = q.m, k = q.k, n = q.n, pages_a = q.pg.pages_a(), pages_b = q.pg.pages_b();
  long long *h = sh.h;
  const mp_shifts how = sh.how;
  typedef typename std::conditional<
      PAGED,
      typename std::conditional<PACK && !ARG, v3_cfg_page_halves,
                                typename v3_page_cfg<uint32_t, ARG>::type>::type,
      typename v3_cfg<uint32_t, ARG>::type>::type cfg;
  typedef typename std::conditional<PAGED, warptile_paged<mp_op<mp_dpx_page_sums<SR, PACK>, ARG>>,
                                    mp_dpx_op<SR, PACK, ARG>>::type Op;
  typedef typename std::conditional<PAGED, mp_dpx_raw_page_op<T, ARG, SR, PACK>,
                                    mp_dpx_raw_op<T, ARG, SR>>::type RawOp; /* 2-D: PACK only */
  const bool guessed = how == MP_SHIFTS_GUESSED;
  const mp_int_path path = PACK ? MP_INT_U16X2 : MP_INT_U32;
  size_t words = PACK ? (m + 1) / 2 : m;
  size_t Mp = round_up(n, cfg::BM), Np = round_up(words, cfg::BN), Kp = round_up(k, cfg::BK);
  /* a batch with the witness is packed: fewer kernels to build (no goal needs it read raw) */
  const bool raw = !(PAGED && ARG) && reads_raw<T, SR, PACK, ARG>(q, Mp, Np, Kp, words, sh);
  uint32_t *wa = NULL, *wb = NULL;
  mp_split sp = {1, 1, NULL, NULL};
  mp_record_read check;
  bool checking = false;
  long long *d = NULL, tag = 0;
  *took = false;
  ck_status s = CK_OK;
  if (raw) {
    if (!PACK) {
      wa = (uint32_t *)dB;
      wb = (uint32_t *)dA;
    }
  } else {
    s = ck_dev_alloc((void **)&wa, Mp * Kp * pages_b * sizeof(uint32_t));
    if (s == CK_OK) s = ck_dev_alloc((void **)&wb, Kp * Np * pages_a * sizeof(uint32_t));
  }
  /* a batch read as it is judges the guess block by block (mp_dpx_raw_page_op) */
  const bool blocks_judge = PAGED && raw && sizeof(T) >= 2 && !SR::by_order;
  long long s_a = 0, s_b = 0; /* the shifts, where known */
  if (s == CK_OK && guessed) h[0] = h[1] = 0;
  if (s == CK_OK && guessed && !blocks_judge) {
    s = next_record(&d, &tag);
    if (s == CK_OK && raw) s = find_ranges<T>(dA, m * k * pages_a, dB, k * n * pages_b, d, tag);
  }
  if (how == MP_SHIFTS_KNOWN) word_shifts<SR>(h, &s_a, &s_b);
  if (s == CK_OK && !raw) {
    const mp_packing<T> P = {dA,
                             dB,
                             wa,
                             wb,
                             m,
                             k,
                             n,
                             Mp,
                             Np,
                             Kp,
                             how == MP_SHIFTS_PENDING ? sh.rd->d : NULL,
                             s_a,
                             s_b,
                             PACK,
                             guessed ? d : NULL,
                             tag,
                             SR::add::none_word};
    launch_dpx_words<T>(P, PAGED ? pages_a : 0, PAGED ? pages_b : 0);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) s = ck_cuda_status(e, "packing the operands");
  }
  /* the record's copy is queued once the product is, behind the work that fills it: the range
   * pass or the packing */
  if (s == CK_OK && guessed && !blocks_judge) {
    mark_read(d, tag, &check);
    checking = true;
  }
  /* the plan while the GPU packs (or finds the ranges) */
  if constexpr (!PAGED) /* a batch is not split */
    if (s == CK_OK) {
      const size_t ts = ARG ? sizeof(uint32_t) : 0;
      if constexpr (PACK)
        sp = raw ? plan_split<RawOp, cfg>(Mp, Np, Kp, n * words, sizeof(uint32_t), ts)
                 : plan_split<Op, cfg>(Mp, Np, Kp, n * words, sizeof(uint32_t), ts);
      else sp = plan_split<Op, cfg>(Mp, Np, Kp, n * words, sizeof(uint32_t), ts);
    }
  if (s == CK_OK && how == MP_SHIFTS_PENDING) s = finish_read(sh.rd, h);
  if (s == CK_OK && (guessed || int_path<T, SR>(h, k, ARG) == path)) {
    ck_plan_note_path(PACK ? CK_WORDS_U16X2 : CK_WORDS_U32,
                      guessed                 ? CK_SHIFTS_GUESSED
                      : ranges_known<T, SR>() ? CK_SHIFTS_KNOWN
                                              : CK_SHIFTS_RANGES,
                      raw);
    if constexpr (!PAGED) ck_plan_note_tiles(cfg::BM, cfg::BN, cfg::BK, sp.slices, sp.cs);
    const long long base = word_base<SR>(h);
    const long long lo = sr_class<T>::lo(), hi = sr_class<T>::hi();
    const uint32_t wlo = clamp_word(lo - base, PACK), whi = clamp_word(hi - base, PACK);
    uint32_t *planes = (uint32_t *)sp.planes, *tiles = (uint32_t *)sp.tiles;
    /* the kernel of Op O on operands a and b, then the merge of its planes */
    auto run = [&](const auto &op, const void *a, const void *b) {
      typedef typename std::decay<decltype(op)>::type O;
      if constexpr (PAGED) {
        mp_launch_pages<O, cfg>((int)Mp, (int)Np, (int)Kp, q.pg.count, (const warptile_a_t<O> *)a,
                                (const warptile_b_t<O> *)b, op, [&](O o, size_t z) {
                                  o.sums.out.C = (char *)o.sums.out.C + z * m * n * sizeof(T);
                                  if (ARG) o.sums.out.K += z * m * n;
                                  sources_from(o, z, 0);
                                  return o;
                                });
      } else { /* discarded for a batch: no split kernels of the paged Ops are built */
        warptile_launch_split<O, cfg>((int)Mp, (int)Np, (int)Kp, sp.slices, sp.cs,
                                      (const warptile_a_t<O> *)a, (const warptile_b_t<O> *)b, op);
        if (planes) {
          dim3 mb = merge_block(sp.planes_n(), n * words);
          merge_word_planes<SR, ARG><<<grid_for(n * words, mb.x), mb>>>(
              planes, tiles, sp.planes_n(), n, words, op.sums.out);
        }
      }
    };
    bool launched = false;
    if constexpr ((PACK || PAGED) && !(PAGED && ARG))
      if (raw) {
        const mp_dpx_sums<SR, PACK, T> sums = {
            wlo, whi, planes, tiles, {q.C, q.K, m, base, lo, hi, (int)sizeof(T)}};
        if constexpr (PAGED) {
          const RawOp rop = {{{(int)n, (int)words, {sums}}, q.pg.sb * n * k, q.pg.sa * k * words},
                             dB,
                             (const uint32_t *)dA,
                             (int)k,
                             missed_flag<T, SR>().dev};
          run(rop, dB, dA);
        } else {
          const RawOp rop = {{(int)n, (int)words, sums}};
          run(rop, dB, dA);
        }
        launched = true;
      }
    if (!launched) {
      const mp_dpx_sums<SR, PACK> sums = {
          wlo, whi, planes, tiles, {q.C, q.K, m, base, lo, hi, (int)sizeof(T)}};
      if constexpr (PAGED) {
        const Op op = {{(int)n, (int)words, {sums}}, q.pg.sb * Mp * Kp, q.pg.sa * Kp * Np};
        run(op, wa, wb);
      } else {
        const Op op = {(int)n, (int)words, sums};
        run(op, wa, wb);
      }
    }
    s = v3_finish<T, cfg::BK>(q);
    *took = true;
  }
  if (!raw) {
    ck_dev_free(wa);
    ck_dev_free(wb);
  }
  free_split(&sp);
  if (checking) { /* the product is queued: now see whether the guess held (read even after an
                     error, so that the copy is done with d before the caller frees it) */
    queue_read(&check);
    ck_status r = finish_read(&check, h);
    if (s == CK_OK) s = r;
    *took = s == CK_OK && shifts_fit<SR>(h, 0, 0, path);
  }
  return s;
}

/* run_v3_dpx on the likely path's words: packed (PACK) or 32-bit. */
template <class T, class SR, bool ARG, bool PAGED>
static ck_status run_likely(mp_int_path likely, const mp_problem<T, SR> &q, mp_shift_plan &sh,
                            bool *took) {
  if constexpr (sizeof(T) <= 2) /* no packed kernels for the classes that never take them */
    if (likely == MP_INT_U16X2) return run_v3_dpx<T, SR, true, ARG, PAGED>(q, sh, took);
  return run_v3_dpx<T, SR, false, ARG, PAGED>(q, sh, took);
}

/* On the guess of shift 0 where the class has not just missed it; else the likely path is set up
 * while the ranges are found and read, and only when they need another one (int16 spreads over
 * 65535, int32 ones over 2^32) is the packing redone on 32-bit words, or v2's wide accumulation
 * run. Where the shifts are known (8 bits, and the semirings that only compare) the likely path
 * runs on them at once. */
template <class T, class SR, bool ARG, bool PAGED>
static ck_status run_int(const mp_problem<T, SR> &q, bool *took) {
  const long long lo = sr_class<T>::lo(), hi = sr_class<T>::hi();
  mp_record_read rd;
  mp_shift_plan sh = {{lo, lo, hi, hi}, MP_SHIFTS_GUESSED, NULL};
  long long *d = NULL, tag = 0;
  const bool ranges = !ranges_known<T, SR>();
  const mp_int_path guess = likely_path<T>(q.k, ARG);
  bool &missed_last = guess_missed<T, SR>();
  ck_status s = CK_OK;
  *took = false;
  if constexpr (PAGED && sizeof(T) >= 2 && !SR::by_order) read_missed<T, SR>();
  bool missed = false; /* this call's guess */
  if (ranges && !missed_last) {
    s = run_likely<T, SR, ARG, PAGED>(guess, q, sh, took);
    missed = missed_last = s == CK_OK && !*took;
    if (s != CK_OK || *took) return s;
  }
  sh.how = ranges ? MP_SHIFTS_PENDING : MP_SHIFTS_KNOWN;
  sh.rd = ranges ? &rd : NULL;
  if (ranges) s = next_record(&d, &tag);
  if (ranges && s == CK_OK)
    s = find_ranges<T>(q.A, q.m * q.k * q.pg.pages_a(), q.B, q.k * q.n * q.pg.pages_b(), d, tag);
  if (ranges && s == CK_OK) start_read(d, tag, &rd);
  if (s == CK_OK) s = run_likely<T, SR, ARG, PAGED>(guess, q, sh, took);
  /* sh.h is known from here on */
  sh.how = MP_SHIFTS_KNOWN;
  sh.rd = NULL;
  if (s == CK_OK && !*took && guess != MP_INT_U32 && int_path<T, SR>(sh.h, q.k, ARG) == MP_INT_U32)
    s = run_v3_dpx<T, SR, false, ARG, PAGED>(q, sh, took);
  if (s == CK_OK && ranges) missed_last = !shifts_fit<SR>(sh.h, 0, 0, guess);
  if (s == CK_OK && *took && missed) ck_plan_note_shifts(CK_SHIFTS_MISSED);
  return s;
}

template <class T, bool ARG, class SR> ck_status mp_run_warptile_int(const mp_problem<T, SR> &q) {
  bool took = false;
  ck_status s = run_int<T, SR, ARG, false>(q, &took);
  if (s == CK_OK && !took) {
    ck_plan_note_path(CK_WORDS_WIDE, CK_SHIFTS_NONE, 0);
    ck_plan_note_tiles(0, 0, 0, 1, 1);
    s = mp_run_regblock<T, ARG, SR>(q);
  }
  return s;
}

/* A batch (q.pg) in one launch; *took = false where the sums need v2's wide accumulation, which
 * the caller then runs page by page. */
template <class T, bool ARG, class SR>
ck_status mp_run_pages_int(const mp_problem<T, SR> &q, bool *took) {
  return run_int<T, SR, ARG, true>(q, took);
}

/* Both runners for every integer class the products take (ck_tables.h), of semiring SR. */
#define MP_INSTANTIATE_INT_(T, SR)                                                      \
  template ck_status mp_run_warptile_int<T, false, SR>(const mp_problem<T, SR> &);      \
  template ck_status mp_run_warptile_int<T, true, SR>(const mp_problem<T, SR> &);       \
  template ck_status mp_run_pages_int<T, false, SR>(const mp_problem<T, SR> &, bool *); \
  template ck_status mp_run_pages_int<T, true, SR>(const mp_problem<T, SR> &, bool *);
#define MP_INSTANTIATE_INT_ROW_(SR, E, T, N, B, F, P, L, MX) \
  CK_IF_##P(CK_IF_NOT_##F(MP_INSTANTIATE_INT_(T, SR)))
#define MP_INSTANTIATE_WORD_RUNNERS(SR) CK_CLASS_TABLE(MP_INSTANTIATE_INT_ROW_, SR)

#endif
