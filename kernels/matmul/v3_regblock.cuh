/* Matmul ladder v3 "regblock": 2-D register blocking. v4 "vectorized" (v4_vectorized.cuh) is the
 * same kernel with VEC = true.
 *
 * What it adds over the tiled versions (v1, v2): reuse in registers. There each multiply-add needs
 * two shared-memory loads, so the loads, not the arithmetic, set the pace (17% of cuBLAS at best).
 * Here each thread computes a TM x TN block of C: per step of p it loads TM values of A and TN of B
 * from shared memory into registers and does TM * TN multiply-adds with them (8 x 8 in single: 64
 * multiply-adds per 16 loads instead of per 128). It reached 32.9% of cuBLAS at n = 8192
 * (doc/NOTES.md), with 160 registers a thread and one block per SM.
 *
 * The register-blocked versions (v3-v5) work on operands padded to whole tiles (a pre-pass in
 * matmul.cu copies them when the shape is ragged; zeros add nothing), so their inner loops carry no
 * bounds checks. Only the final store is checked against the real M x N. */
#ifndef CK_MM_V3_REGBLOCK_CUH
#define CK_MM_V3_REGBLOCK_CUH

#define PAD_MN 128
#define PAD_K 16

/* One BK-deep step of a TM x TN register block: A's values for row a and step p sit at
 * As[a_at(a, p)], B's at Bs[p * BN + col0 + b]. */
template <class T, int BK, int BN, int TM, int TN, class AIndex>
__device__ __forceinline__ void mac_tile(T (&acc)[TM][TN], const T *As, const T *Bs, int col0,
                                         AIndex a_at) {
  T rm[TM], rn[TN];
#pragma unroll
  for (int p = 0; p < BK; p++) {
#pragma unroll
    for (int a = 0; a < TM; a++) rm[a] = As[a_at(a, p)];
#pragma unroll
    for (int b = 0; b < TN; b++) rn[b] = Bs[p * BN + col0 + b];
#pragma unroll
    for (int a = 0; a < TM; a++)
#pragma unroll
      for (int b = 0; b < TN; b++) acc[a][b] += rm[a] * rn[b];
  }
}

/* Store a TM x TN block at (row0, col0) of the real Mr x Nr output. */
template <class T, int TM, int TN>
__device__ __forceinline__ void store_block(const T (&acc)[TM][TN], T *C, int row0, int col0,
                                            int Mr, int Nr) {
#pragma unroll
  for (int a = 0; a < TM; a++)
#pragma unroll
    for (int b = 0; b < TN; b++) {
      int i = row0 + a, j = col0 + b;
      if (i < Mr && j < Nr) C[(size_t)i * Nr + j] = acc[a][b];
    }
}

/* v4's tile staging (v4_vectorized.cuh). */
template <class T, int BM, int BN, int BK, int NT>
__device__ __forceinline__ void stage_tiles(const T *A, const T *B, int K, int N, T *As, T *Bs);

/* The block computes a BM x BN tile of C with (BM / TM) * (BN / TN) threads. VEC (v4) stages the
 * tiles with 16-byte loads and A's tile transposed, so that the inner loop reads A's values
 * contiguously; v3 stages element by element, A's tile as is. */
template <class T, int BM, int BN, int BK, int TM, int TN, bool VEC>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    mm_regblock(int M, int N, int K, int Mr, int Nr, const T *__restrict__ A,
                const T *__restrict__ B, T *__restrict__ C) {
  const int NT = (BM / TM) * (BN / TN);
  __shared__ __align__(16) T As[BM * BK];
  __shared__ __align__(16) T Bs[BK * BN];
  const int tid = threadIdx.x;
  const int trow = tid / (BN / TN), tcol = tid % (BN / TN);
  const int brow = blockIdx.y * BM, bcol = blockIdx.x * BN;
  A += (size_t)brow * K;
  B += bcol;
  T acc[TM][TN] = {};
  for (int bk = 0; bk < K; bk += BK) {
    if (VEC) {
      stage_tiles<T, BM, BN, BK, NT>(A, B, K, N, As, Bs);
    } else {
      for (int idx = tid; idx < BM * BK; idx += NT) As[idx] = A[(size_t)(idx / BK) * K + idx % BK];
      for (int idx = tid; idx < BK * BN; idx += NT) Bs[idx] = B[(size_t)(idx / BN) * N + idx % BN];
    }
    __syncthreads();
    A += BK;
    B += (size_t)BK * N;
    mac_tile<T, BK, BN, TM, TN>(acc, As, Bs, tcol * TN, [&](int a, int p) {
      return VEC ? p * BM + trow * TM + a : (trow * TM + a) * BK + p;
    });
    __syncthreads();
  }
  store_block<T, TM, TN>(acc, C, brow + trow * TM, bcol + tcol * TN, Mr, Nr);
}

#endif
