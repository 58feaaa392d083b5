/* A 64-wide tile (AP_TILE) in one thread block's registers, a piece of AC_TT rows a thread
 * (AC_TT values wide, or AC_TT words: ac_shape): the pieces the pivot block's closure
 * (apsp_block.cu), the tiled batched kernel (apsp_batch_tiled.cu) and a graph by tiles
 * (apsp_graph_tiled.cu) share. A tile goes to shared memory by rows (a product's B operand) or
 * by columns (its A operand), and a product updates a piece from two tiles there. The pieces'
 * functions take the piece's width from its rows' words (WN). */
#ifndef CK_APSP_TILE_CUH
#define CK_APSP_TILE_CUH

#include "apsp_batch.cuh"

/* A thread's square piece: AC_TT x AC_TT values, on AC_THREADS (256) threads (the wide one:
 * ac_shape). The closure's steps are bound by latency
 * (one block, a barrier a step): a step of ac_fw_hist takes about 520 cycles at an issue rate of
 * 0.39 a scheduler (ncu, H100). 2 x 2 pieces on 1024 threads were slower still (ac_round 21.3
 * against 17.4 us, ac_fw_hist 22.4 against 17.1): the barrier of 32 warps costs more than their
 * issue slots give. Two or four steps a barrier, each thread carrying the group's rows and
 * columns through it, were slower too (int16 256 x 256 pages 51.5% of the rate against 54.5,
 * single graph 1024 the same: doc/NOTES.md). */
#define AC_TT 4
#define AC_SIDE (AP_TILE / AC_TT)                 /* threads across a tile */
#define AC_THREADS (AC_SIDE * AC_SIDE)            /* a tile's thread block */
#define AC_TILE_ELEMS ((size_t)AP_TILE * AP_TILE) /* one tile in shared memory */

template <class T> struct ac_piece {
  typedef typename ab_word<T>::W W;
  static constexpr int WN = AC_TT / ab_word<T>::PK;
  /* a product's A operand (a tile by columns) in A words (ab_word) */
  typedef typename ab_word<T>::A A;
};

/* A piece of AC_TT rows and TN values, on THREADS threads a tile: square (WIDE false), or AC_TT
 * words (WIDE true), which for 16-bit values is 4 x 8 values on 128 threads. A product's step
 * reads 32 bytes of shared memory for the wide piece's 32 pairs, 24 for the square one's 16;
 * the tiled kernels take the wide one where enough of their blocks share an SM
 * (apsp_batch_tiled.cu, apsp_graph_tiled.cu have the measurements). */
template <class T, bool WIDE> struct ac_shape {
  static constexpr int TN = WIDE ? AC_TT * ab_word<T>::PK : AC_TT, WN = TN / ab_word<T>::PK,
                       THREADS = AP_TILE / AC_TT * (AP_TILE / TN);
};

/* Where this thread's piece lies: a warp takes 4 rows of 8 pieces, so that its reads of a row
 * (8 pieces) and of a column (4) take one shared-memory wavefront each. */
template <int TN = AC_TT> __device__ __forceinline__ void ac_place(int &ty, int &tx) {
  static_assert(AP_TILE % (TN * 8) == 0, "a warp's 8 pieces across fit the tile");
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  constexpr int WX = AP_TILE / TN / 8; /* warps across */
  ty = warp / WX * 4 + lane / 8;
  tx = warp % WX * 8 + lane % 8;
}

/* This thread's piece of the tile at t (leading dimension ld) into registers (CG: ab_lds's),
 * and back. */
template <class T, bool CG = false, int WN>
__device__ __forceinline__ void ac_load(typename ab_word<T>::W (&v)[AC_TT][WN], const T *t,
                                        size_t ld, int r0, int c0) {
  typedef typename ab_word<T>::W W;
#pragma unroll
  for (int i = 0; i < AC_TT; i++) ab_lds<W, WN, CG>(v[i], (const W *)(t + (r0 + i) * ld + c0));
}
template <class T, int WN>
__device__ __forceinline__ void ac_store(const typename ab_word<T>::W (&v)[AC_TT][WN], T *t,
                                         size_t ld, int r0, int c0) {
  typedef typename ab_word<T>::W W;
#pragma unroll
  for (int i = 0; i < AC_TT; i++) ab_sts<W, WN>((W *)(t + (r0 + i) * ld + c0), v[i]);
}

/* The piece into a tile in shared memory, by rows (S[r][c]: a product's B operand) or by columns
 * (S[c][r]: its A operand, in A words). */
template <class T, int WN>
__device__ __forceinline__ void ac_put_rows(const typename ab_word<T>::W (&v)[AC_TT][WN], T *S,
                                            int r0, int c0) {
  ac_store<T>(v, S, AP_TILE, r0, c0);
}
template <class T, int WN>
__device__ __forceinline__ void ac_put_cols(const typename ab_word<T>::W (&v)[AC_TT][WN],
                                            typename ab_word<T>::A *S, int r0, int c0) {
  constexpr int TN = WN * ab_word<T>::PK;
  const int nx[AC_TT][TN] = {};
#pragma unroll
  for (int j = 0; j < TN; j++)
    ab_put_column<T, AC_TT, TN, false>(S + (c0 + j) * AP_TILE + r0, NULL, v, nx, j);
}

/* acc = min (acc, A (x) B) over the tile's AP_TILE steps (K of them from At and Bs), A by
 * columns (A words), B by rows. Sixteen steps a pass: at four, each pass spent ten instructions
 * on its shared-memory addresses and the loop beside 32 DPX (ncu, 16-bit pages of 256
 * vertices); from four to sixteen those pages ran about 5% faster, single ones 7%, graphs by
 * tiles the same (H100). */
template <class T, class SR, int WN, int K = AP_TILE>
__device__ __forceinline__ void ac_product(typename ab_word<T>::W (&acc)[AC_TT][WN],
                                           const typename ab_word<T>::A *At, const T *Bs, int r0,
                                           int c0) {
  typedef typename ab_word<T>::W W;
  typedef typename ab_word<T>::A A;
  constexpr int TN = WN * ab_word<T>::PK;
  int nx[AC_TT][TN];
#pragma unroll 16
  for (int k = 0; k < K; k++) {
    W bw[WN];
    A a[AC_TT];
    ab_lds<W, WN>(bw, (const W *)(Bs + k * AP_TILE + c0));
    ab_lds<A, AC_TT>(a, At + k * AP_TILE + r0);
#pragma unroll
    for (int i = 0; i < AC_TT; i++) ab_step_row_w<T, SR, TN, false>(acc[i], nx[i], a[i], bw, 0);
  }
}

/* Whether every row piece (TN values) of a page at p (n x n) that starts in the graph lies whole
 * in it and aligned to the piece's size, so that it moves in one vector load or store: n a
 * multiple of TN. Scalar 2- and 4-byte accesses took four times the L2 sectors (ncu). */
template <int TN, class T> __device__ __forceinline__ bool ac_whole_rows(const T *p, int n) {
  return n % TN == 0 && (size_t)p % (TN * sizeof(T)) == 0;
}

/* This thread's piece of a page the kernel wrote before (src, n x n, rows r0 .., columns c0 ..)
 * into registers, outside the graph "no path"; and back into the page, with the diagonal entries
 * that came out unbounded into *cycle (ab_store_tile's). whole: ac_whole_rows. */
template <class T, int WN>
__device__ __forceinline__ void ac_fetch(typename ab_word<T>::W (&v)[AC_TT][WN], const T *src,
                                         int n, T nopath, int r0, int c0, bool whole) {
  typedef typename ab_word<T>::W W;
  constexpr int TN = WN * ab_word<T>::PK;
  if (!whole) return ab_fetch_tile<T, AC_TT, TN>(v, src, n, nopath, r0, c0);
#pragma unroll
  for (int i = 0; i < AC_TT; i++) {
    if (r0 + i < n && c0 < n) {
      ab_lds<W, WN>(v[i], (const W *)(src + (size_t)(r0 + i) * n + c0));
    } else {
#pragma unroll
      for (int j = 0; j < TN; j++) ab_set<T, TN>(v[i], j, nopath);
    }
  }
}
template <class T, class SR, int WN>
__device__ __forceinline__ void ac_keep(const typename ab_word<T>::W (&v)[AC_TT][WN], T *out, int n,
                                        int r0, int c0, size_t page, unsigned long long *cycle,
                                        bool whole) {
  typedef typename ab_word<T>::W W;
  constexpr int TN = WN * ab_word<T>::PK;
  if (!whole) {
    const int nx[AC_TT][TN] = {};
    return ab_store_tile<T, SR, AC_TT, TN, false>(v, nx, out, NULL, n, r0, c0, page, cycle);
  }
#pragma unroll
  for (int i = 0; i < AC_TT; i++)
    if (r0 + i < n && c0 < n) ab_sts<W, WN>((W *)(out + (size_t)(r0 + i) * n + c0), v[i]);
  if constexpr (std::is_floating_point<T>::value) {
#pragma unroll
    for (int i = 0; i < AC_TT; i++)
#pragma unroll
      for (int j = 0; j < TN; j++)
        if (cycle && r0 + i == c0 + j && r0 + i < n && SR::unbounded(ab_at<T, TN>(v[i], j)))
          atomicMin(cycle, (unsigned long long)page * (unsigned long long)n + r0 + i);
  }
}

/* The diagonal entries of the piece that came out unbounded, as base + their row (the smallest
 * wins; the integer work types hold no negatives). */
template <class T, class SR, int WN>
__device__ __forceinline__ void ac_check_diagonal(const typename ab_word<T>::W (&v)[AC_TT][WN],
                                                  int r0, int c0, int base, int *neg) {
  if constexpr (std::is_floating_point<T>::value) {
    constexpr int TN = WN * ab_word<T>::PK;
#pragma unroll
    for (int i = 0; i < AC_TT; i++)
#pragma unroll
      for (int j = 0; j < TN; j++)
        if (r0 + i == c0 + j && SR::unbounded(ab_at<T, TN>(v[i], j))) atomicMin(neg, base + r0 + i);
  }
}

#endif
