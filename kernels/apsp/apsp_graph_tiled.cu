/* One graph's distances alone in one launch: blocked Floyd-Warshall over 64-wide tiles
 * (AP_TILE), each tile's update a task that one thread block takes when the tiles it reads are
 * ready. The rounds (apsp_rounds.cu) close a 256-wide pivot block a round in a chain of launches
 * of about 120 us whatever n (doc/NOTES.md), which held n = 1024 at 12% of the product's rate;
 * here a round is 64 vertices and what waits on what is a tile, not a launch.
 *
 * Round t of nb = np / AP_TILE: close (t, t); the row strip (t, J) and the column strip (I, t)
 * from it; then every other tile (I, J) from (I, t) and (t, J). A tile is a piece a thread (4 x 4
 * values, 4 x 8 of 16 bits: ag_shape), the same closure and products as the tiled batched
 * kernel's (apsp_tile.cuh, apsp_batch_tiled.cu), so the distances are the rounds' up to rounding
 * where sums round.
 *
 * The board (ag_graph's ver and reads) says how far each tile is: ver, the rounds whose update
 * of it is stored; reads, how many tasks have read it as an operand (the column strip tile
 * (I, t) is read by the nb - 1 tasks of its row in round t, the row strip tile by those of its
 * column, D* by the 2 (nb - 1) strips; where the chain runs in parts, each part is a reader:
 * ag_wait_task), so that a tile is not rewritten while a task of an earlier round still reads
 * it. Blocks take tasks in one order (ag_task_of) from a counter, and
 * every task waits only on tasks before it in that order, so a block that waits always waits on
 * blocks that run: no deadlock, whatever number of blocks the GPU holds at once. The order
 * looks ahead: round t's update of (t + 1, t + 1) and its closure come as one task right after
 * round t's strips, so that the next round's chain starts while round t's other tiles are still
 * being updated. Where that chain bounds the launch, its products (the two strip tiles next to
 * the next pivot, and the next pivot's update) each run in parts on several blocks (ag_part).
 * Measured against the rounds, and the forms that were no faster: doc/NOTES.md. */
#include <limits.h>

#include "apsp_graph.cuh"
#include "apsp_words.cuh"

/* The piece a thread: wide (apsp_tile.cuh), which for 16-bit values is 4 x 8 on 128 threads;
 * against the square one (H100, two runs each) int16 2048 41.9-42.5% of gpu_minplus's rate
 * against 36.6, 2816 51.5 against 43.1-43.6, 1024 the same. Single takes the square one: 4 x 8
 * (102 registers, four blocks an SM) ran 1024 at 20.0% against 21.5-21.9, 2048 at 50.1-50.3
 * against 53.6-54.4 (doc/NOTES.md). */
template <class T> using ag_shape = ac_shape<T, true>;

/* Thread 0: wait until task k may run (the file's head; S: ag_task_of's parts). */
template <int S, class T> __device__ void ag_wait_task(const ag_graph<T> &g, const ag_task &k) {
  const int nb = g.nb, t = k.t;
  auto at = [&](int i, int j) { return i * nb + j; };
  /* the readers of (I, J) in the rounds before t: round J's as a column strip, round I's as a
   * row strip (as the pivot, each of its round's strips and parts) */
  auto read_before = [&](int i, int j) {
    int r = (nb - 1) * ((i < t) + (j < t));
    if (S > 1) { /* the parts: of the pivot's strips, and of the next pivot's update */
      r += i == j && i < t ? 2 * (S - 1) : 0;
      r += (j < t && i == j + 1 ? S - 1 : 0) + (i < t && j == i + 1 ? S - 1 : 0);
    }
    return r;
  };
  if (k.kind != AG_CLOSE) ag_wait(&g.ver[at(t, t)], t + 1);
  if (k.kind == AG_REST || k.kind == AG_NEXT || k.kind == AG_NEXT_PART) {
    ag_wait(&g.ver[at(k.I, t)], t + 1);
    ag_wait(&g.ver[at(t, k.J)], t + 1);
  }
  ag_wait(&g.ver[at(k.I, k.J)], t);
  ag_wait(&g.reads[at(k.I, k.J)], read_before(k.I, k.J));
}

/* Part k.part of S of a task on the chain (ag_task_of), with the operands that the whole task
 * takes: the block's threads are S groups, each on the part's outputs over AP_TILE / S of the
 * depth; the groups after the first hand their picks to it through As, which folds them in the
 * depth's order: the same bits as the whole tile's steps (a pick is a min or a max, so it does
 * not round). The last part of a strip tile stored raises its version; true for the last of the
 * next pivot's, whose block then closes it (last: the block's shared word). */
template <class T, class SR, int S>
__device__ bool ag_part(const ag_graph<T> &g, const ag_task &k, typename ab_word<T>::A *As, T *Bs,
                        unsigned &last) {
  typedef typename ab_word<T>::W W;
  typedef ap_words<T, SR> Ar;
  constexpr int TN = ag_shape<T>::TN, WN = ag_shape<T>::WN, GT = ag_shape<T>::THREADS / S,
                KD = AP_TILE / S;
  static_assert(GT % 32 == 0 && KD % AC_TT == 0, "a part's groups are whole warps");
  static_assert(S <= 4, "ag_part_place: a warp's rows of pieces fit a part's rows");
  static_assert((S - 1) * AC_TT * WN * GT * sizeof(W) <= AC_TILE_ELEMS * sizeof(*As),
                "the hand-over fits As");
  const int nb = g.nb, t = k.t, grp = threadIdx.x / GT, u = threadIdx.x % GT,
            which = k.kind - AG_ROW_PART; /* 0 the row strip, 1 the column strip, 2 next */
  int r0, c0;
  ag_part_place<TN, S>(which > 0, k.part, u, r0, c0);
  W acc[AC_TT][WN];
  {
    int ty, tx;
    ac_place<TN>(ty, tx);
    const int y0 = ty * AC_TT, x0 = tx * TN;
    W v[AC_TT][WN];
    /* (I, t) by columns and (t, J) by rows: a strip's part has the pivot for one of them */
    ag_load<T>(v, g, k.I, t, y0, x0);
    ac_put_cols<T>(v, As, y0, x0);
    ag_load<T>(v, g, t, k.J, y0, x0);
    ac_put_rows<T>(v, Bs, y0, x0);
  }
  if (grp == 0) ag_load<T>(acc, g, k.I, k.J, r0, c0);
  else
#pragma unroll
    for (int i = 0; i < AC_TT; i++)
#pragma unroll
      for (int j = 0; j < WN; j++) acc[i][j] = Ar::identity();
  __syncthreads();
  if (threadIdx.x == 0) { /* the operands are read */
    if (which == 2) {
      ag_read_done(&g.reads[k.I * nb + t]);
      ag_read_done(&g.reads[t * nb + k.J]);
    } else {
      ag_read_done(&g.reads[t * nb + t]);
    }
  }
  ac_product<T, SR, WN, KD>(acc, As + grp * KD * AP_TILE, Bs + grp * KD * AP_TILE, r0, c0);
  W *hand = (W *)As; /* the hand-over, through As */
  ag_hand_over<S, GT, WN>(
      grp, u, [&](int s, int i, int j) { hand[s] = acc[i][j]; },
      [&](int s, int i, int j) { acc[i][j] = Ar::pick(acc[i][j], hand[s]); });
  if (grp == 0) ag_store<T>(acc, g, k.I, k.J, r0, c0);
  __syncthreads(); /* every piece stored, and shared memory free for the next task */
  if (threadIdx.x == 0) {
    const bool done = ag_part_done<S>(g, t, which);
    if (done && which < 2) ag_publish(&g.ver[k.I * nb + k.J], t + 1);
    last = done && which == 2;
  }
  __syncthreads();
  return last;
}

template <class T, class SR, bool PAGES, int S>
__global__ void __launch_bounds__(ag_shape<T>::THREADS, 2) ag_close(const ag_graph<T> all) {
  typedef ab_word<T> Wd;
  constexpr int TN = ag_shape<T>::TN, WN = ag_shape<T>::WN;
  /* A by columns (A words) and B by rows of each product; the closure's row and column buffers
   * lie in Bs */
  __shared__ __align__(16) typename Wd::A As[AC_TILE_ELEMS];
  __shared__ __align__(16) T Bs[AC_TILE_ELEMS];
  __shared__ unsigned taken, last;
  int ty, tx;
  ac_place<TN>(ty, tx);
  const int r0 = ty * AC_TT, c0 = tx * TN, nb = all.nb;
  typename Wd::W v[AC_TT][WN];
  int nx[AC_TT][TN]; /* no next hops: ab_steps', unused */
  for (;;) {
    ag_task k;
    unsigned q;
    if (!ag_take<PAGES, S>(all, taken, q, k)) return;
    const ag_graph<T> g = PAGES ? ag_page(all, q) : all;
    const int t = k.t;
    if (threadIdx.x == 0) ag_wait_task<S>(g, k);
    __syncthreads();
    if (S > 1 && k.kind >= AG_ROW_PART) {
      if (!ag_part<T, SR, S>(g, k, As, Bs, last)) continue;
      k.kind = AG_NEXT; /* the last of the next pivot's parts: its closure, as AG_NEXT's */
      ag_load<T>(v, g, k.I, k.J, r0, c0);
    } else if (k.kind == AG_CLOSE) ag_load<T>(v, g, t, t, r0, c0);
    else {
      /* the operands into shared memory, then the tile itself into v */
      if (k.kind == AG_COL) {
        ag_load<T>(v, g, t, t, r0, c0);
        ac_put_rows<T>(v, Bs, r0, c0);
        ag_load<T>(v, g, k.I, t, r0, c0);
        ac_put_cols<T>(v, As, r0, c0);
      } else {
        ag_load<T>(v, g, k.kind == AG_ROW ? t : k.I, t, r0, c0);
        ac_put_cols<T>(v, As, r0, c0);
        ag_load<T>(v, g, t, k.J, r0, c0);
        ac_put_rows<T>(v, Bs, r0, c0);
        if (k.kind != AG_ROW) ag_load<T>(v, g, k.I, k.J, r0, c0);
      }
      __syncthreads();
      if (threadIdx.x == 0) { /* the operands are read: their next writers may go */
        if (k.kind == AG_REST || k.kind == AG_NEXT) {
          ag_read_done(&g.reads[k.I * nb + t]);
          ag_read_done(&g.reads[t * nb + k.J]);
        } else {
          ag_read_done(&g.reads[t * nb + t]);
        }
      }
      ac_product<T, SR>(v, As, Bs, r0, c0);
    }
    if (k.kind == AG_CLOSE || k.kind == AG_NEXT) {
      if (k.kind == AG_NEXT) __syncthreads(); /* the product done with Bs */
      ab_steps<T, SR, AC_TT, TN, false>(v, nx, Bs, Bs + 2 * AP_TILE, NULL, AP_TILE, AP_TILE, ty, tx,
                                        ag_shape<T>::THREADS, [](int, int) {});
      ac_check_diagonal<T, SR>(v, r0, c0,
                               ag_neg_base((PAGES ? (int)(q * g.np) : 0) + k.I * AP_TILE), g.neg);
    }
    ag_store<T>(v, g, k.I, k.J, r0, c0);
    __syncthreads(); /* every piece stored, and shared memory free for the next task */
    if (threadIdx.x == 0) ag_publish(&g.ver[k.I * nb + k.J], t + 1 + (k.kind == AG_NEXT));
  }
}

template <class T, class SR> bool ap_graph_tiles(const ap_matrix<T, SR> &m) {
  if constexpr (!ag_form<T>()) {
    return false;
  } else {
    /* the whole matrix, of at least three tile rows (ag_task_of); with P too, every work type
     * up to CK_APSP_GRAPH_TILES_MAX_N (plan_policy.h). With P, H100, D and P by tiles against
     * the rounds, medians of 5: int16 2112 2.19-2.25 ms against 4.03-4.05, 2816 3.77-3.79
     * against 5.40, 2 pages of 2816 7.54 against 10.77-10.79 (16-bit words stopped at 2048 while
     * every step chose a next hop: 2816 took 7.00 ms by tiles against 5.37, doc/NOTES.md) */
    return m.r0 == 0 && m.rows == m.np && m.np >= 3 * AP_TILE;
  }
}

template <class T, class SR>
ck_status ap_graph_tiled_pages(T *X, int *N, size_t np, unsigned pages, bool cycles, int &first,
                               const ap_gate *gate) {
  if (N) return ap_graph_paths_pages<T, SR>(X, N, np, pages, cycles, first, gate); /* with P */
  first = INT_MAX;
  if constexpr (!ag_form<T>()) {
    return ck_fail(CK_ERR_INVALID, "a graph by tiles takes values of up to 4 bytes");
  } else {
    static int known[3][CK_MAX_DEVICES]; /* blocks an SM holds, per instance and device */
    void (*const kernels[3])(const ag_graph<T>) = {
        ag_close<T, SR, false, 1>, ag_close<T, SR, true, 1>, ag_close<T, SR, false, ag_parts<T>()>};
    auto per_sm = [&](int form) {
      return ck_blocks_per_sm((const void *)kernels[form], ag_shape<T>::THREADS, 0, known[form]);
    };
    const int nb = (int)(np / AP_TILE);
    /* the chain's products in parts (ag_parts) where the chain bounds the launch (H100: single
     * 512 to 1024 9% faster, 1216 the same); in parts wherever a round held up to eight times
     * the blocks the GPU holds, single 2048 took 1.29 ms against 1.14 whole */
    const int form = pages > 1 ? 1 : ag_parts<T>() > 1 && ag_chain_bound(nb, 1, per_sm(0)) ? 2 : 0;
    const size_t cells = (size_t)nb * nb * pages, parts = form == 2 ? 3 * (size_t)nb : 0;
    /* the boards, the parts' counts, the task counter and the cycle's word */
    int *board = NULL;
    CK_TRY(ck_dev_alloc((void **)&board, (2 * cells + parts + 2) * sizeof(int)));
    ag_graph<T> g = {
        X, np, nb, board, board + cells, NULL, NULL, pages, parts ? board + 2 * cells : NULL};
    g.next = (unsigned *)(board + 2 * cells + parts), g.neg = board + 2 * cells + parts + 1;
    const bool looked = ap_graph_cycles<T, SR>() && cycles;
    cudaError_t e = ag_clear(board, 2 * cells + parts + 2);
    if (e == cudaSuccess) {
      const unsigned blocks = form == 2 ? ag_blocks<ag_parts<T>()>(nb, per_sm(form), 1)
                                        : ag_blocks(nb, per_sm(form), pages);
      kernels[form]<<<blocks, ag_shape<T>::THREADS>>>(g);
      e = cudaGetLastError();
    }
    const ck_status st = ag_after(e, gate, g.neg, looked, np, pages, first,
                                  "closing graphs by tiles");
    if (st != CK_OK) (void)cudaDeviceSynchronize();
    ck_dev_free(board);
    return st;
  }
}

template <class T, class SR>
ck_status ap_graph_tiled(const ap_matrix<T, SR> &m, bool cycles, bool &cycle, const ap_gate *gate) {
  int first = INT_MAX;
  const ck_status st = ap_graph_tiled_pages<T, SR>(m.X, m.N, m.np, 1, cycles, first, gate);
  cycle = st == CK_OK && first != INT_MAX;
  return st;
}

#define AP_GRAPH_TILED_INSTANCE(T, SR)                                                      \
  template bool ap_graph_tiles<T, SR>(const ap_matrix<T, SR> &);                            \
  template ck_status ap_graph_tiled<T, SR>(const ap_matrix<T, SR> &, bool, bool &,          \
                                           const ap_gate *);                                \
  template ck_status ap_graph_tiled_pages<T, SR>(T *, int *, size_t, unsigned, bool, int &, \
                                                 const ap_gate *);
AP_INSTANTIATE_SR(AP_GRAPH_TILED_INSTANCE)
