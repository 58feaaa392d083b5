/* A graph by tiles' products with next hops (apsp_graph_paths.cu): each output's winner tracked
 * by chunks of the depth, then searched only where the output improved. */
#ifndef CK_APSP_GRAPH_TRACK_CUH
#define CK_APSP_GRAPH_TRACK_CUH

#include "apsp_graph.cuh"
#include "apsp_words.cuh"

/* ---- tuning ----
 * The rest's products (and agp_track_rows) track each output's winning chunk of AGP_CHUNK
 * steps; then the lanes of a warp search the improved outputs' chunks together, as the rounds'
 * products do (apsp_warptile.cu). A pair update takes the distances' two instructions (16-bit
 * words: one a pair of halves), not four (six), and an output a compare and a select a chunk
 * (16-bit words: a min, a max and a multiply for both halves, ap_words).
 * H200, D and P of single 2048 (D alone 1.15 ms, next hops step by step 2.33-2.35): chunks of 4
 * 2.00 ms, 8 2.07, 16 2.21; int16 2048 (0.65, 3.08-3.10) 1.80, 1.77, 2.01; chunks of 4 were
 * ahead on the pages of both classes. Without the search (next hops wrong) 1.67 ms: doc/NOTES.md
 * has the forms of the search that were no faster. */
#define AGP_CHUNK 4
#define AGP_LIST (AC_TT * AC_TT * 32) /* a warp's outputs: its list of improved ones at most */

/* A chunk's end for a tracked piece: where now beats was, the chunk (1 + its index, for 16-bit
 * words a half's) into id; was becomes now (ap_words' keep). */
template <class T, class SR>
__device__ __forceinline__ void
agp_keep(typename ab_word<T>::W (&was)[AC_TT][AC_TT / ab_word<T>::PK],
         uint32_t (*id)[AC_TT / ab_word<T>::PK],
         const typename ab_word<T>::W (&now)[AC_TT][AC_TT / ab_word<T>::PK], uint32_t chunk) {
#pragma unroll
  for (int i = 0; i < AC_TT; i++)
#pragma unroll
    for (int j = 0; j < AC_TT / ab_word<T>::PK; j++)
      ap_words<T, SR>::keep(was[i][j], id[i][j], now[i][j], chunk);
}

/* acc = min (acc, A (x) B), A a column history (A words), B a row history, over K of the depth,
 * strictly smaller only (the first k of the minimum wins), without next hops: each output's
 * winning chunk into id (1 + the chunk, 0 where it did not improve; for 16-bit words one a half),
 * for agp_search or agp_resolve. The chunk loop stays rolled: unrolled, the body is 1024
 * updates. */
template <class T, class SR, int K = AP_TILE>
__device__ __forceinline__ void
agp_product_tracked(typename ab_word<T>::W (&acc)[AC_TT][AC_TT / ab_word<T>::PK],
                    uint32_t (&id)[AC_TT][AC_TT / ab_word<T>::PK], const typename ab_word<T>::A *As,
                    const T *Bs, int r0, int c0) {
  typedef ap_words<T, SR> Wd;
  typedef typename ab_word<T>::W W;
  typedef typename ab_word<T>::A A;
  constexpr int WN = AC_TT / ab_word<T>::PK;
  static_assert(K % AGP_CHUNK == 0, "whole chunks");
  W t[AC_TT][WN];
#pragma unroll
  for (int i = 0; i < AC_TT; i++)
#pragma unroll
    for (int j = 0; j < WN; j++) id[i][j] = 0, t[i][j] = acc[i][j];
  auto step = [&](int k, bool first) {
    W bw[WN];
    A a[AC_TT];
    ab_lds<W, WN>(bw, (const W *)(Bs + k * AP_TILE + c0));
    ab_lds<A, AC_TT>(a, As + k * AP_TILE + r0);
#pragma unroll
    for (int i = 0; i < AC_TT; i++)
#pragma unroll
      for (int j = 0; j < WN; j++)
        t[i][j] = first && !Wd::RUNS_ON ? Wd::term(a[i], bw[j]) : Wd::addmin(a[i], bw[j], t[i][j]);
  };
#pragma unroll 1
  for (int c = 0; c < K / AGP_CHUNK; c++) {
    step(c * AGP_CHUNK, true);
#pragma unroll
    for (int kk = 1; kk < AGP_CHUNK; kk++) step(c * AGP_CHUNK + kk, false);
    agp_keep<T, SR>(acc, id, t, (uint32_t)c + 1);
  }
}

/* The winner of output (r, col) in chunk c: the first step whose term is the chunk's least (a NaN
 * term never wins, as in the steps one by one). */
template <class T, class SR>
__device__ __forceinline__ int agp_winner(const typename ab_word<T>::A *As, const T *Bs, int r,
                                          int col, int c) {
  typedef typename ap_word<T>::S S;
  S least = 0;
  int w = -1;
#pragma unroll
  for (int kk = 0; kk < AGP_CHUNK; kk++) {
    const int k = c * AGP_CHUNK + kk;
    const S t = ap_work<T, SR>::sum((T)As[k * AP_TILE + r], Bs[k * AP_TILE + col]);
    if (t == t && (w < 0 || SR::add::beats(t, least))) least = t, w = k;
  }
  return w;
}

/* Output (i, j)'s entry of a tracked product's id: 1 + its winning chunk, 0 where it did not
 * improve. */
template <class T>
__device__ __forceinline__ uint32_t agp_chunk(const uint32_t (&id)[AC_TT][AC_TT / ab_word<T>::PK],
                                              int i, int j) {
  constexpr int PK = ab_word<T>::PK;
  return PK == 2 ? id[i][j / PK] >> 16 * (j % PK) & 0xffffu : id[i][j / PK];
}

/* The outputs that improved (id: agp_product_tracked's) listed for agp_search in this warp's
 * list, one 16-bit entry each: row, column and chunk (owner lanes in order, by ballots); returns
 * their number. */
template <class T>
__device__ __forceinline__ int agp_mark(const uint32_t (&id)[AC_TT][AC_TT / ab_word<T>::PK],
                                        uint16_t *list, int r0, int c0) {
  static_assert(AP_TILE <= 64 && AP_TILE / AGP_CHUNK <= 16, "an entry is 6 + 6 + 4 bits");
  const unsigned below = (1u << (threadIdx.x % 32)) - 1u;
  int total = 0;
#pragma unroll
  for (int i = 0; i < AC_TT; i++)
#pragma unroll
    for (int j = 0; j < AC_TT; j++) {
      const uint32_t c = agp_chunk<T>(id, i, j);
      const unsigned who = __ballot_sync(0xffffffffu, c != 0);
      if (c)
        list[total + __popc(who & below)] = (uint16_t)((r0 + i) | (c0 + j) << 6 | (c - 1) << 12);
      total += __popc(who);
    }
  return total;
}

/* The next hops of the listed outputs (agp_mark), into the tile's next hops at N (leading
 * dimension np): each is its winner's in the column history (Ns). Searched where each output
 * is, a warp would run a search whenever any of its lanes had improved there; so the warp's
 * lanes take the list's entries in turn, two at a time for two searches in flight. (Shared out
 * by prefix sums and shuffles, one at a time, single 2048 with chunks of 16 took 2.32 ms against
 * 2.21 for the lists, H200.) */
template <class T, class SR>
__device__ __forceinline__ void agp_search(int total, const typename ab_word<T>::A *As,
                                           const int *Ns, const T *Bs, int *N, size_t np,
                                           const uint16_t *list) {
  __syncwarp(); /* the list, to the lanes that search it */
  auto search = [&](int x) {
    const int r = x & 63, w = agp_winner<T, SR>(As, Bs, r, x >> 6 & 63, x >> 12);
    return Ns[w * AP_TILE + r];
  };
  for (int e = threadIdx.x % 32; e < total; e += 64) {
    /* a lane without a second entry searches its first again, keeping the lanes alike */
    const bool two = e + 32 < total;
    const int x1 = list[e], x2 = two ? list[e + 32] : x1, n1 = search(x1), n2 = search(x2);
    N[(size_t)(x1 & 63) * np + (x1 >> 6 & 63)] = n1;
    if (two) N[(size_t)(x2 & 63) * np + (x2 >> 6 & 63)] = n2;
  }
}

/* The next hops of this thread's outputs that a tracked product improved (id), into its own next
 * hops nx, each its winner's in the column history: the next pivot's, whose closure goes on from
 * them. Each thread searches its own (a warp runs a search where any of its lanes improved):
 * the next pivot is one task a round, on the chain, where the SM has nothing else to run.
 * Against the product with next hops at every step: D + P of int16 1024 0.68 -> 0.60 ms, 2048
 * 1.77 -> 1.61, single 1024 0.51 -> 0.50 (H100, doc/NOTES.md). */
template <class T, class SR>
__device__ __forceinline__ void
agp_resolve(int (&nx)[AC_TT][AC_TT], const uint32_t (&id)[AC_TT][AC_TT / ab_word<T>::PK],
            const typename ab_word<T>::A *As, const int *Ns, const T *Bs, int r0, int c0) {
#pragma unroll
  for (int i = 0; i < AC_TT; i++)
#pragma unroll
    for (int j = 0; j < AC_TT; j++) {
      const uint32_t c = agp_chunk<T>(id, i, j);
      if (c)
        nx[i][j] = Ns[agp_winner<T, SR>(As, Bs, r0 + i, c0 + j, (int)c - 1) * AP_TILE + r0 + i];
    }
}

#endif
