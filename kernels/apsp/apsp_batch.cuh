/* What the batched kernels share (apsp_batch.cu: graphs within a block; apsp_batch_cluster.cu:
 * a graph across a cluster of blocks): a thread's TM x TN tile of a graph in registers, one step
 * of plain Floyd-Warshall on it, and the row and column pieces passed through shared memory. */
#ifndef CK_APSP_BATCH_CUH
#define CK_APSP_BATCH_CUH

#include <stdint.h>

#include <type_traits>

#include "apsp.cuh"

/* The word the tile holds: two 16-bit values a 32-bit word (PK 2), the others themselves; and
 * the word a column value takes in a step (A): a 16-bit value in both halves of a word, the
 * others themselves. Columns kept in shared memory as A words spare the byte permute that
 * widened each value for every step: a third of the integer instructions beside two DPX each
 * (ncu, H100, pages of 16-bit values). */
template <class T> struct ab_word {
  typedef T W;
  typedef T A;
  static constexpr int PK = 1;
};
template <> struct ab_word<uint16_t> {
  typedef uint32_t W;
  typedef uint32_t A;
  static constexpr int PK = 2;
};

/* Column value x as its A word. */
template <class T> __device__ __forceinline__ typename ab_word<T>::A ab_wide(T x) {
  if constexpr (ab_word<T>::PK == 2) return (uint32_t)x | (uint32_t)x << 16;
  else return x;
}

/* One value of column k, as its A word, against the words of row k, into the tile's words v
 * (and next hops nx from nk, the column's next hop, with paths). */
template <class T, class SR, int TT, bool ARG>
__device__ __forceinline__ void
ab_step_row_w(typename ab_word<T>::W (&v)[TT / ab_word<T>::PK], int (&nx)[TT],
              typename ab_word<T>::A aw, const typename ab_word<T>::W (&b)[TT / ab_word<T>::PK],
              int nk) {
  typedef ab_word<T> Wd;
  constexpr int WN = TT / Wd::PK;
#pragma unroll
  for (int j = 0; j < WN; j++) {
    if constexpr (std::is_same<T, uint16_t>::value) {
      const uint32_t now = SR::step_u16x2(aw, b[j], v[j]);
      if (ARG) {
        const uint32_t moved = __vcmpne2(now, v[j]);
        nx[2 * j] = moved & 0xffffu ? nk : nx[2 * j];
        nx[2 * j + 1] = moved >> 16 ? nk : nx[2 * j + 1];
      }
      v[j] = now;
    } else if constexpr (std::is_same<T, uint32_t>::value) {
      const uint32_t now = SR::step_u32(aw, b[j], v[j]);
      if (ARG) nx[j] = now != v[j] ? nk : nx[j];
      v[j] = now;
    } else {
      const T t = SR::mul::term(aw, b[j]);
      if (ARG) SR::add::take(v[j], nx[j], t, nk);
      else if constexpr (std::is_same<T, float>::value) v[j] = SR::add::pick(v[j], t);
      else
        v[j] = SR::add::beats(t, v[j]) ? t : v[j]; /* DSETP and selects: fmin's zero rule
                                                         costs more */
    }
  }
}

/* ... and a value of column k itself. */
template <class T, class SR, int TT, bool ARG>
__device__ __forceinline__ void
ab_step_row(typename ab_word<T>::W (&v)[TT / ab_word<T>::PK], int (&nx)[TT], T a,
            const typename ab_word<T>::W (&b)[TT / ab_word<T>::PK], int nk) {
  ab_step_row_w<T, SR, TT, ARG>(v, nx, ab_wide<T>(a), b, nk);
}

/* N values at src (shared or global memory) into registers, in 16-, 8- or 4-byte pieces (src
 * aligned to the piece: every row and column piece of a tile in shared memory is, a page's row
 * pieces where ac_whole_rows says so), and back. Scalar loads of a tile's row
 * and column made a graph's steps bound by shared memory (4 loads a row, and two-way bank
 * conflicts): 88% of its bandwidth at 34% of the arithmetic's issue rate. */
template <class T, int N> struct ab_piece {
  static constexpr int BYTES = N * (int)sizeof(T);
  static constexpr int C = BYTES % 16 == 0 ? 16 : BYTES % 8 == 0 ? 8 : 4;
  typedef typename std::conditional<C == 16, int4,
                                    typename std::conditional<C == 8, int2, int>::type>::type V;
  union U {
    V v[BYTES / C];
    T t[N];
  };
};
/* CG: from global memory past the L1 (data that other blocks of the launch wrote). */
template <class T, int N, bool CG = false>
__device__ __forceinline__ void ab_lds(T (&d)[N], const T *src) {
  typedef ab_piece<T, N> Pc;
  typename Pc::U u;
  const typename Pc::V *p = reinterpret_cast<const typename Pc::V *>(src);
#pragma unroll
  for (int i = 0; i < Pc::BYTES / Pc::C; i++) {
    if constexpr (CG) u.v[i] = __ldcg(p + i);
    else u.v[i] = p[i];
  }
#pragma unroll
  for (int j = 0; j < N; j++) d[j] = u.t[j];
}
template <class T, int N> __device__ __forceinline__ void ab_sts(T *dst, const T (&s)[N]) {
  typedef ab_piece<T, N> Pc;
  typename Pc::U u;
#pragma unroll
  for (int j = 0; j < N; j++) u.t[j] = s[j];
#pragma unroll
  for (int i = 0; i < Pc::BYTES / Pc::C; i++) reinterpret_cast<typename Pc::V *>(dst)[i] = u.v[i];
}

/* The value in column j of a tile row of words. */
template <class T, int TT>
__device__ __forceinline__ T ab_at(const typename ab_word<T>::W (&w)[TT / ab_word<T>::PK], int j) {
  if constexpr (ab_word<T>::PK == 2) return (T)(j % 2 ? w[j / 2] >> 16 : w[j / 2] & 0xffffu);
  else return w[j];
}

/* Column j of a tile row of words as its A word (ab_word: a 16-bit value in both halves). */
template <class T, int TT>
__device__ __forceinline__ typename ab_word<T>::A
ab_col_word(const typename ab_word<T>::W (&w)[TT / ab_word<T>::PK], int j) {
  if constexpr (ab_word<T>::PK == 2) return __byte_perm(w[j / 2], 0, j % 2 ? 0x3232 : 0x1010);
  else return w[j];
}

/* The value x into column j of a tile row of words (the words are written in column order). */
template <class T, int TT>
__device__ __forceinline__ void ab_set(typename ab_word<T>::W (&w)[TT / ab_word<T>::PK], int j,
                                       T x) {
  typedef typename ab_word<T>::W W;
  if constexpr (ab_word<T>::PK == 2) {
    if (j % 2) w[j / 2] |= (W)x << 16;
    else w[j / 2] = (W)x;
  } else {
    w[j] = x;
  }
}

/* Column c of a TM x TN tile, and of its next hops, into a step's buffers: as values (C = T) or
 * as A words (C = ab_word<T>::A). */
template <class T, int TM, int TN, bool ARG, class C = T>
__device__ __forceinline__ void
ab_put_column(C *col, int *ncol, const typename ab_word<T>::W (&v)[TM][TN / ab_word<T>::PK],
              const int (&nx)[TM][TN], int c) {
  C cv[TM];
  int cn[TM];
#pragma unroll
  for (int i = 0; i < TM; i++) {
    if constexpr (ab_word<T>::PK == 2 && sizeof(C) == 4) cv[i] = ab_col_word<T, TN>(v[i], c);
    else cv[i] = ab_at<T, TN>(v[i], c);
    cn[i] = nx[i][c];
  }
  ab_sts<C, TM>(col, cv);
  if (ARG) ab_sts<int, TM>(ncol, cn);
}

/* Weight x at row r, column c of a page's graph, looked at as the survey would where b surveys
 * (ap_batch; apsp.cu: min.+ and min.max of single and double). */
template <class T, class SR>
__device__ __forceinline__ void ab_survey(T x, const ap_batch<T> &b, size_t page, int r, int c) {
  if constexpr (std::is_floating_point<T>::value) {
    if (b.refused) {
      if (x != x || (std::is_same<SR, sr_min_plus>::value && x == -(T)INFINITY))
        atomicOr(b.refused, 1);
      if (r == c && SR::unbounded(x))
        atomicMin(b.self, (unsigned long long)page * (unsigned long long)b.n + r);
    }
  } else if (b.refused && x > b.nopath) { /* a negative integer: the guess missed */
    atomicOr(b.refused, 2);
  }
}

/* A TM x TN tile of page `page` (in: n x n work values) at rows r0 .., columns c0 .., into
 * registers: the diagonal the empty path, outside the graph isolated padding; with paths, each
 * edge's next hop (its column, 1-based); each weight surveyed (ab_survey). */
template <class T, class SR, int TM, int TN, bool ARG>
__device__ __forceinline__ void ab_load_tile(typename ab_word<T>::W (&v)[TM][TN / ab_word<T>::PK],
                                             int (&nx)[TM][TN], const ap_batch<T> &b, const T *in,
                                             size_t page, int r0, int c0, bool live,
                                             bool whole = false) {
  const int n = b.n;
#pragma unroll
  for (int i = 0; i < TM; i++) {
    const int r = r0 + i;
    /* whole: the caller found n a multiple of TN and every row piece aligned to its size
     * (ac_whole_rows, for the piece's TN), so a piece that starts in the graph lies in it whole and
     * is read at once (c0 + TN <= n in place of c0 < n cost the 16-bit min.max staging instance
     * 8 bytes of spills) */
    const bool row = whole && live && r < n && c0 < n;
    T raw[TN];
    if (row) ab_lds<T, TN>(raw, in + (size_t)r * n + c0);
#pragma unroll
    for (int j = 0; j < TN; j++) {
      const int c = c0 + j;
      T x = b.nopath;
      if (live && r < n && c < n) {
        x = row ? raw[j] : in[(size_t)r * n + c];
        ab_survey<T, SR>(x, b, page, r, c);
      }
      if (r == c) x = SR::mul::template one<T>();
      if (ARG) nx[i][j] = r != c && x != b.nopath ? c + 1 : 0;
      ab_set<T, TN>(v[i], j, x);
    }
  }
}

/* The weights of a TM x TN tile at rows r0 .., columns c0 .., already in registers (outside the
 * graph "no path"), surveyed in place (ab_survey), the diagonal set to the empty path: a caller
 * that loads every row before the first survey has the rows wait for memory together, where
 * ab_load_tile's surveys, which may write b's flags (the compiler must take them to alias the
 * weights), have each row wait in turn. */
template <class T, class SR, int TM, int TN>
__device__ __forceinline__ void ab_look_tile(typename ab_word<T>::W (&v)[TM][TN / ab_word<T>::PK],
                                             const ap_batch<T> &b, size_t page, int r0, int c0) {
#pragma unroll
  for (int i = 0; i < TM; i++) {
    const int r = r0 + i;
    T raw[TN];
#pragma unroll
    for (int j = 0; j < TN; j++) raw[j] = ab_at<T, TN>(v[i], j);
#pragma unroll
    for (int j = 0; j < TN; j++) {
      const int c = c0 + j;
      if (r < b.n && c < b.n) ab_survey<T, SR>(raw[j], b, page, r, c);
      ab_set<T, TN>(v[i], j, r == c ? SR::mul::template one<T>() : raw[j]);
    }
  }
}

/* A TM x TN tile of work values the kernel wrote before (a page of n x n at src: no look at
 * them, the diagonal as it stands) into registers, outside the graph "no path". */
template <class T, int TM, int TN>
__device__ __forceinline__ void ab_fetch_tile(typename ab_word<T>::W (&v)[TM][TN / ab_word<T>::PK],
                                              const T *src, int n, T nopath, int r0, int c0) {
#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int j = 0; j < TN; j++) {
      const int r = r0 + i, c = c0 + j;
      ab_set<T, TN>(v[i], j, r < n && c < n ? src[(size_t)r * n + c] : nopath);
    }
}

/* The trace (ap_batch): after step k, the tile's diagonal entries that went unbounded. */
template <class T, class SR, int TM, int TN>
__device__ __forceinline__ void ab_trace(const typename ab_word<T>::W (&v)[TM][TN / ab_word<T>::PK],
                                         const ap_batch<T> &b, size_t page, int k, int r0, int c0) {
  if constexpr (std::is_floating_point<T>::value) {
    const unsigned long long n = (unsigned long long)b.n,
                             at = ((unsigned long long)page * n + k) * n;
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
      for (int j = 0; j < TN; j++)
        if (r0 + i == c0 + j && r0 + i < b.n && SR::unbounded(ab_at<T, TN>(v[i], j)))
          atomicMin(b.cycle, at + (unsigned long long)(r0 + i));
  }
}

/* The tile back into page `out` (and P), and any diagonal entry of it that came out unbounded
 * into *cycle as page * n + vertex (the smallest wins; the integer work types hold no
 * negatives). */
template <class T, class SR, int TM, int TN, bool ARG>
__device__ __forceinline__ void
ab_store_tile(const typename ab_word<T>::W (&v)[TM][TN / ab_word<T>::PK], const int (&nx)[TM][TN],
              T *out, int32_t *P, int n, int r0, int c0, size_t page, unsigned long long *cycle) {
#pragma unroll
  for (int i = 0; i < TM; i++) {
    const int r = r0 + i;
    if (r >= n) continue;
#pragma unroll
    for (int j = 0; j < TN; j++) {
      const int c = c0 + j;
      if (c >= n) continue;
      const T x = ab_at<T, TN>(v[i], j);
      out[(size_t)r * n + c] = x;
      if (ARG) P[(size_t)r * n + c] = nx[i][j];
      if constexpr (std::is_floating_point<T>::value)
        if (cycle && r == c && SR::unbounded(x))
          atomicMin(cycle, (unsigned long long)page * (unsigned long long)n + r);
    }
  }
}

/* The graphs of a block step together: where a graph's threads are one warp or less, the warp's
 * barrier is enough (its buffers are its own). */
__device__ __forceinline__ void ab_step_barrier(int group) {
  if (group <= 32) __syncwarp();
  else __syncthreads();
}

/* Plain Floyd-Warshall's steps 0 .. n - 1 on a graph of np x np values held by a group of
 * threads, a TM x TN tile each (this thread's at rows ty * TM .., columns tx * TN ..). Step k
 * needs the tile's part of row k and of column k: the threads that hold them write them to the
 * group's buffers (rowk, colk and, with paths, nxk: two steps of np each) at the end of step
 * k - 1, one barrier a step. Within step k, row k and column k do not change (the diagonal is the
 * empty path; once it is not, the graph has an unbounded cycle and its values no longer matter),
 * so every value updates at once from them, as the "cpu" kernel's round k does: the same terms,
 * strictly better only, the next hop of the winning row's k. hook (k, buf) runs after step k's
 * update, while buffer buf still holds row and column k as they stood at step k. (The pivot
 * block's closure takes these steps, apsp_block.cu; ab_close writes them out with its trace.) */
template <class T, class SR, int TM, int TN, bool ARG, class Hook>
__device__ __forceinline__ void ab_steps(typename ab_word<T>::W (&v)[TM][TN / ab_word<T>::PK],
                                         int (&nx)[TM][TN], T *rowk, T *colk, int *nxk, int np,
                                         int n, int ty, int tx, int group, Hook hook) {
  typedef typename ab_word<T>::W W;
  constexpr int WN = TN / ab_word<T>::PK, L = TM > TN ? TM : TN; /* steps a pass */
  static_assert(L % TM == 0 && L % TN == 0, "a pass ends where rows and columns of pieces end");
  /* row 0 and column 0 for step 0 */
  if (ty == 0) ab_sts<W, WN>((W *)(rowk + tx * TN), v[0]);
  if (tx == 0) ab_put_column<T, TM, TN, ARG>(colk + ty * TM, nxk + ty * TM, v, nx, 0);
  ab_step_barrier(group);
  for (int k0 = 0; k0 < n; k0 += L) {
#pragma unroll
    for (int kk = 0; kk < L; kk++) {
      const int k = k0 + kk, buf = k & 1;
      /* row k's words over this tile's columns, column k's values over its rows */
      W bw[WN];
      T a[TM];
      int nk[TM];
      ab_lds<W, WN>(bw, (const W *)(rowk + buf * np + tx * TN));
      ab_lds<T, TM>(a, colk + buf * np + ty * TM);
      if (ARG) ab_lds<int, TM>(nk, nxk + buf * np + ty * TM);
#pragma unroll
      for (int i = 0; i < TM; i++) ab_step_row<T, SR, TN, ARG>(v[i], nx[i], a[i], bw, nk[i]);
      hook(k, buf);
      /* row and column k + 1 as they stand now, for the next step */
      const int k1 = k + 1, nb = buf ^ 1;
      if (ty == k1 / TM) ab_sts<W, WN>((W *)(rowk + nb * np + tx * TN), v[(kk + 1) % TM]);
      if (tx == k1 / TN)
        ab_put_column<T, TM, TN, ARG>(colk + nb * np + ty * TM, nxk + nb * np + ty * TM, v, nx,
                                      (kk + 1) % TN);
      ab_step_barrier(group);
    }
  }
}

/* The cluster kernel's launch: graphs of 129 to 256 vertices (apsp_batch_cluster.cu), where
ap_batch_clusters_ok (on the current device). */
template <class T, class SR> ck_status ap_batch_cluster(const ap_batch<T> &b);
/* ... and the tiled kernel's (apsp_batch_tiled.cu), where ap_batch_tiles (b). */
template <class T, class SR> ck_status ap_batch_tiled(const ap_batch<T> &b);

/* Whether b's pages may run on a kernel that holds a whole page in one thread's or one warp's
 * registers: graphs of exactly n vertices, distances alone, at least per_sm pages a
 * multiprocessor, in and out 16-byte aligned (the kernel's own conditions beside). */
template <class T> bool ab_whole_pages(const ap_batch<T> &b, int n, int per_sm) {
  return b.n == n && !b.P && !b.trace && b.pages >= (size_t)per_sm * ck_device_sms() &&
         (uintptr_t)b.in % 16 == 0 && (uintptr_t)b.out % 16 == 0;
}

/* Distances alone of many 16-bit min.+ graphs of 64 vertices, a page a warp
 * (apsp_batch_warp.cu): whether it takes b, and b's launch. */
bool ab_warp_takes(const ap_batch<uint16_t> &b);
ck_status ab_warp_close(const ap_batch<uint16_t> &b);

#endif
