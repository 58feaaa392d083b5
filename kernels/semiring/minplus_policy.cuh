/* The min-plus family's tuning: every shape, threshold and cost the kernels are run with, each
 * with the measurement that chose it (H100 SXM unless said; the runs are in doc/NOTES.md). The
 * kernels' files hold the mechanism and read their numbers from here. */
#ifndef CK_MINPLUS_POLICY_CUH
#define CK_MINPLUS_POLICY_CUH

#include <type_traits>

#include "semiring.cuh"
#include "warptile.cuh"

/* Threads per block of the element-wise passes (padding, merges, fix-up, fills). */
#define MP_THREADS 256

/* ---- v2 regblock ---- */
#define MP_RB 8 /* outputs per thread in each direction: 64 pair updates per 16 loads */
#define MP_TILE (MP_RB * MP_RB) /* outputs per block in each direction */
#define MP_MAX_GRID_Y 65535u    /* the hardware's limit; v2 slices taller grids */

/* Unrolling the step loop twice lets float overlap one step's loads with the previous step's
 * arithmetic (+6% at n = 4096); for double the second set of operands costs occupancy (-45%). */
template <class T> struct v2_unroll {
  enum { value = 1 };
};
template <> struct v2_unroll<float> {
  enum { value = 2 };
};

/* ---- v3 warptile: block and warp tiles ----
 * Each the fastest of four to six candidates timed at n = 4096 and 8192; a later sweep of eight
 * configurations per class at 1024^3, 2048^3, 512 x 4096 x 512 and 256 x 8192 x 256 found none
 * more than 3% faster (within the run-to-run spread). The witness keeps three registers per
 * output, so its warp tiles are half as large. */
struct v3_cfg_words { /* single, and the DPX words (32-bit and packed) */
  enum { BM = 64, BN = 128, BK = 8, WM = 64, WN = 32, WNITER = 2, TM = 8, TN = 4, NT = 128 };
};
struct v3_cfg_double {
  enum { BM = 128, BN = 128, BK = 8, WM = 64, WN = 32, WNITER = 1, TM = 4, TN = 4, NT = 256 };
};
struct v3_cfg_arg_single { /* and the 32-bit DPX words */
  enum { BM = 64, BN = 64, BK = 16, WM = 32, WN = 32, WNITER = 1, TM = 4, TN = 4, NT = 128 };
};
struct v3_cfg_arg_double { /* BK = 8: fewer staging registers, no spills */
  enum { BM = 64, BN = 64, BK = 8, WM = 32, WN = 32, WNITER = 1, TM = 4, TN = 4, NT = 128 };
};
template <class T, bool ARG> struct v3_cfg;
template <> struct v3_cfg<float, false> { typedef v3_cfg_words type; };
template <> struct v3_cfg<uint32_t, false> { typedef v3_cfg_words type; };
template <> struct v3_cfg<double, false> { typedef v3_cfg_double type; };
template <> struct v3_cfg<float, true> { typedef v3_cfg_arg_single type; };
template <> struct v3_cfg<uint32_t, true> { typedef v3_cfg_arg_single type; };
template <> struct v3_cfg<double, true> { typedef v3_cfg_arg_double type; };

/* Semirings that only compare (max.min, min.max) in double: no DMNMX on these GPUs, so each of
 * the two compares of a pair is a DSETP and two selects; on double's 128 x 128 tiles the kernel
 * spilled (12 bytes) and ran at half the rate of the witness's 64 x 64 tiles (H100, 8192^3: 1404
 * ms, with the witness 744 ms). They take the witness's tiles. */
template <class T, bool ARG, class SR> struct v3_sr_cfg {
  typedef typename v3_cfg<T, ARG>::type type;
};
template <class SR> struct v3_sr_cfg<double, false, SR> {
  typedef typename std::conditional<(int)SR::mul::words == (int)SR_WORDS_ORDER, v3_cfg_arg_double,
                                    v3_cfg_double>::type type;
};

/* ---- paged products: one launch over every page (blockIdx.z) ----
 * A page's tiles are 64 x 64 whatever the class: pages of 64^3 would leave half of a 64 x 128
 * tile (and three quarters of double's 128 x 128) as padding. Single and the DPX words keep the
 * 2-D configuration's warp tiles (the same registers and shared-memory reads per pair update) in
 * blocks of two warps; double takes the witness's shape. The witness's tiles are 64 x 64
 * already. */
struct v3_cfg_page_words {
  enum { BM = 64, BN = 64, BK = 8, WM = 64, WN = 32, WNITER = 2, TM = 8, TN = 4, NT = 64 };
};
struct v3_cfg_page_double { /* two warps spilled: each thread staged 8 vectors of the tiles */
  enum { BM = 64, BN = 64, BK = 8, WM = 32, WN = 32, WNITER = 1, TM = 4, TN = 4, NT = 128 };
};
/* Packed 16-bit halves: 64 x 32 words (64 x 64 outputs), one warp, so that pages of 64 rows (32
 * words) are whole tiles and can be read as they are, without a packing pass. */
struct v3_cfg_page_halves {
  enum { BM = 64, BN = 32, BK = 8, WM = 64, WN = 32, WNITER = 2, TM = 8, TN = 4, NT = 32 };
};
/* Pages whose padded rows are already whole tiles of the 2-D configuration (64 x 128 words) run
 * on it, which shares each staged tile among four warps instead of two or one: CFG's wide form
 * (void: none; the witness and double keep their page tiles). Share of the n = 8192 rate, H100,
 * bench_pages, page tiles -> 2-D tiles: single 256^3 x 256 84.5% -> 86.6%, 512^3 x 32 84.9% ->
 * 86.9%, 128^3 x 2048 81.2% -> 82.3%; int16 256^3 x 256 58.1% -> 62.2%, 512^3 x 32 68.0% ->
 * 70.5%. */
/* The halves' wide form asks the compiler for one block per SM at least (MINB, warptile.cuh):
 * nothing a 128-thread block lacks anyway, but with it ptxas schedules the int16 kernel that
 * judges its own guess (mp_dpx_raw_page_op) as it did the kernel before that check, 158-159 us
 * at 256^3 x 256; without it 172-175 us (ncu, H100). */
struct v3_cfg_page_wide_halves : v3_cfg_words {
  enum { MINB = 1 };
};
template <class CFG> struct v3_page_wide { typedef void type; };
template <> struct v3_page_wide<v3_cfg_page_words> { typedef v3_cfg_words type; };
template <> struct v3_page_wide<v3_cfg_page_halves> { typedef v3_cfg_page_wide_halves type; };
template <class T, bool ARG> struct v3_page_cfg { typedef typename v3_cfg<T, ARG>::type type; };
template <> struct v3_page_cfg<float, false> { typedef v3_cfg_page_words type; };
template <> struct v3_page_cfg<uint32_t, false> { typedef v3_cfg_page_words type; };
template <> struct v3_page_cfg<double, false> { typedef v3_cfg_page_double type; };

/* Pages that each fill the GPU run one by one on the 2-D path (its split-K and tuned tiles), as
 * do few pages of deep k whose batch leaves SMs idle, where split-K pays: a batch is run in one
 * launch when a page has fewer outputs than MP_PAGES_LOOP_OUTPUTS, unless the batch has fewer
 * than MP_PAGES_FILL_BLOCKS 64 x 64 tiles per SM and k is at least MP_PAGES_DEEP_K. */
#define MP_PAGES_LOOP_OUTPUTS ((size_t)1 << 22)
#define MP_PAGES_FILL_BLOCKS 4
#define MP_PAGES_DEEP_K 1024

/* ---- split-K (warptile_splits' cost model) ----
 * Fitted to a sweep of every split and cluster size at 1024^3, 2048^3 and 256 x 8192 x 256; on
 * the sweep that checked it the picks came within 0.6% of the fastest on average, 3.6% at worst:
 * slices at least 64 deep; each block costs 24 of depth beside its slice; a fold through
 * distributed shared memory about 2 pair updates per output and slice; the merge about 40 per
 * output and plane (it reads the plane from memory, which the kernel wrote), 2^20 per plane and
 * 4e7 for its launch (3 us at 13 Tpair/s); an SM with one block of 4 warps ran at 0.77 the rate
 * of one with four blocks, with two blocks at 0.93; the last wave's tail, 0.09 of a block; a
 * split must save 1%. */
static const warptile_split_cost mp_split_cost = {64,  24,           2,    40,  1 << 20,
                                                  4e7, {1.30, 1.07}, 0.09, 0.01};

/* The merge of split-K planes cuts each output's planes into runs, one per thread, only while the
 * outputs alone leave the GPU short of threads (about the threads an H100 holds at once): with
 * 2^20 outputs over 4 planes, four runs of one plane took 20 us where one run of 4 took 11, and a
 * deep split over few outputs (256 x 8192 x 256: 32-64 planes of 65536) took 14 us in one run. */
#define MP_MERGE_FILL_OUTPUTS (1u << 18)
#define MP_MERGE_MAX_RUNS 8

/* ---- integer (DPX) path ----
 * The passes over the operands (packing, ranges) are latency-bound: one wave of this many blocks
 * per SM and operand, each thread with several loads in flight, striding over the rest (at
 * 256 x 8192 x 256 the packing fell from 16 to 9 us, the range pass from 9 to 6). */
#define MP_PASS_BLOCKS_PER_SM 3
/* Bytes of an operand per thread of the range pass, before its grid is capped at one wave. */
#define MP_RANGE_BYTES_PER_THREAD 64

/* Below this many pair updates the 8- and 16-bit witness, and the 8-bit product, read Octave's
 * arrays as they are instead of a packed copy: widening costs a byte permute per word each time a
 * tile is read again (about 3% of those kernels), the packing's share falls as n grows. 1.05-1.19x
 * at 1024^3 and 256 x 8192 x 256, still ahead at 2048^3; the 16-bit witness read as it is was
 * 0.975-0.99x at 8192^3. */
#define MP_RAW_SMALL_PAIRS 4294967296.0
/* Single and double products of at most this many pair updates (m n k), with k up to
 * MP_SMALL_DEPTH, run on the small kernel (minplus_small.cu) when warptile is asked for: one call,
 * between events (H100, median of 31), took 10.2-10.5, 9.8 and 11.8-12.3 us at 64^3, 128^3 and
 * 256^3 on it, against v1's 10.4-10.6, 13.5-13.7 and 20.6-20.7 and cuBLAS sgemm's 17-19, 15-20
 * and 19-25 in the same processes; double 256^3 17.5 us against v1's 39. Warptile itself spends
 * such a call on a padded copy, a split and its merge (22.0, 20.3 and 25.1 us). Past k = 512 the
 * block's eight warps would each take a long slice, where split-K shares it over the SMs. The
 * thresholds were set for v1 and not swept again. */
#define MP_SMALL_PAIRS 16777216.0
#define MP_SMALL_DEPTH 512
/* The small kernel (minplus_small.cu): up to this many warps of a block share out k, each a
 * slice of at least MS_MIN_SLICE steps, staging chunks of its slice in shared memory: a block of
 * eight warps takes MS_CHUNK_BYTES (the static limit; chunks of 32 steps in single, 16 in
 * double), one of fewer warps its share of it. */
#define MS_MAX_GROUPS 8
#define MS_MIN_SLICE 16
#define MS_CHUNK_BYTES 49152
/* Below this depth small products stay on v1, which gives each output a thread: with one warp a
 * block the small kernel ran 4096 x 1 x 4096 in 194 us against v1's 67.5, 2048 x 4 x 2048 in
 * 59.3 against 23.9 and 1024 x 16 x 1024 in 22.9 against 17.0 (single; double alike; H200, one
 * process, when every block took 48 KB of shared memory whatever its warps). */
#define MS_MIN_DEPTH (2 * MS_MIN_SLICE)

#endif
