/* Min-plus product kernels, a ladder of numbered versions (see doc/NOTES.md for what each measured).
 *
 * All matrices are column-major as Octave stores them: A is m-by-k, B is k-by-n, C is m-by-n and
 * C(i,j) = min_k A(i,k) + B(k,j). Accumulators start at NaN, not +Inf: fmin/fminf return the other
 * operand when one is NaN, so a NaN term is ignored and the result stays NaN only when every term
 * is NaN, which is exactly Octave's min. (k == 0 is handled by the caller: +Inf everywhere.) */
#include <math.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <type_traits>

#include "ck_internal.h"
#include "warptile.cuh"

#define THREADS 256

/* How each class accumulates (W), starts (init: the identity of the min, or NaN for floating
 * point as explained above), combines and is stored.
 * Integers: Octave adds with saturation, and saturation is monotone, so
 *   min_k sat(a_k + b_k) == sat(min_k (a_k + b_k))
 * with the sums exact in a wider type: the kernels take the exact minimum in W and saturate once
 * at the store. */
template <class T> struct mp_traits;
template <> struct mp_traits<float> {
  typedef float W;
  static __device__ __forceinline__ W init() { return __int_as_float(0x7fffffff); }
  static __device__ __forceinline__ W min(W v, W t) { return fminf(v, t); }
  static __device__ __forceinline__ W sat(W t) { return t; }
  static __device__ __forceinline__ bool less(W t, W v) { return t < v || (v != v && t == t); }
  static __device__ __forceinline__ float store(W v) { return v; }
  static __host__ __device__ __forceinline__ float empty() { return INFINITY; }
  enum { is_float = 1 };
};
template <> struct mp_traits<double> {
  typedef double W;
  static __device__ __forceinline__ W init() { return __longlong_as_double(0x7fffffffffffffffLL); }
  static __device__ __forceinline__ W min(W v, W t) { return fmin(v, t); }
  static __device__ __forceinline__ W sat(W t) { return t; }
  static __device__ __forceinline__ bool less(W t, W v) { return t < v || (v != v && t == t); }
  static __device__ __forceinline__ double store(W v) { return v; }
  static __host__ __device__ __forceinline__ double empty() { return INFINITY; }
  enum { is_float = 1 };
};
#define MP_INT_TRAITS(T, WIDE, LO, HI)                                                            \
  template <> struct mp_traits<T> {                                                               \
    typedef WIDE W;                                                                               \
    static __device__ __forceinline__ W init() { return (W)HI + (W)HI + 1; } /* above any sum */ \
    static __device__ __forceinline__ W min(W v, W t) { return t < v ? t : v; }                   \
    static __device__ __forceinline__ W sat(W t) { return t < (W)LO ? (W)LO : t > (W)HI ? (W)HI : t; } \
    static __device__ __forceinline__ bool less(W t, W v) { return t < v; }                       \
    static __device__ __forceinline__ T store(W v) { return (T)sat(v); }                          \
    static __host__ __device__ __forceinline__ T empty() { return HI; }                           \
    static __host__ __device__ __forceinline__ T lowest() { return LO; }                          \
    enum { is_float = 0 };                                                                        \
  };
MP_INT_TRAITS(int8_t, int, INT8_MIN, INT8_MAX)
MP_INT_TRAITS(uint8_t, int, 0, UINT8_MAX)
MP_INT_TRAITS(int16_t, int, INT16_MIN, INT16_MAX)
MP_INT_TRAITS(uint16_t, int, 0, UINT16_MAX)
MP_INT_TRAITS(int32_t, long long, INT32_MIN, INT32_MAX)
MP_INT_TRAITS(uint32_t, long long, 0, UINT32_MAX)

/* One pair update. Without the witness: the class's minimum. With it, Octave's [m, i] = min: a
 * term replaces the minimum only when strictly smaller (ties keep the smallest k) or when the
 * minimum is still NaN (NaN terms never win); integers compare their saturated sums, since
 * Octave's ties are between saturated values. */
template <class T, bool ARG>
__device__ __forceinline__ void mp_update(typename mp_traits<T>::W &v, int &id,
                                          typename mp_traits<T>::W t, int p) {
  typedef mp_traits<T> tr;
  if (ARG) {
    t = tr::sat(t);
    if (tr::less(t, v)) {
      v = t;
      id = p;
    }
  } else {
    v = tr::min(v, t);
  }
}

static unsigned grid_for(size_t work, unsigned threads) {
  return (unsigned)((work + threads - 1) / threads);
}

/* idx = q * d + r. 64-bit division is a long software sequence; the passes over operands and
 * outputs that index this way measured twice as slow as their bytes allow, so the common case
 * of sizes within 32 bits divides in 32 bits (the branch is the same for the whole grid). */
__device__ __forceinline__ void split_index(size_t idx, size_t d, size_t &q, size_t &r) {
  if ((idx | d) >> 32) {
    q = idx / d;
    r = idx % d;
  } else {
    unsigned q32 = (unsigned)idx / (unsigned)d;
    q = q32;
    r = (unsigned)idx - q32 * (unsigned)d;
  }
}

/* ---- v0 naive: one thread per output, consecutive threads walk along a row of C, so each
 * thread of a warp reads a different column of B (stride k) and writes C with stride m. ---- */
template <class T, bool ARG>
__global__ void minplus_v0(const T *__restrict__ A, const T *__restrict__ B, T *__restrict__ C,
                           double *__restrict__ K, size_t m, size_t k, size_t n) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= m * n) return;
  typedef mp_traits<T> tr;
  typedef typename tr::W W;
  size_t j = idx % n, i = idx / n;
  W v = tr::init();
  int id = 0;
  for (size_t p = 0; p < k; p++) mp_update<T, ARG>(v, id, (W)A[i + p * m] + (W)B[p + j * k], (int)p);
  C[i + j * m] = tr::store(v);
  if (ARG) K[i + j * m] = id + 1;
}

/* ---- v1 coalesced: the same work with consecutive threads walking down a column of C, so a
 * warp reads 32 consecutive elements of A, one broadcast element of B, and writes contiguously. ---- */
template <class T, bool ARG>
__global__ void minplus_v1(const T *__restrict__ A, const T *__restrict__ B, T *__restrict__ C,
                           double *__restrict__ K, size_t m, size_t k, size_t n) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= m * n) return;
  typedef mp_traits<T> tr;
  typedef typename tr::W W;
  size_t i = idx % m, j = idx / m;
  W v = tr::init();
  int id = 0;
  const T *a = A + i, *b = B + j * k;
  for (size_t p = 0; p < k; p++) mp_update<T, ARG>(v, id, (W)a[p * m] + (W)b[p], (int)p);
  C[i + j * m] = tr::store(v);
  if (ARG) K[i + j * m] = id + 1;
}

/* ---- v2 register-blocked (the seed's design): each thread keeps an 8x8 block of C in registers
 * and per step of p loads 8 values of column p of A and 8 of row p of B, doing 64 pair updates per
 * 16 loads. A 8x8-thread block covers a 64x64 tile of C. The operands are first laid out so that
 * both loads are contiguous in p-major order and need no bounds checks: Ap is A with its rows
 * padded to a multiple of 64 (A itself when m already is one), Bt is B transposed (n-by-k) with its
 * rows padded likewise.
 * Addressing matters here (doc/NOTES.md): the row pointers are the same for the whole block, so
 * they live in uniform registers and each thread adds only a small offset; with per-thread 64-bit
 * pointers the compiler issued some loads mid-step and the kernel ran 25-40% slower. ---- */
#define RB 8            /* outputs per thread in each direction */
#define TILE (RB * RB)  /* outputs per block in each direction */
#define MAX_GRID_Y 65535u

/* dst (padded_rows-by-cols) = src (rows-by-cols) with zero rows appended. */
template <class T>
__global__ void pad_rows(const T *__restrict__ src, T *__restrict__ dst, size_t rows, size_t cols,
                         size_t padded_rows) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= padded_rows * cols) return;
  size_t r = idx % padded_rows, c = idx / padded_rows;
  dst[idx] = r < rows ? src[r + c * rows] : (T)0;
}

/* dst (padded_cols-by-rows, padded rows zero) = transpose of src (rows-by-cols), through a shared
 * tile so that both the reads and the writes are coalesced. */
template <class T>
__global__ void transpose_pad(const T *__restrict__ src, T *__restrict__ dst, size_t rows,
                              size_t cols, size_t padded_cols) {
  __shared__ T tile[32][33]; /* +1 column: no bank conflicts on the transposed read */
  const size_t row_tiles = (rows + 31) / 32; /* one flat grid: no 65535 limit on either side */
  size_t r0 = (blockIdx.x % row_tiles) * 32, c0 = (blockIdx.x / row_tiles) * 32;
  for (int y = threadIdx.y; y < 32; y += blockDim.y) {
    size_t r = r0 + threadIdx.x, c = c0 + y;
    tile[y][threadIdx.x] = (r < rows && c < cols) ? src[r + c * rows] : (T)0;
  }
  __syncthreads();
  for (int y = threadIdx.y; y < 32; y += blockDim.y) {
    size_t c = c0 + threadIdx.x, r = r0 + y; /* dst(c, r) = src(r, c) */
    if (c < padded_cols && r < rows) dst[c + r * padded_cols] = tile[threadIdx.x][y];
  }
}

/* Unrolling the step loop twice lets float overlap one step's loads with the previous step's
 * arithmetic (+6% at n = 4096); for double the second set of operands costs occupancy (-45%). */
template <class T> struct v2_unroll { enum { value = 1 }; };
template <> struct v2_unroll<float> { enum { value = 2 }; };

/* Block (x, y) computes tile (x, y0 + y) of C from Ap (mm-by-k) and Bt (nn-by-k), p-major. */
template <class T, bool ARG>
__global__ void __launch_bounds__(RB *RB)
    minplus_v2(const T *__restrict__ Ap, const T *__restrict__ Bt, T *__restrict__ C,
               double *__restrict__ K, size_t m, size_t k, size_t n, size_t mm, size_t nn,
               unsigned y0) {
  const int ia = threadIdx.x, ja = threadIdx.y;
  const size_t ic = blockIdx.x, jc = (size_t)blockIdx.y + y0;
  typedef mp_traits<T> tr;
  typedef typename tr::W W;
  const T *ap = Ap + ic * TILE, *bp = Bt + jc * TILE; /* uniform across the block */
  W v[RB][RB];
  int id[RB][RB];
#pragma unroll
  for (int ib = 0; ib < RB; ib++)
#pragma unroll
    for (int jb = 0; jb < RB; jb++) {
      v[ib][jb] = tr::init();
      id[ib][jb] = 0;
    }
#pragma unroll v2_unroll<T>::value
  for (size_t p = 0; p < k; p++) {
    W x[RB], y[RB];
#pragma unroll
    for (int ib = 0; ib < RB; ib++) x[ib] = (W)ap[ia + ib * RB];
#pragma unroll
    for (int jb = 0; jb < RB; jb++) y[jb] = (W)bp[ja + jb * RB];
#pragma unroll
    for (int ib = 0; ib < RB; ib++)
#pragma unroll
      for (int jb = 0; jb < RB; jb++) mp_update<T, ARG>(v[ib][jb], id[ib][jb], x[ib] + y[jb], (int)p);
    ap += mm;
    bp += nn;
  }
#pragma unroll
  for (int ib = 0; ib < RB; ib++)
#pragma unroll
    for (int jb = 0; jb < RB; jb++) {
      size_t i = ic * TILE + ib * RB + ia, j = jc * TILE + jb * RB + ja;
      if (i < m && j < n) {
        C[i + j * m] = tr::store(v[ib][jb]);
        if (ARG) K[i + j * m] = id[ib][jb] + 1;
      }
    }
}

template <class T> __global__ void fill_value(T *p, size_t count, T value) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < count) p[idx] = value;
}

static size_t round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }

template <class T, bool ARG>
static ck_status run_v2(const T *dA, const T *dB, T *dC, double *dK, size_t m, size_t k,
                        size_t n) {
  size_t mm = round_up(m, TILE), nn = round_up(n, TILE);
  T *Ap = NULL, *Bt = NULL;
  ck_status s = CK_OK;
  cudaError_t e;
  const T *a = dA;
  if (mm != m) { /* A already has the p-major layout; it only needs padding when m is ragged */
    if ((s = ck_dev_alloc((void **)&Ap, mm * k * sizeof(T))) != CK_OK) goto done;
    pad_rows<T><<<grid_for(mm * k, THREADS), THREADS>>>(dA, Ap, m, k, mm);
    a = Ap;
  }
  if ((s = ck_dev_alloc((void **)&Bt, nn * k * sizeof(T))) != CK_OK) goto done;
  transpose_pad<T><<<(unsigned)(((k + 31) / 32) * ((nn + 31) / 32)), dim3(32, 8)>>>(dB, Bt, k, n,
                                                                                   nn);
  for (size_t y0 = 0; y0 < nn / TILE; y0 += MAX_GRID_Y) {
    size_t rows = nn / TILE - y0 < MAX_GRID_Y ? nn / TILE - y0 : MAX_GRID_Y;
    minplus_v2<T, ARG><<<dim3((unsigned)(mm / TILE), (unsigned)rows), dim3(RB, RB)>>>(
        a, Bt, dC, dK, m, k, n, mm, nn, (unsigned)y0);
  }
  if ((e = cudaGetLastError()) != cudaSuccess)
    s = ck_cuda_status(e, "launching the regblock min-plus kernel");
done:
  /* Frees are stream-ordered: the scratch returns to the pool only after the kernels using it. */
  ck_dev_free(Ap);
  ck_dev_free(Bt);
  return s;
}

/* ---- v3 warptile (kernels/warptile.cuh): shared-memory tiles staged with 16-byte loads and
 * double-buffered, warp tiles, a register block per thread. The product is run as its row-major
 * transpose (as the matmul ladder does): row-major "A" is Octave's B (n x k, the same bytes),
 * "B" is Octave's A (k x m), output (j, i) is C(i, j).
 *
 * The witness is tracked per tile, not per step: each accumulator keeps the minimum of the
 * current BK-deep tile (t) beside the running one (v) and, at the tile's end, the index of the
 * last tile that strictly improved v (id). A per-pair witness costs a compare and two selects on
 * every step; this costs them once per BK steps. witness_fixup then searches that one tile for
 * the smallest k attaining C(i, j), which is Octave's index. (Searching it in the kernel's
 * epilogue instead, with the operands still in L2, measured slower: the search's loads raised
 * the kernel's registers and cut its occupancy, doc/NOTES.md.) ---- */

/* A later slice's (t, idt) into an earlier one's (v, id) by Octave's rules: ties keep the earlier
 * (smaller k), NaN never wins. */
template <class T, bool ARG> struct merge_take {
  template <class I> __device__ __forceinline__ void operator()(T &v, I &id, T t, I idt) const {
    typedef mp_traits<T> tr;
    if (!ARG) {
      v = tr::min(v, t);
    } else if (tr::less(t, v)) {
      v = t;
      id = idt;
    }
  }
};

template <bool PACK, bool ARG> struct merge_take_word {
  __device__ __forceinline__ void operator()(uint32_t &v, uint32_t &id, uint32_t t,
                                             uint32_t idt) const {
    if (PACK) {
      if (ARG) {
        uint32_t wins = __vcmpltu2(t, v);
        id = (idt & wins) | (id & ~wins);
      }
      v = __vminu2(v, t);
    } else if (t < v) {
      v = t;
      if (ARG) id = idt;
    }
  }
};

/* What a slice of k hands over for one output: its minimum, and with the witness its tile. */
template <class T, bool ARG> struct mp_part {
  T v;
  uint32_t id;
};
template <class T> struct mp_part<T, false> {
  T v;
};

/* The min-plus Op of warptile_kernel, over a representation S of the sums:
 *   typedef T; identity(); addmin(a, b, c) = min(c, a + b);
 *   keep(v, id, t, tile): the running minimum v takes the tile minimum t where t wins (as Octave
 *   compares them), and id the tile;
 *   take<ARG>: the functor folding a later slice's (t, idt) into an earlier one's (v, id);
 *   store<ARG>(v, id, i, j, Mr, Nr, plane): output (i, j) of the Mr x Nr row-major product and
 *   its tile, into plane `plane` of partial results when k is split into planes, else into the
 *   result. */
template <class SUMS, bool ARG> struct mp_op {
  typedef SUMS S;
  typedef typename S::T T;
  struct Acc {
    T v, t;
    uint32_t id;
  };
  typedef mp_part<T, ARG> Part;
  int Mr, Nr;
  S sums;
  __device__ __forceinline__ void init(Acc &x) const {
    x.v = ARG ? sums.witness_start() : S::identity();
    x.id = 0;
  }
  static __device__ __forceinline__ void first(Acc &x, T a, T b) {
    if (ARG) x.t = a + b;
    else x.v = S::addmin(a, b, x.v);
  }
  static __device__ __forceinline__ void step(Acc &x, T a, T b) {
    if (ARG) x.t = S::addmin(a, b, x.t);
    else x.v = S::addmin(a, b, x.v);
  }
  __device__ __forceinline__ void tile_end(Acc &x, int t) const {
    if (ARG) sums.keep(x.v, x.id, x.t, (uint32_t)t);
  }
  static __device__ __forceinline__ Part handover(const Acc &x) {
    Part p;
    p.v = x.v;
    if constexpr (ARG) p.id = x.id;
    return p;
  }
  static __device__ __forceinline__ void fold(Part &p, const Part &later) {
    typename S::template take<ARG> take;
    if constexpr (ARG) take(p.v, p.id, later.v, later.id);
    else {
      uint32_t none = 0;
      take(p.v, none, later.v, none);
    }
  }
  __device__ __forceinline__ void store_part(const Part &p, int i, int j, int plane) const {
    uint32_t id = 0;
    if constexpr (ARG) id = p.id;
    if (i < Mr && j < Nr) sums.template store<ARG>(p.v, id, i, j, Mr, Nr, plane);
  }
  __device__ __forceinline__ void store(const Acc &x, int i, int j) const {
    if (i < Mr && j < Nr) sums.template store<ARG>(x.v, x.id, i, j, Mr, Nr, (int)blockIdx.z);
  }
};

/* Where output (i, j) of an Mr x Nr product goes in a plane (plane 0: the result). */
__device__ __forceinline__ size_t plane_at(int i, int j, int Mr, int Nr, int plane) {
  return (size_t)plane * Mr * Nr + (size_t)i * Nr + j;
}

/* Floating point: FADD + FMNMX per pair; NaN terms are ignored as in the other versions. The
 * row-major transposed product is Octave's column-major C, so results go straight to C and the
 * tiles to K (for witness_fixup), or both to the planes of a split. */
template <class TT> struct mp_float_sums {
  typedef TT T;
  typedef mp_traits<T> tr;
  T *C;         /* C, or the planes */
  double *tile; /* with the witness: K, or the planes' tiles */
  static __device__ __forceinline__ T identity() { return tr::init(); }
  __device__ __forceinline__ T witness_start() const { return tr::init(); }
  static __device__ __forceinline__ T addmin(T a, T b, T c) { return tr::min(c, a + b); }
  __device__ __forceinline__ void keep(T &v, uint32_t &id, T t, uint32_t tile) const {
    if (tr::less(t, v)) {
      v = t;
      id = tile;
    }
  }
  template <bool ARG> using take = merge_take<T, ARG>;
  template <bool ARG>
  __device__ __forceinline__ void store(T v, uint32_t id, int i, int j, int Mr, int Nr,
                                        int plane) const {
    size_t at = plane_at(i, j, Mr, Nr, plane);
    C[at] = v;
    if (ARG) tile[at] = id;
  }
};
template <class T, bool ARG> using mp_float_op = mp_op<mp_float_sums<T>, ARG>;

/* DPX words back into the class TC: C(row, col) = sat(base + word) for Octave's m x n C, where
 * word (col, w) of the transposed product holds row w, or rows 2w and 2w + 1 in its low and high
 * halves when packed; with the witness, the tile of each (from id, the same way) into K for
 * witness_fixup. */
template <class TC, bool PACK> struct mp_dpx_out {
  TC *C;
  double *K;
  size_t m;
  long long base; /* the shifts of A and B */
  __device__ __forceinline__ void put(size_t col, size_t w, uint32_t v, uint32_t id,
                                      bool arg) const {
    typedef mp_traits<TC> tr;
#pragma unroll
    for (int h = 0; h < (PACK ? 2 : 1); h++) {
      size_t row = PACK ? 2 * w + h : w;
      if (row < m) {
        uint32_t u = PACK ? (v >> 16 * h) & 0xffffu : v;
        C[col * m + row] = tr::store((typename tr::W)(base + u));
        if (arg) K[col * m + row] = PACK ? (id >> 16 * h) & 0xffffu : id;
      }
    }
  }
};

/* Integers through Hopper's DPX min-add (one VIADDMNMX per pair, or per two pairs packed as
 * 16-bit halves). DPX adds wrap, Octave's saturate, so the operands are first shifted by their
 * minima (a - min A >= 0, b - min B >= 0) into unsigned words; when the two spreads add up to
 * less than the word's range no sum can wrap, the unsigned minimum is exact, and the store adds
 * the shifts back in 64 bits and saturates to the class: min_k sat(s_k) == sat(min_k s_k).
 * The host checks the spreads (int_path) and otherwise falls back to v2's wide accumulation.
 * Other GPUs run the same intrinsics in software.
 * The witness compares sums clamped to [lo, hi], the shifted sums at which the class saturates,
 * since Octave's ties are between saturated values. Packed, each half keeps its own tile in the
 * same half of id (so tiles must be below 2^16), without compares: the running minimum starts
 * at hi and stays in [lo, hi], so the clamped update max(min(v, t), lo) can only lower it, the
 * difference v - nv subtracts both halves at once without a borrow, min(difference, 1) is 1 in
 * each half that improved, and times the tile (which only grows) it raises that half's id by a
 * max. Four ALU operations and one multiply per tile, where SIMD compare masks took about ten
 * and made the witness 1.45x the kernel without it (doc/NOTES.md). */
template <class TC, bool PACK> struct mp_dpx_sums {
  typedef uint32_t T;
  uint32_t lo, hi;   /* packed: the same bound in both halves */
  uint32_t *planes;  /* split into planes: the words of each plane; NULL: the result */
  uint32_t *tiles;   /* split, with the witness: their tiles (packed like the words) */
  mp_dpx_out<TC, PACK> out;
  static __device__ __forceinline__ T identity() { return 0xffffffffu; }
  __device__ __forceinline__ T witness_start() const { return PACK ? hi : identity(); }
  static __device__ __forceinline__ T addmin(T a, T b, T c) {
    return PACK ? __viaddmin_u16x2(a, b, c) : __viaddmin_u32(a, b, c);
  }
  __device__ __forceinline__ void keep(T &v, uint32_t &id, T t, uint32_t tile) const {
    if (PACK) {
      uint32_t nv = __vmaxu2(__vminu2(v, t), lo);
      id = __vmaxu2(id, __vminu2(v - nv, 0x00010001u) * tile);
      v = nv;
    } else {
      t = min(max(t, lo), hi);
      if (t < v) {
        v = t;
        id = tile;
      }
    }
  }
  template <bool ARG> using take = merge_take_word<PACK, ARG>;
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
template <class TC, bool PACK, bool ARG> using mp_dpx_op = mp_op<mp_dpx_sums<TC, PACK>, ARG>;

/* The packed kernel reading the 8- and 16-bit operands themselves instead of a packed copy (no
 * packing pass, and no word buffers of two to four times the operands' size). It applies only
 * where the shifts are the class's minimum for 8 bits (every spread fits a half) or 0 for 16 bits
 * (the guess), and the shape is whole tiles: then the "B" words, rows 2w and 2w + 1 of a column
 * of Octave's A, are consecutive elements (for 16 bits the very bits of the word), and an "A"
 * word is one element of Octave's B, in both halves. Byte permutes widen them; int8's shift of
 * -128 is a flip of each byte's top bit. */
template <class TC> __device__ __forceinline__ uint32_t mp_raw_flip(uint32_t x) {
  return std::is_same<TC, int8_t>::value ? x ^ 0x80808080u : x;
}

template <class TC> struct mp_raw_a {
  typedef TC Elem;
  typedef typename std::conditional<sizeof(TC) == 2, uint2, uint32_t>::type Raw;
  static __device__ __forceinline__ Raw load(const TC *p) { return *(const Raw *)p; }
  static __device__ __forceinline__ vec16<uint32_t> widen(Raw r) {
    vec16<uint32_t> v;
    if constexpr (sizeof(TC) == 2) {
      v.e[0] = __byte_perm(r.x, 0, 0x1010);
      v.e[1] = __byte_perm(r.x, 0, 0x3232);
      v.e[2] = __byte_perm(r.y, 0, 0x1010);
      v.e[3] = __byte_perm(r.y, 0, 0x3232);
    } else {
      r = mp_raw_flip<TC>(r);
      v.e[0] = __byte_perm(r, 0, 0x4040);
      v.e[1] = __byte_perm(r, 0, 0x4141);
      v.e[2] = __byte_perm(r, 0, 0x4242);
      v.e[3] = __byte_perm(r, 0, 0x4343);
    }
    return v;
  }
};

/* Elem: the pair of elements that makes one "B" word. */
template <class TC> struct mp_raw_b {
  typedef typename std::conditional<sizeof(TC) == 2, uint32_t, uint16_t>::type Elem;
  typedef typename std::conditional<sizeof(TC) == 2, uint4, uint2>::type Raw;
  static __device__ __forceinline__ Raw load(const Elem *p) { return *(const Raw *)p; }
  static __device__ __forceinline__ vec16<uint32_t> widen(Raw r) {
    vec16<uint32_t> v;
    if constexpr (sizeof(TC) == 2) {
      v.raw = r;
    } else {
      r.x = mp_raw_flip<TC>(r.x);
      r.y = mp_raw_flip<TC>(r.y);
      v.e[0] = __byte_perm(r.x, 0, 0x4140);
      v.e[1] = __byte_perm(r.x, 0, 0x4342);
      v.e[2] = __byte_perm(r.y, 0, 0x4140);
      v.e[3] = __byte_perm(r.y, 0, 0x4342);
    }
    return v;
  }
};

template <class TC, bool ARG> struct mp_dpx_raw_op : mp_dpx_op<TC, true, ARG> {
  typedef mp_raw_a<TC> SrcA;
  typedef mp_raw_b<TC> SrcB;
};

/* Split-K: the planes of the slices of k, merged in order. Ties keep the earlier slice (smaller
 * k), NaN never wins; the tiles are already global. Floating point planes are the output's
 * layout; DPX words are merged as words (per half when packed, tiles likewise) and decoded into
 * the class as they are written.
 * Each output's planes are cut into blockDim.y runs of consecutive planes, one per thread, and
 * the runs folded in order in shared memory: a deep split over few outputs (256 x 8192 x 256
 * merges 32 to 64 planes of 65536 outputs) otherwise leaves each thread a long chain of loads
 * and the GPU mostly idle (14 us; doc/NOTES.md). */
__device__ __forceinline__ void merge_run(int splits, int &z0, int &z1) {
  z0 = splits * (int)threadIdx.y / (int)blockDim.y;
  z1 = splits * ((int)threadIdx.y + 1) / (int)blockDim.y;
}

/* One output's run of planes [z0, z1) (never empty: blockDim.y <= splits), then the runs of
 * the block's column folded in order by its first row; true in the thread that holds the
 * result. */
template <class V, class I, class Take>
__device__ __forceinline__ bool merge_runs(const V *__restrict__ P, const I *__restrict__ Pt,
                                           int splits, size_t count, size_t idx, V &v, I &id,
                                           Take take) {
  __shared__ V sv[THREADS];
  __shared__ I si[THREADS];
  int z0, z1;
  merge_run(splits, z0, z1);
  if (idx < count) {
    v = P[(size_t)z0 * count + idx];
    id = Pt ? Pt[(size_t)z0 * count + idx] : I(0);
#pragma unroll 8 /* several planes' loads in flight */
    for (int z = z0 + 1; z < z1; z++) {
      size_t at = (size_t)z * count + idx;
      take(v, id, P[at], Pt ? Pt[at] : I(0));
    }
  }
  int me = threadIdx.y * blockDim.x + threadIdx.x;
  sv[me] = v;
  si[me] = id;
  __syncthreads();
  if (threadIdx.y != 0 || idx >= count) return false;
  for (int y = 1; y < (int)blockDim.y; y++)
    take(v, id, sv[y * blockDim.x + threadIdx.x], si[y * blockDim.x + threadIdx.x]);
  return true;
}

template <class T, bool ARG>
__global__ void merge_planes(const T *__restrict__ P, const double *__restrict__ Pt, int splits,
                             size_t count, T *__restrict__ C, double *__restrict__ tile) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  T v = 0;
  double id = 0;
  if (merge_runs(P, ARG ? Pt : (const double *)NULL, splits, count, idx, v, id,
                 merge_take<T, ARG>())) {
    C[idx] = v;
    if (ARG) tile[idx] = id;
  }
}

template <class TC, bool PACK, bool ARG>
__global__ void merge_word_planes(const uint32_t *__restrict__ P, const uint32_t *__restrict__ Pt,
                                  int splits, size_t rows, size_t words,
                                  mp_dpx_out<TC, PACK> out) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t v = 0, id = 0;
  if (merge_runs(P, ARG ? Pt : (const uint32_t *)NULL, splits, rows * words, idx, v, id,
                 merge_take_word<PACK, ARG>())) {
    size_t col, w;
    split_index(idx, words, col, w);
    out.put(col, w, v, id, ARG);
  }
}

/* The merge's block: runs of planes per output by outputs. Runs only pay where the outputs alone
 * leave the GPU short of threads: with 2^20 outputs over 4 planes, four runs of one plane (four
 * times the blocks, each a single load and a fold) took 20 us where one run of 4 took 11. */
#define MERGE_FILL_OUTPUTS (1u << 18) /* about the threads an H100 holds at once */
static dim3 merge_block(int splits, size_t count) {
  unsigned runs = 1;
  while (runs < 8 && 2 * runs <= (unsigned)splits && count * runs < MERGE_FILL_OUTPUTS) runs *= 2;
  return dim3(THREADS / runs, runs);
}

static int sm_count(void) {
  static int sms = 0;
  int dev = 0;
  if (!sms && (cudaGetDevice(&dev) != cudaSuccess ||
               cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess)) {
    (void)cudaGetLastError();
    sms = 0;
    return 1;
  }
  return sms;
}

/* Configurations, each the fastest of four to six candidates timed on an H100 at n = 4096 and
 * 8192 (doc/NOTES.md). The witness keeps three registers per output, so its warp tiles are
 * half as large. */
struct v3_cfg_words { /* single, and the DPX words (32-bit and packed) */
  enum { BM = 64, BN = 128, BK = 8, WM = 64, WN = 32, WNITER = 2, TM = 8, TN = 4, NT = 128 };
};
struct v3_cfg_double {
  enum { BM = 128, BN = 128, BK = 8, WM = 64, WN = 32, WNITER = 1, TM = 4, TN = 4, NT = 256 };
};
struct v3_cfg_arg_single { /* and the 32-bit DPX words */
  enum { BM = 64, BN = 64, BK = 16, WM = 32, WN = 32, WNITER = 1, TM = 4, TN = 4, NT = 128 };
};
struct v3_cfg_arg_double { /* BK = 8: fewer staging registers, no spills */
  enum { BM = 64, BN = 64, BK = 8, WM = 32, WN = 32, WNITER = 1, TM = 4, TN = 4, NT = 128 };
};
template <class T, bool ARG> struct v3_cfg;
template <> struct v3_cfg<float, false> { typedef v3_cfg_words type; };
template <> struct v3_cfg<uint32_t, false> { typedef v3_cfg_words type; };
template <> struct v3_cfg<double, false> { typedef v3_cfg_double type; };
template <> struct v3_cfg<float, true> { typedef v3_cfg_arg_single type; };
template <> struct v3_cfg<uint32_t, true> { typedef v3_cfg_arg_single type; };
template <> struct v3_cfg<double, true> { typedef v3_cfg_arg_double type; };

/* Split-K (warptile_splits), fitted to an H100 sweep of every split and cluster size at 1024^3,
 * 2048^3 and 256 x 8192 x 256 (doc/NOTES.md; in the final run's sweep its picks came within
 * 0.6% of the fastest on average, 3.6% at worst): slices at least 64 deep; each block costs 24
 * of depth beside its slice; a fold through distributed shared memory about 2 pair updates per
 * output and slice; the merge about 40 per output and plane (it reads the plane from memory,
 * which the kernel wrote), 2^20 per plane and 4e7 for its launch (3 us at 13 Tpair/s); an SM
 * with one block of 4 warps ran at 0.77 the rate of one with four blocks, with two blocks at
 * 0.93; the last wave's tail, 0.09 of a block; a split must save 1%. */
static const warptile_split_cost mp_split_cost = {64,  24,           2,    40, 1 << 20,
                                                  4e7, {1.30, 1.07}, 0.09, 0.01};

/* How the Op's kernel runs over the padded Mp x Np x Kp product: split->slices of k, folded in
 * clusters of split->cs, with the scratch for the clusters' planes when there is more than one:
 * `count` elements of es bytes each (and, with the witness, their tiles of ts bytes). When the
 * scratch cannot be had the product runs unsplit. */
struct mp_split {
  int slices, cs;
  void *planes, *tiles; /* NULL: the kernel stores the result itself */
  int planes_n() const { return slices / cs; }
};

template <class Op, class CFG>
static mp_split plan_split(size_t Mp, size_t Np, size_t Kp, size_t count, size_t es, size_t ts) {
  mp_split p = {1, 1, NULL, NULL};
  p.slices = warptile_splits<Op, CFG>((int)Mp, (int)Np, (int)Kp, sm_count(), mp_split_cost, &p.cs);
  if (p.planes_n() <= 1) return p;
  if (ck_dev_alloc(&p.planes, p.planes_n() * count * es) == CK_OK &&
      (!ts || ck_dev_alloc(&p.tiles, p.planes_n() * count * ts) == CK_OK))
    return p;
  ck_dev_free(p.planes);
  p.planes = NULL;
  p.slices = p.cs = 1; /* no room for the planes */
  return p;
}

static void free_split(mp_split *p) {
  ck_dev_free(p->planes);
  ck_dev_free(p->tiles);
  p->planes = p->tiles = NULL;
}

/* dst (rows_p x cols_p, row-major) = src (rows x cols, row-major) with `fill` around it. */
template <class T>
__global__ void pad_fill(const T *__restrict__ src, T *__restrict__ dst, size_t rows, size_t cols,
                         size_t rows_p, size_t cols_p, T fill) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= rows_p * cols_p) return;
  size_t r, c;
  split_index(idx, cols_p, r, c);
  dst[idx] = (r < rows && c < cols) ? src[r * cols + c] : fill;
}

/* src itself when its shape is already whole tiles, else a padded copy in *scratch. */
template <class T>
static ck_status pad_operand(const T *src, size_t rows, size_t cols, size_t rows_p, size_t cols_p,
                             T fill, T **scratch, const T **out) {
  *out = src;
  if (rows == rows_p && cols == cols_p) return CK_OK;
  size_t count = rows_p * cols_p;
  CK_TRY(ck_dev_alloc((void **)scratch, count * sizeof(T)));
  pad_fill<T><<<grid_for(count, THREADS), THREADS>>>(src, *scratch, rows, cols, rows_p, cols_p,
                                                     fill);
  *out = *scratch;
  return CK_OK;
}

/* After a v3 kernel with the witness: K holds the tile of each witness; the smallest k within it
 * whose (saturated) sum equals C(i, j) is Octave's index. Nothing matches only when every term
 * was NaN, where Octave's index is 1. A(i, p) is at A[i * si + p * sp]: neighbouring threads
 * search different tiles, so A transposed (si = k, sp = 1) lets each read one contiguous run
 * instead of one cache line per term. Where both runs are whole 16-byte vectors (a full tile, k
 * a multiple of 16 bytes) each thread loads its whole tile at once and searches it in registers:
 * the term-by-term search waited on each load in turn (at 8192 x 256 x 8192 it took longer than
 * the product). */
template <class T, int BK>
__device__ __forceinline__ int search_tile_vec(const T *__restrict__ a, const T *__restrict__ b,
                                               typename mp_traits<T>::W c) {
  typedef mp_traits<T> tr;
  typedef typename tr::W W;
  constexpr int E = 16 / sizeof(T), V = (BK + E - 1) / E;
  vec16<T> va[V], vb[V];
#pragma unroll
  for (int v = 0; v < V; v++) {
    va[v] = load16(a + v * E);
    vb[v] = load16(b + v * E);
  }
  int at = -1; /* none: every term NaN */
#pragma unroll
  for (int p = BK - 1; p >= 0; p--) /* backwards: the last match written is the smallest p */
    if (tr::sat((W)va[p / E].e[p % E] + (W)vb[p / E].e[p % E]) == c) at = p;
  return at;
}

template <class T, int BK>
__global__ void witness_fixup(const T *__restrict__ A, size_t si, size_t sp,
                              const T *__restrict__ B, const T *__restrict__ C,
                              double *__restrict__ K, size_t m, size_t k, size_t n) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= m * n) return;
  typedef mp_traits<T> tr;
  typedef typename tr::W W;
  size_t i, j;
  split_index(idx, m, j, i);
  size_t p0 = (size_t)K[idx] * BK, p1 = p0 + BK < k ? p0 + BK : k;
  W c = (W)C[idx];
  size_t at = 0;
  const bool whole = sp == 1 && p1 - p0 == BK && (k * sizeof(T)) % 16 == 0 && BK * sizeof(T) >= 16;
  if (whole) {
    int hit = search_tile_vec<T, BK>(A + i * si + p0, B + p0 + j * k, c);
    if (hit >= 0) at = p0 + hit;
  } else {
    for (size_t p = p0; p < p1; p++)
      if (tr::sat((W)A[i * si + p * sp] + (W)B[p + j * k]) == c) {
        at = p;
        break;
      }
  }
  K[idx] = (double)(at + 1);
}

template <class T, int BK>
static ck_status v3_finish(const T *dA, const T *dB, T *dC, double *dK, size_t m, size_t k,
                           size_t n) {
  CK_CUDA(cudaGetLastError(), "launching the warptile min-plus kernel");
  if (!dK) return CK_OK;
  T *At = NULL;
  if (m > 1 && ck_dev_alloc((void **)&At, m * k * sizeof(T)) == CK_OK) {
    transpose_pad<T><<<(unsigned)(((m + 31) / 32) * ((k + 31) / 32)), dim3(32, 8)>>>(dA, At, m, k,
                                                                                   k);
    witness_fixup<T, BK><<<grid_for(m * n, THREADS), THREADS>>>(At, k, 1, dB, dC, dK, m, k, n);
  } else { /* m == 1: A is one contiguous row; no room for the transposed copy: slower */
    witness_fixup<T, BK><<<grid_for(m * n, THREADS), THREADS>>>(dA, 1, m, dB, dC, dK, m, k, n);
  }
  ck_dev_free(At);
  CK_CUDA(cudaGetLastError(), "launching the witness fix-up");
  return CK_OK;
}

template <class T, bool ARG>
static ck_status run_v3_float(const T *dA, const T *dB, T *dC, double *dK, size_t m, size_t k,
                              size_t n) {
  typedef typename v3_cfg<T, ARG>::type cfg;
  typedef mp_float_op<T, ARG> Op;
  const T nan = mp_traits<T>::empty() - mp_traits<T>::empty(); /* NaN terms are ignored */
  size_t Mp = round_up(n, cfg::BM), Np = round_up(m, cfg::BN), Kp = round_up(k, cfg::BK);
  T *sa = NULL, *sb = NULL;
  const T *ra, *rb;
  ck_status s = pad_operand<T>(dB, n, k, Mp, Kp, nan, &sa, &ra);
  if (s == CK_OK) s = pad_operand<T>(dA, k, m, Kp, Np, nan, &sb, &rb);
  mp_split sp = {1, 1, NULL, NULL};
  if (s == CK_OK) {
    sp = plan_split<Op, cfg>(Mp, Np, Kp, m * n, sizeof(T), ARG ? sizeof(double) : 0);
    const int planes = sp.planes ? sp.planes_n() : 1;
    Op op = {(int)n, (int)m,
             {planes > 1 ? (T *)sp.planes : dC, planes > 1 ? (double *)sp.tiles : dK}};
    warptile_launch_split<Op, cfg>((int)Mp, (int)Np, (int)Kp, sp.slices, sp.cs, ra, rb, op);
    if (planes > 1) {
      dim3 mb = merge_block(planes, m * n);
      merge_planes<T, ARG><<<grid_for(m * n, mb.x), mb>>>(
          (const T *)sp.planes, (const double *)sp.tiles, planes, m * n, dC, dK);
    }
    s = v3_finish<T, cfg::BK>(dA, dB, dC, dK, m, k, n);
  }
  ck_dev_free(sa);
  ck_dev_free(sb);
  free_split(&sp);
  return s;
}

/* ---- the DPX path's plan: value ranges, then shifted (and, when packed, paired) words ----
 * The shifts must not exceed the operands' minima, and the spreads above them must fit the word.
 * Most integer min-plus inputs are nonnegative (weights, with intmax as "no edge"), and then a
 * shift of 0 always fits int16 halves and int32 words. So the product first runs on that guess:
 * the packing finds the ranges as it goes (int32 operands of whole tiles, which shift 0 lets the
 * kernel read as they are, have a range pass instead), the product is queued behind it, and the
 * host checks the ranges while the kernel runs. A miss queues the product again from the ranges,
 * and the class then waits for its ranges (guess_missed) until an input shows the guess would
 * have held. (Checking after the product instead, the host's wait left the GPU idle between
 * calls: int16 1024^3 took 0.080-0.091 ms against 0.075 before, doc/NOTES.md.) */

/* The range record on the device: [0..1] the minima of A and B, [2..3] their maxima, each as a
 * key that only grows (atomicMax): the product's epoch in the high bits, then the value biased by
 * 2^32 (int32 to uint32 values span [2^31, 2^33)), complemented within the field for the minima.
 * The record stays on the device (ck_device_scratch) and each product's epoch is above every
 * earlier one, so the first key a product publishes replaces what the last left: no product
 * allocates or clears a record (a memset and two allocation calls on the path of every integer
 * product before its first kernel). */
#define MP_RECORD 4
#define MP_EPOCH_SHIFT 34 /* the field below the epoch */
#define MP_FIELD ((1LL << MP_EPOCH_SHIFT) - 1)
#define MP_BIAS (1LL << 32)
#define MP_EPOCHS (1LL << 29) /* keys stay below 2^63 */

__host__ __device__ __forceinline__ long long mp_key_min(long long v, long long tag) {
  return tag | (MP_FIELD - (v + MP_BIAS));
}
__host__ __device__ __forceinline__ long long mp_key_max(long long v, long long tag) {
  return tag | (v + MP_BIAS);
}
__host__ __device__ __forceinline__ long long mp_min_of(long long key) {
  return MP_FIELD - (key & MP_FIELD) - MP_BIAS;
}
__host__ __device__ __forceinline__ long long mp_max_of(long long key) {
  return (key & MP_FIELD) - MP_BIAS;
}

/* One block's minimum and maximum (every thread's lo, hi) into range[which] and range[2 +
 * which]: a block reduction in registers and shared memory, then an atomic only where the block
 * improves on the bound as last seen. Atomics on one address serialize: one per warp took tens
 * of microseconds, one per block of the packing (thousands) 5-15 us; most blocks of the packing
 * hold nothing beyond the extremes already published. */
__device__ __forceinline__ void publish_range(long long lo, long long hi, long long *range,
                                              long long tag, int which) {
  __shared__ long long part[2][THREADS / 32];
  for (int o = 16; o > 0; o /= 2) {
    long long l2 = __shfl_down_sync(0xffffffffu, lo, o), h2 = __shfl_down_sync(0xffffffffu, hi, o);
    lo = l2 < lo ? l2 : lo;
    hi = h2 > hi ? h2 : hi;
  }
  if (threadIdx.x % 32 == 0) {
    part[0][threadIdx.x / 32] = lo;
    part[1][threadIdx.x / 32] = hi;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < (int)blockDim.x / 32; w++) {
      lo = part[0][w] < lo ? part[0][w] : lo;
      hi = part[1][w] > hi ? part[1][w] : hi;
    }
    if (lo <= hi) { /* else this block had no elements */
      const volatile long long *seen = range;
      const long long klo = mp_key_min(lo, tag), khi = mp_key_max(hi, tag);
      if (klo > seen[which]) atomicMax(&range[which], klo);
      if (khi > seen[2 + which]) atomicMax(&range[2 + which], khi);
    }
  }
}

template <class T> __device__ __forceinline__ void widen_range(T v, T &lo, T &hi) {
  lo = v < lo ? v : lo;
  hi = v > hi ? v : hi;
}

/* The passes below over operands and words are latency-bound, not bandwidth-bound: a thread that
 * loads, then stores, one element per trip waits a memory round trip each time, and thousands of
 * short blocks queue in waves (at 256 x 8192 x 256 the packing took 16 us for 12 MB). So each
 * thread issues several loads before using any, and the grid is about one wave (three blocks of
 * 256 threads per SM and operand), striding over the rest. */
static unsigned pass_blocks(size_t work_per_operand, size_t per_block) {
  size_t most = (size_t)sm_count() * 3, g = (work_per_operand + per_block - 1) / per_block;
  return (unsigned)(g < 1 ? 1 : g < most ? g : most);
}

/* The ranges of A (blockIdx.y 0) and B (1): 16-byte loads, four in flight per thread (elements
 * one by one where the operand is not 16-byte aligned, and for the tail). */
template <class T>
__global__ void value_ranges(const T *__restrict__ A, size_t count_a, const T *__restrict__ B,
                             size_t count_b, long long *range, long long tag) {
  typedef mp_traits<T> tr;
  constexpr int E = 16 / sizeof(T), U = 4;
  const T *x = blockIdx.y ? B : A;
  const size_t count = blockIdx.y ? count_b : count_a;
  const size_t stride = (size_t)gridDim.x * blockDim.x,
               first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  T lo = tr::empty(), hi = tr::lowest();
  size_t done = 0;
  if (((uintptr_t)x & 15) == 0) {
    const size_t vecs = count / E;
    size_t i = first;
    for (; i + (U - 1) * stride < vecs; i += U * stride) {
      vec16<T> v[U];
#pragma unroll
      for (int u = 0; u < U; u++) v[u] = load16(x + (i + u * stride) * E);
#pragma unroll
      for (int u = 0; u < U; u++)
#pragma unroll
        for (int e = 0; e < E; e++) widen_range(v[u].e[e], lo, hi);
    }
    for (; i < vecs; i += stride) {
      vec16<T> v = load16(x + i * E);
#pragma unroll
      for (int e = 0; e < E; e++) widen_range(v.e[e], lo, hi);
    }
    done = vecs * E;
  }
  for (size_t i = done + first; i < count; i += stride) widen_range(x[i], lo, hi);
  publish_range((long long)lo, (long long)hi, range, tag, (int)blockIdx.y);
}

/* One word: x - shift (exact in 32 bits whenever the shift fits), in both halves when packed. */
template <class T>
__device__ __forceinline__ uint32_t dpx_word(T x, uint32_t shift, bool pack, T &lo, T &hi) {
  widen_range(x, lo, hi);
  uint32_t u = (uint32_t)x - shift;
  return pack ? u | u << 16 : u;
}

/* Four consecutive row-major "A" words (Mp x Kp) from Octave's B (k x n), starting at idx (a
 * multiple of 4; Kp is one too, so the four share a row): B(p, j) - shift, duplicated into both
 * halves when packed; padding is all ones, so that with "B"'s zero padding a padded term is the
 * largest sum and cannot wrap. */
template <class T>
__device__ __forceinline__ uint4 dpx_quad_a(const T *__restrict__ B, size_t idx, size_t k,
                                            size_t n, size_t Kp, uint32_t shift, bool pack, T &lo,
                                            T &hi) {
  size_t j, p;
  split_index(idx, Kp, j, p);
  uint32_t u[4];
  const T *src = B + j * k + p;
#pragma unroll
  for (int e = 0; e < 4; e++)
    u[e] = j < n && p + e < k ? dpx_word(src[e], shift, pack, lo, hi) : 0xffffffffu;
  return make_uint4(u[0], u[1], u[2], u[3]);
}

/* Four consecutive row-major "B" words (Kp x Np) from Octave's A (m x k): A(i, p) - shift, rows
 * 2w and 2w + 1 in the low and high halves when packed; zero padding. */
template <class T>
__device__ __forceinline__ uint4 dpx_quad_b(const T *__restrict__ A, size_t idx, size_t m,
                                            size_t k, size_t Np, uint32_t shift, bool pack, T &lo,
                                            T &hi) {
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

/* Both operands' words in one launch (blockIdx.y: "A" words, then "B" words), four per thread
 * and trip with one 16-byte store; each shift is the minimum the device found (shifts_at: the
 * record) when the host has not read it yet, else the value the host passes. RANGES: the
 * operands' ranges go to `range` too, under `tag`. */
template <class T, bool RANGES>
__global__ void dpx_words(const T *__restrict__ A, const T *__restrict__ B,
                          uint32_t *__restrict__ wa, uint32_t *__restrict__ wb, size_t m, size_t k,
                          size_t n, size_t Mp, size_t Np, size_t Kp, const long long *shifts_at,
                          long long shift_a, long long shift_b, bool pack, long long *range,
                          long long tag) {
  typedef mp_traits<T> tr;
  const bool a = blockIdx.y == 0;
  const size_t quads = (a ? Mp * Kp : Kp * Np) / 4;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  const uint32_t shift = (uint32_t)(a ? (shifts_at ? mp_min_of(shifts_at[1]) : shift_b)
                                      : (shifts_at ? mp_min_of(shifts_at[0]) : shift_a));
  uint4 *out = (uint4 *)(a ? wa : wb);
  T lo = tr::empty(), hi = tr::lowest();
  auto quad = [&](size_t q) {
    return a ? dpx_quad_a(B, 4 * q, k, n, Kp, shift, pack, lo, hi)
             : dpx_quad_b(A, 4 * q, m, k, Np, shift, pack, lo, hi);
  };
  for (size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x; q < quads; q += 2 * stride) {
    const bool two = q + stride < quads; /* two quads' loads in flight before either store */
    uint4 w0 = quad(q), w1 = two ? quad(q + stride) : w0;
    out[q] = w0;
    if (two) out[q + stride] = w1;
  }
  if (RANGES) publish_range((long long)lo, (long long)hi, range, tag, a ? 1 : 0);
}

/* The packing, finding the ranges into `range` (under `tag`) unless NULL. */
template <class T>
static void launch_dpx_words(const T *A, const T *B, uint32_t *wa, uint32_t *wb, size_t m,
                             size_t k, size_t n, size_t Mp, size_t Np, size_t Kp,
                             const long long *shifts_at, long long shift_a, long long shift_b,
                             bool pack, long long *range, long long tag) {
  size_t words = Mp * Kp > Kp * Np ? Mp * Kp : Kp * Np;
  dim3 grid(pass_blocks(words / 4, 2 * THREADS), 2);
  if (range)
    dpx_words<T, true><<<grid, THREADS>>>(A, B, wa, wb, m, k, n, Mp, Np, Kp, shifts_at, shift_a,
                                          shift_b, pack, range, tag);
  else
    dpx_words<T, false><<<grid, THREADS>>>(A, B, wa, wb, m, k, n, Mp, Np, Kp, shifts_at,
                                           shift_a, shift_b, pack, NULL, 0);
}

enum mp_int_path { MP_INT_WIDE, MP_INT_U32, MP_INT_U16X2 };

/* Packed, the witness's tiles must fit a half. */
static bool packed_tiles_fit(size_t k, bool arg) {
  const size_t bk = v3_cfg<uint32_t, true>::type::BK;
  return !arg || round_up(k, bk) / bk <= 0x10000;
}

/* Whether shifts s_a, s_b keep every sum of the path exact, from h = min A, min B, max A, max B:
 * neither above its minimum, and the spreads above them adding up within the word (a half when
 * packed). */
static bool shifts_fit(const long long h[4], long long s_a, long long s_b, mp_int_path path) {
  long long top = path == MP_INT_U16X2 ? 0xffff : 0xffffffffLL;
  return h[0] >= s_a && h[1] >= s_b && (h[2] - s_a) + (h[3] - s_b) <= top; /* < 2^35: exact */
}

/* Which path keeps every sum exact when shifted by the minima. */
template <class T>
static mp_int_path int_path(const long long h[4], size_t k, bool arg) {
  return sizeof(T) <= 2 && packed_tiles_fit(k, arg) && shifts_fit(h, h[0], h[1], MP_INT_U16X2)
             ? MP_INT_U16X2
         : shifts_fit(h, h[0], h[1], MP_INT_U32) ? MP_INT_U32
                                                 : MP_INT_WIDE;
}

/* The path taken before the ranges are known: packed for the narrow classes (where the common
 * small weights fit), 32-bit words for the others. */
template <class T>
static mp_int_path likely_path(size_t k, bool arg) {
  return sizeof(T) <= 2 && packed_tiles_fit(k, arg) ? MP_INT_U16X2 : MP_INT_U32;
}

/* 8-bit classes need no ranges: any two spreads (at most 255 each) fit a half, and the class's
 * own bounds serve as shifts. */
template <class T>
static bool ranges_known(void) {
  return sizeof(T) == 1;
}

/* Whether the class's last product missed the guess of shift 0 (and so waits for its ranges). */
template <class T>
static bool &guess_missed(void) {
  static bool missed = false;
  return missed;
}

/* The range record on its way to the host: a copy into pinned memory queued behind the work that
 * fills it (mark_read, just after that work), so that more work can be queued before the host
 * waits for it. */
struct mp_record_read {
  const long long *d;
  long long tag; /* the epoch its keys carry */
  bool marked;
  long long *pinned; /* NULL: read synchronously at the end */
  cudaEvent_t ready;
};

static void mark_read(long long *d, long long tag, mp_record_read *rd) {
  rd->d = d;
  rd->tag = tag;
  rd->pinned = NULL;
  rd->marked = ck_note_mark() == CK_OK;
}

/* The copy itself, behind the mark: its API calls need not delay the work queued meanwhile. */
static void queue_read(mp_record_read *rd) {
  void *buf;
  /* without the note, finish_read copies synchronously */
  if (rd->marked &&
      ck_read_note(rd->d, MP_RECORD * sizeof(long long), &buf, &rd->ready) == CK_OK)
    rd->pinned = (long long *)buf;
}

static void start_read(long long *d, long long tag, mp_record_read *rd) {
  mark_read(d, tag, rd);
  queue_read(rd);
}

/* h: min A, min B, max A, max B. */
static ck_status finish_read(const mp_record_read *rd, long long h[MP_RECORD]) {
  if (rd->pinned) {
    CK_CUDA(cudaEventSynchronize(rd->ready), "reading the operands' ranges");
    memcpy(h, rd->pinned, MP_RECORD * sizeof(long long));
  } else {
    CK_CUDA(cudaMemcpy(h, rd->d, MP_RECORD * sizeof(long long), cudaMemcpyDeviceToHost),
            "reading the operands' ranges");
  }
  for (int w = 0; w < MP_RECORD; w++) { /* every operand has elements: each key was published */
    if ((h[w] & ~MP_FIELD) != rd->tag)
      return ck_fail(CK_ERR_CUDA, "min-plus: the operands' ranges were not recorded");
    h[w] = w < 2 ? mp_min_of(h[w]) : mp_max_of(h[w]);
  }
  return CK_OK;
}

/* The record and the tag of a new epoch (see MP_RECORD). */
static ck_status next_record(long long **d, long long *tag) {
  static long long epoch = 0;
  int fresh;
  CK_TRY(ck_device_scratch((void **)d, &fresh));
  if (fresh) epoch = 0; /* a new record is all zeros: below any key */
  if (++epoch == MP_EPOCHS) {
    CK_CUDA(cudaMemsetAsync(*d, 0, MP_RECORD * sizeof(long long)), "clearing the range record");
    epoch = 1;
  }
  *tag = epoch << MP_EPOCH_SHIFT;
  return CK_OK;
}

template <class T>
static ck_status find_ranges(const T *dA, const T *dB, size_t m, size_t k, size_t n, long long *d,
                             long long tag) {
  size_t most = m * k > k * n ? m * k : k * n;
  value_ranges<T><<<dim3(pass_blocks(most, THREADS * 64 / sizeof(T)), 2), THREADS>>>(
      dA, m * k, dB, k * n, d, tag);
  CK_CUDA(cudaGetLastError(), "finding the operands' ranges");
  return CK_OK;
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

/* Whether the kernel reads the operands as they are, without packing (mp_dpx_raw_op; int32: the
 * words themselves): shifts of 0 (a guess) for int32 and the 16-bit classes, or the class's
 * minimum (known) for 8 bits; whole tiles; aligned for the kernel's loads (B, whose "A" words
 * these are, may be a panel of a larger array: minplus_host.c). The kernel then widens every
 * word it loads, each time a tile is read again, where the packing widened each once: one byte
 * permute per word: next to nothing for the 16-bit product, but about 3% of the kernel for 8
 * bits (whose "B" words need one too) and for the witness's kernel (BK = 16, fewer pairs per
 * word). The packing's share falls as n grows, so those are read as they are only below 2^32
 * pairs (H100: 1.05-1.19x at 1024^3 and 256 x 8192 x 256, even at 2048^3; the 16-bit witness
 * 0.975-0.99x at 8192^3; doc/NOTES.md). */
#define MP_RAW_SMALL_PAIRS 4294967296.0
template <class T, bool PACK, bool ARG>
static bool reads_raw(const T *dA, const T *dB, size_t m, size_t k, size_t n, size_t Mp,
                      size_t Np, size_t Kp, size_t words, const long long h[MP_RECORD],
                      mp_shifts how) {
  const long long shift = sizeof(T) == 1 ? (long long)mp_traits<T>::lowest() : 0;
  const bool kind = PACK ? sizeof(T) <= 2 : std::is_same<T, int32_t>::value;
  const bool shifts = how == MP_SHIFTS_GUESSED ? shift == 0
                      : how == MP_SHIFTS_KNOWN && h[0] == shift && h[1] == shift;
  const size_t align_a = PACK ? 4 * sizeof(T) : 16, align_b = PACK ? 8 * sizeof(T) : 16;
  const bool small = !PACK || (sizeof(T) == 2 && !ARG) ||
                     (double)m * (double)k * (double)n < MP_RAW_SMALL_PAIRS;
  return kind && shifts && small && Mp == n && Np == words && Kp == k && (!PACK || m % 2 == 0) &&
         (uintptr_t)dB % align_a == 0 && (uintptr_t)dA % align_b == 0;
}

/* The DPX product on packed (PACK) or 32-bit words; *took is false when the shifts turned out
 * to need another path (then, unless guessed, nothing was run). Operands whose shape is already
 * whole tiles are read as they are where the shifts allow (reads_raw). */
template <class T, bool PACK, bool ARG>
static ck_status run_v3_dpx(const T *dA, const T *dB, T *dC, double *dK, size_t m, size_t k,
                            size_t n, long long h[MP_RECORD], mp_shifts how, mp_record_read *rd,
                            bool *took) {
  typedef typename v3_cfg<uint32_t, ARG>::type cfg;
  typedef mp_dpx_op<T, PACK, ARG> Op;
  typedef mp_dpx_raw_op<T, ARG> RawOp; /* PACK only */
  const bool guessed = how == MP_SHIFTS_GUESSED;
  const mp_int_path path = PACK ? MP_INT_U16X2 : MP_INT_U32;
  size_t words = PACK ? (m + 1) / 2 : m;
  size_t Mp = round_up(n, cfg::BM), Np = round_up(words, cfg::BN), Kp = round_up(k, cfg::BK);
  const bool raw = reads_raw<T, PACK, ARG>(dA, dB, m, k, n, Mp, Np, Kp, words, h, how);
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
    s = ck_dev_alloc((void **)&wa, Mp * Kp * sizeof(uint32_t));
    if (s == CK_OK) s = ck_dev_alloc((void **)&wb, Kp * Np * sizeof(uint32_t));
  }
  if (s == CK_OK && guessed) {
    h[0] = h[1] = 0;
    s = next_record(&d, &tag);
    if (s == CK_OK && raw) s = find_ranges<T>(dA, dB, m, k, n, d, tag);
  }
  if (s == CK_OK && !raw) {
    launch_dpx_words<T>(dA, dB, wa, wb, m, k, n, Mp, Np, Kp,
                        how == MP_SHIFTS_PENDING ? rd->d : NULL, h[0], h[1], PACK,
                        guessed ? d : NULL, tag);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) s = ck_cuda_status(e, "packing the operands");
  }
  if (s == CK_OK && guessed) {
    mark_read(d, tag, &check); /* the copy is queued once the product is */
    checking = true;
  }
  /* the plan while the GPU packs (or finds the ranges) */
  if (s == CK_OK) {
    const size_t ts = ARG ? sizeof(uint32_t) : 0;
    if constexpr (PACK)
      sp = raw ? plan_split<RawOp, cfg>(Mp, Np, Kp, n * words, sizeof(uint32_t), ts)
               : plan_split<Op, cfg>(Mp, Np, Kp, n * words, sizeof(uint32_t), ts);
    else
      sp = plan_split<Op, cfg>(Mp, Np, Kp, n * words, sizeof(uint32_t), ts);
  }
  if (s == CK_OK && how == MP_SHIFTS_PENDING) s = finish_read(rd, h);
  if (s == CK_OK && (guessed || int_path<T>(h, k, ARG) == path)) {
    long long base = h[0] + h[1];
    mp_dpx_out<T, PACK> out = {dC, dK, m, base};
    uint32_t *planes = (uint32_t *)sp.planes, *tiles = (uint32_t *)sp.tiles;
    Op op = {(int)n, (int)words,
             {clamp_word((long long)mp_traits<T>::lowest() - base, PACK),
              clamp_word((long long)mp_traits<T>::empty() - base, PACK), planes, tiles, out}};
    bool launched = false;
    if constexpr (PACK)
      if (raw) {
        RawOp rop;
        static_cast<Op &>(rop) = op;
        warptile_launch_split<RawOp, cfg>((int)Mp, (int)Np, (int)Kp, sp.slices, sp.cs, dB,
                                          (const warptile_b_t<RawOp> *)dA, rop);
        launched = true;
      }
    if (!launched)
      warptile_launch_split<Op, cfg>((int)Mp, (int)Np, (int)Kp, sp.slices, sp.cs, wa, wb, op);
    if (planes) {
      dim3 mb = merge_block(sp.planes_n(), n * words);
      merge_word_planes<T, PACK, ARG><<<grid_for(n * words, mb.x), mb>>>(
          planes, tiles, sp.planes_n(), n, words, out);
    }
    s = v3_finish<T, cfg::BK>(dA, dB, dC, dK, m, k, n);
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
    *took = s == CK_OK && shifts_fit(h, 0, 0, path);
  }
  return s;
}

/* run_v3_dpx on the likely path's words: packed (PACK) or 32-bit. */
template <class T, bool ARG>
static ck_status run_likely(mp_int_path likely, const T *dA, const T *dB, T *dC, double *dK,
                            size_t m, size_t k, size_t n, long long h[MP_RECORD], mp_shifts how,
                            mp_record_read *rd, bool *took) {
  if constexpr (sizeof(T) <= 2) /* no packed kernels for the classes that never take them */
    if (likely == MP_INT_U16X2)
      return run_v3_dpx<T, true, ARG>(dA, dB, dC, dK, m, k, n, h, how, rd, took);
  return run_v3_dpx<T, false, ARG>(dA, dB, dC, dK, m, k, n, h, how, rd, took);
}

/* On the guess of shift 0 where the class has not just missed it; else the likely path is set up
 * while the ranges are found and read, and only when they need another one (int16 spreads over
 * 65535, int32 ones over 2^32) is the packing redone on 32-bit words, or v2's wide accumulation
 * run. */
template <class T, bool ARG>
static ck_status run_v3_int(const T *dA, const T *dB, T *dC, double *dK, size_t m, size_t k,
                            size_t n) {
  const T lo = mp_traits<T>::lowest(), hi = mp_traits<T>::empty();
  long long h[MP_RECORD] = {lo, lo, hi, hi}, *d = NULL, tag = 0;
  mp_record_read rd;
  const bool ranges = !ranges_known<T>();
  const mp_int_path guess = likely_path<T>(k, ARG);
  ck_status s = CK_OK;
  bool took = false;
  if (ranges && !guess_missed<T>()) {
    s = run_likely<T, ARG>(guess, dA, dB, dC, dK, m, k, n, h, MP_SHIFTS_GUESSED, NULL, &took);
    guess_missed<T>() = s == CK_OK && !took;
    if (s != CK_OK || took) return s;
  }
  const mp_shifts how = ranges ? MP_SHIFTS_PENDING : MP_SHIFTS_KNOWN;
  if (ranges) s = next_record(&d, &tag);
  if (ranges && s == CK_OK) s = find_ranges<T>(dA, dB, m, k, n, d, tag);
  if (ranges && s == CK_OK) start_read(d, tag, &rd);
  if (s == CK_OK) s = run_likely<T, ARG>(guess, dA, dB, dC, dK, m, k, n, h, how, &rd, &took);
  /* h is known from here on */
  if (s == CK_OK && !took && guess != MP_INT_U32 && int_path<T>(h, k, ARG) == MP_INT_U32)
    s = run_v3_dpx<T, false, ARG>(dA, dB, dC, dK, m, k, n, h, MP_SHIFTS_KNOWN, NULL, &took);
  if (s == CK_OK && !took) s = run_v2<T, ARG>(dA, dB, dC, dK, m, k, n);
  if (s == CK_OK && ranges) guess_missed<T>() = !shifts_fit(h, 0, 0, guess);
  return s;
}

template <class T, bool ARG>
static ck_status run_v3(const T *dA, const T *dB, T *dC, double *dK, size_t m, size_t k,
                        size_t n) {
  if (round_up(n, 128) / 64 > MAX_GRID_Y || m > (size_t)INT_MAX - 256)
    return run_v2<T, ARG>(dA, dB, dC, dK, m, k, n); /* beyond the 2-D grid: v2 slices it */
  if constexpr (mp_traits<T>::is_float) return run_v3_float<T, ARG>(dA, dB, dC, dK, m, k, n);
  else return run_v3_int<T, ARG>(dA, dB, dC, dK, m, k, n);
}

/* ARG: also K, the smallest k attaining each minimum (1-based, as a double; 0 when k == 0). */
template <class T, bool ARG>
static ck_status run_minplus(int kernel, const T *dA, const T *dB, T *dC, double *dK, size_t m,
                             size_t k, size_t n) {
  size_t outputs = m * n;
  if (outputs == 0) return CK_OK;
  if (k > (size_t)INT_MAX - 1) return ck_fail(CK_ERR_INVALID, "min-plus: k must be below 2^31");
  if (k == 0) {
    fill_value<T><<<grid_for(outputs, THREADS), THREADS>>>(dC, outputs, mp_traits<T>::empty());
    if (ARG) fill_value<double><<<grid_for(outputs, THREADS), THREADS>>>(dK, outputs, 0.0);
  } else if (kernel == CK_MINPLUS_NAIVE) {
    minplus_v0<T, ARG><<<grid_for(outputs, THREADS), THREADS>>>(dA, dB, dC, dK, m, k, n);
  } else if (kernel == CK_MINPLUS_COALESCED) {
    minplus_v1<T, ARG><<<grid_for(outputs, THREADS), THREADS>>>(dA, dB, dC, dK, m, k, n);
  } else if (kernel == CK_MINPLUS_REGBLOCK) {
    CK_TRY((run_v2<T, ARG>(dA, dB, dC, dK, m, k, n)));
  } else if (kernel == CK_MINPLUS_WARPTILE) {
    CK_TRY((run_v3<T, ARG>(dA, dB, dC, dK, m, k, n)));
  } else {
    return ck_fail(CK_ERR_INVALID, "kernel %d is not a GPU min-plus kernel", kernel);
  }
  CK_CUDA(cudaGetLastError(), "launching a min-plus kernel");
  return CK_OK;
}

template <bool ARG>
static ck_status dispatch(ck_dtype t, int kernel, const void *dA, const void *dB, void *dC,
                          double *dK, size_t m, size_t k, size_t n) {
#define MP_CASE(CK, T) \
  case CK: return run_minplus<T, ARG>(kernel, (const T *)dA, (const T *)dB, (T *)dC, dK, m, k, n);
  switch (t) {
    MP_CASE(CK_DOUBLE, double)
    MP_CASE(CK_SINGLE, float)
    MP_CASE(CK_INT8, int8_t)
    MP_CASE(CK_UINT8, uint8_t)
    MP_CASE(CK_INT16, int16_t)
    MP_CASE(CK_UINT16, uint16_t)
    MP_CASE(CK_INT32, int32_t)
    MP_CASE(CK_UINT32, uint32_t)
  default:
    return ck_fail(CK_ERR_INVALID, "min-plus does not support %s", ck_dtype_name(t));
  }
#undef MP_CASE
}

extern "C" ck_status ck_minplus_device(ck_dtype t, int kernel, const void *dA, const void *dB,
                                       void *dC, size_t m, size_t k, size_t n) {
  return dispatch<false>(t, kernel, dA, dB, dC, NULL, m, k, n);
}

extern "C" ck_status ck_minplus_arg_device(ck_dtype t, int kernel, const void *dA, const void *dB,
                                           void *dC, double *dK, size_t m, size_t k, size_t n) {
  return dispatch<true>(t, kernel, dA, dB, dC, dK, m, k, n);
}

/* ---- combining the products of consecutive slices of k (inputs larger than the device) ----
 * C = min(C, Ct), with Octave's rules: NaN terms never win, ties keep the earlier (smaller) k;
 * K takes Kt + k0 where Ct wins. The sums are already saturated, so integers just compare. */
template <class T>
__global__ void merge_slices(T *__restrict__ C, double *__restrict__ K, const T *__restrict__ Ct,
                             const double *__restrict__ Kt, size_t count, double k0) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= count) return;
  typedef mp_traits<T> tr;
  typedef typename tr::W W;
  W v = (W)C[idx], t = (W)Ct[idx];
  if (tr::less(t, v)) {
    C[idx] = Ct[idx];
    if (K) K[idx] = Kt[idx] + k0;
  }
}

extern "C" ck_status ck_minplus_merge_device(ck_dtype t, void *dC, double *dK, const void *dCt,
                                             const double *dKt, size_t count, size_t k0) {
  if (count == 0) return CK_OK;
  unsigned g = grid_for(count, THREADS);
#define MERGE_CASE(CK, T)                                                                     \
  case CK:                                                                                    \
    merge_slices<T><<<g, THREADS>>>((T *)dC, dK, (const T *)dCt, dKt, count, (double)k0); \
    break;
  switch (t) {
    MERGE_CASE(CK_DOUBLE, double)
    MERGE_CASE(CK_SINGLE, float)
    MERGE_CASE(CK_INT8, int8_t)
    MERGE_CASE(CK_UINT8, uint8_t)
    MERGE_CASE(CK_INT16, int16_t)
    MERGE_CASE(CK_UINT16, uint16_t)
    MERGE_CASE(CK_INT32, int32_t)
    MERGE_CASE(CK_UINT32, uint32_t)
  default: return ck_fail(CK_ERR_INVALID, "min-plus does not support %s", ck_dtype_name(t));
  }
#undef MERGE_CASE
  CK_CUDA(cudaGetLastError(), "merging slices of a min-plus product");
  return CK_OK;
}

/* ---- random device inputs for the benchmarks: integers 0..999 stored as T (wrapped for 8-bit
 * classes), from a hash of the index, so no host data or transfer is needed to time a kernel. ---- */
template <class T> __global__ void fill_random(T *p, size_t count, uint32_t seed) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= count) return;
  uint32_t h = (uint32_t)idx * 2654435761u ^ seed ^ (uint32_t)(idx >> 32);
  h ^= h >> 13;
  h *= 0x5bd1e995u;
  h ^= h >> 15;
  p[idx] = (T)(h % 1000u);
}

extern "C" ck_status ck_fill_random_device(ck_dtype t, void *p, size_t count, uint32_t seed) {
  if (count == 0) return CK_OK;
  unsigned g = grid_for(count, THREADS);
#define FILL_CASE(CK, T) \
  case CK: fill_random<T><<<g, THREADS>>>((T *)p, count, seed); break;
  switch (t) {
    FILL_CASE(CK_DOUBLE, double)
    FILL_CASE(CK_SINGLE, float)
    FILL_CASE(CK_INT8, int8_t)
    FILL_CASE(CK_UINT8, uint8_t)
    FILL_CASE(CK_INT16, int16_t)
    FILL_CASE(CK_UINT16, uint16_t)
    FILL_CASE(CK_INT32, int32_t)
    FILL_CASE(CK_UINT32, uint32_t)
    FILL_CASE(CK_INT64, long long)
    FILL_CASE(CK_UINT64, unsigned long long)
  default: return ck_fail(CK_ERR_INVALID, "cannot fill class %d", (int)t);
  }
#undef FILL_CASE
  CK_CUDA(cudaGetLastError(), "filling random inputs");
  return CK_OK;
}
