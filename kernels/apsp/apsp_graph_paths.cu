/* One graph's distances and next hops in one launch: the graph by tiles (apsp_graph_tiled.cu,
 * the same task order and board) in plain Floyd-Warshall's order, which the next hops need
 * (apsp.cuh says why), from histories as the rounds keep them (apsp_history.cu), a 64-wide tile
 * a round. Round t of nb = np / AP_TILE:
 *   (t, t)  closed step by step, its row k and column k (with their next hops) as they stood at
 *           step k recorded: the pivot's row and column histories;
 *   (t, J)  the row strip, step by step: step k takes column k of the pivot's history and the
 *           tile's own row k, which is recorded (the tile's row history);
 *   (I, t)  the column strip, step by step from the pivot's row history, its own column k (and
 *           next hops) recorded (the tile's column history);
 *   (I, J)  min ((I, J), column history of (I, t) (x) row history of (t, J)), strictly smaller
 *           only, the first k of the minimum winning: what the steps one by one would leave.
 * The products (the rest's and the next pivot's) and, for integer words, the row strips track
 * their winners by chunks of steps and search them only where an output improved
 * (agp_product_tracked; agp_search, agp_resolve): only those next hops are written.
 * Each tile is a row strip in one round and a column strip in another, so each keeps one row
 * history and one column history (hist: k-major, as the products read them), written once: no
 * task waits for another to finish reading. A task waits for the tiles its operands come from,
 * as the distances' kernel does, and the distances are plain Floyd-Warshall's, the next hops
 * those of the rounds and of the "cpu" kernel where the sums are exact. Where a round's chain
 * bounds the launch, the chain's two strip tiles and the next pivot's update run in parts on
 * several blocks, as the distances' do (agp_strip_part, agp_next_part). */
#include <limits.h>

#include "apsp_graph_track.cuh"

/* ---- tuning ----
 * Where a round has no more tasks than the GPU holds blocks at once (the launch has a block for
 * every two tasks, AG_TASKS_PER_BLOCK, and the chain holds the call), a round's strips step
 * through the pivot's histories as its closure writes them: they start once its first AGP_HALF
 * steps are out (agp_publish), and wait for the rest before their own step AGP_HALF
 * (agp_strip_mid), so that the strips' first half runs beside the closure's second.
 * H100, D + P, against the strips after the whole closure: single 1024 0.497-0.504 -> 0.446-0.447
 * ms, 512 0.261-0.269 -> 0.236, 300 0.266-0.278 -> 0.242, int16 1024 0.592-0.601 -> 0.532-0.533;
 * where a round's tasks fill the GPU, the strips' waits in mid-task cost more than the overlap
 * saves (single 2048 1.91-1.92 -> 1.97-1.98, pages 256 x 256 1.29-1.30 -> 1.33-1.34), so those
 * run as before (ag_chain_bound). */
#define AGP_HALF (AP_TILE / 2)
/* There too, the two strip tiles next to the next pivot and its update run in AG_PARTS parts
 * (4-byte words, ag_parts): a strip's part steps through a quarter of its columns (rows), the
 * update's a quarter of its rows, each over the whole depth in four groups of threads. H100, D +
 * P against the whole tasks (two rounds, medians of 9): single 1024 0.444-0.446 -> 0.414 ms, 512
 * 0.235-0.239 -> 0.211-0.212, 300 0.239-0.243 -> 0.218-0.219; the update in parts alone: 1024
 * 0.413-0.415, 512 0.218, 300 0.223-0.226 (doc/NOTES.md). */
static_assert(AGP_HALF % AC_TT == 0, "agp_steps calls mid () at the start of a pass of AC_TT");
/* The row strips track theirs for the integer words only (DPX: a step with next hops is one
 * instruction and a compare and selects beside). A row strip is on a round's chain, and with
 * single values its search cost more than its steps saved (H100, D and P of single 256 x 256
 * 1.51-1.56 ms against 1.47-1.49 step by step, one graph of 1024 0.58 against 0.54-0.57); int16
 * 256 x 256 1.31-1.34 against 1.37 with the products' tracking alone (H200). */
template <class T> __host__ __device__ static constexpr bool agp_track_rows() {
  return !std::is_floating_point<T>::value;
}

/* The launch's memory beyond the distances' (ag_graph): the next hops beside X, and each tile's
 * histories: rh its rows k, ch its columns k (values) and chn their next hops, AC_TILE_ELEMS
 * each a tile, row k of the history at k * AP_TILE; a page's after the page before. half: for
 * each pivot (nb a page), 1 once its closure's histories of steps 0 .. AGP_HALF - 1 are out;
 * NULL where the strips wait for the whole closure (ag_chain_bound). */
template <class T> struct agp_graph {
  ag_graph<T> g;
  int *N;
  T *rh, *ch;
  int *chn;
  int *half;
};

/* Page q's graph, next hops, board and histories, as one graph's launch holds them. */
template <int S, class T>
__device__ __forceinline__ agp_graph<T> agp_page(const agp_graph<T> &p, unsigned q) {
  const size_t hist = (size_t)p.g.nb * p.g.nb * AC_TILE_ELEMS;
  agp_graph<T> o = p;
  o.g = ag_page(p.g, q);
  o.N += q * p.g.np * p.g.np;
  o.rh += q * hist, o.ch += q * hist, o.chn += q * hist;
  if (o.half) o.half += q * p.g.nb;
  if (S > 1) o.g.parts += q * 3 * p.g.nb; /* set where the chain runs in S parts */
  return o;
}

/* Tile (I, J)'s history among nb x nb. */
__device__ __forceinline__ size_t agp_hist(int nb, int I, int J) {
  return ((size_t)I * nb + J) * AC_TILE_ELEMS;
}

/* Thread 0: wait until task k may run: its tile's update of the round before, and the tiles its
 * operands' histories come from (their histories are never written again); a strip, where
 * pipelined, for the first half of the pivot's histories only (agp_strip_mid waits for the
 * rest). */
template <bool PIPE, class T>
__device__ void agp_wait_task(const agp_graph<T> &p, const ag_task &k) {
  const ag_graph<T> &g = p.g;
  const int nb = g.nb, t = k.t;
  if (PIPE &&
      (k.kind == AG_ROW || k.kind == AG_COL || k.kind == AG_ROW_PART || k.kind == AG_COL_PART))
    ag_wait(&p.half[t], 1);
  else if (k.kind != AG_CLOSE) ag_wait(&g.ver[t * nb + t], t + 1);
  if (k.kind == AG_REST || k.kind == AG_NEXT || k.kind == AG_NEXT_PART) {
    ag_wait(&g.ver[k.I * nb + t], t + 1);
    ag_wait(&g.ver[t * nb + k.J], t + 1);
  }
  ag_wait(&g.ver[k.I * nb + k.J], t);
}

/* This thread's next hops of tile (I, J), past the L1, and back. */
template <int TN>
__device__ __forceinline__ void agp_load_n(int (&nx)[AC_TT][TN], const int *N, size_t np, int I,
                                           int J, int r0, int c0) {
#pragma unroll
  for (int i = 0; i < AC_TT; i++)
    ab_lds<int, TN, true>(nx[i], N + (I * AP_TILE + r0 + i) * np + J * AP_TILE + c0);
}
template <int TN>
__device__ __forceinline__ void agp_store_n(const int (&nx)[AC_TT][TN], int *N, size_t np, int I,
                                            int J, int r0, int c0) {
#pragma unroll
  for (int i = 0; i < AC_TT; i++)
    ab_sts<int, TN>(N + (I * AP_TILE + r0 + i) * np + J * AP_TILE + c0, nx[i]);
}

/* A history into shared memory, past the L1 (other blocks wrote it): a column history into A
 * words with its next hops, a row history as values. Each thread sends out all of its 16-byte
 * loads before its first store, since a task on a round's chain waits for the L2: against four
 * scalar loads at a time, D + P of single 1024 0.519 -> 0.501 ms, 2048 2.05 -> 1.92, 256 x 256
 * pages 1.44 -> 1.30 (H100, doc/NOTES.md). */
template <class T, int FROM = 0, int COUNT = (int)AC_TILE_ELEMS>
__device__ __forceinline__ void agp_stage_cols(typename ab_word<T>::A *As, int *Ns, const T *h,
                                               const int *n) {
  typedef typename ab_word<T>::A A;
  constexpr int PER = 16 / sizeof(T), PASSES = COUNT / (AC_THREADS * PER);
  static_assert(COUNT % (AC_THREADS * PER) == 0, "whole passes");
  As += FROM, Ns += FROM, h += FROM, n += FROM;
  T hv[PASSES][PER];
  int nv[PASSES][PER];
#pragma unroll
  for (int i = 0; i < PASSES; i++) {
    const int e = (i * AC_THREADS + threadIdx.x) * PER;
    ab_lds<T, PER, true>(hv[i], h + e);
    ab_lds<int, PER, true>(nv[i], n + e);
  }
#pragma unroll
  for (int i = 0; i < PASSES; i++) {
    const int e = (i * AC_THREADS + threadIdx.x) * PER;
    A a[PER];
#pragma unroll
    for (int j = 0; j < PER; j++) a[j] = ab_wide<T>(hv[i][j]);
    ab_sts<A, PER>(As + e, a);
    ab_sts<int, PER>(Ns + e, nv[i]);
  }
}
template <class T, int FROM = 0, int COUNT = (int)AC_TILE_ELEMS>
__device__ __forceinline__ void agp_stage_rows(T *Bs, const T *h) {
  typedef typename ab_piece<T, 16 / sizeof(T)>::V V; /* 16 bytes */
  constexpr int PER = 16 / sizeof(T), PASSES = COUNT / (AC_THREADS * PER);
  static_assert(COUNT % (AC_THREADS * PER) == 0, "whole passes");
  Bs += FROM, h += FROM;
  V r[PASSES];
#pragma unroll
  for (int i = 0; i < PASSES; i++)
    r[i] = __ldcg((const V *)(h + (i * AC_THREADS + threadIdx.x) * PER));
#pragma unroll
  for (int i = 0; i < PASSES; i++) *(V *)(Bs + (i * AC_THREADS + threadIdx.x) * PER) = r[i];
}

/* Steps k = 0 .. AP_TILE - 1 of plain Floyd-Warshall's order on the tile in v (next hops nx):
 * row k from the tile itself (ROW_OWN: its owners write it to rowk for the step) or from the
 * row history Bs, column k from the tile (COL_OWN: colk, nxk) or from the column history As, Ns
 * (A words). The tile's own rows k (into rh) and columns k (into ch, chn) as they stood at step k
 * are recorded: the histories that later tasks read. One barrier a step, as ab_steps.
 * TRACK (a row strip: ROW_OWN alone): no next hops; the winners tracked by chunks into id, as
 * the rest's products track them (agp_product_tracked), and the tile's rows k recorded into Bs
 * as well, for agp_search. A chunk's rows k change from step to step, but once recorded each
 * step's term is fixed, and an output's last improving step is the first whose term is the
 * chunk's least, as in a product. mid () runs before step AGP_HALF, after the barrier of the step
 * before: the closure's agp_publish, the strips' agp_strip_mid. A strip's part (agp_strip_part)
 * holds TN = 1 column a thread and records SPAN of the histories' entries from lo: its own. */
template <class T, class SR, bool ROW_OWN, bool COL_OWN, bool TRACK = false, int TN = AC_TT,
          int SPAN = AP_TILE, class F>
__device__ __forceinline__ void
agp_steps(typename ab_word<T>::W (&v)[AC_TT][TN / ab_word<T>::PK], int (&nx)[AC_TT][TN],
          const typename ab_word<T>::A *As, const int *Ns, T *Bs, T *rowk, T *colk, int *nxk, T *rh,
          T *ch, int *chn, int ty, int tx, const F &mid,
          uint32_t (*id)[AC_TT / ab_word<T>::PK] = nullptr, int lo = 0) {
  typedef typename ab_word<T>::W W;
  typedef typename ab_word<T>::A A;
  constexpr int WN = TN / ab_word<T>::PK;
  static_assert(!TRACK || (ROW_OWN && !COL_OWN && AGP_CHUNK % AC_TT == 0 && TN == AC_TT),
                "a row strip's steps, chunks of whole passes");
  const int r0 = ty * AC_TT, c0 = tx * TN;
  W was[AC_TT][WN]; /* TRACK: v where the chunk began */
  if (TRACK) {
#pragma unroll
    for (int i = 0; i < AC_TT; i++)
#pragma unroll
      for (int j = 0; j < WN; j++) id[i][j] = 0, was[i][j] = v[i][j];
  }
  if (ROW_OWN && ty == 0) ab_sts<W, WN>((W *)(rowk + c0), v[0]);
  if (COL_OWN && tx == 0) ab_put_column<T, AC_TT, TN, true>(colk + r0, nxk + r0, v, nx, 0);
  __syncthreads();
  for (int k0 = 0; k0 < AP_TILE; k0 += AC_TT) {
    if (k0 == AGP_HALF) mid(); /* after step AGP_HALF - 1's barrier */
#pragma unroll
    for (int kk = 0; kk < AC_TT; kk++) {
      const int k = k0 + kk, buf = k & 1, nb = buf ^ 1, e = threadIdx.x;
      W bw[WN];
      A a[AC_TT];
      int nk[AC_TT] = {};
      ab_lds<W, WN>(bw, (const W *)((ROW_OWN ? rowk + buf * AP_TILE : Bs + k * AP_TILE) + c0));
      if (COL_OWN) {
        T c[AC_TT];
        ab_lds<T, AC_TT>(c, colk + buf * AP_TILE + r0);
#pragma unroll
        for (int i = 0; i < AC_TT; i++) a[i] = ab_wide<T>(c[i]);
        ab_lds<int, AC_TT>(nk, nxk + buf * AP_TILE + r0);
      } else {
        ab_lds<A, AC_TT>(a, As + k * AP_TILE + r0);
        if (!TRACK) ab_lds<int, AC_TT>(nk, Ns + k * AP_TILE + r0);
      }
#pragma unroll
      for (int i = 0; i < AC_TT; i++)
        ab_step_row_w<T, SR, TN, !TRACK>(v[i], nx[i], a[i], bw, nk[i]);
      if (e < SPAN) { /* row and column k as they stood at step k, into the histories */
        const int x = lo + e;
        const T rv = rowk[buf * AP_TILE + x];
        if (ROW_OWN) rh[k * AP_TILE + x] = rv;
        if (TRACK) Bs[k * AP_TILE + x] = rv;
        if (COL_OWN) {
          ch[k * AP_TILE + x] = colk[buf * AP_TILE + x];
          chn[k * AP_TILE + x] = nxk[buf * AP_TILE + x];
        }
      }
      /* row and column k + 1 as they stand now, for the next step */
      const int k1 = k + 1;
      if (ROW_OWN && ty == k1 / AC_TT)
        ab_sts<W, WN>((W *)(rowk + nb * AP_TILE + c0), v[(kk + 1) % AC_TT]);
      if (COL_OWN && tx == k1 / TN)
        ab_put_column<T, AC_TT, TN, true>(colk + nb * AP_TILE + r0, nxk + nb * AP_TILE + r0, v, nx,
                                          (kk + 1) % TN);
      __syncthreads();
    }
    if constexpr (TRACK)
      if ((k0 + AC_TT) % AGP_CHUNK == 0)
        agp_keep<T, SR>(was, id, v, (uint32_t)((k0 + AC_TT) / AGP_CHUNK));
  }
}

/* The closure's mid (): its histories of steps 0 .. AGP_HALF - 1, stored before the barrier
 * that ended step AGP_HALF - 1, out to the strips that wait on half. */
__device__ __forceinline__ void agp_publish(int *half) {
  if (threadIdx.x == 0) ag_publish(half, 1);
}

/* A strip's mid (): the pivot's closure done (ver), then the second half of its history (hc, hn:
 * a column history and its next hops for a row strip; hr: a row history for a column strip)
 * into shared memory beside the first. */
template <class T, bool ROW>
__device__ __forceinline__ void agp_strip_mid(const int *ver, int need, typename ab_word<T>::A *As,
                                              int *Ns, T *Bs, const T *hc, const int *hn,
                                              const T *hr) {
  if (threadIdx.x == 0) ag_wait(ver, need);
  __syncthreads();
  constexpr int FROM = AGP_HALF * AP_TILE, REST = (int)AC_TILE_ELEMS - FROM;
  if constexpr (ROW) agp_stage_cols<T, FROM, REST>(As, Ns, hc, hn);
  else agp_stage_rows<T, FROM, REST>(Bs, hr);
  __syncthreads();
}

/* Shared memory a block, dynamic: a column history (A words) and its next hops, a row history,
 * and the steps' buffers for row k, column k and its next hops (two steps each); beside it,
 * static, the warps' lists of improved outputs (AGP_LIST entries each, 8 KB a block). */
template <class T> static constexpr size_t agp_smem() {
  return AC_TILE_ELEMS * (sizeof(typename ab_word<T>::A) + sizeof(int) + sizeof(T)) +
         2 * AP_TILE * (2 * sizeof(T) + sizeof(int));
}
static_assert(agp_smem<float>() + AC_THREADS / 32 * AGP_LIST * sizeof(uint16_t) <= 64 * 1024,
              "a block's shared memory on every GPU the package builds for (sm_75: 64 KB)");

/* A strip tile of round t (its histories at here) stepped through the pivot's histories
 * (agp_steps): a row strip (ROW) takes column k from the pivot's column history, a column strip
 * row k from its row history, staged into shared memory (where PIPE the first half,
 * agp_strip_mid the rest); the tile's own histories recorded (SPAN from lo: a part's,
 * agp_strip_part). */
template <class T, class SR, bool PIPE, bool ROW, bool TRACK = false, int TN = AC_TT,
          int SPAN = AP_TILE>
__device__ __forceinline__ void
agp_strip(const agp_graph<T> &p, int t, size_t here,
          typename ab_word<T>::W (&v)[AC_TT][TN / ab_word<T>::PK], int (&nx)[AC_TT][TN],
          typename ab_word<T>::A *As, int *Ns, T *Bs, T *rowk, T *colk, int *nxk, int ty, int tx,
          uint32_t (*id)[AC_TT / ab_word<T>::PK] = nullptr, int lo = 0) {
  const int nb = p.g.nb, *pivot = &p.g.ver[t * nb + t];
  const size_t ph = agp_hist(nb, t, t);
  if constexpr (ROW) {
    if constexpr (PIPE) agp_stage_cols<T, 0, AGP_HALF * AP_TILE>(As, Ns, p.ch + ph, p.chn + ph);
    else agp_stage_cols<T>(As, Ns, p.ch + ph, p.chn + ph);
    auto mid = [&] {
      if constexpr (PIPE)
        agp_strip_mid<T, true>(pivot, t + 1, As, Ns, Bs, p.ch + ph, p.chn + ph, NULL);
    };
    agp_steps<T, SR, true, false, TRACK, TN, SPAN>(v, nx, As, Ns, Bs, rowk, colk, nxk, p.rh + here,
                                                   NULL, NULL, ty, tx, mid, id, lo);
  } else {
    if constexpr (PIPE) agp_stage_rows<T, 0, AGP_HALF * AP_TILE>(Bs, p.rh + ph);
    else agp_stage_rows<T>(Bs, p.rh + ph);
    auto mid = [&] {
      if constexpr (PIPE) agp_strip_mid<T, false>(pivot, t + 1, As, Ns, Bs, NULL, NULL, p.rh + ph);
    };
    agp_steps<T, SR, false, true, false, TN, SPAN>(v, nx, As, Ns, Bs, rowk, colk, nxk, NULL,
                                                   p.ch + here, p.chn + here, ty, tx, mid, id, lo);
  }
}

/* Part k.part of S of a strip tile next to the next pivot (AG_ROW_PART by columns, AG_COL_PART
 * by rows, where ag_chain_bound): the whole strip's steps on a quarter of its outputs, a column
 * of four a thread (each output reads only its own column of the row strip, row of the column
 * strip), so that each step's barrier is the block's while its updates are a quarter; the part
 * records its columns (rows) of the histories; the last part stored raises the tile's version. */
template <class T, class SR, bool PIPE, int S>
__device__ void agp_strip_part(const agp_graph<T> &p, const ag_task &k, typename ab_word<T>::A *As,
                               int *Ns, T *Bs, T *rowk, T *colk, int *nxk) {
  constexpr int SPAN = AP_TILE / S;
  static_assert(ab_word<T>::PK == 1 && SPAN * AP_TILE == AC_TT * AC_THREADS,
                "whole words, a column of four a thread");
  const ag_graph<T> &g = p.g;
  const int nb = g.nb, t = k.t, lo = k.part * SPAN, u = threadIdx.x;
  const bool row = k.kind == AG_ROW_PART;
  const int ty = row ? u / SPAN : lo / AC_TT + u / AP_TILE, tx = row ? lo + u % SPAN : u % AP_TILE;
  const int r0 = ty * AC_TT, c0 = tx;
  typename ab_word<T>::W v[AC_TT][1];
  int nx[AC_TT][1];
  ag_load<T>(v, g, k.I, k.J, r0, c0);
  agp_load_n(nx, p.N, g.np, k.I, k.J, r0, c0);
  if (row)
    agp_strip<T, SR, PIPE, true, false, 1, SPAN>(p, t, agp_hist(g.nb, k.I, k.J), v, nx, As, Ns, Bs,
                                                 rowk, colk, nxk, ty, tx, nullptr, lo);
  else
    agp_strip<T, SR, PIPE, false, false, 1, SPAN>(p, t, agp_hist(g.nb, k.I, k.J), v, nx, As, Ns, Bs,
                                                  rowk, colk, nxk, ty, tx, nullptr, lo);
  ag_store<T>(v, g, k.I, k.J, r0, c0);
  agp_store_n(nx, p.N, g.np, k.I, k.J, r0, c0);
  __syncthreads(); /* every piece and history stored, and shared memory free for the next task */
  if (threadIdx.x == 0 && ag_part_done<S>(g, t, row ? 0 : 1))
    ag_publish(&g.ver[k.I * nb + k.J], t + 1);
}

/* Part k.part of S of the next pivot's update (AG_NEXT_PART, where ag_chain_bound): a quarter of
 * its rows (ag_part_place) on the block's threads in S groups, each over AP_TILE / S of the
 * depth, tracked and resolved on its own (agp_product_tracked, agp_resolve); the groups after
 * the first hand their values and next hops to it through As and Ns, and it takes each where it
 * is strictly better, in the depth's order: the first k of the minimum wins, as in the whole
 * product, so the bits are the whole task's (groups 1 .. S - 1 start from the identity, which
 * beats nothing, so a next hop handed over is always one they resolved). true for the last part
 * stored, whose block then loads the tile and closes it (last: the block's shared word). */
template <class T, class SR, int S>
__device__ bool agp_next_part(const agp_graph<T> &p, const ag_task &k, typename ab_word<T>::A *As,
                              int *Ns, T *Bs, unsigned &last) {
  typedef typename ab_word<T>::W W;
  constexpr int GT = AC_THREADS / S, KD = AP_TILE / S;
  static_assert(ab_word<T>::PK == 1 && GT % 32 == 0 && KD % AGP_CHUNK == 0,
                "whole words, whole warps a group, whole chunks a group");
  static_assert((S - 1) * AC_TT * AC_TT * GT <= (int)AC_TILE_ELEMS, "the hand-over fits As, Ns");
  const ag_graph<T> &g = p.g;
  const int nb = g.nb, t = k.t, grp = threadIdx.x / GT, u = threadIdx.x % GT;
  int r0, c0;
  ag_part_place<AC_TT, S>(true, k.part, u, r0, c0);
  agp_stage_cols<T>(As, Ns, p.ch + agp_hist(nb, k.I, t), p.chn + agp_hist(nb, k.I, t));
  agp_stage_rows<T>(Bs, p.rh + agp_hist(nb, t, k.J));
  W v[AC_TT][AC_TT];
  int nx[AC_TT][AC_TT];
  if (grp == 0) {
    ag_load<T>(v, g, k.I, k.J, r0, c0);
    agp_load_n(nx, p.N, g.np, k.I, k.J, r0, c0);
  } else {
#pragma unroll
    for (int i = 0; i < AC_TT; i++)
#pragma unroll
      for (int j = 0; j < AC_TT; j++) v[i][j] = ap_words<T, SR>::identity(), nx[i][j] = 0;
  }
  __syncthreads();
  {
    const size_t d = (size_t)grp * KD * AP_TILE;
    uint32_t id[AC_TT][AC_TT];
    agp_product_tracked<T, SR, KD>(v, id, As + d, Bs + d, r0, c0);
    agp_resolve<T, SR>(nx, id, As + d, Ns + d, Bs + d, r0, c0);
  }
  W *hv = (W *)As; /* the hand-over, values through As and next hops through Ns */
  ag_hand_over<S, GT, AC_TT>(
      grp, u, [&](int s, int i, int j) { hv[s] = v[i][j], Ns[s] = nx[i][j]; },
      [&](int s, int i, int j) {
        const W w = hv[s];
        if (SR::add::beats(w, v[i][j])) v[i][j] = w, nx[i][j] = Ns[s];
      });
  if (grp == 0) {
    ag_store<T>(v, g, k.I, k.J, r0, c0);
    agp_store_n(nx, p.N, g.np, k.I, k.J, r0, c0);
  }
  __syncthreads(); /* every piece stored, and shared memory free for the next task */
  if (threadIdx.x == 0) last = ag_part_done<S>(g, t, 2);
  __syncthreads();
  return last;
}

/* Two blocks an SM: 128 registers, which the tracked products fill (single 128, 16-bit words
 * 96); none spills in the package's build (sm_100 and sm_120 from compute_90's PTX). The parts'
 * functions out of line spilled 16-240 bytes on sm_90.
 * PIPE (ag_chain_bound; all.half set): the strips start on the pivot's first half. An instance
 * of its own: its tests in every task, taken where they were not needed, cost single 2048 and
 * the pages 2-4% (H100, D + P, doc/NOTES.md). */
template <class T, class SR, bool PIPE>
__global__ void __launch_bounds__(AC_THREADS, 2) agp_close(const agp_graph<T> all) {
  typedef ab_word<T> Wd;
  typedef typename Wd::A A;
  constexpr int WN = AC_TT / Wd::PK, S = PIPE ? ag_parts<T>() : 1, SS = S;
  extern __shared__ __align__(16) unsigned char agp_shared[];
  A *As = (A *)agp_shared;
  int *Ns = (int *)(As + AC_TILE_ELEMS);
  T *Bs = (T *)(Ns + AC_TILE_ELEMS);
  int *nxk = (int *)(Bs + AC_TILE_ELEMS);
  T *rowk = (T *)(nxk + 2 * AP_TILE), *colk = rowk + 2 * AP_TILE;
  __shared__ unsigned taken, last;
  __shared__ uint16_t lists[AC_THREADS / 32][AGP_LIST]; /* agp_search's */
  int ty, tx;
  ac_place<AC_TT>(ty, tx);
  const int r0 = ty * AC_TT, c0 = tx * AC_TT, nb = all.g.nb;
  typename Wd::W v[AC_TT][WN];
  int nx[AC_TT][AC_TT];
  for (;;) {
    ag_task k;
    unsigned q;
    if (!ag_take<true, S, SS>(all.g, taken, q, k)) return;
    const agp_graph<T> p = agp_page<S>(all, q);
    const ag_graph<T> &g = p.g;
    const int t = k.t, I = k.I, J = k.J;
    if (threadIdx.x == 0) agp_wait_task<PIPE>(p, k);
    __syncthreads();
    bool parted = false; /* the last of the next pivot's parts: its closure, as AG_NEXT's */
    if constexpr (S > 1) {
      if (k.kind == AG_ROW_PART || k.kind == AG_COL_PART) {
        agp_strip_part<T, SR, PIPE, S>(p, k, As, Ns, Bs, rowk, colk, nxk);
        continue;
      }
      if (k.kind == AG_NEXT_PART) {
        if (!agp_next_part<T, SR, S>(p, k, As, Ns, Bs, last)) continue;
        k.kind = AG_NEXT, parted = true;
      }
    }
    /* the rest's products (and the integer words' row strips) write only the next hops that
     * change (agp_search) */
    const bool rest = k.kind == AG_REST,
               tracked = rest || (k.kind == AG_ROW && agp_track_rows<T>());
    int marked = 0;
    ag_load<T>(v, g, I, J, r0, c0);
    if (!tracked) agp_load_n(nx, p.N, g.np, I, J, r0, c0);
    const size_t here = agp_hist(nb, I, J);
    if (k.kind == AG_ROW) { /* column k from the pivot's column history */
      uint32_t id[AC_TT][WN];
      agp_strip<T, SR, PIPE, true, agp_track_rows<T>()>(p, t, here, v, nx, As, Ns, Bs, rowk, colk,
                                                        nxk, ty, tx, id);
      if constexpr (agp_track_rows<T>()) marked = agp_mark<T>(id, lists[threadIdx.x / 32], r0, c0);
    } else if (k.kind == AG_COL) { /* row k from the pivot's row history */
      agp_strip<T, SR, PIPE, false>(p, t, here, v, nx, As, Ns, Bs, rowk, colk, nxk, ty, tx);
    } else if (k.kind != AG_CLOSE && !parted) { /* (I, t)'s column history (x) (t, J)'s rows */
      agp_stage_cols<T>(As, Ns, p.ch + agp_hist(nb, I, t), p.chn + agp_hist(nb, I, t));
      agp_stage_rows<T>(Bs, p.rh + agp_hist(nb, t, J));
      __syncthreads();
      if (rest) {
        uint32_t id[AC_TT][WN];
        agp_product_tracked<T, SR>(v, id, As, Bs, r0, c0);
        marked = agp_mark<T>(id, lists[threadIdx.x / 32], r0, c0);
      } else { /* the next pivot */
        uint32_t id[AC_TT][WN];
        agp_product_tracked<T, SR>(v, id, As, Bs, r0, c0);
        agp_resolve<T, SR>(nx, id, As, Ns, Bs, r0, c0);
      }
    }
    if (k.kind == AG_CLOSE || k.kind == AG_NEXT) { /* the pivot of round I, its histories kept */
      auto mid = [&] {
        if constexpr (PIPE) agp_publish(&p.half[I]);
      };
      agp_steps<T, SR, true, true>(v, nx, As, Ns, Bs, rowk, colk, nxk, p.rh + here, p.ch + here,
                                   p.chn + here, ty, tx, mid);
      ac_check_diagonal<T, SR>(v, r0, c0, ag_neg_base((int)(q * g.np) + I * AP_TILE), g.neg);
    }
    ag_store<T>(v, g, I, J, r0, c0);
    if (tracked)
      agp_search<T, SR>(marked, As, Ns, Bs, p.N + (size_t)I * AP_TILE * g.np + J * AP_TILE, g.np,
                        lists[threadIdx.x / 32]);
    else agp_store_n(nx, p.N, g.np, I, J, r0, c0);
    __syncthreads(); /* every piece and history stored, and shared memory free for the next task */
    if (threadIdx.x == 0) ag_publish(&g.ver[I * nb + J], t + 1 + (k.kind == AG_NEXT));
  }
}

template <class T, class SR>
ck_status ap_graph_paths_pages(T *X, int *N, size_t np, unsigned pages, bool cycles, int &first,
                               const ap_gate *gate) {
  first = INT_MAX;
  if constexpr (!ag_form<T>()) {
    return ck_fail(CK_ERR_INVALID, "a graph by tiles takes values of up to 4 bytes");
  } else {
    static int known[2][CK_MAX_DEVICES]; /* blocks an SM holds, per instance and device */
    const int nb = (int)(np / AP_TILE);
    const size_t cells = (size_t)nb * nb * pages, smem = agp_smem<T>(),
                 hist = cells * AC_TILE_ELEMS;
    void (*const kernels[2])(const agp_graph<T>) = {agp_close<T, SR, false>,
                                                    agp_close<T, SR, true>};
    int per_sm[2] = {};
    for (int i = 0; i < 2; i++) {
      const cudaError_t set =
          cudaFuncSetAttribute(kernels[i], cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
      if (set != cudaSuccess) return ck_cuda_check(set, "closing graphs by tiles with paths");
      per_sm[i] = ck_blocks_per_sm((const void *)kernels[i], AC_THREADS, smem, known[i]);
    }
    /* the strips start on the first half of the pivot's closure (AGP_HALF) where the chain
     * bounds the launch (tuned on the blocks the GPU holds, not on the launch's, about half as
     * many: AGP_HALF's measurements) */
    const int pipe = ag_chain_bound(nb, pages, per_sm[0]);
    /* the boards (versions; the pivots' half words, nb a page; where pipelined the next pivots'
     * parts (agp_next_part), 3 nb a page as the distances' board has them; the task counter, the
     * cycle's word), then the histories */
    const size_t halves = (size_t)nb * pages,
                 parts = pipe && ag_parts<T>() > 1 ? 3 * (size_t)nb * pages : 0,
                 words = cells + halves + parts;
    int *board = NULL;
    CK_TRY(ck_dev_alloc((void **)&board, (words + 2) * sizeof(int)));
    void *h = NULL;
    const ck_status got = ck_dev_alloc(&h, hist * (2 * sizeof(T) + sizeof(int)));
    if (got != CK_OK) {
      ck_dev_free(board);
      return got;
    }
    int *after = board + words;
    agp_graph<T> p = {{X, np, nb, board, NULL, (unsigned *)after, after + 1, pages,
                       parts ? board + cells + halves : NULL},
                      N,
                      (T *)h,
                      (T *)h + hist,
                      (int *)((T *)h + 2 * hist),
                      pipe ? board + cells : NULL};
    const bool looked = ap_graph_cycles<T, SR>() && cycles;
    cudaError_t e = ag_clear(board, words + 2);
    if (e == cudaSuccess) {
      const unsigned blocks = pipe ? ag_blocks<ag_parts<T>()>(nb, per_sm[1], pages)
                                   : ag_blocks(nb, per_sm[0], pages);
      kernels[pipe]<<<blocks, AC_THREADS, smem>>>(p);
      e = cudaGetLastError();
    }
    const ck_status st = ag_after(e, gate, p.g.neg, looked, np, pages, first,
                                  "closing graphs by tiles with paths");
    if (st != CK_OK) (void)cudaDeviceSynchronize();
    ck_dev_free(h);
    ck_dev_free(board);
    return st;
  }
}

#define AP_GRAPH_PATHS_INSTANCE(T, SR)                                                      \
  template ck_status ap_graph_paths_pages<T, SR>(T *, int *, size_t, unsigned, bool, int &, \
                                                 const ap_gate *);
AP_INSTANTIATE_SR(AP_GRAPH_PATHS_INSTANCE)
