/* The LOP3 path, for GPUs without the tensor path: each thread keeps 8 x 8 outputs as 32-bit
 * words, acc |= a & b per word of k (one LOP3 each: 32 pairs an instruction), and C(i,j) =
 * acc != 0 at the end; branch-free, so the loop runs at the rate of the logic pipe whatever the
 * data.
 *
 * A block of 16 x 16 threads computes a 128 x 128 tile of C. k advances OA_LOP_KW words a stage;
 * the next stage's words are loaded into registers (one 16-byte load of each operand a thread)
 * while the current one is computed, then stored into the other of two shared buffers, [word]
 * [row] with pitch 132 words: the transposing stores of a warp (16 rows x 2 word halves) then
 * land in 32 distinct banks. Thread (tx, ty) reads rows 4 tx .. +3 and 64 + 4 tx .. +3 of A and
 * columns 4 ty .. and 64 + 4 ty .. of B as 16-byte vectors: a warp's A reads are 8 lanes over
 * 128 contiguous bytes per phase (no conflicts) and its B reads are two broadcasts. */
#include "orand.cuh"

#define OA_LOP_PITCH (OA_LOP_TILE + 4)
#define OA_LOP_HALF (OA_LOP_TILE / 2)

static_assert(OA_LOP_THREADS == 256 && OA_LOP_TILE == 128 && OA_LOP_KW == 8,
              "one 16-byte load of each operand per thread and stage");

__global__ void __launch_bounds__(OA_LOP_THREADS, 2)
    oa_lop3_kernel(oa_packed q, uint8_t *__restrict__ C, size_t tile0, int wide_c) {
  __shared__ __align__(16) uint32_t As[2][OA_LOP_KW][OA_LOP_PITCH];
  __shared__ __align__(16) uint32_t Bs[2][OA_LOP_KW][OA_LOP_PITCH];
  const unsigned tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
  const size_t tiles_m = q.m_pad / OA_LOP_TILE;
  size_t tn, tm;
  split_index(tile0 + blockIdx.x, tiles_m, tn, tm);
  /* this thread's share of each stage's loads: row (or column) t / 2, words 4 (t % 2) .. +3 */
  const unsigned lr = threadIdx.x >> 1, lh = threadIdx.x & 1;
  const uint32_t *ga = q.A + (tm * OA_LOP_TILE + lr) * q.kw + 4 * lh;
  const uint32_t *gb = q.B + (tn * OA_LOP_TILE + lr) * q.kw + 4 * lh;
  const size_t stages = q.kw / OA_LOP_KW;

  uint32_t acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; i++)
#pragma unroll
    for (int j = 0; j < 8; j++) acc[i][j] = 0;

  uint4 va = *(const uint4 *)ga, vb = *(const uint4 *)gb;
  int buf = 0;
  for (size_t s = 0; s < stages; s++) {
    As[buf][4 * lh + 0][lr] = va.x;
    As[buf][4 * lh + 1][lr] = va.y;
    As[buf][4 * lh + 2][lr] = va.z;
    As[buf][4 * lh + 3][lr] = va.w;
    Bs[buf][4 * lh + 0][lr] = vb.x;
    Bs[buf][4 * lh + 1][lr] = vb.y;
    Bs[buf][4 * lh + 2][lr] = vb.z;
    Bs[buf][4 * lh + 3][lr] = vb.w;
    __syncthreads();
    if (s + 1 < stages) { /* in flight during the arithmetic below */
      va = *(const uint4 *)(ga + (s + 1) * OA_LOP_KW);
      vb = *(const uint4 *)(gb + (s + 1) * OA_LOP_KW);
    }
#pragma unroll
    for (int w = 0; w < OA_LOP_KW; w++) {
      uint32_t a[8], b[8];
      *(uint4 *)&a[0] = *(const uint4 *)&As[buf][w][4 * tx];
      *(uint4 *)&a[4] = *(const uint4 *)&As[buf][w][OA_LOP_HALF + 4 * tx];
      *(uint4 *)&b[0] = *(const uint4 *)&Bs[buf][w][4 * ty];
      *(uint4 *)&b[4] = *(const uint4 *)&Bs[buf][w][OA_LOP_HALF + 4 * ty];
#pragma unroll
      for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < 8; j++) acc[i][j] |= a[i] & b[j];
    }
    /* The other buffer is written next; the barrier above (before this stage's reads) already
     * ordered everyone's reads of it, two stages back. */
    buf ^= 1;
  }

  const size_t i0 = tm * OA_LOP_TILE, j0 = tn * OA_LOP_TILE;
#pragma unroll
  for (int j = 0; j < 8; j++) {
    const size_t col = j0 + (j < 4 ? 4 * ty + j : OA_LOP_HALF + 4 * ty + j - 4);
    if (col >= q.n) continue;
#pragma unroll
    for (int h = 0; h < 2; h++) { /* rows 4 tx .. +3, then 64 + 4 tx .. +3 */
      const size_t row = i0 + h * OA_LOP_HALF + 4 * tx;
      unsigned bytes = 0;
#pragma unroll
      for (int r = 0; r < 4; r++) bytes |= (unsigned)(acc[4 * h + r][j] != 0) << (8 * r);
      uint8_t *dst = C + col * q.m + row;
      if (wide_c) { /* m % 4 == 0: the four rows are all in or all out */
        if (row < q.m) *(unsigned *)dst = bytes;
      } else {
#pragma unroll
        for (int r = 0; r < 4; r++)
          if (row + r < q.m) dst[r] = (uint8_t)(bytes >> (8 * r));
      }
    }
  }
}

ck_status oa_run_lop3(const oa_packed &q, uint8_t *C) {
  const size_t tiles = (q.m_pad / OA_LOP_TILE) * (q.n_pad / OA_LOP_TILE);
  const int wide_c = q.m % 4 == 0 && ((uintptr_t)C & 3) == 0;
  for (size_t t0 = 0; t0 < tiles; t0 += OA_MAX_GRID) {
    const size_t count = tiles - t0 < OA_MAX_GRID ? tiles - t0 : OA_MAX_GRID;
    oa_lop3_kernel<<<(unsigned)count, OA_LOP_THREADS>>>(q, C, t0, wide_c);
    CK_CUDA(cudaGetLastError(), "launching the or.and LOP3 kernel");
  }
  return CK_OK;
}
