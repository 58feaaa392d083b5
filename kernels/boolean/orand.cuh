/* The or.and family's shared device definitions: the packed operands, the tuning constants of
 * every kernel, and the runners each file exports to the host code in orand.cu:
 *   orand_pack.cu     bytes -> bits (A by rows, B by columns), zero padding included
 *   orand_mma.cu      the tensor path: mma.sync m16n8k256 .b1 and.popc, cp.async pipeline
 *   orand_lop3.cu     the LOP3 path: 8x8 outputs per thread, acc |= a & b on 32-bit words
 *   orand_simple.cu   one thread per output: the plain reference the others are checked against
 *   orand_witness.cu  K, the first k of each true output, after C
 *   orand_ceiling.cu  the register-only probes of the tensor and LOP3 instructions
 *
 * The packed layout. Abits holds A by rows: m_pad rows of kw 32-bit words, bit b of word w of row
 * i is A(i, 32w + b) != 0. Bbits holds B by columns the same way: n_pad columns of kw words, bit b
 * of word w of column j is B(32w + b, j) != 0. Rows, columns and bits beyond the product's sizes
 * are zero, so a kernel may run over whole tiles without bounds checks on k: a padded bit never
 * makes a pair. Both are row-major with pitch kw (the words of one row, or of one column of B,
 * contiguous), which is what the tensor path's A and B fragments both want: a 16-byte chunk is
 * 128 consecutive k of one row. */
#ifndef CK_ORAND_CUH
#define CK_ORAND_CUH

#include <stdint.h>

#include "ck_internal.h"
#include "index.cuh"
#include "orand.h"

/* ---- tuning: every shape the kernels run with, in one place ----
 * Chosen on paper from the H100's limits (nothing here is measured yet: to be measured with
 * `dev/boolean --n 16384`):
 * - tensor path: the block tile is bounded by the register file. Each output needs an s32
 *   counter in a register for the whole k loop; 256 x 128 outputs over 256 threads is 128
 *   counters a thread, half the register file at one block per SM. A larger tile would read
 *   less from L2 (each k bit of the tile moves BM + BN bits for BM * BN pairs: 683 pairs a
 *   byte here, about 6 TB/s from L2 at 4000 Tpair/s), but does not fit. Warp tiles of 64 x 64
 *   read 4 KB of shared memory (8 ldmatrix.x4) per 32 mma; 64 x 32 would need 50% more
 *   shared-memory bandwidth per pair. 512 bits a stage and 4 stages keep 72 KB of loads in
 *   flight per SM, enough for L2's latency at that rate. GROUP_M: 8 tile rows per group keep a
 *   wave's operands (about 8 x 256 rows of A, 17 x 128 columns of B) inside L2.
 * - LOP3 path: 128 x 128 tiles of 16 x 16 threads, 8 x 8 outputs a thread (64 pairs of words per
 *   16 words read from shared memory), 8 words (256 k) a stage, double-buffered in registers.
 * - packing: 128 rows (A) or 8 columns (B) per block, as below. */
#define OA_MMA_BM 256    /* outputs per block along m (rows of C) */
#define OA_MMA_BN 128    /* ... along n */
#define OA_MMA_WM 64     /* outputs per warp along m */
#define OA_MMA_WN 64     /* ... along n */
#define OA_MMA_KW 16     /* 32-bit words of k per pipeline stage (512 bits) */
#define OA_MMA_STAGES 4  /* cp.async stages */
#define OA_MMA_GROUP_M 8 /* tile rows per rasterization group */
#define OA_MMA_THREADS ((OA_MMA_BM / OA_MMA_WM) * (OA_MMA_BN / OA_MMA_WN) * 32)

/* The tensor path's variants (ck_orand_set_variant; `dev/boolean --variants` checks and times
 * them all in one run). All compute the same 256 x 128 block tile with 512 bits a stage, so the
 * packed operands and their swizzled shared-memory stage are the same; they differ in how a
 * stage reaches shared memory and how it is multiplied. Variant 0 (orand_mma.cu) reached 48% of
 * the register-only mma.sync ceiling at n = 32768 (H100 SXM): with 1 block of 8 warps an SM,
 * every warp issuing its share of 1536 cp.async a stage and one __syncthreads a stage, and 24 KB
 * a stage from L2 for 16.8M pairs (about 3.6 TB/s at its 2462 Tpair/s; 5.9 TB/s at the 4000
 * aimed at, which L2 is unlikely to give). The others, sm_90 and later only:
 * - TMA (orand_mma_tma.cu): a producer warp loads each stage with 2 or 3 cp.async.bulk.tensor
 *   (the 64-byte TMA swizzle is exactly variant 0's XOR layout) onto full/empty mbarriers, so the
 *   8 mma warps issue nothing but ldmatrix and mma and never wait for each other; OA_TMA_STAGES
 *   deep. In clusters of CM x CN blocks (CM tiles down, CN across) the blocks of a cluster row
 *   share their rows of A and those of a column their columns of B, each loading a 1/CN slice of
 *   A and a 1/CM slice of B and multicasting it to the sharers: a block's L2 traffic a stage is
 *   24 KB (1 x 1), 16 KB (1 x 2: A is the larger operand, hence shared first), 12 KB (2 x 2).
 * - WGMMA (orand_mma_wgmma.cu): the same producer and pipeline, and two warpgroups that multiply
 *   from shared memory with wgmma.mma_async m64n128k256 .b1 and.popc, 128 x 128 outputs each:
 *   no ldmatrix, no fragments in registers, the mma issue asynchronous. Hopper's full tensor
 *   rate is reached only through wgmma (mma.sync tops out well below it for f16; for .b1 this is
 *   the first measurement), so this is the likeliest to pass 4000 Tpair/s. wgmma is an sm_90a
 *   feature: built only for arch=compute_90a (src/Makefile builds these files for sm_90a in
 *   place of sm_90; a build without it runs variant 3).
 * Measured (H100 SXM, dev/boolean --variants, the product kernel alone, Tpair/s at 8192 / 16384
 * / 32768, share of the 5128 mma.sync ceiling at 32768): v0 cp.async 2046 / 2300 / 2483 (48%);
 * TMA with mma.sync: v1 1 x 2 1571 / 1870 / 1981, v2 2 x 2 1437 / 1705 / 1842, v3 no cluster
 * 2540 / 3037 / 3301 (64%); wgmma: v4 1 x 2 2012 / 2406 / 2593, v5 2 x 2 1835 / 2194 / 2368, v6
 * no cluster 4057 / 4438 / 4523 (88%; the whole call with the packing 4046 at 32768). The
 * clusters lost every time: the traffic they save was not the limit, their synchronization cost
 * more. The default is the first of v6, v3 that runs (orand_mma.cu).
 * The variant table (name, kind, cluster shape) is in orand_mma.cu. */
#define OA_TMA_STAGES 8                          /* 8 x 24 KB: 192 of the 227 KB a block gets */
#define OA_TMA_WARPS 8                           /* mma warps (the producer is one more) */
#define OA_TMA_THREADS ((OA_TMA_WARPS + 1) * 32) /* 288: up to 224 registers a thread */
#define OA_TMA_WATCHDOG_NS 2000000000ull         /* a barrier wait this long is a hang */

#define OA_LOP_TILE 128 /* outputs per block each way */
#define OA_LOP_KW 8     /* words of k per stage */
#define OA_LOP_THREADS 256

#define OA_PACK_ROWS 128  /* rows of A per packing block (4 a lane) */
#define OA_PACK_WORDS 8   /* words of A per packing block (one a warp) */
#define OA_PACKB_COLS 8   /* columns of B per packing block (one a warp) */
#define OA_PACKB_WORDS 64 /* words of one column a warp packs */

#define OA_THREADS 256 /* the element-wise kernels (SIMPLE, witness) */
/* Words each lane of the witness reads alone before its warp searches together: four are one
 * 16-byte load and find the first pair of nearly every output of a dense product. */
#define OA_WITNESS_PROBE 4
#define OA_WITNESS_COLS 8 /* columns a warp's 32 rows are searched against */

/* The largest 1-D grid a launch gets; longer work is launched in pieces or strided. */
#define OA_MAX_GRID 0x40000000u

/* The packed operands and the product's sizes. */
struct oa_packed {
  const uint32_t *A; /* m_pad rows x kw words */
  const uint32_t *B; /* n_pad columns x kw words */
  size_t m, n, k;
  size_t m_pad, n_pad, kw;
};

/* The runners: each launches its kernels on the default stream and checks the launch. */
/* orand_pack.cu: Abits and Bbits of q's padded sizes from the bytes of p. */
ck_status oa_pack(const ck_product *p, const oa_packed &q, uint32_t *Abits, uint32_t *Bbits);
/* orand_pack.cu: the columns of the k-by-n bytes B (column-major) as n_pad rows of kw words, bit
 * b of word w of row j = B(32w + b, j) != 0, the padding zero (n_pad a multiple of 8); oa_pack's
 * B, and the closure's matrix (closure.cu). */
ck_status oa_pack_columns(const uint8_t *B, uint32_t *Bbits, size_t k, size_t n, size_t n_pad,
                          size_t kw);
/* orand_mma.cu: whether the tensor kernel can run on the current device (a device of sm_80 or
 * later, and this build's code for it made for sm_80 or later: a build from compute_75 PTX alone
 * has the kernel compiled away). */
int oa_mma_available(void);
ck_status oa_run_mma(const oa_packed &q, uint8_t *C);
/* The tensor path's block tile multiple, rows and columns, for the current variant: a cluster's
 * tiles, so that every block of every cluster has its tile inside the padded operands. */
void oa_mma_padding(size_t *rows, size_t *cols);
/* The variants' kinds; orand_mma_tma.cu runs the TMA kinds (KIND_TMA, KIND_WGMMA): whether one
 * can run here (device, build, cluster placement), and the run. */
enum { OA_KIND_CPASYNC = 0, OA_KIND_TMA, OA_KIND_WGMMA };
int oa_tma_available(int kind, int cm, int cn);
ck_status oa_run_tma(const oa_packed &q, uint8_t *C, int kind, int cm, int cn);
ck_status oa_run_lop3(const oa_packed &q, uint8_t *C);
ck_status oa_run_simple(const oa_packed &q, uint8_t *C, double *K);
ck_status oa_run_witness(const oa_packed &q, const uint8_t *C, double *K);

/* The paddings each path's kernels need of the packed operands: rows, columns, words. */
static inline void oa_padding(int path, size_t *rows, size_t *cols, size_t *words) {
  if (path == CK_ORAND_TENSOR) {
    oa_mma_padding(rows, cols);
    *words = OA_MMA_KW;
  } else if (path == CK_ORAND_LOP3) {
    *rows = OA_LOP_TILE;
    *cols = OA_LOP_TILE;
    *words = OA_LOP_KW;
  } else { /* SIMPLE: whatever the packing's blocks need */
    *rows = OA_PACK_ROWS;
    *cols = OA_PACKB_COLS;
    *words = OA_PACK_WORDS;
  }
}

#endif
