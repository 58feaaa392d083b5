/* The witness K after the tensor or LOP3 path has written C: for each true output, the first k
 * with A(i,k) && B(k,j), 1-based (32 w + the first set bit of the first word w of Abits(i,:) &
 * Bbits(j,:) that is nonzero); 0 where C is false.
 *
 * Why this shape. On dense data the first word nearly always has a pair (at density 1/2 all but
 * (3/4)^32 of them), so the work is reading C and writing K, and a thread per output is right:
 * a warp takes 32 consecutive rows, each lane loads the first OA_WITNESS_PROBE words of its row
 * of A once (one 16-byte load) and checks them against OA_WITNESS_COLS columns of B in turn,
 * whose words every lane reads alike (a broadcast). On sparse data the hit can be anywhere in k;
 * a lane scanning alone would read its row with 32 different rows' strides per warp load and
 * hold its warp for the longest scan. So the outputs the probe leaves open are searched by the
 * whole warp, one at a time: 32 consecutive words of the row and the column per step (two
 * coalesced 128-byte loads), a ballot for the first word with a pair. A warp search per output
 * from the start would cost dense data 32 times the threads for the same one word. */
#include "orand.cuh"

static_assert(OA_WITNESS_PROBE == 4, "the probe is one 16-byte load");

#define OA_FULL 0xffffffffu

/* The first pair (1-based k) of row a and column b from word `from` on, searched by the whole
 * warp; 0 if none (C said true, so only a wrong C gets that). The same on every lane. */
__device__ __forceinline__ size_t oa_warp_search(const uint32_t *a, const uint32_t *b, size_t kw,
                                                 size_t from, unsigned lane) {
  for (size_t w0 = from; w0 < kw; w0 += 32) {
    const size_t w = w0 + lane;
    const uint32_t x = w < kw ? a[w] & b[w] : 0u;
    const unsigned hit = __ballot_sync(OA_FULL, x != 0);
    if (hit) {
      const int f = __ffs((int)hit) - 1;
      const uint32_t xf = __shfl_sync(OA_FULL, x, f);
      return 32 * (w0 + f) + (size_t)__ffs((int)xf);
    }
  }
  return 0;
}

__global__ void __launch_bounds__(OA_THREADS)
    oa_witness_kernel(oa_packed q, const uint8_t *__restrict__ C, double *__restrict__ K) {
  const unsigned lane = threadIdx.x & 31;
  const size_t row_tasks = (q.m + 31) / 32,
               col_tasks = (q.n + OA_WITNESS_COLS - 1) / OA_WITNESS_COLS;
  const size_t tasks = row_tasks * col_tasks;
  const size_t warps = (size_t)gridDim.x * (blockDim.x / 32);
  /* The loop and every branch around a ballot below depend on warp-uniform values only. */
  for (size_t task = (size_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; task < tasks;
       task += warps) {
    size_t ct, rt;
    split_index(task, row_tasks, ct, rt);
    const size_t i = rt * 32 + lane;
    const bool row_live = i < q.m;
    const uint32_t *a = q.A + (row_live ? i : 0) * q.kw;
    const uint4 probe = *(const uint4 *)a; /* kw >= 8, and rows start 16-byte aligned */
    for (int c = 0; c < OA_WITNESS_COLS; c++) {
      const size_t j = ct * OA_WITNESS_COLS + c;
      if (j >= q.n) break; /* uniform */
      const uint32_t *b = q.B + j * q.kw;
      const uint4 pb = *(const uint4 *)b;
      const size_t idx = j * q.m + i;
      const bool want = row_live && C[idx];
      size_t first = 0;
      if (want) {
        const uint32_t x[4] = {probe.x & pb.x, probe.y & pb.y, probe.z & pb.z, probe.w & pb.w};
#pragma unroll
        for (int w = OA_WITNESS_PROBE - 1; w >= 0; w--) /* the last assignment is the first hit */
          if (x[w]) first = 32 * (size_t)w + (size_t)__ffs((int)x[w]);
      }
      unsigned open = __ballot_sync(OA_FULL, want && first == 0);
      while (open) {
        const int l = __ffs((int)open) - 1;
        open &= open - 1;
        const uint32_t *al = q.A + (rt * 32 + (size_t)l) * q.kw;
        const size_t found = oa_warp_search(al, b, q.kw, OA_WITNESS_PROBE, lane);
        if (lane == (unsigned)l) first = found;
      }
      if (row_live) K[idx] = (double)first;
    }
  }
}

ck_status oa_run_witness(const oa_packed &q, const uint8_t *C, double *K) {
  const size_t tasks = ((q.m + 31) / 32) * ((q.n + OA_WITNESS_COLS - 1) / OA_WITNESS_COLS);
  const size_t blocks = (tasks + OA_THREADS / 32 - 1) / (OA_THREADS / 32);
  oa_witness_kernel<<<(unsigned)(blocks < OA_MAX_GRID ? blocks : OA_MAX_GRID), OA_THREADS>>>(q, C,
                                                                                             K);
  CK_CUDA(cudaGetLastError(), "launching the or.and witness kernel");
  return CK_OK;
}
