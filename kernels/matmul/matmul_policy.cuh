/* The matmul ladder's tuning: the register-blocked and warp-tiled shapes, split-K's costs and its
 * reduce, and when a batch of pages runs in one launch, each with how it was chosen (H100 SXM;
 * the runs are in doc/NOTES.md). matmul.cu and matmul_split.cuh hold the mechanism and read
 * their numbers from here. */
#ifndef CK_MATMUL_POLICY_CUH
#define CK_MATMUL_POLICY_CUH

#include "warptile.cuh"

/* ---- block shapes ---- */
template <class T> struct cfg;
/* The warptile shapes were chosen by timing nine candidates on an H100 (doc/NOTES.md): BK = 8
 * with 64 x 32 warp tiles and 256 threads ran 90-93% of cublasSgemm, Boehm's A6000 choice
 * (BK = 16, 64 x 64 warp tiles, 128 threads, 255 registers) 76-79%. */
template <> struct cfg<float> {
  enum { RB_BM = 128, RB_BN = 128, RB_BK = 8, RB_TM = 8, RB_TN = 8 };
  struct warp {
    enum { BM = 128, BN = 128, BK = 8, WM = 64, WN = 32, WNITER = 2, TM = 8, TN = 4, NT = 256 };
  };
  /* pages (one launch over them): the same warp tiles in 64 x 64 blocks of two warps, so that
   * pages of 64^3 are not three quarters padding */
  struct page {
    enum { BM = 64, BN = 64, BK = 8, WM = 64, WN = 32, WNITER = 2, TM = 8, TN = 4, NT = 64 };
  };
};
/* Double: 4 x 4 per thread and sub-tile keeps the accumulators within the register file; of six
 * warptile candidates 128 x 128 x 8 with 64 x 32 warp tiles ran fastest (20.6 vs 13.5 TFLOP/s). */
template <> struct cfg<double> {
  enum { RB_BM = 64, RB_BN = 64, RB_BK = 8, RB_TM = 4, RB_TN = 4 };
  struct warp {
    enum { BM = 128, BN = 128, BK = 8, WM = 64, WN = 32, WNITER = 1, TM = 4, TN = 4, NT = 256 };
  };
  struct page { /* two warps of the 2-D warp tiles spilled (8 staged vectors per thread) */
    enum { BM = 64, BN = 64, BK = 8, WM = 32, WN = 32, WNITER = 1, TM = 4, TN = 4, NT = 128 };
  };
};

/* ---- split-K (warptile_splits' cost model, warptile.cuh) ----
 * With few output tiles and a deep k (256 x 8192 x 256 is 2 x 2 tiles of 128 x 128: 4 blocks
 * for 132 SMs, 776 us against cuBLAS's 41.5) the blocks take slices of k, each slice's sums go
 * to a plane of scratch and a reduce adds the planes in order (matmul_split.cuh).
 *
 * The model is the min-plus family's (minplus_policy.cuh: mp_split_cost), on the same kernel
 * and the same occupancy effects, its unit a pair update: here one FFMA or DFMA. Not fitted to
 * matmul: its picks were measured (H100, doc/NOTES.md; single 256 x 8192 x 256 at s = 32 took
 * 55 us, 83.7% of cuBLAS, where the model said 39 us), not swept; `dev/matmul warptile --shape
 * M K N --split S` times any split for the sweep that would fit it. What was carried over and
 * what was rescaled:
 *   - min_len 64, thin {1.30, 1.07}, tail 0.09, margin 0.01: as min-plus's (matmul's blocks are
 *     8 warps, so only thin[1] applies, to an SM holding one block);
 *   - block_k 48, min-plus's 24 doubled: a matmul step costs one FMA where min-plus's costs two
 *     instructions, so its block's fixed costs (first loads, 64 stores per thread) are twice as
 *     many steps;
 *   - the reduce's costs, min-plus's merge (about 3.1 ps per output and plane, 80 ns per plane,
 *     3 us to launch; fitted at 13 Tpair/s) over the kernel's FMA rate: single about 23.5 T/s
 *     (47 TFLOP/s at 4096^3), double about 10.3 T/s (20.6 TFLOP/s at 8192^3), so 72 and 60 FMAs
 *     per output and plane (double's elements are twice the bytes), 2^21 and 2^20 per plane,
 *     7e7 and 3e7 for the launch.
 * Only products whose tiles fit in two waves are split (warptile_splits), so 4096^2 and larger
 * outputs run the unsplit kernel as before. The model's predictions at its picks (cost over
 * the FMA rate, scaled by 0.88: at 256 x 8192 x 256 unsplit it predicts 880 us for the 776
 * measured): single 256 x 8192 x 256 s = 32, 39 us; 1024^3 s = 2, 61 us (0.113 ms unsplit);
 * 2048^3 unsplit.
 * No clusters: the slices' handovers through distributed shared memory (warptile.cuh,
 * cluster_fold) fit in one round only for tiles of at most 64 accumulators per thread beside
 * the staging tiles; matmul's 128 x 128 tiles need two rounds in single and eight in double,
 * where the min-plus family measured the fold costlier than the planes (double, 1024^3). */
static const warptile_split_cost mm_split_cost_single = {64,  48,           2,    72,  1 << 21,
                                                         7e7, {1.30, 1.07}, 0.09, 0.01};
static const warptile_split_cost mm_split_cost_double = {64,  48,           2,    60,  1 << 20,
                                                         3e7, {1.30, 1.07}, 0.09, 0.01};
template <class T> static const warptile_split_cost &mm_split_cost(void) {
  return sizeof(T) == 8 ? mm_split_cost_double : mm_split_cost_single;
}

/* The most slices a product is cut into (the grid's z; warptile_splits stops at 1024 too). */
#define MM_SPLIT_MAX 1024

/* The reduce of the planes: threads per block, and each output's planes cut into runs of
 * consecutive planes, one per thread, folded in order in shared memory, while the outputs alone
 * leave the GPU short of threads (about the 2^18 an H100 holds at once). min-plus's merge, on
 * which this is modelled, measured a deep split over few outputs (256 x 8192 x 256, 32-64
 * planes of 65536) at 14 us in one run per output (a long chain of loads per thread, the GPU
 * mostly idle), and 2^20 outputs over 4 planes at 20 us in four runs against 11 in one. */
#define MM_REDUCE_THREADS 256
#define MM_REDUCE_FILL_OUTPUTS (1u << 18)
#define MM_REDUCE_MAX_RUNS 8

/* ---- paged products ----
 * Pages at least this large (outputs) each fill the GPU and run one by one on the 2-D path's
 * larger tiles; so do few pages of deep k, whose batch (64 x 64 tiles) leaves SMs idle where
 * each page's split-K fills them: fewer than MM_PAGES_FILL_BLOCKS tiles per SM and k at least
 * MM_PAGES_DEEP_K, min-plus's rule (minplus_policy.cuh), not measured for matmul. force:
 * batched whatever the size. */
#define MM_PAGES_LOOP_OUTPUTS ((size_t)1 << 22)
#define MM_PAGES_FILL_BLOCKS 4
#define MM_PAGES_DEEP_K 1024

#endif
