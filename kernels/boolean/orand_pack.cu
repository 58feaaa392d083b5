/* Packing: the byte operands into the bit layout of orand.cuh, zero padding included. Both passes
 * read each operand byte once, in loads a warp spends on contiguous bytes, and write the packed
 * words (an eighth of the bytes read) in whole 32-byte sectors or better. At n = 32768 they read
 * 1 GiB per operand, so the loads are what costs: they are 4 or 16 bytes wide wherever the sizes
 * let the addresses be aligned, and single bytes (still coalesced) elsewhere. */
#include "orand.cuh"

/* Bit q of the result (q < 4) says whether byte q of x is nonzero. The multiply gathers the four
 * 0/1 bytes into the top byte with no carries (the partial sums stay below 16). */
__device__ __forceinline__ unsigned oa_nonzero_nibble(unsigned x) {
  return ((__vcmpne4(x, 0u) & 0x01010101u) * 0x01020408u) >> 24;
}

/* ---- A (m-by-k, column-major) by rows ----
 * A block packs rows i0 .. i0+127 and words w0 .. w0+7; warp y makes word w0+y of all 128 rows
 * from the 32 columns k = 32(w0+y) .. +31. Consecutive rows are contiguous in a column, so a
 * warp's load covers 128 consecutive bytes (WIDE: 4 rows a lane as one 32-bit load, when m is a
 * multiple of 4) or 32 (one byte a lane). The words meet in shared memory, stored [word][row] so
 * that both the warps' stores and the write-out below are free of bank conflicts (pitch 132:
 * the write-out's two word halves land 16 banks apart), and leave as 32 contiguous bytes a row. */
#define OA_PACK_PITCH (OA_PACK_ROWS + 4)

template <bool WIDE>
__global__ void __launch_bounds__(256)
    oa_pack_a(const uint8_t *__restrict__ A, uint32_t *__restrict__ Abits, size_t m, size_t k,
              size_t kw, size_t row_blocks) {
  __shared__ __align__(16) uint32_t tile[OA_PACK_WORDS][OA_PACK_PITCH];
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  size_t wb, rb;
  split_index(blockIdx.x, row_blocks, wb, rb);
  const size_t i0 = rb * OA_PACK_ROWS, w = wb * OA_PACK_WORDS + warp, k0 = w * 32;
  if (WIDE) {
    /* rows i0 + 4 lane .. +3: m is a multiple of 4, so they are all in or all out */
    const size_t i = i0 + 4 * lane;
    unsigned acc[4] = {0, 0, 0, 0}; /* byte r of acc[q]: row r's bits for k0 + 8q .. +7 */
    if (i < m) {
#pragma unroll
      for (int b = 0; b < 32; b++) {
        const size_t kk = k0 + b;
        unsigned x = kk < k ? *(const unsigned *)(A + kk * m + i) : 0u;
        acc[b >> 3] |= (__vcmpne4(x, 0u) & 0x01010101u) << (b & 7);
      }
    }
    uint4 words;
    unsigned *wr = &words.x;
#pragma unroll
    for (int r = 0; r < 4; r++) { /* row r's word: byte r of acc[0..3], in that order */
      unsigned lo = __byte_perm(acc[0], acc[1], r | (r + 4) << 4);
      unsigned hi = __byte_perm(acc[2], acc[3], r | (r + 4) << 4);
      wr[r] = __byte_perm(lo, hi, 0x5410);
    }
    *(uint4 *)&tile[warp][4 * lane] = words;
  } else {
#pragma unroll
    for (int r = 0; r < 4; r++) {
      const size_t i = i0 + lane + 32 * r;
      unsigned word = 0;
      if (i < m) {
#pragma unroll 8
        for (int b = 0; b < 32; b++) {
          const size_t kk = k0 + b;
          if (kk < k && A[kk * m + i]) word |= 1u << b;
        }
      }
      tile[warp][lane + 32 * r] = word;
    }
  }
  __syncthreads();
  /* thread t: row t / 2, words 4 (t % 2) .. +3, one 16-byte store (kw is a multiple of 8) */
  const unsigned row = threadIdx.x >> 1, half = threadIdx.x & 1;
  uint4 out;
  out.x = tile[4 * half + 0][row];
  out.y = tile[4 * half + 1][row];
  out.z = tile[4 * half + 2][row];
  out.w = tile[4 * half + 3][row];
  *(uint4 *)(Abits + (i0 + row) * kw + wb * OA_PACK_WORDS + 4 * half) = out;
}

/* ---- B (k-by-n, column-major) by columns ----
 * Column j is contiguous along k, which is the packed order itself: warp y of a block packs words
 * w0 .. w0+63 of column j0 + y. WIDE (k a multiple of 16, so every column starts 16-byte
 * aligned): a lane loads 16 bytes, makes 16 bits, and two lanes make a word. Otherwise a lane
 * loads one byte and the warp's ballot is the word. */
template <bool WIDE>
__global__ void __launch_bounds__(256)
    oa_pack_b(const uint8_t *__restrict__ B, uint32_t *__restrict__ Bbits, size_t k, size_t n,
              size_t kw, size_t col_blocks) {
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  size_t wb, cb;
  split_index(blockIdx.x, col_blocks, wb, cb);
  const size_t j = cb * OA_PACKB_COLS + warp, w0 = wb * OA_PACKB_WORDS;
  const uint8_t *col = B + j * k;
  uint32_t *dst = Bbits + j * kw;
  const bool live = j < n;
  if (WIDE) {
    /* 512 bytes (16 words) a round; lane l covers bytes 16 l .. +15 of the round */
#pragma unroll
    for (int s = 0; s < OA_PACKB_WORDS / 16; s++) {
      const size_t w = w0 + 16 * s, byte = 32 * w + 16 * lane;
      uint4 v = make_uint4(0, 0, 0, 0);
      if (live && byte < k) v = *(const uint4 *)(col + byte);
      unsigned half = oa_nonzero_nibble(v.x) | oa_nonzero_nibble(v.y) << 4 |
                      oa_nonzero_nibble(v.z) << 8 | oa_nonzero_nibble(v.w) << 12;
      unsigned other = __shfl_xor_sync(0xffffffffu, half, 1);
      if (!(lane & 1) && w + lane / 2 < kw) dst[w + lane / 2] = half | other << 16;
    }
  } else {
#pragma unroll
    for (int s = 0; s < OA_PACKB_WORDS / 32; s++) {
      const size_t w = w0 + 32 * s;
      unsigned mine = 0; /* lane t keeps word w + t */
#pragma unroll 8
      for (int t = 0; t < 32; t++) {
        const size_t kk = 32 * (w + t) + lane;
        unsigned bits = __ballot_sync(0xffffffffu, live && kk < k && col[kk] != 0);
        if (lane == (unsigned)t) mine = bits;
      }
      if (w + lane < kw) dst[w + lane] = mine;
    }
  }
}

ck_status oa_pack(const ck_product *p, const oa_packed &q, uint32_t *Abits, uint32_t *Bbits) {
  const uint8_t *A = (const uint8_t *)p->A, *B = (const uint8_t *)p->B;
  /* The wide loads need aligned columns: sizes that keep every column's start aligned, and the
   * arrays' own starts aligned (the allocator's always are; a caller's offset pointer may not). */
  const bool wide_a = q.m % 4 == 0 && ((uintptr_t)A & 3) == 0;
  const size_t row_blocks = q.m_pad / OA_PACK_ROWS, a_blocks = row_blocks * (q.kw / OA_PACK_WORDS);
  if (a_blocks > OA_MAX_GRID)
    return ck_fail(CK_ERR_INVALID, "or.and: operands too large to pack (%zu x %zu x %zu)", q.m, q.k,
                   q.n);
  if (wide_a) oa_pack_a<true><<<(unsigned)a_blocks, 256>>>(A, Abits, q.m, q.k, q.kw, row_blocks);
  else oa_pack_a<false><<<(unsigned)a_blocks, 256>>>(A, Abits, q.m, q.k, q.kw, row_blocks);
  CK_CUDA(cudaGetLastError(), "launching the or.and packing of A");
  return oa_pack_columns(B, Bbits, q.k, q.n, q.n_pad, q.kw);
}

ck_status oa_pack_columns(const uint8_t *B, uint32_t *Bbits, size_t k, size_t n, size_t n_pad,
                          size_t kw) {
  const bool wide_b = k % 16 == 0 && ((uintptr_t)B & 15) == 0;
  const size_t col_blocks = n_pad / OA_PACKB_COLS;
  const size_t b_blocks = col_blocks * ((kw + OA_PACKB_WORDS - 1) / OA_PACKB_WORDS);
  if (n_pad % OA_PACKB_COLS || b_blocks > OA_MAX_GRID)
    return ck_fail(CK_ERR_INVALID, "or.and: cannot pack %zu columns of %zu (%zu padded)", n, k,
                   n_pad);
  if (wide_b) oa_pack_b<true><<<(unsigned)b_blocks, 256>>>(B, Bbits, k, n, kw, col_blocks);
  else oa_pack_b<false><<<(unsigned)b_blocks, 256>>>(B, Bbits, k, n, kw, col_blocks);
  CK_CUDA(cudaGetLastError(), "launching the or.and packing of B");
  return CK_OK;
}
