/* All-pairs shortest paths by blocked Floyd-Warshall (Katz-Kider, Venkataraman): what the
 * files of the algorithm share.
 *   apsp.cu            the driver: checks and conversions in and out, the API
 *   apsp_rounds.cu     the rounds over one device's slab or several: buffers, the pivot strip's
 *                      exchange between devices, Ctrl-C
 *   apsp_block.cu      closing a pivot block: blocked Floyd-Warshall on 64 x 64 tiles in registers
 *   apsp_tiles.cu      ... with paths: its strips and rest, and the snapshots
 *   apsp_warptile.cu   a round's pivot row, column and the rest, on warptile.cuh's kernel
 *   apsp_history.cu    the strips of a round with paths, in plain Floyd-Warshall's order
 *   apsp_path.cu       walking paths back through P
 *
 * The work matrix X is np x np, row-major (np: n rounded up to whole pivot blocks), and holds
 * Octave's column-major W as it lies in memory, so X is W transposed: its paths are W's paths
 * reversed. X's next-hop matrix (the vertex after r on a shortest path from r to c) is then
 * Octave's predecessor matrix P (the vertex before j on a path from i to j) with no transpose
 * either way. Vertices are stored 1-based; 0 is "none".
 *
 * Several devices: each holds a slab of X's rows (whole pivot blocks) and its next hops. A round
 * splits in two phases: the pivot phase, on the device whose slab holds the pivot's rows (the
 * owner), leaves the pivot's row strip final (its "strip": what every device needs of it); the
 * other devices copy the strip, and every device runs the slab phase, its column strip and its
 * rest, from the strip. One device is the same with one slab and no copies.
 *
 * Distances alone: a round with pivot block k (vertices k0 .. k0 + B - 1)
 *   1. closes the pivot block (shortest paths through its own vertices): ap_close_block;
 *   2. takes copies of the pivot block, its row strip and its column strip (the snapshot);
 *   3. row strip   = min (row strip, pivot (x) row strip), from the copies, into X;
 *      column strip = min (column strip, column strip (x) pivot), from the copies, into X and
 *      into a contiguous copy for step 4;
 *   4. the rest    = min (rest, column strip (x) row strip), in place: every output reads only
 *      the row strip (in X, not written in this step) and the column strip's copy.
 * (x) is the min-plus product, and every distance comes out right. Steps 1 to 3's row strip are
 * the pivot phase (the strip: the row strip in X), the column strip and step 4 the slab phase.
 *
 * With paths that order is not enough. Combining strips that are already final, step 4 can
 * record next hops that lead round a cycle of weight 0 (an Octave simulation: 8-16 of 300 small
 * graphs with such cycles; random weights 0..999 at n = 8192 have them), where plain
 * Floyd-Warshall, which combines each pair with the values of its own step k, keeps every
 * recorded path simple. So with paths a round follows plain Floyd-Warshall's order exactly:
 *   1. the pivot block, itself by the same scheme over 64-wide tiles, recording each of its
 *      rows and columns k as they stood at step k (the histories);
 *   2. the row strip, each column on its own, and the column strip, each row on its own, step by
 *      step from the pivot's histories, recording their rows and columns k at step k;
 *   3. the rest = min (rest, column history (x) row history), strictly smaller only, the first k
 *      of the minimum winning: what the steps k0 .. k0 + B - 1 one by one would leave.
 * Distances and next hops are then plain Floyd-Warshall's, those of the "cpu" kernel where the
 * sums are exact. A value and its next hop are replaced together, the next hop of the winning
 * term's first half. Step 1 and the row strip are the pivot phase (the strip: the pivot block's
 * row history and the row strip's, one after the other), the column strip and step 3 the slab
 * phase.
 *
 * Work types (the element of X), for min.+ (the others: apsp.cu, ap_problem):
 *   float, double      single and double data (+Inf: no edge; NaN and -Inf are refused)
 *   uint32_t           nonnegative int32 and uint16 data: DPX 32-bit min-add; sums of two values
 *                      up to 2^31 - 1 never wrap a 32-bit word
 *   uint16_t           nonnegative int8, uint8 and int16 data: DPX two 16-bit min-adds per word;
 *                      sums of two values up to 32767 never wrap a half
 * In both integer forms "no edge" is the class's intmax and any sum at or past it is no shorter,
 * so a path of length intmax or more counts as no path. Integer data with negative weights, and
 * uint32, run in double, where every sum is exact (|sum| < 2^53). Single and double data whose
 * weights are nonnegative integers run in uint16_t or uint32_t when every path length fits below
 * "no edge" (32767 or 2^31 - 1; apsp.cu, ap_pick_float), with the same D and P. max.+ runs as
 * min.+ on -W, its int8 and int16 with "no edge" -intmin (128, 32768: on halves and on words).
 * min.max (and max.min) runs single and double in their class and integers on keys (uint32_t,
 * uint16_t: all of each word or half, no sums), max.* single and double with "no edge" 0. */
#ifndef CK_APSP_CUH
#define CK_APSP_CUH

#include "minplus.cuh"

/* ---- tuning (the measurements are in doc/NOTES.md) ----
 * AP_BLOCK: the pivot block. Step 4 is an np x np x AP_BLOCK product that also reads (and
 * sometimes writes) every output once per round, so the block must be deep enough for its
 * pair updates to hide that traffic; its closure (step 1) is AP_BLOCK dependent steps a round,
 * which bound small n (doc/NOTES.md).
 * AP_TILE: the tiles of the closure, each in one block's registers (apsp_block.cu). */
#define AP_BLOCK 256
#define AP_TILE 64
#define AP_TILE_THREADS 256 /* the tile product (16 outputs per thread) */
/* At most this many rounds are queued ahead of the one the host waits for: enough to keep the GPU
 * busy between them, few enough that Ctrl-C and a negative cycle end the call within a round or
 * two. Their cycle flags take AP_IN_FLIGHT of the lane's pinned words a share (apsp_rounds.cu). */
#define AP_IN_FLIGHT 2

/* The word a work type computes in, wide enough that a term never wraps (S): 16-bit work runs as
 * two values per 32-bit word, the others are their own words. */
template <class T> struct ap_word { typedef T S; };
template <> struct ap_word<uint16_t> { typedef uint32_t S; };

/* "No path" in the rounds of semiring SR on work type W, and their identity of the add: the add's
 * empty reduction, but 0 for max.*, whose values are never negative: max's -Inf would make NaN
 * (-Inf * 0) and +Inf (-Inf * -Inf) of padding in a product. */
template <class SR, class W> __host__ __device__ __forceinline__ W ap_zero() {
  if constexpr (std::is_same<SR, sr_max_times>::value) return (W)0;
  else return SR::add::template empty<W>();
}

/* The term of two work values in semiring SR (semiring.cuh), in the word. The rounds take the
 * semiring as a template argument; its matrix (ap_matrix) carries it. */
template <class T, class SR> struct ap_work {
  typedef typename ap_word<T>::S S;
  static __host__ __device__ __forceinline__ S sum(T a, T b) { return SR::mul::term((S)a, (S)b); }
};

/* A 16-bit work value as the warptile level's A operand: in both halves of its word (the other
 * work types are their own words). */
template <class T, class TW> __device__ __forceinline__ TW ap_word_of(T v) {
  if constexpr (sizeof(TW) == sizeof(T)) return (TW)v;
  else return (TW)v | (TW)v << 16;
}

/* One tile product of the closure (apsp_tiles.cu), or of a warptile step (apsp_warptile.cu, in
 * words: TA the A operand's element, TB the word of B, the old values and the output):
 *   out = min (old, A (x) B) where strictly smaller, with paths the next hops into nout from na
 *   (na[r][winning k]);
 *   copy, ncopy (optional): every output's final value and next hop, improved or not (nold; the
 *   rounds use copy without paths only, but the product kernels, as measured, keep both);
 *   ae, lda_e, bt, ldbt: A, and B transposed, in the work type's elements, where the warptile
 *   step searches for winners (with paths);
 *   skip_next: the warptile steps leave out the next pivot's rows and columns too (they are
 *   AP_BLOCK on from skip_r and skip_c, and were done first: apsp_rounds.cu, ap_round_ahead);
 *   skip_r, skip_c: a tile row or column of the grid left out (the pivot's), -1: none. */
template <class TA, class TB> struct ap_job {
  const TA *A;
  const TB *B, *old;
  TB *out;
  TA *copy;
  size_t lda, ldb, ldo, ldout, ldcopy;
  const int *na, *nold;
  int *nout, *ncopy;
  size_t ldna, ldnold, ldnout, ldncopy;
  const void *ae, *bt;
  size_t lda_e, ldbt;
  int rows, cols, depth; /* cols in words of TB */
  int skip_r, skip_c;    /* in tiles of the kernel that runs it */
  bool skip_next;
};

/* The buffers of one level's snapshot (step 2 of the distances-only round). The warptile level's
 * A operands are words: for 16-bit work each value in both halves (pva, csa, cs2a); for the
 * other types they alias pv, cs and cs2. */
template <class T, class TW> struct ap_snap {
  T *pv, *rs, *cs, *cs2;
  TW *pva, *csa, *cs2a;
};

/* One device's slab of the np x np work matrix: X's rows r0 .. r0 + rows - 1 (whole pivot
 * blocks; X points at row r0, rows np long) and their next hops (NULL without paths), on device
 * dev, with where a negative cycle was seen in the pivot blocks it closed (the smallest 0-based
 * vertex whose distance to itself went below 0; INT_MAX: none). One device: r0 0, rows np.
 * st: the stream a round's steps are queued on (0 but on ap_round_ahead's look-ahead streams). */
template <class T, class SR> struct ap_matrix {
  T *X;
  int *N;
  size_t np, r0, rows;
  int *neg;
  int dev;
  cudaStream_t st;
  bool owns(size_t k0) const { return k0 >= r0 && k0 < r0 + rows; }
  int pivot_rows(size_t k0) const { return owns(k0) ? (int)(k0 - r0) : -1; } /* -1: not here */
};

/* The distances-only round. Step 1 (apsp_block.cu): close the AP_BLOCK block at (k0, k0) of m
 * (its owner), with `scratch` a second AP_BLOCK x AP_BLOCK block of its own. */
template <class T, class SR> void ap_close_block(const ap_matrix<T, SR> &m, size_t k0, T *scratch);
/* The pivot phase (apsp_warptile.cu) on the owner: step 1, the snapshot of the pivot block and
 * its row strip, and the row strip; the strip is then X's rows k0 .. k0 + AP_BLOCK - 1. */
template <class T, class SR>
void ap_round_pivot(const ap_matrix<T, SR> &m, size_t k0, T *scratch,
                    const ap_snap<T, typename ap_word<T>::S> &s);
/* The slab phase on every device, from `strip` (AP_BLOCK x np: the owner's, or a copy): the
 * snapshot of its column strip and the column strip (ap_round_cols), then step 4 (ap_rest: all of
 * it, or in the parts of ap_rest_part, below). */
enum ap_rest_part { AP_REST_ALL, AP_REST_NEXT_ROWS, AP_REST_NEXT_COLS, AP_REST_OTHERS };
template <class T, class SR>
void ap_round_cols(const ap_matrix<T, SR> &m, size_t k0, const T *strip,
                   const ap_snap<T, typename ap_word<T>::S> &s);
/* The strips' products alone, from a snapshot taken (the row strip: its pivot block and row
 * strip; the column strip: its column strip) after step 1: one device's look-ahead runs them side
 * by side (apsp_rounds.cu). */
template <class T, class SR>
void ap_row_strip(const ap_matrix<T, SR> &m, size_t k0,
                  const ap_snap<T, typename ap_word<T>::S> &s);
template <class T, class SR>
void ap_col_strip(const ap_matrix<T, SR> &m, size_t k0, const T *strip,
                  const ap_snap<T, typename ap_word<T>::S> &s);
template <class T, class SR>
void ap_rest(const ap_matrix<T, SR> &m, size_t k0, const T *strip,
             const ap_snap<T, typename ap_word<T>::S> &s, ap_rest_part part);

/* Step 2 at either level: which of the three pieces to copy (AP_PV | AP_RS | AP_CS) from where in
 * X (leading dimension ld): the B x B pivot block at row pr, column pc; the row strip, its rows
 * over `cols` columns; the column strip, its columns over `rows` rows from X's first. */
enum { AP_PV = 1, AP_RS = 2, AP_CS = 4 };
struct ap_snap_at {
  size_t ld, pr, pc, cols, rows;
  int B, pieces;
};
template <class T, class TW>
void ap_take_snapshot(const T *X, const ap_snap_at &at, const ap_snap<T, TW> &s, cudaStream_t st);

/* The histories of a round with paths (apsp_history.cu), each row or column k as it stood at
 * step k: the pivot block's rows ([k][k'], B x B) and columns ([k'][k]) with their next hops,
 * the row strip's rows (B x np) and the column strip's columns (np x B) with their next hops,
 * as words for the warptile level's A operand (aliases cs except for 16-bit work); rst, the row
 * strip transposed (np x B) for step 3's searches. */
template <class T, class TW> struct ap_hist {
  T *pr, *pc, *rs, *cs, *rst;
  int *npc, *ncs;
  TW *csa;
};

/* A strip of a region of X, evolved step by step (apsp_history.cu): rows p .. p + R - 1 over the
 * region's columns (ap_strip_rows), or columns p .. p + R - 1 over its rows (ap_strip_cols), the
 * pivot's own columns or rows (skip .. skip + R - 1; -1: none here) left out. H: the pivot's
 * columns (rows strip) or rows (columns strip) at their steps, Hn the pivot columns' next hops;
 * out, nout, outa: the strip's own history (nout, outa: NULL where not wanted; outa: as words);
 * st: the stream. */
template <class T, class TW> struct ap_strip {
  T *X;
  int *N;
  size_t ld;
  int p, size, skip; /* the strip's offset, the region's side (vectors), the pivot's vectors */
  const T *H;
  const int *Hn;
  int ldh;
  T *out;
  int *nout;
  TW *outa;
  size_t ldout;
  cudaStream_t st;
};
template <class T, class SR, class TW, int R> void ap_strip_rows(const ap_strip<T, TW> &s);
template <class T, class SR, class TW, int R> void ap_strip_cols(const ap_strip<T, TW> &s);

/* Where a tile on the diagonal records its rows and columns k as they stood at step k (with
 * paths), each with leading dimension ld. */
template <class T> struct ap_fw_rec {
  T *row, *col;
  int *ncol;
  int ld;
};
/* Plain Floyd-Warshall on the AP_TILE x AP_TILE tile at X (and its next hops at N), leading
 * dimension ld, recording its histories into rec; an unbounded diagonal entry into *neg as base +
 * its row (apsp_block.cu). */
template <class T, class SR>
void ap_fw_hist(T *X, int *N, size_t ld, int base, int *neg, const ap_fw_rec<T> &rec,
                cudaStream_t st);

/* Step 1 with paths (apsp_tiles.cu): close the AP_BLOCK block at (k0, k0), its histories into
 * h.pr, h.pc, h.npc. */
template <class T, class SR>
void ap_close_block_hist(const ap_matrix<T, SR> &m, size_t k0,
                         const ap_hist<T, typename ap_word<T>::S> &h);
/* A round with paths (apsp_history.cu), every launch on m.st. The pivot phase on the owner: step
 * 1 and the row strip; the strip is then h.pr and h.rs, which lie one after the other (AP_BLOCK x
 * (AP_BLOCK + np)). */
template <class T, class SR>
void ap_round_pivot_hist(const ap_matrix<T, SR> &m, size_t k0,
                         const ap_hist<T, typename ap_word<T>::S> &h);
/* The slab phase's first half on every device, from `strip` (the owner's h.pr, or a copy): the
 * column strip, and the row strip's transposed copy h.rst for step 3's searches. */
template <class T, class SR>
void ap_round_cols_hist(const ap_matrix<T, SR> &m, size_t k0, const T *strip,
                        const ap_hist<T, typename ap_word<T>::S> &h);
/* Their pieces, for one device's look-ahead (apsp_rounds.cu), where the two strips run side by
 * side: the row strip (ap_rows_hist), the column strip from `strip` (ap_cols_hist), and the row
 * strip's transposed copy (ap_rows_transposed: after the row strip). */
template <class T, class SR>
void ap_rows_hist(const ap_matrix<T, SR> &m, size_t k0,
                  const ap_hist<T, typename ap_word<T>::S> &h);
template <class T, class SR>
void ap_cols_hist(const ap_matrix<T, SR> &m, size_t k0, const T *strip,
                  const ap_hist<T, typename ap_word<T>::S> &h);
template <class T, class SR>
void ap_rows_transposed(const ap_matrix<T, SR> &m, const T *strip,
                        const ap_hist<T, typename ap_word<T>::S> &h);
/* Step 3 with paths (apsp_warptile.cu), the slab phase's second half: the rest from the column
 * strip's history and the row strip's (rs: AP_BLOCK x np), all of it or in parts, the next
 * pivot's rows and columns (one device: ap_round_ahead) and then the others. */
template <class T, class SR>
void ap_rest_hist(const ap_matrix<T, SR> &m, size_t k0, const T *rs,
                  const ap_hist<T, typename ap_word<T>::S> &h, ap_rest_part part);

/* The rounds (apsp_rounds.cu) over `count` slabs that together cover X, each on its device, with
 * paths where the slabs have next hops; Ctrl-C and progress through a. On a negative cycle they
 * stop early and the slabs' neg flags say where. */
template <class T, class SR>
ck_status ap_rounds(const ap_matrix<T, SR> *slabs, int count, ck_apsp_args *a);
/* One graph in one launch by 64-wide tiles (apsp_graph_tiled.cu; with the next hops, where m has
 * them, apsp_graph_paths.cu: plain Floyd-Warshall's order), where ap_graph_tiles takes its one
 * slab m: values of up to 4 bytes, a size the launch is faster at.
 * cycle: a diagonal came out unbounded (the rounds name the vertex); looked for only where
 * cycles (apsp.cu's ap_may_cycle) and the work type has negatives (ap_graph_cycles). */
template <class T, class SR> bool ap_graph_tiles(const ap_matrix<T, SR> &m);
/* Whether a graph by tiles in work type T can meet an unbounded cycle (the integer work types
 * hold no negatives, and min.max none at all): where it does, the rounds run again from the
 * weights and name the vertex. */
template <class T, class SR> constexpr bool ap_graph_cycles() {
  return std::is_floating_point<T>::value && !std::is_same<SR, sr_min_max>::value;
}
/* A graph's run queued before its survey's facts are read (apsp.cu, ap_class_unwaited): a graph
 * by tiles waits for them once its launch is queued, the rounds before they start. wait gives
 * the survey's error, if any, and whether an unbounded cycle may be; it waits once. filled: the
 * survey wrote the work matrix, in place (ap_fill_in), so the run does not convert W. */
struct ap_gate {
  ck_status (*wait)(void *ctx, bool &cycles);
  void *ctx;
  bool filled;
};
/* gate's error; cycles as the survey says where there is a gate (NULL: none, cycles unchanged) */
static inline ck_status ap_gate_wait(const ap_gate *gate, bool &cycles) {
  return gate ? gate->wait(gate->ctx, cycles) : CK_OK;
}
template <class T, class SR>
ck_status ap_graph_tiled(const ap_matrix<T, SR> &m, bool cycles, bool &cycle,
                         const ap_gate *gate = nullptr);
/* ... and many graphs of np x np (padded) one after the other in X (and N, the next hops, or
 * NULL), in one launch: first, the smallest page * np + vertex whose diagonal came out unbounded
 * (INT_MAX: none), so pages * np stays below INT_MAX; cycles false (no weight can close an
 * unbounded cycle, apsp.cu's ap_may_cycle): not looked for. ap_graph_pages_bytes: the device
 * memory a page takes beyond X and N (the board; with P the histories). */
template <class T, class SR>
ck_status ap_graph_tiled_pages(T *X, int *N, size_t np, unsigned pages, bool cycles, int &first,
                               const ap_gate *gate = nullptr);
template <class T, class SR>
ck_status ap_graph_paths_pages(T *X, int *N, size_t np, unsigned pages, bool cycles, int &first,
                               const ap_gate *gate = nullptr);
template <class T> size_t ap_graph_pages_bytes(size_t np, bool paths) {
  const size_t cells = (np / AP_TILE) * (np / AP_TILE);
  return cells *
         ((paths ? AP_TILE * AP_TILE * (2 * sizeof(T) + sizeof(int)) : 0) + 2 * sizeof(int));
}

/* Widest and minimax paths of single and double weights on the ranks of their values
 * (apsp_ranks.cu): *done = 1 where they ran so (D and P the class path's), else 0 and nothing
 * run. */
ck_status ap_try_ranks(ck_apsp_args *a, const ck_apsp_part *parts, int count, int *done);

/* ---- many small graphs (apsp_batch.cu, apsp_batch_cluster.cu, apsp_batch_tiled.cu) ----
 * Pages of graphs of at most AP_BATCH_MAX_N vertices, each closed by plain Floyd-Warshall in
 * registers: np (n rounded up to a power of two, at least 16) squared values, a tile of them a
 * thread, the pivot's row and column passed through shared memory with one barrier a step; up
 * to AP_BATCH_BLOCK_N vertices a graph is one block's (or part of one), beyond it a cluster's
 * (its blocks share the row through distributed shared memory). One launch runs every page of
 * the batch; D and P are the "cpu" kernel's, in its order. The tiles and the measurements behind
 * them: apsp_batch.cu. Past AP_BATCH_BLOCK_N, D alone of many pages runs instead by 64-wide
 * tiles, a graph a block (ap_batch_tiles): the rounds' terms, not plain order; it alone takes
 * graphs of up to AT_MAX_N vertices (larger pages, and pages it does not take, run one by one
 * on the rounds: apsp.cu). */
#define AP_BATCH_MAX_N 256
#define AP_BATCH_BLOCK_N 128 /* larger graphs take a cluster of blocks each */
#define AT_MAX_N 1024
/* in: the pages' work values, n x n each, one after the other (W itself where its values are
 * the work values, else a converted copy); out: where the work values of D go (may be in); P:
 * next hops or NULL; the pages page0 .. page0 + pages - 1 of the call; nopath: the work type's
 * "no path" (every value that is not an edge holds it); cycle: the smallest page * n + vertex
 * whose diagonal came out unbounded (ULLONG_MAX: none). */
template <class T> struct ap_batch {
  const T *in;
  T *out;
  int32_t *P;
  size_t pages, page0;
  int n;
  T nopath;
  unsigned long long *cycle;
  /* where the kernel surveys the weights itself (apsp.cu, ap_guess): a refused weight sets bit 0
   * of *refused, a value past "no path" (a negative integer: the guess missed) bit 1, an
   * unbounded diagonal entry *self (page * n + vertex, the smallest); NULL: surveyed before */
  int *refused;
  unsigned long long *self;
  /* trace: each step looks at the diagonal, and *cycle gets the first step's smallest unbounded
   * vertex as (page * n + k) * n + vertex, as the "cpu" kernel names it (the error's second run,
   * apsp.cu); else *cycle gets page * n + vertex of the diagonal at the end */
  int trace;
  /* the tiled kernel runs it (ap_batch_tiles, decided by the caller, which notes it) */
  int tiles;
  cudaStream_t st;
};
template <class T, class SR> ck_status ap_batch_close(const ap_batch<T> &b);
/* Whether the current device takes the cluster kernel, so graphs up to AP_BATCH_MAX_N vertices
 * (else AP_BATCH_BLOCK_N). */
bool ap_batch_clusters_ok(void);
/* Whether b runs on the tiled kernel (apsp_batch_tiled.cu): distances alone of graphs of
 * AP_BATCH_BLOCK_N + 1 to AT_MAX_N vertices, enough pages to fill the GPU (..._enough), values
 * of up to 4 bytes, shared memory for them on the device; its distances are the "cpu" kernel's
 * up to rounding, as the rounds' are. */
template <class T> bool ap_batch_tiles(const ap_batch<T> &b);
bool ap_batch_tiles_enough(size_t pages, int n);
/* The pages one launch takes at most: a few ms of work, so that Ctrl-C is polled between them. */
size_t ap_batch_chunk(int n, bool tiles);

/* Every work type of every semiring the rounds take (SR), and every work type (the pieces that
 * do not depend on the semiring). */
#define AP_INSTANTIATE_SR(MACRO) \
  MACRO(float, sr_min_plus)      \
  MACRO(double, sr_min_plus)     \
  MACRO(uint32_t, sr_min_plus)   \
  MACRO(uint16_t, sr_min_plus)   \
  MACRO(float, sr_min_max)       \
  MACRO(double, sr_min_max)      \
  MACRO(uint32_t, sr_min_max)    \
  MACRO(uint16_t, sr_min_max)    \
  MACRO(float, sr_max_times)     \
  MACRO(double, sr_max_times)
#define AP_INSTANTIATE(MACRO) \
  MACRO(float)                \
  MACRO(double)               \
  MACRO(uint32_t)             \
  MACRO(uint16_t)

#endif
