/* Graphs of 129 to 256 vertices, many in one launch: plain Floyd-Warshall on each, the graph in
 * the registers of a cluster of AB_CL blocks (apsp.cuh, ap_batch). 256 x 256 values do not fit
 * one block's registers with room to run, so block `rank` of a graph's cluster holds its rows
 * rank * AB_ROWS .. (all 256 columns), a 4 x 8 tile a thread.
 *
 * The steps go in rounds of AB_ROWS, the rows of one block (the owner). Step k needs row k as it
 * stands at step k (its history) and column k. In round r the owner first runs the round's steps
 * on its own rows alone: they need no other rows, and it keeps each row k as it stands when its
 * step comes. After a cluster barrier the other blocks copy those histories from the owner's
 * shared memory (distributed shared memory) and run the same steps on their rows, column k
 * being their own. So a step costs a block barrier, and a round two cluster barriers and a copy:
 * one cluster barrier a step (the first form of this kernel) held 256 graphs of 256 vertices to
 * 1.9 Tpair/s, 15% of the product's rate; writing each history row into every block as it came
 * (each step's barrier then waited for the remote writes), to 3.2, 25%. Each value gets the cpu kernel's updates in its order: the results
 * are the block kernel's (apsp_batch.cu). The owner idles while the others run its round and
 * they while it runs the next: two blocks an SM, from different clusters, fill each other's
 * gaps. 32 rows a block (256 threads) keep every work type's tile with its next hops in one
 * thread's registers (double with P: 64 values and 32 next hops). The GPU holds 45 of these
 * clusters at once for single D, 30 with P (H100); the placement policy made no difference. */
#include <cooperative_groups.h>

#include "apsp_batch.cuh"

namespace cg = cooperative_groups;

#define AB_NP 256               /* the padded side */
#define AB_CL 8                 /* blocks a graph */
#define AB_ROWS (AB_NP / AB_CL) /* rows a block, and steps a round */
#define AB_TM 4                 /* a thread's tile: rows */
#define AB_TN 8                 /* ... and columns */
#define AB_SIDE (AB_NP / AB_TN) /* threads across a row */
#define AB_CL_THREADS (AB_ROWS / AB_TM * AB_SIDE)

/* The shared memory a block takes: the round's row histories, two steps' column pieces (and
 * their next hops). */
template <class T, bool ARG> static constexpr size_t ab_cluster_smem() {
  return (size_t)AB_ROWS * AB_NP * sizeof(T) + 2 * AB_ROWS * sizeof(T) +
         (ARG ? 2 * AB_ROWS * sizeof(int) : 0);
}

template <class T, class SR, bool ARG>
__global__ void __launch_bounds__(AB_CL_THREADS) ab_close_cluster(const ap_batch<T> b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 /* clusters: Hopper on (ap_batch_clusters_ok) */
  typedef ab_word<T> Wd;
  typedef typename Wd::W W;
  constexpr int WN = AB_TN / Wd::PK;
  extern __shared__ __align__(16) unsigned char ab_cl_smem[];
  T *hist = (T *)ab_cl_smem, *colk = hist + AB_ROWS * AB_NP; /* [AB_ROWS][AB_NP], [2][AB_ROWS] */
  int *nxk = (int *)(colk + 2 * AB_ROWS);                    /* [2][AB_ROWS] */
  cg::cluster_group cl = cg::this_cluster();
  const int rank = (int)cl.block_rank(), n = b.n;
  const int ty = threadIdx.x / AB_SIDE, tx = threadIdx.x % AB_SIDE;
  const int r0 = rank * AB_ROWS + ty * AB_TM, c0 = tx * AB_TN;
  const size_t q = blockIdx.x / AB_CL, nn = (size_t)n * n;
  const bool live = q < b.pages;
  W v[AB_TM][WN];
  int nx[AB_TM][AB_TN];
  ab_load_tile<T, SR, AB_TM, AB_TN, ARG>(v, nx, b, b.in + q * nn, b.page0 + q, r0, c0, live);
  for (int k0 = 0; k0 < n; k0 += AB_ROWS) {
    const int kend = k0 + AB_ROWS < n ? k0 + AB_ROWS : n;
    const int owner = k0 / AB_ROWS;
    if (rank != owner) { /* the owner's histories, once they are all there, into this block */
      cl.sync();
      const int4 *src = (const int4 *)cl.map_shared_rank(hist, owner);
      int4 *dst = (int4 *)hist;
      const int pieces = (kend - k0) * AB_NP * (int)sizeof(T) / 16;
      for (int i = threadIdx.x; i < pieces; i += AB_CL_THREADS) dst[i] = src[i];
    }
    for (int kb = k0; kb < kend; kb += AB_TN) {
#pragma unroll
      for (int kk = 0; kk < AB_TN; kk++) { /* kb: a multiple of both tile sides */
        const int k = kb + kk, buf = k & 1;
        if (k >= kend) break;
        T *row = hist + (k - k0) * AB_NP + c0;
        if (rank == owner && ty == (k - k0) / AB_TM) /* row k as it stands now: its history */
          ab_sts<W, WN>((W *)row, v[kk % AB_TM]);
        if (tx == k / AB_TN)
          ab_put_column<T, AB_TM, AB_TN, ARG>(colk + buf * AB_ROWS + ty * AB_TM,
                                              nxk + buf * AB_ROWS + ty * AB_TM, v, nx, kk);
        __syncthreads();
        W bw[WN];
        T a[AB_TM];
        int nk[AB_TM];
        ab_lds<W, WN>(bw, (const W *)row);
        ab_lds<T, AB_TM>(a, colk + buf * AB_ROWS + ty * AB_TM);
        if (ARG) ab_lds<int, AB_TM>(nk, nxk + buf * AB_ROWS + ty * AB_TM);
#pragma unroll
        for (int i = 0; i < AB_TM; i++)
          ab_step_row<T, SR, AB_TN, ARG>(v[i], nx[i], a[i], bw, nk[i]);
        if (b.trace && live) ab_trace<T, SR, AB_TM, AB_TN>(v, b, b.page0 + q, k, r0, c0);
      }
    }
    if (rank == owner) cl.sync();
    cl.sync(); /* every block is done with the owner's histories before the next round */
  }
  if (live)
    ab_store_tile<T, SR, AB_TM, AB_TN, ARG>(v, nx, b.out + q * nn, ARG ? b.P + q * nn : NULL, n, r0,
                                            c0, b.page0 + q, b.trace ? NULL : b.cycle);
#endif
}

/* The launch of `pages` graphs' clusters of form <T, SR, ARG> (its shared memory allowed first)
 * into lc, whose one attribute is *at. */
template <class T, class SR, bool ARG>
static cudaError_t ab_cluster_config(size_t pages, cudaLaunchConfig_t &lc,
                                     cudaLaunchAttribute *at) {
  const size_t smem = ab_cluster_smem<T, ARG>();
  lc = {};
  lc.gridDim = dim3((unsigned)(pages * AB_CL));
  lc.blockDim = dim3(AB_CL_THREADS);
  lc.dynamicSmemBytes = smem;
  at->id = cudaLaunchAttributeClusterDimension;
  at->val.clusterDim.x = AB_CL;
  at->val.clusterDim.y = 1;
  at->val.clusterDim.z = 1;
  lc.attrs = at;
  lc.numAttrs = 1;
  return cudaFuncSetAttribute(ab_close_cluster<T, SR, ARG>,
                              cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
}

template <class T, class SR, bool ARG> static cudaError_t ab_launch_cluster(const ap_batch<T> &b) {
  cudaLaunchConfig_t lc;
  cudaLaunchAttribute at;
  const cudaError_t e = ab_cluster_config<T, SR, ARG>(b.pages, lc, &at);
  if (e != cudaSuccess) return e;
  lc.stream = b.st;
  return cudaLaunchKernelEx(&lc, ab_close_cluster<T, SR, ARG>, b);
}

/* How many clusters of the form the GPU holds at once is more than none. */
template <class T, class SR, bool ARG> static bool ab_cluster_fits(void) {
  cudaLaunchConfig_t lc;
  cudaLaunchAttribute at;
  int most = 0;
  return ab_cluster_config<T, SR, ARG>(1, lc, &at) == cudaSuccess &&
         cudaOccupancyMaxActiveClusters(&most, ab_close_cluster<T, SR, ARG>, &lc) == cudaSuccess &&
         most > 0;
}

/* Whether this device launches clusters, the kernel was built for one that does (a PTX build
 * for an older GPU has no cluster code), and a cluster of the largest form (double with P: the
 * most shared memory) fits it (a partitioned GPU may hold none), asked once a device. */
bool ap_batch_clusters_ok(void) {
  static int known[CK_MAX_DEVICES]; /* 0 not asked, 1 no, 2 yes */
  const int dev = ck_device_current();
  if (dev < 0 || dev >= CK_MAX_DEVICES) return false;
  if (!known[dev]) {
    const bool ok = ck_clusters_built((const void *)ab_close_cluster<float, sr_min_plus, false>) &&
                    ab_cluster_fits<double, sr_min_plus, true>();
    (void)cudaGetLastError();
    known[dev] = ok ? 2 : 1;
  }
  return known[dev] == 2;
}

template <class T, class SR> ck_status ap_batch_cluster(const ap_batch<T> &b) {
  if (b.pages * AB_CL > INT_MAX) return ck_fail(CK_ERR_INVALID, "too many pages in one launch");
  if (!ap_batch_clusters_ok())
    return ck_fail(CK_ERR_INVALID, "batched graphs of more than %d vertices need clusters (Hopper)",
                   AP_BATCH_BLOCK_N);
  const cudaError_t e = b.P ? ab_launch_cluster<T, SR, true>(b)
                            : ab_launch_cluster<T, SR, false>(b);
  return ck_cuda_check(e, "closing a batch of graphs on clusters");
}

#define AP_BATCH_CLUSTER_INSTANCE(T, SR) \
  template ck_status ap_batch_cluster<T, SR>(const ap_batch<T> &);
AP_INSTANTIATE_SR(AP_BATCH_CLUSTER_INSTANCE)
