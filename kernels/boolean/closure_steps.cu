/* The closure's steps other than the tensor product (closure.cuh lists the files).
 *
 * The method: Warshall's algorithm (for each k: M |= M(:,k) & M(k,:), starting from M = G; no
 * diagonal is added, so M ends as the transitive closure) taken a pivot block K = [k0, k0 + B) at
 * a time. With D = M(K,K), R = M(K,:) the row strip, C = M(:,K) the column strip, D+ the
 * transitive closure of D and D* = D+ | I, a round is
 *   1. close: D* from D, by Warshall within the block (one thread block, cl_close_kernel);
 *   2. transpose: T = R^T, np rows of B / 32 words (cl_transpose_kernel);
 *   3. strip: T' = T x D*^T as or.and, i.e. T'(j, c) = OR_k R(k, j) & D*(c, k): T' = R'^T with
 *      R' = D* R, the row strip with every path through K;
 *   4. rest: M(i, j) |= OR_{k in K} M(i, k) & T'(j, k), i.e. M |= C R', over the whole matrix.
 * Step 4 gives every block what blocked Floyd-Warshall gives it: the rows K get R | D R' = R'
 * (as D R' = D D* R = D+ R), the column strip C | C D+ = C D*, the rest M | C R' =
 * M | (C D*)(D* R), and the diagonal block D | D D+ = D+. It runs in place: a tile that covers
 * columns K writes words of C while other tiles read C as their A operand. That race is benign:
 * every word a tile can read lies between C and C D* (bits are only ever added, each word by one
 * thread, as old | new), and both give the same product with R', since C D* R' = C D* D* R =
 * C R'. Padded rows and columns stay zero: a zero row of M adds nothing, and a padded column j of
 * R' is D* R(:, j) = 0 (the identity of D* meets only zero rows of R).
 * Steps 3 and 4 are the tensor product of closure_mma.cu, or cl_simple_kernel below. */
#include "closure.cuh"

/* ---- 1. close: D* = (Warshall within the pivot block) | I ----
 * One block, one row of D a thread in registers (CL_WORDS words). The pivots go 32 at a time:
 * batch q is pivots 32q .. 32q+31, which are the rows of warp q. That warp first closes its own
 * rows: the 32 x 32 diagonal piece by Warshall across its lanes (shuffles), then each row ORs in
 * the rows (as they were) that the closed piece says it reaches: its rows are then D* R over the
 * batch, the batch's R'. It publishes them in shared memory, and every other row i ORs in the
 * published rows its own bits of the batch select: the in-block form of step 4 above (row i
 * |= C_i R'), which needs no order among the 32. One __syncthreads a batch (the published rows
 * are double-buffered). Cost: B^3 / 32 LOP3 a block, about 0.3M cycles at B = 1024. */
__device__ __forceinline__ uint32_t cl_word(const uint32_t (&row)[CL_WORDS], int q) {
  uint32_t v = 0;
#pragma unroll
  for (int w = 0; w < CL_WORDS; w++) v = w == q ? row[w] : v;
  return v;
}

/* row |= the published rows b that `bits` selects. */
__device__ __forceinline__ void cl_or_rows(uint32_t (&row)[CL_WORDS], uint32_t bits,
                                           const uint32_t (*P)[CL_PPITCH]) {
#pragma unroll 1
  for (int b = 0; b < 32; b++) {
    const uint32_t mask = 0u - ((bits >> b) & 1u);
#pragma unroll
    for (int w = 0; w < CL_WORDS; w += 4) {
      const uint4 p = *(const uint4 *)&P[b][w];
      row[w] |= p.x & mask;
      row[w + 1] |= p.y & mask;
      row[w + 2] |= p.z & mask;
      row[w + 3] |= p.w & mask;
    }
  }
}

__device__ __forceinline__ void cl_publish(const uint32_t (&row)[CL_WORDS], uint32_t *dst) {
#pragma unroll
  for (int w = 0; w < CL_WORDS; w += 4)
    *(uint4 *)&dst[w] = make_uint4(row[w], row[w + 1], row[w + 2], row[w + 3]);
}

__global__ void __launch_bounds__(CL_BLOCK, 1)
    cl_close_kernel(const uint32_t *__restrict__ M, size_t nw, size_t k0,
                    uint32_t *__restrict__ Dstar) {
  __shared__ __align__(16) uint32_t P[2][32][CL_PPITCH];
  const unsigned i = threadIdx.x, lane = i & 31, warp = i >> 5;
  uint32_t row[CL_WORDS];
  const uint32_t *src = M + (k0 + i) * nw + k0 / 32;
#pragma unroll
  for (int w = 0; w < CL_WORDS; w += 4) {
    const uint4 v = *(const uint4 *)&src[w];
    row[w] = v.x, row[w + 1] = v.y, row[w + 2] = v.z, row[w + 3] = v.w;
  }
#pragma unroll 1
  for (int q = 0; q < CL_WORDS; q++) {
    uint32_t(*Pq)[CL_PPITCH] = P[q & 1];
    const uint32_t mine = cl_word(row, q); /* my row's bits of the batch */
    if (warp == (unsigned)q) {
      uint32_t d = mine; /* the 32 x 32 piece, closed by Warshall across the lanes */
#pragma unroll
      for (int b = 0; b < 32; b++) {
        const uint32_t pivot = __shfl_sync(0xffffffffu, d, b);
        if ((d >> b) & 1u) d |= pivot;
      }
      cl_publish(row, Pq[lane]);
      __syncwarp();
      cl_or_rows(row, d, Pq);
      __syncwarp();
      cl_publish(row, Pq[lane]);
    }
    __syncthreads();
    if (warp != (unsigned)q) cl_or_rows(row, mine, Pq);
  }
  uint32_t *dst = Dstar + (size_t)i * CL_WORDS;
#pragma unroll
  for (int w = 0; w < CL_WORDS; w += 4) {
    uint4 v = make_uint4(row[w], row[w + 1], row[w + 2], row[w + 3]);
    /* D* = D+ | I */
    if (w / 4 == (int)(i / 128)) {
      const uint32_t bit = 1u << (i % 32);
      const unsigned at = (i / 32) % 4;
      v.x |= at == 0 ? bit : 0u;
      v.y |= at == 1 ? bit : 0u;
      v.z |= at == 2 ? bit : 0u;
      v.w |= at == 3 ? bit : 0u;
    }
    *(uint4 *)&dst[w] = v;
  }
}

ck_status cl_run_close(const uint32_t *M, size_t nw, size_t k0, uint32_t *Dstar) {
  cl_close_kernel<<<1, CL_BLOCK>>>(M, nw, k0, Dstar);
  CK_CUDA(cudaGetLastError(), "launching the closure's block close");
  return CK_OK;
}

/* ---- 2. transpose: T(j, k) = M(k0 + k, j), np rows of CL_WORDS words ----
 * A block takes CL_TR_COLS word columns of the row strip (32 * CL_TR_COLS rows of T): it reads
 * them (all B rows) into shared memory, turns each 32 x 32 bit piece with 32 ballots of a warp
 * (lane l holds the word of strip row 32a + l; ballot b is T's word a of row 32c + b), and writes
 * whole rows of T. The pitches (CL_TR_COLS + 1, CL_WORDS + 1) keep both sides conflict-free. */
#define CL_TR_IN (CL_TR_COLS + 1)
#define CL_TR_OUT (CL_WORDS + 1)
#define CL_TR_SMEM ((CL_BLOCK * CL_TR_IN + 32 * CL_TR_COLS * CL_TR_OUT) * 4)

__global__ void __launch_bounds__(CL_TR_THREADS)
    cl_transpose_kernel(const uint32_t *__restrict__ M, size_t nw, size_t k0,
                        uint32_t *__restrict__ T) {
  extern __shared__ uint32_t tr_smem[];
  uint32_t *in = tr_smem, *out = tr_smem + CL_BLOCK * CL_TR_IN;
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const size_t jw0 = (size_t)blockIdx.x * CL_TR_COLS;
  for (unsigned idx = threadIdx.x; idx < CL_BLOCK * CL_TR_COLS; idx += CL_TR_THREADS) {
    const unsigned r = idx / CL_TR_COLS, c = idx % CL_TR_COLS;
    in[r * CL_TR_IN + c] = M[(k0 + r) * nw + jw0 + c];
  }
  __syncthreads();
  for (unsigned piece = warp; piece < CL_WORDS * CL_TR_COLS; piece += CL_TR_THREADS / 32) {
    const unsigned a = piece / CL_TR_COLS, c = piece % CL_TR_COLS;
    const uint32_t x = in[(32 * a + lane) * CL_TR_IN + c];
    uint32_t mine = 0;
#pragma unroll
    for (int b = 0; b < 32; b++) {
      const uint32_t col = __ballot_sync(0xffffffffu, (x >> b) & 1u);
      mine = lane == (unsigned)b ? col : mine;
    }
    out[(32 * c + lane) * CL_TR_OUT + a] = mine;
  }
  __syncthreads();
  uint32_t *dst = T + jw0 * 32 * CL_WORDS;
  for (unsigned idx = threadIdx.x; idx < 32 * CL_TR_COLS * CL_WORDS; idx += CL_TR_THREADS)
    dst[idx] = out[(idx / CL_WORDS) * CL_TR_OUT + idx % CL_WORDS];
}

ck_status cl_run_transpose(const uint32_t *M, size_t nw, size_t k0, uint32_t *T) {
  CK_CUDA(cudaFuncSetAttribute(cl_transpose_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               CL_TR_SMEM),
          "allowing the closure's transpose its shared memory");
  const size_t blocks = nw / CL_TR_COLS;
  if (nw % CL_TR_COLS || blocks > OA_MAX_GRID)
    return ck_fail(CK_ERR_INVALID, "closure: cannot transpose %zu words", nw);
  cl_transpose_kernel<<<(unsigned)blocks, CL_TR_THREADS, CL_TR_SMEM>>>(M, nw, k0, T);
  CK_CUDA(cudaGetLastError(), "launching the closure's transpose");
  return CK_OK;
}

/* ---- 3 and 4 on the SIMPLE path: one thread per output word ----
 * Each of the word's 32 columns j scans A's row and B's row j until the first common bit. */
__global__ void __launch_bounds__(OA_THREADS) cl_simple_kernel(cl_product p) {
  const size_t cw = p.cols / 32, total = p.rows * cw, stride = (size_t)gridDim.x * blockDim.x;
  for (size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += stride) {
    size_t i, w;
    split_index(idx, cw, i, w);
    const uint32_t *a = p.A + i * p.lda + p.a0;
    uint32_t bits = 0;
    for (unsigned b = 0; b < 32; b++) {
      const uint32_t *bj = p.B + (32 * w + b) * p.ldb;
      for (size_t c = 0; c < p.kw; c++)
        if (a[c] & bj[c]) {
          bits |= 1u << b;
          break;
        }
    }
    uint32_t *out = p.C + i * p.ldc + w;
    if (p.accumulate) bits |= *out;
    *out = bits;
  }
}

ck_status cl_run_simple(const cl_product &p) {
  const size_t blocks = (p.rows * (p.cols / 32) + OA_THREADS - 1) / OA_THREADS;
  cl_simple_kernel<<<(unsigned)(blocks < OA_MAX_GRID ? blocks : OA_MAX_GRID), OA_THREADS>>>(p);
  CK_CUDA(cudaGetLastError(), "launching the closure's simple product");
  return CK_OK;
}

/* ---- unpacking: R(:, j) from row j of M, 16 bytes a thread ----
 * Row j of the result (of G^T) is column j of R: bytes i0 .. i0 + 15 are 16 bits of one word.
 * WIDE (n a multiple of 16 and R aligned): one 16-byte store; else byte by byte. */
__device__ __forceinline__ unsigned cl_spread4(unsigned nibble) { /* bit q -> byte q */
  return (nibble | nibble << 7 | nibble << 14 | nibble << 21) & 0x01010101u;
}

template <bool WIDE>
__global__ void __launch_bounds__(OA_THREADS)
    cl_unpack_kernel(const uint32_t *__restrict__ M, size_t nw, uint8_t *__restrict__ R, size_t n,
                     int reflexive) {
  const size_t per_col = (n + 15) / 16, total = n * per_col;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += stride) {
    size_t j, piece;
    split_index(idx, per_col, j, piece);
    const size_t i0 = 16 * piece;
    unsigned bits = (M[j * nw + i0 / 32] >> (i0 % 32)) & 0xffffu;
    if (reflexive && j >= i0 && j < i0 + 16) bits |= 1u << (j - i0);
    uint8_t *col = R + j * n + i0;
    if (WIDE) {
      *(uint4 *)col = make_uint4(cl_spread4(bits & 15), cl_spread4((bits >> 4) & 15),
                                 cl_spread4((bits >> 8) & 15), cl_spread4(bits >> 12));
    } else {
      for (unsigned e = 0; e < 16 && i0 + e < n; e++) col[e] = (bits >> e) & 1u;
    }
  }
}

ck_status cl_run_unpack(const uint32_t *M, size_t nw, uint8_t *R, size_t n, int reflexive) {
  const size_t blocks = (n * ((n + 15) / 16) + OA_THREADS - 1) / OA_THREADS;
  const unsigned grid = (unsigned)(blocks < OA_MAX_GRID ? blocks : OA_MAX_GRID);
  if (n % 16 == 0 && ((uintptr_t)R & 15) == 0)
    cl_unpack_kernel<true><<<grid, OA_THREADS>>>(M, nw, R, n, reflexive);
  else cl_unpack_kernel<false><<<grid, OA_THREADS>>>(M, nw, R, n, reflexive);
  CK_CUDA(cudaGetLastError(), "launching the closure's unpacking");
  return CK_OK;
}
