/* The compute ceilings of the or.and paths on this GPU, in the style of the min-plus probe
 * (kernels/semiring/ceiling.cu): each path's instruction from registers only, no memory traffic,
 * with enough independent chains per warp to keep its pipe busy; the median of 7 timed runs
 * after a warm-up.
 *   tensor: mma.sync m16n8k256 .b1 and.popc, 16 x 8 x 256 = 32768 pairs per warp instruction,
 *           OA_CEIL_CHAINS independent accumulators a warp (asm volatile: none is folded away);
 *   LOP3:   v |= x & y on 32-bit words, 32 pairs per thread instruction, in the 8 x 8 shape of
 *           the LOP3 kernel, the operands rotating each step so nothing can be hoisted. */

#include "orand.cuh"

#define OA_CEIL_ITERS 4000
#define OA_CEIL_BLOCK 256 /* blocks: as many as fit on every SM at once, one wave */
#define OA_CEIL_CHAINS 8  /* mma chains per warp: latency over issue rate, with 8 warps a quarter */
#define OA_CEIL_R 8       /* LOP3: the 8 x 8 accumulators of the kernel */
#define OA_CEIL_REPS 7

__global__ void __launch_bounds__(OA_CEIL_BLOCK)
    oa_ceiling_mma(int *out, unsigned seed, int iters) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  unsigned a0 = seed ^ threadIdx.x, a1 = a0 * 3u, a2 = a0 * 5u, a3 = a0 * 7u;
  unsigned b0 = seed + threadIdx.x, b1 = b0 * 11u;
  int d[OA_CEIL_CHAINS][4];
#pragma unroll
  for (int c = 0; c < OA_CEIL_CHAINS; c++) d[c][0] = d[c][1] = d[c][2] = d[c][3] = c;
  for (int it = 0; it < iters; it++) {
#pragma unroll
    for (int c = 0; c < OA_CEIL_CHAINS; c++)
      asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc "
                   "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                   : "+r"(d[c][0]), "+r"(d[c][1]), "+r"(d[c][2]), "+r"(d[c][3])
                   : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  }
  int s = 0;
#pragma unroll
  for (int c = 0; c < OA_CEIL_CHAINS; c++) s += d[c][0] + d[c][1] + d[c][2] + d[c][3];
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
#endif
}

__global__ void __launch_bounds__(OA_CEIL_BLOCK)
    oa_ceiling_lop3(unsigned *out, unsigned seed, int iters) {
  unsigned x[OA_CEIL_R], y[OA_CEIL_R], v[OA_CEIL_R][OA_CEIL_R];
#pragma unroll
  for (int i = 0; i < OA_CEIL_R; i++) {
    x[i] = seed * (unsigned)(i * 7 + threadIdx.x);
    y[i] = seed * (unsigned)(i * 3 + 2 * threadIdx.x + 1);
  }
#pragma unroll
  for (int i = 0; i < OA_CEIL_R; i++)
#pragma unroll
    for (int j = 0; j < OA_CEIL_R; j++) v[i][j] = 0;
  for (int it = 0; it < iters; it++) {
#pragma unroll
    for (int i = 0; i < OA_CEIL_R; i++)
#pragma unroll
      for (int j = 0; j < OA_CEIL_R; j++) v[i][j] |= x[i] & y[j];
#pragma unroll
    for (int i = 0; i < OA_CEIL_R; i++) {
      unsigned t = x[i];
      x[i] = y[(i + 1) % OA_CEIL_R];
      y[(i + 1) % OA_CEIL_R] = t;
    }
  }
  unsigned s = 0;
#pragma unroll
  for (int i = 0; i < OA_CEIL_R; i++)
#pragma unroll
    for (int j = 0; j < OA_CEIL_R; j++) s ^= v[i][j] + (unsigned)(i * OA_CEIL_R + j);
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}

/* One launch of a path's probe (ck_time_events runs it). */
struct oa_probe_launch {
  int path;
  unsigned blocks;
  void *out;
  static ck_status run(void *ctx) {
    const oa_probe_launch *l = (const oa_probe_launch *)ctx;
    if (l->path == CK_ORAND_TENSOR)
      oa_ceiling_mma<<<l->blocks, OA_CEIL_BLOCK>>>((int *)l->out, 0x9E3779B9u, OA_CEIL_ITERS);
    else
      oa_ceiling_lop3<<<l->blocks, OA_CEIL_BLOCK>>>((unsigned *)l->out, 0x9E3779B9u, OA_CEIL_ITERS);
    return ck_cuda_check(cudaGetLastError(), "running the or.and ceiling probe");
  }
};

/* Whether the tensor probe's code for this device was made for sm_80 or later. */
static int oa_ceiling_mma_available(void) {
  return oa_mma_available() && ck_kernel_built((const void *)oa_ceiling_mma, 80);
}

extern "C" ck_status ck_orand_ceiling(int path, double *pairs_per_second) {
  if (path != CK_ORAND_TENSOR && path != CK_ORAND_LOP3)
    return ck_fail(CK_ERR_INVALID, "the or.and ceiling probes the tensor and LOP3 paths, not %d",
                   path);
  CK_TRY(ck_device_init());
  if (path == CK_ORAND_TENSOR && !oa_ceiling_mma_available())
    return ck_fail(CK_ERR_INVALID,
                   "the or.and tensor path needs sm_80 or later, in this build too");
  int sms = 0, dev = 0;
  CK_CUDA(cudaGetDevice(&dev), "querying the device");
  CK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "querying SMs");
  int per_sm = 0;
  if (path == CK_ORAND_TENSOR)
    CK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, oa_ceiling_mma, OA_CEIL_BLOCK,
                                                          0),
            "querying the probe's occupancy");
  else
    CK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, oa_ceiling_lop3, OA_CEIL_BLOCK,
                                                          0),
            "querying the probe's occupancy");
  oa_probe_launch l = {path, (unsigned)(sms * (per_sm > 0 ? per_sm : 1)), NULL};
  CK_TRY(ck_dev_alloc(&l.out, (size_t)l.blocks * OA_CEIL_BLOCK * sizeof(unsigned)));
  double times[OA_CEIL_REPS];
  const ck_status s = ck_time_events(oa_probe_launch::run, &l, 1, OA_CEIL_REPS, times);
  ck_dev_free(l.out);
  CK_TRY(s);
  const unsigned blocks = l.blocks;
  const double threads = (double)blocks * OA_CEIL_BLOCK;
  const double pairs = path == CK_ORAND_TENSOR
                           ? threads / 32 * OA_CEIL_ITERS * OA_CEIL_CHAINS * 16.0 * 8 * 256
                           : threads * OA_CEIL_ITERS * OA_CEIL_R * OA_CEIL_R * 32.0;
  *pairs_per_second = pairs / (ck_median(times, OA_CEIL_REPS) * 1e-3);
  return CK_OK;
}
