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
 * column, D* by the 2 (nb - 1) strips), so that a tile is not rewritten while a task of an
 * earlier round still reads it. Blocks take tasks in one order (ag_task_of) from a counter, and
 * every task waits only on tasks before it in that order, so a block that waits always waits on
 * blocks that run: no deadlock, whatever number of blocks the GPU holds at once. The order
 * looks ahead: round t's update of (t + 1, t + 1) and its closure come as one task right after
 * round t's strips, so that the next round's chain starts while round t's other tiles are still
 * being updated. Measured against the rounds, and the forms that were no faster: doc/NOTES.md. */
#include <limits.h>

#include "apsp_tile.cuh"

/* ---- tuning ----
 * Blocks of the launch: one for every AG_TASKS_PER_BLOCK tasks of a round, at least one an SM,
 * at most as many as the GPU holds at once. Where a round has fewer tasks than the GPU holds
 * blocks, blocks on the rest of a round took issue slots on their SMs from the round's chain
 * (its two strip tiles, the next pivot's update and closure) beside them. H100, square pieces,
 * shares of gpu_minplus's rate against as many blocks as the GPU holds (two runs each): single
 * 1024 20.8-21.6% against 17.9-19.1, 1536 39.5-41.2 against 35.8-37.3; int16 1024 12.3-12.5
 * against 10.5-10.7, 1536 24.5-24.8 against 21.3-22.0, 2048 36.7-37.1 against 33.2-33.8;
 * single 2048 and 2816 and int16 2816, where a round fills the GPU, the same. A block for every
 * three or four tasks, or one block an SM, were slower from 1536 on (doc/NOTES.md). */
#define AG_TASKS_PER_BLOCK 2

/* The piece a thread: wide (apsp_tile.cuh), which for 16-bit values is 4 x 8 on 128 threads;
 * against the square one (H100, two runs each) int16 2048 41.9-42.5% of gpu_minplus's rate
 * against 36.6, 2816 51.5 against 43.1-43.6, 1024 the same. Single takes the square one: 4 x 8
 * (102 registers, four blocks an SM) ran 1024 at 20.0% against 21.5-21.9, 2048 at 50.1-50.3
 * against 53.6-54.4 (doc/NOTES.md). */
template <class T> using ag_shape = ac_shape<T, true>;

/* AG_NEXT: round t's update of (t + 1, t + 1), then its closure (round t + 1's first step) */
enum { AG_CLOSE, AG_ROW, AG_COL, AG_REST, AG_NEXT };
struct ag_task {
  int kind, t, I, J;
};

/* Task id of the order (the file's head): C(0); then for each round t its strips, alternating
 * (t, o(x)) and (o(x), t), where o(x) = (t + 1 + x) % nb starts at the next pivot; (t + 1, t + 1)
 * updated and closed; the rest of row and column t + 1; the others by rows. */
__device__ __forceinline__ ag_task ag_task_of(unsigned id, int nb) {
  if (id == 0) return {AG_CLOSE, 0, 0, 0};
  id -= 1;
  const unsigned per = (unsigned)nb * nb - 1;
  const int t = (int)(id / per), e = (int)(id % per), strips = 2 * (nb - 1), m = nb - 2;
  auto o = [&](int x) { return (t + 1 + x) % nb; };
  if (e < strips) return e % 2 ? ag_task{AG_COL, t, o(e / 2), t} : ag_task{AG_ROW, t, t, o(e / 2)};
  int u = e - strips;
  if (t == nb - 1) return {AG_REST, t, o(u / (nb - 1)), o(u % (nb - 1))};
  if (u == 0) return {AG_NEXT, t, t + 1, t + 1};
  u -= 1;
  if (u < 2 * m)
    return u % 2 ? ag_task{AG_REST, t, o(1 + u / 2), o(0)}
                 : ag_task{AG_REST, t, o(0), o(1 + u / 2)};
  u -= 2 * m;
  return {AG_REST, t, o(1 + u / m), o(1 + u % m)};
}
/* ... and their number: nb^3 - nb + 1 */
__host__ __device__ __forceinline__ unsigned ag_tasks(int nb) {
  return (unsigned)nb * ((unsigned)nb * nb - 1) + 1;
}

/* The launch's memory: X the graph (np x np, padded with isolated vertices), the board (nb x nb
 * each), the task counter and the smallest vertex whose diagonal came out unbounded at its
 * closure (none: above every vertex; the caller then runs the rounds, which name it). */
template <class T> struct ag_graph {
  T *X;
  size_t np;
  int nb;
  int *ver, *reads;
  unsigned *next;
  int *neg;
};

__device__ __forceinline__ int ag_acquire(const int *p) {
  int v;
  asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
/* Thread 0 polls without a pause: each wake-up is on a round's chain. With __nanosleep (32)
 * between polls single 2048 ran at 54.5-55.3% of gpu_minplus's rate against 56.2-57.5, the
 * other sizes and int16 the same (H100, three rounds alternating). */
__device__ __forceinline__ void ag_wait(const int *p, int need) {
  while (ag_acquire(p) < need) {
  }
}

/* Thread 0, after the block's barrier: the block has read the tile behind p (a release, so that
 * its loads come before the next writer's stores). */
__device__ __forceinline__ void ag_read_done(int *p) {
  asm volatile("red.release.gpu.global.add.s32 [%0], 1;" ::"l"(p) : "memory");
}

/* Thread 0: wait until task k may run (the file's head). */
template <class T> __device__ void ag_wait_task(const ag_graph<T> &g, const ag_task &k) {
  const int nb = g.nb, t = k.t;
  auto at = [&](int i, int j) { return i * nb + j; };
  /* the readers of (I, J) in the rounds before t: round J's as a column strip, round I's as a
   * row strip */
  auto read_before = [&](int i, int j) { return (nb - 1) * ((i < t) + (j < t)); };
  if (k.kind != AG_CLOSE) ag_wait(&g.ver[at(t, t)], t + 1);
  if (k.kind == AG_REST || k.kind == AG_NEXT) {
    ag_wait(&g.ver[at(k.I, t)], t + 1);
    ag_wait(&g.ver[at(t, k.J)], t + 1);
  }
  ag_wait(&g.ver[at(k.I, k.J)], t);
  ag_wait(&g.reads[at(k.I, k.J)], read_before(k.I, k.J));
  __threadfence();
}

/* This thread's piece of tile (I, J) of g, past the L1 (other blocks wrote it), and back. */
template <class T, int WN>
__device__ __forceinline__ void ag_load(typename ab_word<T>::W (&v)[AC_TT][WN],
                                        const ag_graph<T> &g, int I, int J, int r0, int c0) {
  ac_load<T, true>(v, g.X, g.np, I * AP_TILE + r0, J * AP_TILE + c0);
}
template <class T, int WN>
__device__ __forceinline__ void ag_store(const typename ab_word<T>::W (&v)[AC_TT][WN],
                                         const ag_graph<T> &g, int I, int J, int r0, int c0) {
  ac_store<T>(v, g.X + (size_t)I * AP_TILE * g.np + J * AP_TILE, g.np, r0, c0);
}

template <class T, class SR>
__global__ void __launch_bounds__(ag_shape<T>::THREADS, 2) ag_close(const ag_graph<T> g) {
  typedef ab_word<T> Wd;
  constexpr int TN = ag_shape<T>::TN, WN = ag_shape<T>::WN;
  /* A by columns (A words) and B by rows of each product; the closure's row and column buffers
   * lie in Bs */
  __shared__ __align__(16) typename Wd::A As[AC_TILE_ELEMS];
  __shared__ __align__(16) T Bs[AC_TILE_ELEMS];
  __shared__ unsigned taken;
  int ty, tx;
  ac_place<TN>(ty, tx);
  const int r0 = ty * AC_TT, c0 = tx * TN, nb = g.nb;
  const unsigned tasks = ag_tasks(nb);
  typename Wd::W v[AC_TT][WN];
  int nx[AC_TT][TN]; /* no next hops: ab_steps', unused */
  for (;;) {
    if (threadIdx.x == 0) taken = atomicAdd(g.next, 1u);
    __syncthreads();
    const unsigned id = taken;
    if (id >= tasks) return;
    const ag_task k = ag_task_of(id, nb);
    const int t = k.t;
    if (threadIdx.x == 0) ag_wait_task(g, k);
    __syncthreads();
    if (k.kind == AG_CLOSE) ag_load<T>(v, g, t, t, r0, c0);
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
      ac_check_diagonal<T, SR>(v, r0, c0, k.I * AP_TILE, g.neg);
    }
    ag_store<T>(v, g, k.I, k.J, r0, c0);
    __syncthreads(); /* every piece stored, and shared memory free for the next task */
    if (threadIdx.x == 0) {
      __threadfence();
      atomicExch(&g.ver[k.I * nb + k.J], t + 1 + (k.kind == AG_NEXT));
    }
  }
}

/* 8-byte values would take 64 KB of shared memory a block: the rounds keep them. */
template <class T> static constexpr bool ag_form() { return sizeof(T) <= 4; }

template <class T, class SR> bool ap_graph_tiles(const ap_matrix<T, SR> &m) {
  if constexpr (!ag_form<T>()) {
    return false;
  } else {
    /* the whole matrix, of at least three tile rows (ag_task_of) */
    return m.r0 == 0 && m.rows == m.np && m.np >= 3 * AP_TILE;
  }
}

/* The launch's blocks (AG_TASKS_PER_BLOCK), of which an SM holds per_sm. */
static unsigned ag_blocks(int nb, int per_sm) {
  const size_t sms = (size_t)ck_device_sms(), most = (size_t)per_sm * sms, tasks = ag_tasks(nb);
  size_t want = ((size_t)nb * nb - 1) / AG_TASKS_PER_BLOCK;
  want = want < sms ? sms : want > most ? most : want;
  return (unsigned)(want < tasks ? want : tasks);
}

template <class T, class SR> ck_status ap_graph_tiled(const ap_matrix<T, SR> &m, bool &cycle) {
  cycle = false;
  if constexpr (!ag_form<T>()) {
    return ck_fail(CK_ERR_INVALID, "a graph by tiles takes values of up to 4 bytes");
  } else {
    static int known[CK_MAX_DEVICES]; /* blocks an SM holds, per device */
    const int nb = (int)(m.np / AP_TILE), cells = nb * nb,
              per_sm = ck_blocks_per_sm((const void *)ag_close<T, SR>, ag_shape<T>::THREADS, 0,
                                        known);
    /* the board, the task counter and the cycle's vertex */
    int *board = NULL;
    CK_TRY(ck_dev_alloc((void **)&board, (2 * (size_t)cells + 2) * sizeof(int)));
    ag_graph<T> g = {m.X,
                     m.np,
                     nb,
                     board,
                     board + cells,
                     (unsigned *)(board + 2 * cells),
                     board + 2 * cells + 1};
    /* the cycle's vertex only where the work type can have one: no wait for it otherwise */
    constexpr bool cycles = ap_graph_cycles<T, SR>();
    cudaError_t e = cudaMemsetAsync(board, 0, (2 * (size_t)cells + 1) * sizeof(int), 0);
    if (cycles && e == cudaSuccess) e = cudaMemsetAsync(g.neg, 0x7f, sizeof(int), 0); /* none */
    if (e == cudaSuccess) {
      ag_close<T, SR><<<ag_blocks(nb, per_sm), ag_shape<T>::THREADS>>>(g);
      e = cudaGetLastError();
    }
    /* the cycle's vertex where the work type can have one; else, as a product does, the call
     * leaves the launch queued (a wait for it took about 12 us a call, int16, H100) */
    int neg = INT_MAX;
    if (cycles && e == cudaSuccess) e = cudaMemcpy(&neg, g.neg, sizeof neg, cudaMemcpyDeviceToHost);
    const ck_status st = ck_cuda_check(e, "closing a graph by tiles");
    if (st != CK_OK) (void)cudaDeviceSynchronize();
    ck_dev_free(board);
    cycle = st == CK_OK && neg < (int)m.np;
    return st;
  }
}

#define AP_GRAPH_TILED_INSTANCE(T, SR)                           \
  template bool ap_graph_tiles<T, SR>(const ap_matrix<T, SR> &); \
  template ck_status ap_graph_tiled<T, SR>(const ap_matrix<T, SR> &, bool &);
AP_INSTANTIATE_SR(AP_GRAPH_TILED_INSTANCE)
