/* The closure's shared device definitions (closure.h is the API): the tuning constants, the
 * packed matrix's layout, and the runners each file exports to the host driver in closure.cu:
 *   closure_steps.cu  unpacking, closing the pivot block, transposing the row strip, and the
 *                     SIMPLE product (one thread per output word)
 *   closure_mma.cu    the tensor product: persistent wgmma .b1 blocks with a bit epilogue
 * The packing is or.and's (orand_pack.cu's oa_pack_columns).
 *
 * The packed matrix M: np rows (n rounded up to CL_BLOCK) of nw = np / 32 words, row-major; bit b
 * of word w of row i is M(i, 32w + b); the padding is zero and stays zero. M starts as G^T (the
 * columns of G are contiguous bytes, so G^T is what packs cheaply), and since
 * closure (G^T) = closure (G)^T, row j of the result unpacks into column j of R, contiguous too. */
#ifndef CK_CLOSURE_CUH
#define CK_CLOSURE_CUH

#include <stdint.h>

#include "closure.h"
#include "orand.cuh"

/* ---- tuning: in one place ----
 * CL_BLOCK, the pivot block B (bits), a multiple of 512 (the product's stage) and of 256 (its
 * tile rows), at most 1024 (the close kernel holds a row a thread, one block). Chosen on paper
 * for an H100; measured since (`dev/closure`, doc/NOTES.md): the close took 0.41 ms a round,
 * not 0.18, and the rest ran 1,990-2,265 Tpair/s; n = 16384 in 9.3 ms, 65536 in 158 ms, both
 * within the goals, so 512 has not been tried. The estimates:
 * - the close is one block's work, B^3 bit pairs on LOP3 from registers with B / 32 barriers:
 *   about 0.3M cycles at 1024 (some 0.18 ms a round: 12 ms of 64 rounds at n = 65536), about an
 *   eighth of that at 512 with twice the rounds.
 * - the rest's product has only B bits of k a tile, 2 stages at 1024 (1 at 512), and reads and
 *   writes its tile of M (4 KB each way) once a round: at 1024, M moves 2 x 512 MiB a round at
 *   n = 65536, 64 GiB in all, about 20 ms of HBM beside 60 ms of tensor work; at 512 twice that,
 *   and the epilogue's latency is half hidden by one stage of mma.
 * 1024 then; 512 is the first alternative to measure.
 * CL_TR_COLS: word columns of the row strip per transpose block (32 * CL_TR_COLS rows of T, all
 *   of their words: whole 128-byte rows out; the reads are 16-byte pieces of B rows).
 * CL_POLL_ROUNDS: rounds between Ctrl-C polls; the poll waits for the rounds queued before the
 *   last poll, so the GPU never runs dry. */
#define CL_BLOCK 1024
#define CL_WORDS (CL_BLOCK / 32) /* words of a pivot block's row */
#define CL_TR_COLS 4
#define CL_TR_THREADS 256
#define CL_POLL_ROUNDS 4
#define CL_PPITCH \
  36 /* the close kernel's pivot rows in shared memory: 16-byte aligned, no \
                        conflicts for 8 lanes' 16-byte stores */

static_assert(CL_BLOCK % 512 == 0 && CL_BLOCK <= 1024, "the pivot block: 512 or 1024 bits");

/* A product into packed bits: C(i, j) (|)= OR_k A(i, k) & B(j, k) for i < rows, j < cols (bits),
 * k over kw words: A's row i is words a0 .. a0 + kw - 1 of A + i * lda, B's row j is words
 * 0 .. kw - 1 of B + j * ldb, C's row i is words 0 .. cols / 32 - 1 of C + i * ldc. rows a
 * multiple of 256, cols of 128, kw of OA_MMA_KW (the tensor kernel's tile and stage); a_rows,
 * b_rows: the rows A and B hold (the tensor maps' bounds). accumulate: C |= the product (C may
 * then be A itself: closure_steps.cu says why that race is benign), else C = it. */
struct cl_product {
  const uint32_t *A;
  size_t lda, a0, a_rows;
  const uint32_t *B;
  size_t ldb, b_rows;
  uint32_t *C;
  size_t ldc, rows, cols, kw;
  int accumulate;
};

/* closure_steps.cu */
ck_status cl_run_close(const uint32_t *M, size_t nw, size_t k0, uint32_t *Dstar);
ck_status cl_run_transpose(const uint32_t *M, size_t nw, size_t k0, uint32_t *T);
ck_status cl_run_simple(const cl_product &p);
ck_status cl_run_unpack(const uint32_t *M, size_t nw, uint8_t *R, size_t n, int reflexive);
/* closure_mma.cu: whether the tensor product can run on the current device (Hopper, sm_90a code in
 * this build, the tensor map encoder), and the run. */
int cl_mma_available(void);
ck_status cl_run_mma(const cl_product &p);

#endif
