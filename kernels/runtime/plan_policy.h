/* The planner's tuning (plan.c): how host arrays move, when work spreads over devices and when
 * single and double values are looked at for the integer paths, each number with the measurement
 * that chose it. The kernels' own tuning is in their families' policy headers
 * (semiring/minplus_policy.cuh). */
#ifndef CK_PLAN_POLICY_H
#define CK_PLAN_POLICY_H

/* Host arrays in panels of C's columns of about this many output bytes: small enough for the
 * copies to overlap the kernels, large enough for a panel to fill the GPU. Products of up to two
 * panels' worth of output run as one panel. */
#define CK_PANEL_BYTES ((size_t)32 << 20)
/* Panels, slices and devices' shares are whole tiles of the widest warptile tile
 * (minplus_policy.cuh: BN <= 128), so that none computes a ragged edge one call would not. */
#define CK_PANEL_TILE 128
/* A slice's share of the device memory free at the call: the rest is for the allocator's
 * rounding and for other users of the device. */
#define CK_SLICE_BUDGET_KEEP 8 /* keep 1/8 */

/* Below this many pair updates (m * k * n) a host-array product runs on one device by default.
 * Two H200s, host-array single min-plus, both GPUs against one: 2048^3 0.76x, 4096^3 1.03x and
 * 0.97x (two runs), 8192^3 1.09x, 16384^3 1.13x and 1.19x (doc/multigpu.md). gpu_array
 * operands stay on their device: spread, int16 gained 1.87x but single 0.98x. */
#define CK_SPREAD_MIN_PAIRS ((double)(1u << 30) * 512) /* 8192^3 */

/* Below this many vertices a shortest-path call runs on one device by default. A round's pivot
 * phase (the pivot block's closure, about 0.5 ms on an H100 whatever n, and its row strip) runs on
 * one device while the others wait for its strip, so the gain needs rounds whose rest is long
 * beside it: the model in doc/multigpu.md, from one-GPU times, gives two GPUs 1.17x at 4096 and
 * 1.47x at 8192; two H200s measured 1.83x at 16384. */
#define CK_APSP_SPREAD_MIN_N 8192

/* A graph of up to this many vertices, distances alone on one device, runs by 64-wide tiles in
 * one launch (apsp_graph_tiled.cu) instead of the rounds (from AP_BATCH_MAX_N + 1: smaller
 * graphs run on the batched kernels). On an H100, the rounds' time over the tiles' (integer
 * weights 0..999, events around the device call, medians of 7, alternating in one process):
 * single 1024 1.44, 2048 1.37, 2560 1.29, 2816 1.12, 3072 1.02; int16 1024 1.46, 2048 1.35,
 * 2560 1.20, 2816 1.07, 3072 0.96; at 4096 (another call) single 0.80, int16 0.76: there every
 * task's three tiles from the L2 cost more than the rounds' launches (doc/NOTES.md). */
#define CK_APSP_GRAPH_TILES_MAX_N 2816
/* Pages with P of this many vertices up to CK_APSP_GRAPH_TILES_MAX_N run as many graphs by tiles
 * in one launch (apsp_graph_paths.cu) instead of the batched kernels (128 or fewer vertices; three
 * tiles at least). On an H100, D+P by tiles against the cluster kernel (events around the device
 * call, medians of 5, two runs alternating): single 129 x 512 pages 1.31-1.36 against 2.65 ms,
 * 192 x 512 1.31-1.34 against 3.94, 256 x 256 1.48-1.53 against 2.73; int16 1.43-1.48 against
 * 2.70, 1.42-1.46 against 4.07, 1.62-2.11 against 2.85 (doc/NOTES.md). */
#define CK_APSP_PAGES_PATHS_TILES_MIN_N 129

/* The look at single and double values for the integer paths (minplus_narrow.cu) costs tens of
 * microseconds: on an H100, non-integer data (stopped at the first value) took 62 to 84 us longer
 * with it than without, single and double at n = 1024 and 8192 (most of it the wait for the work
 * queued before: the verdict is read back before anything else is queued). In the automatic
 * mode it is made for products where the float path takes over about 5 ms, so that data that
 * does not narrow pay under 2%. A call is judged whole: a host-array product's panels and its
 * devices' shares take the call's verdict. */
#define CK_NARROW_MIN_PAIRS_SINGLE ((double)(1ull << 36)) /* 5.3 ms at 12.9 Tpair/s (4096^3) */
#define CK_NARROW_MIN_PAIRS_DOUBLE ((double)(1ull << 34)) /* 5.9 ms at 2.9 Tpair/s (2580^3) */

/* max.min and min.max in double on their values' ranks (minplus_rank.cu). The sort and the maps
 * cost about 0.17 ns per operand value (k (m + n) of them): on an H100 at 8192^3 the call on
 * int32 ranks took 92.8 ms, of which the product is 69 ms. A pair costs 0.32 ps in double
 * (3.09 Tpair/s) and 0.13 ps in int32 (7.9), so int32 ranks pay from about 900 pairs per value
 * (uint16 ranks, 0.065 ps a pair, from about 650), and the fixed cost (allocations, launches, one
 * read back) wants products of at least 2^30 pairs. Square products rank from n = 2048. The
 * class path against ranks (1000 distinct values: uint16; 2^20: int32), ms, measured before the
 * double kernel's operand order made it 1.33x as fast (236.8 -> 178.1 ms at 8192^3):
 *   1024^3  0.676 against 0.436 / 0.554      2048^3  4.15 against 1.69 / 2.46
 *   1536^3  1.665 against 0.990 / 1.277      4096^3  30.5 against 9.94 / 15.0
 * (doc/NOTES.md). */
#define CK_RANK_MIN_PAIRS ((double)(1ull << 30))
#define CK_RANK_MIN_DEPTH 1024.0

#endif
