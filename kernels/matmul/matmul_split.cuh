/* The warptile matmul's run over padded operands, with split-K: when the output has too few tiles
 * to fill the GPU and k is deep, blocks take slices of k (blockIdx.z), each slice's sums go to a
 * plane of scratch, and a reduce adds each output's planes in plane order (k order) into C.
 *
 * The decision is a value, mm_split (slices, and the planes' scratch), made in one place
 * (mm_plan_split: the shape, the SM count and matmul_policy.cuh's costs, through warptile.cuh's
 * planner) and carried out by mm_run_warptile. The sums' order depends only on the shape and the
 * GPU's SM count, never on timing: no atomics, each output's planes added by one thread per run
 * and the runs folded in order, so a product gives the same bits on every run. Splitting changes
 * the order of the sums from the unsplit kernel's (k in slices, then the slices' sums), which
 * stays within the rounding bound of a sum of k products in any order. */
#ifndef CK_MATMUL_SPLIT_CUH
#define CK_MATMUL_SPLIT_CUH

#include "matmul_policy.cuh"
#include "v5_warptile.cuh"

/* dev/matmul's sweep forces a split (ck_matmul_set_split, matmul.cu); 0: the planner's. */
int mm_forced_split(void);

/* C (count outputs) = the sum of `planes` planes of count each, in plane order: each thread
 * (x, y) adds the run of planes merge-style [z0, z1) of output x, then thread row 0 folds the
 * rows' runs in order. Runs are never empty (blockDim.y <= planes). */
template <class T>
__global__ void mm_reduce_planes(const T *__restrict__ P, int planes, size_t count,
                                 T *__restrict__ C) {
  __shared__ T part[MM_REDUCE_THREADS];
  const size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int z0 = planes * (int)threadIdx.y / (int)blockDim.y,
            z1 = planes * ((int)threadIdx.y + 1) / (int)blockDim.y;
  T v = 0;
  if (idx < count) {
    v = P[(size_t)z0 * count + idx];
#pragma unroll 8 /* several planes' loads in flight */
    for (int z = z0 + 1; z < z1; z++) v += P[(size_t)z * count + idx];
  }
  part[threadIdx.y * blockDim.x + threadIdx.x] = v;
  __syncthreads();
  if (threadIdx.y != 0 || idx >= count) return;
  for (int y = 1; y < (int)blockDim.y; y++) v += part[y * blockDim.x + threadIdx.x];
  C[idx] = v;
}

/* The reduce's block: runs per output by outputs, runs only while the outputs alone leave the
 * GPU short of threads (matmul_policy.cuh). A function of the shape alone, so the order of the
 * sums is too. */
static dim3 mm_reduce_block(int planes, size_t count) {
  return warptile_merge_block(planes, count, MM_REDUCE_MAX_RUNS, MM_REDUCE_FILL_OUTPUTS,
                              MM_REDUCE_THREADS);
}

/* The plan: slices of k (1: none), and where there are several, their planes (slices x count
 * elements of T). */
template <class T> struct mm_split {
  int slices;
  T *planes;
};

/* Slices of Kp's tiles of depth BK that leave none empty: `want`, or the fewest that keep its
 * slices' depth (warptile_slice_depth). */
static int mm_whole_slices(int Kp, int BK, int want) {
  const int steps = Kp / BK;
  if (want > steps) want = steps;
  if (want > MM_SPLIT_MAX) want = MM_SPLIT_MAX;
  if (want < 1) return 1;
  const int kz = (steps + want - 1) / want;
  return (steps + kz - 1) / kz;
}

/* The split of the padded Mp x Np x Kp product whose real output is count elements: the
 * planner's (or the forced) slices, and their scratch. No room for the planes: no split, which
 * is not an error. */
template <class Op, class CFG>
static mm_split<typename Op::T> mm_plan_split(int Mp, int Np, int Kp, size_t count) {
  typedef typename Op::T T;
  mm_split<T> p = {1, NULL};
  int cs = 1;
  const int forced = mm_forced_split();
  p.slices = forced > 0 ? mm_whole_slices(Kp, CFG::BK, forced)
                        : warptile_splits<Op, CFG, false>(Mp, Np, Kp, ck_device_sms(),
                                                          mm_split_cost<T>(), &cs);
  if (p.slices <= 1) return p;
  if (ck_dev_alloc((void **)&p.planes, (size_t)p.slices * count * sizeof(T)) != CK_OK) {
    (void)cudaGetLastError(); /* a failed pool allocation is also the runtime's last error */
    p.planes = NULL;
    p.slices = 1;
  }
  return p;
}

/* C (Mr x Nr, row-major) = A * B over the padded Mp x Np x Kp operands, on CFG's warp tiles:
 * planned, noted into the plan, run, the planes reduced and freed. */
template <class T, class CFG>
static ck_status mm_run_warptile(int Mp, int Np, int Kp, int Mr, int Nr, const T *A, const T *B,
                                 T *C) {
  /* the padding's launches, before a failed allocation below may leave its own error */
  CK_CUDA(cudaGetLastError(), "padding the matmul operands");
  const size_t count = (size_t)Mr * Nr;
  const mm_split<T> sp = mm_plan_split<plus_times_plane<T>, CFG>(Mp, Np, Kp, count);
  ck_plan_note_tiles(CFG::BM, CFG::BN, CFG::BK, sp.slices, 1);
  if (sp.slices > 1) {
    const plus_times_plane<T> op = {{sp.planes, Mr, Nr}};
    warptile_launch_as<plus_times_plane<T>, CFG, true>(Mp, Np, Kp, sp.slices, A, B, op);
    const dim3 rb = mm_reduce_block(sp.slices, count);
    mm_reduce_planes<T>
        <<<(unsigned)((count + rb.x - 1) / rb.x), rb>>>(sp.planes, sp.slices, count, C);
  } else {
    const plus_times<T> op = {C, Mr, Nr};
    warptile_launch<plus_times<T>, CFG>(Mp, Np, Kp, A, B, op);
  }
  ck_dev_free(sp.planes); /* stream-ordered: after the reduce */
  CK_CUDA(cudaGetLastError(), "launching the warptile matmul kernel");
  return CK_OK;
}

#endif
