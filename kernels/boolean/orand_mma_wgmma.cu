/* The tensor path's wgmma variants (KIND_WGMMA; orand.cuh lists them): the TMA producer and
 * pipeline of orand_tma.cuh, with the 8 consumer warps as two warpgroups that multiply straight
 * from shared memory with wgmma.mma_async.m64n128k256.s32.b1.b1.and.popc. Warpgroup w takes
 * rows 128w .. 128w+127 of the 256 x 128 tile as two m64 x n128 accumulators (64 s32 registers a
 * thread each); a stage is 2 k-steps of 256 bits, 4 wgmma a warpgroup, committed as one group;
 * the group of the stage before is waited for (wgmma.wait_group 1) and that stage released, so
 * one stage's wgmma are always in flight behind the issue of the next.
 *
 * Why it is the likeliest to reach 4000 Tpair/s: Hopper's tensor cores run at full rate only
 * under wgmma (for f16, mma.sync tops out near two thirds of it); the warps issue 4 instructions
 * a stage instead of 8 ldmatrix + 32 mma per k-step, hold no fragments, and the operands are
 * read by the tensor cores from shared memory (A: 4 KB, B: 8 KB a warpgroup and k-step, about
 * 47 bytes a cycle an SM at 4000 Tpair/s, of 128). Unknowns: the .b1 wgmma rate (not published;
 * if it is no more than mma.sync's, this still removes the issue and register pressure) and
 * ptxas serializing the wgmma (it warns when it does: none here).
 *
 * Shared-memory descriptors (64-bit, PTX "Matrix Descriptor Format"): start address >> 4 in bits
 * 0-13; leading byte offset >> 4 in 16-29 (unused for a swizzled K-major operand whose k-step
 * fits in one swizzle span: 1); stride byte offset >> 4 in 32-45: 8 rows x 64 bytes = 512
 * between 8-row groups; base offset 0 (every operand starts 512-byte aligned, the swizzle's
 * repeat); layout type 2 in bits 62-63: the 64-byte swizzle, i.e. the stage layout. The second
 * k-step starts 32 bytes into each row: the hardware swizzles the address it forms, as TMA did.
 *
 * Accumulators (PTX "wgmma .m64nNk256 D fragment"): warp v of the warpgroup has rows
 * 16v .. 16v+15; register r of a lane (g = lane / 4, t = lane % 4) is row 16v + g + 8 ((r/2)%2),
 * column 8 (r/4) + 2t + r%2. */
#include "orand_wgmma.cuh"

template <int CM, int CN>
__global__ void __launch_bounds__(OA_TMA_THREADS, 1)
    oa_wg_kernel(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB,
                 oa_packed q, uint8_t *__restrict__ C, size_t cluster0, int wide_c,
                 unsigned *fault) {
#ifdef OA_WGMMA_COMPILED
  extern __shared__ unsigned char smem_raw[];
  const oa_tma_block blk = oa_tma_begin<CM, CN>(smem_raw, q, cluster0, fault);
  const unsigned base = blk.base, bars = blk.bars, lane = blk.lane, warp = blk.warp;
  const unsigned rank = blk.rank;
  unsigned char *smem = blk.smem;
  const oa_watch watch = blk.watch;
  const size_t tm = blk.tm, tn = blk.tn, kt_count = blk.kt_count;

  if (warp == OA_TMA_WARPS) {
    oa_produce<CM, CN>(&tmA, &tmB, base, bars, tm, tn, kt_count, watch, lane == 0);
  } else {
    const unsigned wg = warp >> 2, wv = warp & 3;
    const unsigned peers = oa_peers<CM, CN>(rank);
    int acc[2][64];
    oa_wg_zero(acc);

    for (size_t kt = 0; kt < kt_count; kt++) {
      const unsigned s = (unsigned)(kt % OA_TMA_STAGES);
      oa_bar_wait<false>(bars + 8 * s, (unsigned)((kt / OA_TMA_STAGES) & 1), watch);
      const unsigned stage = base + s * OA_TMA_STAGE_BYTES;
      oa_wg_stage(acc, stage, wg);
      oa_wg_wait<1>(); /* the stage before is read: release it */
      if (kt > 0) {
        const unsigned prev = (unsigned)((kt - 1) % OA_TMA_STAGES);
        oa_release<CM, CN>(bars + 8 * (OA_TMA_STAGES + prev), lane, peers);
      }
    }
    oa_wg_wait<0>();
    oa_consumers_sync(); /* every load has landed and been read: the stages are free */
    const unsigned g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
      for (int r = 0; r < 64; r++) {
        const unsigned row = 128 * wg + 64 * i + 16 * wv + g + 8 * ((r >> 1) & 1);
        const unsigned col = 8 * (r >> 2) + 2 * t + (r & 1);
        smem[col * OA_TMA_CPITCH + row] = acc[i][r] > 0;
      }
    oa_consumers_sync();
    oa_store_tile(smem, q, C, tm, tn, wide_c);
  }
  /* No block leaves while a peer may still arrive on its barriers. */
  if (CM * CN > 1) oa_cluster_sync();
#endif
}

oa_tma_kernel_t oa_wgmma_kernel(int cm, int cn) {
  if (cm == 1 && cn == 1) return oa_wg_kernel<1, 1>;
  if (cm == 1 && cn == 2) return oa_wg_kernel<1, 2>;
  if (cm == 2 && cn == 2) return oa_wg_kernel<2, 2>;
  return NULL;
}

/* Whether the device code this build has for the current GPU is sm_90a code (with wgmma and
 * the multicast loads): a one-thread probe from this file (so from the same code as the
 * kernels), once per device. */
__device__ int oa_wg_probe_out;
__global__ void oa_wg_probe(void) {
#ifdef OA_WGMMA_COMPILED
  oa_wg_probe_out = 1;
#else
  oa_wg_probe_out = 0;
#endif
}

int oa_sm90a_built(void) {
  static signed char known[CK_MAX_DEVICES]; /* 0 not asked, 1 no, 2 yes */
  const int dev = ck_device_current();
  if (dev < 0 || dev >= CK_MAX_DEVICES) return 0;
  if (!known[dev]) {
    int out = 0;
    oa_wg_probe<<<1, 1>>>();
    const bool ok = cudaGetLastError() == cudaSuccess &&
                    cudaMemcpyFromSymbol(&out, oa_wg_probe_out, sizeof out) == cudaSuccess &&
                    out == 1;
    (void)cudaGetLastError();
    known[dev] = ok ? 2 : 1;
  }
  return known[dev] == 2;
}
