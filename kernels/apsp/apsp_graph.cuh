/* What the two kernels of a graph by tiles share (apsp_graph_tiled.cu: distances alone;
 * apsp_graph_paths.cu: with next hops): the order of the tasks, the board, the waits and the
 * launch's size. */
#ifndef CK_APSP_GRAPH_CUH
#define CK_APSP_GRAPH_CUH

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

/* Parts of each of a round's two strip tiles next to the next pivot and of the next pivot's
 * update (AG_ROW_PART, AG_COL_PART, AG_NEXT_PART) where a round's chain bounds the launch
 * (ag_chain_bound): a tile's product on one block is bound by its issue slots, so on S blocks
 * the chain's products take about a quarter of the time (with P, its strips' steps too:
 * apsp_graph_paths.cu). */
#define AG_PARTS 4

/* AG_NEXT: round t's update of (t + 1, t + 1), then its closure (round t + 1's first step);
 * AG_ROW_PART, AG_COL_PART, AG_NEXT_PART: part `part` of the strip tile (t, t + 1) by columns,
 * of (t + 1, t) and of AG_NEXT's update by rows (each part's outputs read only its own columns,
 * rows, of the tile); the last of the next pivot's parts closes it */
enum { AG_CLOSE, AG_ROW, AG_COL, AG_REST, AG_NEXT, AG_ROW_PART, AG_COL_PART, AG_NEXT_PART };
struct ag_task {
  int kind, t, I, J, part;
};

/* Task id of the order (the file's head): C(0); then for each round t its strips, alternating
 * (t, o(x)) and (o(x), t), where o(x) = (t + 1 + x) % nb starts at the next pivot (the first two
 * as SS parts each, alternating, where SS > 1); (t + 1, t + 1) updated and closed (in S parts);
 * the rest of row and column t + 1; the others by rows. The last round has no next pivot, so
 * no parts either. */
template <int S = 1, int SS = S>
__device__ __forceinline__ ag_task ag_task_of(unsigned id, int nb) {
  static_assert(SS == 1 || SS == S, "the strips whole, or in the next pivot's parts");
  if (id == 0) return {AG_CLOSE, 0, 0, 0, 0};
  id -= 1;
  const unsigned per = (unsigned)nb * nb - 1 + 2 * (SS - 1) + (S - 1);
  const int t = (int)(id / per), strips = 2 * (nb - 1), m = nb - 2;
  int e = (int)(id % per);
  auto o = [&](int x) { return (t + 1 + x) % nb; };
  if (SS > 1 && t < nb - 1) {
    if (e < 2 * SS)
      return e % 2 ? ag_task{AG_COL_PART, t, o(0), t, e / 2}
                   : ag_task{AG_ROW_PART, t, t, o(0), e / 2};
    e -= 2 * (SS - 1);
  }
  if (e < strips) return e % 2 ? ag_task{AG_COL, t, o(e / 2), t} : ag_task{AG_ROW, t, t, o(e / 2)};
  int u = e - strips;
  if (t == nb - 1) return {AG_REST, t, o(u / (nb - 1)), o(u % (nb - 1))};
  if (S > 1 && u < S) return {AG_NEXT_PART, t, t + 1, t + 1, u};
  if (S == 1 && u == 0) return {AG_NEXT, t, t + 1, t + 1};
  u -= S;
  if (u < 2 * m)
    return u % 2 ? ag_task{AG_REST, t, o(1 + u / 2), o(0)}
                 : ag_task{AG_REST, t, o(0), o(1 + u / 2)};
  u -= 2 * m;
  return {AG_REST, t, o(1 + u / m), o(1 + u % m)};
}
/* ... and their number: nb^3 - nb + 1, and 2 (SS - 1) + S - 1 more a round but the last */
template <int S = 1, int SS = S> __host__ __device__ __forceinline__ unsigned ag_tasks(int nb) {
  return (unsigned)nb * ((unsigned)nb * nb - 1) + (unsigned)(nb - 1) * (2 * (SS - 1) + S - 1) + 1;
}

/* The launch's memory: X the graph (np x np, padded with isolated vertices), the board (nb x nb
 * each), the task counter and the smallest vertex whose diagonal came out unbounded at its
 * closure (none: above every vertex; the caller then runs the rounds, which name it). Pages: as
 * many graphs one after the other in X, each with its own board (ver and reads, nb x nb each a
 * page), the counter and the cycle's word shared (page * np + vertex). */
template <class T> struct ag_graph {
  T *X;
  size_t np;
  int nb;
  int *ver, *reads;
  unsigned *next;
  int *neg;
  unsigned pages;
  int *parts; /* round t's parts stored: 3 t + 0 the row strip's, + 1 the column's, + 2 next */
};

/* Page q's graph and board, as one graph's launch holds them. */
template <class T>
__device__ __forceinline__ ag_graph<T> ag_page(const ag_graph<T> &g, unsigned q) {
  const size_t cells = (size_t)g.nb * g.nb;
  ag_graph<T> o = g;
  o.X += q * g.np * g.np, o.ver += q * cells;
  if (o.reads) o.reads += q * cells;
  return o;
}

__device__ __forceinline__ int ag_acquire(const int *p) {
  int v;
  asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
/* Thread 0 polls without a pause: each wake-up is on a round's chain. With __nanosleep (32)
 * between polls single 2048 ran at 54.5-55.3% of gpu_minplus's rate against 56.2-57.5, the
 * other sizes and int16 the same (H100, three rounds alternating). No fence follows: the
 * acquiring loads and the block's barrier after them order the block's loads of the tiles,
 * which go past the L1 (the waits of CUTLASS's semaphores, cutlass/barrier.h). */
__device__ __forceinline__ void ag_wait(const int *p, int need) {
  while (ag_acquire(p) < need) {
  }
}

/* Thread 0, after the block's barrier: the block has read the tile behind p (a release, so that
 * its loads come before the next writer's stores). */
__device__ __forceinline__ void ag_read_done(int *p) {
  asm volatile("red.release.gpu.global.add.s32 [%0], 1;" ::"l"(p) : "memory");
}

/* Thread 0, after the barrier that ended the block's stores: word p (a tile's version, a flag)
 * becomes v. The acq_rel fence also releases what the block's other threads stored before the
 * barrier (CUTLASS's semaphores, cutlass/barrier.h); __threadfence (), a sequentially consistent
 * fence, and an atomic exchange, which waits for its old value, did the same at more cost on
 * every task: with those and a fence after each wait, single 1024 0.278 ms against 0.268, D + P
 * 0.399 against 0.377 (H100, doc/NOTES.md). */
__device__ __forceinline__ void ag_publish(int *p, int v) {
  asm volatile("fence.acq_rel.gpu;\n\tst.relaxed.gpu.global.b32 [%0], %1;" ::"l"(p), "r"(v)
               : "memory");
}

/* The block's next task in the order, taken by thread 0 from the counter, and its page q: the
 * pages' tasks interleave (page id % pages, each page's own order id / pages), so every task
 * still waits only on tasks before it, and where many pages run the waits on a page's chain are
 * rare. false when none is left. taken: the block's shared word. PAGES: the kernel's instance
 * for pages; one graph's keeps the registers it took before pages (72 against 80 for single's
 * distances, whose kernel ran single 2048 at 53.5% of gpu_minplus's rate on an H100 with them,
 * against 56.2-57.6% before). */
template <bool PAGES, int S = 1, int SS = S, class T>
__device__ __forceinline__ bool ag_take(const ag_graph<T> &g, unsigned &taken, unsigned &q,
                                        ag_task &k) {
  if (threadIdx.x == 0) taken = atomicAdd(g.next, 1u);
  __syncthreads();
  const unsigned id = taken;
  if (id >= ag_tasks<S, SS>(g.nb) * (PAGES ? g.pages : 1u)) return false;
  q = PAGES ? id % g.pages : 0u;
  k = ag_task_of<S, SS>(PAGES ? id / g.pages : id, g.nb);
  return true;
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

/* The cycle's word holds INT_MIN + the smallest page * np + vertex whose diagonal came out
 * unbounded (ac_check_diagonal's atomic min, from base ag_neg_base (page * np + the tile's first
 * vertex)), so that 0, the board's clear, is none: one memset clears both (ag_clear). */
__device__ __forceinline__ int ag_neg_base(int first_vertex) { return INT_MIN + first_vertex; }

/* Before the launch: the boards, the task counter and the cycle's word after them (words in all
 * at board) cleared. */
static cudaError_t ag_clear(int *board, size_t words) {
  return cudaMemsetAsync(board, 0, words * sizeof(int), 0);
}

/* After it (e: the launch's error): first, the smallest page * np + vertex whose diagonal came
 * out unbounded, else INT_MAX. Where none is looked for (cycles false: the work type has none, or
 * no weight can close one) nothing is read, and, as a product does, the call leaves the launch
 * queued (a wait for it took about 12 us a call, int16 and single, H100). */
static cudaError_t ag_first(cudaError_t e, const int *neg, bool cycles, size_t np, size_t pages,
                            int &first) {
  int word = 0;
  if (cycles && e == cudaSuccess) e = cudaMemcpy(&word, neg, sizeof word, cudaMemcpyDeviceToHost);
  const unsigned long long at = (unsigned)word ^ 0x80000000u; /* ag_neg_base's */
  first = e == cudaSuccess && word < 0 && at < np * pages ? (int)at : INT_MAX;
  return e;
}

/* After the launch (e: its error): a gated run's survey (ap_gate) first, then the cycle's word
 * where it is looked for and, by the survey, may be set (ag_first). */
static ck_status ag_after(cudaError_t e, const ap_gate *gate, const int *neg, bool looked,
                          size_t np, size_t pages, int &first, const char *what) {
  first = INT_MAX;
  if (e == cudaSuccess && gate) {
    bool may = true;
    CK_TRY(ap_gate_wait(gate, may));
    looked = looked && may;
  }
  return ck_cuda_check(ag_first(e, neg, looked, np, pages, first), what);
}

/* 8-byte values would take 64 KB of shared memory a block: the rounds keep them. */
template <class T> static constexpr bool ag_form() { return sizeof(T) <= 4; }

/* Whether a round has no more tasks than the GPU holds blocks at once (per_sm an SM), so that
 * the round's chain, not its tasks, bounds the launch. */
static bool ag_chain_bound(int nb, size_t pages, int per_sm) {
  return ((size_t)nb * nb - 1) * pages <= (size_t)per_sm * (size_t)ck_device_sms();
}

/* The launch's blocks (AG_TASKS_PER_BLOCK) for pages graphs, of which an SM holds per_sm. */
template <int S = 1, int SS = S> static unsigned ag_blocks(int nb, int per_sm, size_t pages = 1) {
  const size_t sms = (size_t)ck_device_sms(), most = (size_t)per_sm * sms,
               tasks = ag_tasks<S, SS>(nb) * pages;
  size_t want = pages * ((size_t)nb * nb - 1) / AG_TASKS_PER_BLOCK;
  want = want < sms ? sms : want > most ? most : want;
  return (unsigned)(want < tasks ? want : tasks);
}

/* Where thread u of a part's group (ag_part, agp_next_part) has its piece: rows part * R .. of
 * the tile (rows), or columns part * R .., R = AP_TILE / S; a warp takes up to 8 pieces across,
 * so that its reads of a row and of a column take one wavefront each, as ac_place's. */
template <int TN, int S>
__device__ __forceinline__ void ag_part_place(bool rows, int part, int u, int &r0, int &c0) {
  constexpr int R = AP_TILE / S;
  const int across = (rows ? AP_TILE : R) / TN, pc = across < 8 ? across : 8, w = u / 32,
            lane = u % 32;
  const int ty = w / (across / pc) * (32 / pc) + lane / pc, tx = w % (across / pc) * pc + lane % pc;
  r0 = ty * AC_TT + (rows ? part * R : 0);
  c0 = tx * TN + (rows ? 0 : part * R);
}

/* After a part's product (ag_part, agp_next_part), the barrier that frees shared memory; then
 * groups 1 .. S - 1 (GT threads each) put their pieces (AC_TT x WN) through put (slot, i, j)
 * and, after the next barrier, group 0 takes them in the depth's order through
 * fold (slot, i, j); slot: where group g's thread u keeps its piece (i, j). */
template <int S, int GT, int WN, class P, class F>
__device__ __forceinline__ void ag_hand_over(int grp, int u, const P &put, const F &fold) {
  auto slot = [&](int g, int i, int j) { return (((g - 1) * AC_TT + i) * WN + j) * GT + u; };
  __syncthreads();
  if (grp > 0)
#pragma unroll
    for (int i = 0; i < AC_TT; i++)
#pragma unroll
      for (int j = 0; j < WN; j++) put(slot(grp, i, j), i, j);
  __syncthreads();
  if (grp == 0)
#pragma unroll
    for (int g = 1; g < S; g++)
#pragma unroll
      for (int i = 0; i < AC_TT; i++)
#pragma unroll
        for (int j = 0; j < WN; j++) fold(slot(g, i, j), i, j);
}

/* The parts of the chain's products (AG_PARTS) for values of 4 bytes; 16-bit values make two
 * pair updates an instruction on the chain, whose products then cost less than the parts'
 * hops (H100, int16 1024 0.250-0.260 ms in parts against 0.242-0.248 whole). */
template <class T> __host__ __device__ static constexpr int ag_parts() {
  return sizeof(T) == 4 ? AG_PARTS : 1;
}

/* Thread 0, after the barrier that ended a part's stores (S parts; round t's which: 0 the row
 * strip tile, 1 the column strip tile, 2 the next pivot): whether it was the last part, and if so
 * the other parts' stores come before this block's loads, or its flag. */
template <int S, class T>
__device__ __forceinline__ bool ag_part_done(const ag_graph<T> &g, int t, int which) {
  int old;
  asm volatile("fence.acq_rel.gpu;\n\tatom.relaxed.gpu.global.add.s32 %0, [%1], 1;"
               : "=r"(old)
               : "l"(g.parts + 3 * t + which)
               : "memory");
  const bool done = old == S - 1;
  if (done) asm volatile("fence.acq_rel.gpu;" ::: "memory"); /* the other parts' stores */
  return done;
}

#endif
