/* The tensor path's TMA variants (orand.cuh lists them): KIND_TMA's kernel, variant 0's 8 warps
 * of 64 x 64 with ldmatrix and mma.sync m16n8k256, fed by a producer warp through TMA loads and
 * mbarriers (orand_tma.cuh), in clusters of CM x CN blocks that multicast their shared operand
 * slices; and the host side of both TMA kinds (KIND_WGMMA's kernel is in orand_mma_wgmma.cu):
 * the tensor maps, whether a variant can run here, the launch.
 *
 * Why this should beat variant 0 (48% of the mma.sync ceiling at n = 32768, H100): its warps
 * spend issue slots on 6 cp.async and their addresses a stage and all wait at one __syncthreads
 * a stage for the slowest; here they only wait for their own data, the loads cost one thread 2
 * instructions a stage, 8 stages (192 KB) are in flight instead of 3, and the multicast cuts
 * the L2 traffic a pair by 1/3 (1 x 2) or 1/2 (2 x 2), which at 4000 Tpair/s is 3.9 or 3.0 TB/s
 * instead of 5.9. Risks: the cluster launch places blocks less freely (clusters of 4 ran slower
 * than pairs in the engine's split-K, doc/NOTES.md), and the blocks of a cluster go at the pace
 * of the slowest. */
#include <cudaTypedefs.h> /* PFN_cuTensorMapEncodeTiled */

#include "orand_tma.cuh"

#define OA_T_WARPS_M (OA_MMA_BM / OA_MMA_WM)
#define OA_T_MT (OA_MMA_WM / 16) /* mma tiles per warp along m */
#define OA_T_NT (OA_MMA_WN / 8)  /* ... along n */
static_assert(OA_T_WARPS_M * (OA_MMA_BN / OA_MMA_WN) == OA_TMA_WARPS, "8 warps of 64 x 64");

#ifdef OA_TMA_COMPILED
/* Variant 0's layout and fragment loads (orand_mma.cu has the derivation). */
__device__ __forceinline__ unsigned oa_t_swz(unsigned r, unsigned c) {
  return r * OA_TMA_ROW + ((c ^ ((r >> 1) & 3)) << 4);
}
__device__ __forceinline__ void oa_t_ldmatrix4(unsigned (&r)[4], unsigned addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}
__device__ __forceinline__ void oa_t_mma(int (&d)[4], const unsigned (&a)[4], unsigned b0,
                                         unsigned b1) {
  asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
#endif

/* Grid: CM * CN blocks a cluster (launched as clusters of that size along x), cluster0 + the
 * cluster index its super-tile. */
template <int CM, int CN>
__global__ void __launch_bounds__(OA_TMA_THREADS, 1)
    oa_tma_kernel(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB,
                  oa_packed q, uint8_t *__restrict__ C, size_t cluster0, int wide_c,
                  unsigned *fault) {
#ifdef OA_TMA_COMPILED
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
    const unsigned warp_m = warp % OA_T_WARPS_M, warp_n = warp / OA_T_WARPS_M;
    const unsigned ra = lane & 15, ca = lane >> 4;
    const unsigned rb = (lane & 7) + ((lane >> 4) << 3), cb = (lane >> 3) & 1;
    unsigned a_off[2], b_off[2];
#pragma unroll
    for (int h = 0; h < 2; h++) {
      a_off[h] = oa_t_swz(warp_m * OA_MMA_WM + ra, 2 * h + ca);
      b_off[h] = OA_TMA_A_BYTES + oa_t_swz(warp_n * OA_MMA_WN + rb, 2 * h + cb);
    }
    const unsigned peers = oa_peers<CM, CN>(rank);
    int acc[OA_T_MT][OA_T_NT][4];
#pragma unroll
    for (int i = 0; i < OA_T_MT; i++)
#pragma unroll
      for (int j = 0; j < OA_T_NT; j++)
#pragma unroll
        for (int r = 0; r < 4; r++) acc[i][j][r] = 0;

    for (size_t kt = 0; kt < kt_count; kt++) {
      const unsigned s = (unsigned)(kt % OA_TMA_STAGES);
      oa_bar_wait<false>(bars + 8 * s, (unsigned)((kt / OA_TMA_STAGES) & 1), watch);
      const unsigned stage = base + s * OA_TMA_STAGE_BYTES;
#pragma unroll
      for (int h = 0; h < 2; h++) {
        unsigned fa[OA_T_MT][4], fb[OA_T_NT / 2][4];
#pragma unroll
        for (int i = 0; i < OA_T_MT; i++)
          oa_t_ldmatrix4(fa[i], stage + a_off[h] + i * 16 * OA_TMA_ROW);
#pragma unroll
        for (int j = 0; j < OA_T_NT / 2; j++)
          oa_t_ldmatrix4(fb[j], stage + b_off[h] + j * 16 * OA_TMA_ROW);
        /* the stage is in registers: let the producers refill it while these mma run */
        if (h == 1) oa_release<CM, CN>(bars + 8 * (OA_TMA_STAGES + s), lane, peers);
#pragma unroll
        for (int i = 0; i < OA_T_MT; i++)
#pragma unroll
          for (int j = 0; j < OA_T_NT; j++)
            oa_t_mma(acc[i][j], fa[i], fb[j / 2][2 * (j & 1)], fb[j / 2][2 * (j & 1) + 1]);
      }
    }
    oa_consumers_sync(); /* every load has landed and been read: the stages are free */
    const unsigned g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int i = 0; i < OA_T_MT; i++)
#pragma unroll
      for (int j = 0; j < OA_T_NT; j++) {
        const unsigned row = warp_m * OA_MMA_WM + i * 16 + g;
        const unsigned col = warp_n * OA_MMA_WN + j * 8 + 2 * t;
        smem[col * OA_TMA_CPITCH + row] = acc[i][j][0] > 0;
        smem[(col + 1) * OA_TMA_CPITCH + row] = acc[i][j][1] > 0;
        smem[col * OA_TMA_CPITCH + row + 8] = acc[i][j][2] > 0;
        smem[(col + 1) * OA_TMA_CPITCH + row + 8] = acc[i][j][3] > 0;
      }
    oa_consumers_sync();
    oa_store_tile(smem, q, C, tm, tn, wide_c);
  }
  /* No block leaves while a peer may still arrive on its barriers. */
  if (CM * CN > 1) oa_cluster_sync();
#endif
}

/* ---- host side of both TMA kinds ---- */

/* The watchdog's counter (orand_tma.cuh), shared by the TMA kernels of both files. */
__device__ unsigned oa_tma_fault_count;

extern "C" int ck_orand_variant_fault(void) {
  static unsigned seen[CK_MAX_DEVICES];
  const int dev = ck_device_current();
  unsigned now = 0;
  if (dev < 0 || dev >= CK_MAX_DEVICES || cudaDeviceSynchronize() != cudaSuccess ||
      cudaMemcpyFromSymbol(&now, oa_tma_fault_count, sizeof now) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  const int fired = now != seen[dev];
  seen[dev] = now;
  return fired;
}

/* The driver's tensor map encoder, looked up once (the package links the runtime only). */
static PFN_cuTensorMapEncodeTiled_v12000 oa_lookup_encoder(void) {
  void *fn = NULL;
  cudaDriverEntryPointQueryResult got = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
  cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000,
                                                   cudaEnableDefault, &got);
#else
  cudaError_t e = cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &fn, cudaEnableDefault, &got);
#endif
  if (e != cudaSuccess || got != cudaDriverEntryPointSuccess) {
    (void)cudaGetLastError();
    return NULL;
  }
  return (PFN_cuTensorMapEncodeTiled_v12000)fn;
}
static PFN_cuTensorMapEncodeTiled_v12000 oa_encoder(void) {
  static const PFN_cuTensorMapEncodeTiled_v12000 fn = oa_lookup_encoder();
  return fn;
}

/* rows x kw words at base, row-major, read in boxes of box_rows x 16 words (one stage's slice),
 * with the 64-byte swizzle of the stage layout (orand_tma.cuh declares it for closure_mma.cu). */
ck_status oa_tensor_map(CUtensorMap *map, const uint32_t *base, size_t rows, size_t kw,
                        unsigned box_rows) {
  PFN_cuTensorMapEncodeTiled_v12000 encode = oa_encoder();
  if (!encode) return ck_fail(CK_ERR_CUDA, "or.and: no cuTensorMapEncodeTiled in the driver");
  const cuuint64_t dims[2] = {(cuuint64_t)kw, (cuuint64_t)rows};
  const cuuint64_t strides[1] = {(cuuint64_t)kw * sizeof(uint32_t)};
  const cuuint32_t box[2] = {OA_MMA_KW, box_rows};
  const cuuint32_t one[2] = {1, 1};
  const CUresult r = encode(map, CU_TENSOR_MAP_DATA_TYPE_UINT32, 2, (void *)base, dims, strides,
                            box, one, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B,
                            CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    return ck_fail(CK_ERR_CUDA, "or.and: cuTensorMapEncodeTiled failed (%d) for %zu x %zu words",
                   (int)r, rows, kw);
  return CK_OK;
}

static oa_tma_kernel_t oa_tma_kernel_for(int kind, int cm, int cn) {
  if (kind == OA_KIND_WGMMA) return oa_wgmma_kernel(cm, cn);
  if (kind != OA_KIND_TMA) return NULL;
  if (cm == 1 && cn == 1) return oa_tma_kernel<1, 1>;
  if (cm == 1 && cn == 2) return oa_tma_kernel<1, 2>;
  if (cm == 2 && cn == 2) return oa_tma_kernel<2, 2>;
  return NULL;
}

static cudaLaunchConfig_t oa_tma_config(unsigned blocks, int cm, int cn, cudaLaunchAttribute *at) {
  cudaLaunchConfig_t lc = {};
  lc.gridDim = dim3(blocks);
  lc.blockDim = dim3(OA_TMA_THREADS);
  lc.dynamicSmemBytes = OA_TMA_SMEM;
  lc.stream = 0;
  at[0].id = cudaLaunchAttributeClusterDimension;
  at[0].val.clusterDim.x = (unsigned)(cm * cn);
  at[0].val.clusterDim.y = 1;
  at[0].val.clusterDim.z = 1;
  lc.attrs = at;
  lc.numAttrs = cm * cn > 1 ? 1 : 0;
  return lc;
}

/* Whether the variant can run on the current device: Hopper or Blackwell datacenter parts
 * (where the multicast and the 64-byte swizzle are as used here), device code for it in this
 * build (sm_90 and later; sm_90a for wgmma and for clusters, which multicast), the tensor map
 * encoder, and at least one cluster of its shape placeable at once. Asked once per device and
 * variant. */
int oa_tma_available(int kind, int cm, int cn) {
  static signed char known[CK_MAX_DEVICES][3][3][3]; /* 0 not asked, 1 no, 2 yes */
  const int dev = ck_device_current();
  if (dev < 0 || dev >= CK_MAX_DEVICES || kind < 1 || kind > 2 || cm < 1 || cm > 2 || cn < 1 ||
      cn > 2)
    return 0;
  signed char &k = known[dev][kind][cm][cn];
  if (!k) {
    oa_tma_kernel_t fn = oa_tma_kernel_for(kind, cm, cn);
    int major = 0, clusters = 0;
    cudaLaunchAttribute at[1];
    const cudaLaunchConfig_t lc = oa_tma_config((unsigned)(cm * cn), cm, cn, at);
    const bool ok =
        fn && cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) == 0 &&
        (major == 9 || major == 10) && ck_clusters_built((const void *)fn) &&
        ((kind != OA_KIND_WGMMA && cm * cn == 1) || oa_sm90a_built()) && oa_encoder() &&
        cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, OA_TMA_SMEM) == 0 &&
        (cm * cn == 1 || (cudaOccupancyMaxActiveClusters(&clusters, fn, &lc) == 0 && clusters > 0));
    (void)cudaGetLastError();
    k = ok ? 2 : 1;
  }
  return k == 2;
}

ck_status oa_run_tma(const oa_packed &q, uint8_t *C, int kind, int cm, int cn) {
  oa_tma_kernel_t fn = oa_tma_kernel_for(kind, cm, cn);
  if (!fn)
    return ck_fail(CK_ERR_INVALID, "or.and: no TMA kernel of kind %d, %d x %d", kind, cm, cn);
  CUtensorMap tmA, tmB;
  CK_TRY(oa_tensor_map(&tmA, q.A, q.m_pad, q.kw, OA_MMA_BM / cn));
  CK_TRY(oa_tensor_map(&tmB, q.B, q.n_pad, q.kw, OA_MMA_BN / cm));
  CK_CUDA(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, OA_TMA_SMEM),
          "allowing the or.and TMA kernel its shared memory");
  unsigned *fault = NULL;
  CK_CUDA(cudaGetSymbolAddress((void **)&fault, oa_tma_fault_count),
          "finding the or.and watchdog counter");
  const int cs = cm * cn;
  const size_t clusters = (q.m_pad / OA_MMA_BM / cm) * (q.n_pad / OA_MMA_BN / cn);
  const int wide_c = q.m % 16 == 0 && ((uintptr_t)C & 15) == 0;
  const size_t per_launch = OA_MAX_GRID / 8; /* clusters: the blocks stay below 2^31 */
  for (size_t c0 = 0; c0 < clusters; c0 += per_launch) {
    const size_t count = clusters - c0 < per_launch ? clusters - c0 : per_launch;
    cudaLaunchAttribute at[1];
    const cudaLaunchConfig_t lc = oa_tma_config((unsigned)(count * cs), cm, cn, at);
    CK_CUDA(cudaLaunchKernelEx(&lc, fn, tmA, tmB, q, C, c0, wide_c, fault),
            "launching the or.and TMA kernel");
    CK_CUDA(cudaGetLastError(), "launching the or.and TMA kernel");
  }
  return CK_OK;
}
