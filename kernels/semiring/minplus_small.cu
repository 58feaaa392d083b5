/* Small single and double products in one launch (what warptile runs below MP_SMALL_PAIRS): a
 * block covers a 32 x 16 tile of C, and its warps share out k. Each warp takes one slice of k,
 * stages its own part of A (32 rows) and B (16 columns) in shared memory, keeps 4 x 4 outputs a
 * thread in registers (two 16-byte loads of shared memory for 16 pair updates in single, four in
 * double), then the slices' partial tiles are folded in k order through shared memory and the
 * block stores C.
 *
 * Why not v1 (one thread an output, two loads a pair update) or warptile (a padded copy, a
 * split into planes and a merge, three launches or more): at 256^3 there are too few outputs to
 * keep the SMs busy without sharing k, and a small call's time is mostly launches and latency
 * (doc/NOTES.md). Sharing k inside the block needs no scratch and no second launch, and folding
 * the slices in order keeps Octave's ties (the smallest k) and NaN rule, as the planes' merge
 * does (merge_take). */
#include "minplus.cuh"
#include "minplus_warptile.cuh"

#define MS_TM 32 /* rows of C a block covers: 8 threads of 4 */
#define MS_TN 16 /* columns: 4 threads of 4 */
#define MS_R 4   /* outputs a thread, each way */
#define MS_OUT (MS_TM * MS_TN)

/* The block's shared memory, sized by its warps (G): each warp's operands for a chunk of its
 * slice of k (A as a[g][KC][32], then B as b[g][KC][16]), and after them the slices' partial
 * tiles (v[g][512], then id[g][512]) in the same space. B's rows are swizzled by 4-column groups
 * so that the lanes storing down a column of B meet 4-way bank conflicts instead of 16-way; a
 * thread still reads its 4 columns in one piece. */
template <class T> struct ms_smem {
  enum { KC = MS_CHUNK_BYTES / (MS_MAX_GROUPS * (MS_TM + MS_TN) * (int)sizeof(T)) };
  static __host__ __device__ size_t bytes(int groups) {
    const size_t op = (size_t)groups * KC * (MS_TM + MS_TN) * sizeof(T),
                 part = (size_t)groups * MS_OUT * (sizeof(T) + sizeof(int));
    return op > part ? op : part;
  }
  unsigned char *raw;
  int groups;
  __device__ T (*a(int g) const)[MS_TM] { return (T(*)[MS_TM])raw + g * KC; }
  __device__ T (*b(int g) const)[MS_TN] {
    return (T(*)[MS_TN])((T *)raw + (size_t)groups * KC * MS_TM) + g * KC;
  }
  __device__ T *v(int g) const { return (T *)raw + g * MS_OUT; }
  __device__ int *id(int g) const { return (int *)((T *)raw + groups * MS_OUT) + g * MS_OUT; }
};

__device__ __forceinline__ int ms_bcol(int kk, int jj) {
  return (((jj >> 2) ^ ((kk >> 1) & 3)) << 2) | (jj & 3);
}

__device__ __forceinline__ void ms_four(const float *p, float x[4]) {
  const float4 q = *(const float4 *)p;
  x[0] = q.x, x[1] = q.y, x[2] = q.z, x[3] = q.w;
}
__device__ __forceinline__ void ms_four(const double *p, double x[4]) {
  const double2 q0 = ((const double2 *)p)[0], q1 = ((const double2 *)p)[1];
  x[0] = q0.x, x[1] = q0.y, x[2] = q1.x, x[3] = q1.y;
}

/* Stage rows [i0, i0 + 32) of A and columns [j0, j0 + 16) of B for k in [kb, kb + len) into a
 * warp's chunk; rows and columns past the matrix are NaN (their outputs are never stored), and
 * so is k past the chunk, which the steps do not read. */
template <class T, class SR>
__device__ __forceinline__ void ms_stage(const mp_problem<T, SR> &q, T (*a)[MS_TM], T (*b)[MS_TN],
                                         size_t i0, size_t j0, int kb, int len, int lane) {
  typedef ms_smem<T> S;
  const T nan = sr_start_nan(T());
  const size_t i = i0 + lane;
#pragma unroll
  for (int kk = 0; kk < S::KC; kk++)
    a[kk][lane] = i < q.m && kk < len ? q.A[i + (size_t)(kb + kk) * q.m] : nan;
#pragma unroll
  for (int it = 0; it < S::KC * MS_TN / 32; it++) {
    const int idx = it * 32 + lane, kk = idx % S::KC, jj = idx / S::KC;
    const size_t j = j0 + jj;
    b[kk][ms_bcol(kk, jj)] = j < q.n && kk < len ? q.B[kb + kk + j * q.k] : nan;
  }
}

/* Block b: tile (b % row tiles, b / row tiles) of C; warp g: k in [g * slice, (g + 1) * slice). */
template <class T, bool ARG, class SR>
__global__ void __launch_bounds__(MS_MAX_GROUPS * 32)
    minplus_small(mp_problem<T, SR> q, int slice) {
  typedef mp_traits<T, SR> tr;
  typedef typename tr::W W;
  extern __shared__ __align__(16) unsigned char ms_raw[];
  const int lane = threadIdx.x & 31, g = threadIdx.x >> 5, groups = blockDim.x >> 5;
  const ms_smem<T> sm = {ms_raw, groups};
  const int ti = lane & 7, tj = lane >> 3;
  const size_t row_tiles = (q.m + MS_TM - 1) / MS_TM;
  const size_t i0 = (blockIdx.x % row_tiles) * MS_TM, j0 = (blockIdx.x / row_tiles) * MS_TN;
  W v[MS_R][MS_R];
  int id[MS_R][MS_R];
#pragma unroll
  for (int r = 0; r < MS_R; r++)
#pragma unroll
    for (int c = 0; c < MS_R; c++) v[r][c] = tr::init(), id[r][c] = 0;

  const int k = (int)q.k, k0 = g * slice, k1 = min(k, k0 + slice);
  for (int kb = k0; kb < k1; kb += ms_smem<T>::KC) {
    const int len = min(ms_smem<T>::KC, k1 - kb);
    ms_stage(q, sm.a(g), sm.b(g), i0, j0, kb, len, lane);
    __syncwarp();
#pragma unroll 4
    for (int kk = 0; kk < len; kk++) {
      T x[MS_R], y[MS_R];
      ms_four(&sm.a(g)[kk][ti * MS_R], x);
      ms_four(&sm.b(g)[kk][ms_bcol(kk, tj * MS_R)], y);
#pragma unroll
      for (int r = 0; r < MS_R; r++)
#pragma unroll
        for (int c = 0; c < MS_R; c++)
          mp_update<T, ARG, SR>(v[r][c], id[r][c], tr::term((W)x[r], (W)y[c]), kb + kk);
    }
    __syncwarp();
  }

  __syncthreads(); /* every warp is done with its operands: the space takes the partial tiles */
#pragma unroll
  for (int r = 0; r < MS_R; r++)
#pragma unroll
    for (int c = 0; c < MS_R; c++) {
      const int o = ti * MS_R + r + MS_TM * (tj * MS_R + c);
      sm.v(g)[o] = (T)v[r][c];
      if (ARG) sm.id(g)[o] = id[r][c];
    }
  __syncthreads();
  const merge_take<T, ARG, SR> take;
  for (int o = threadIdx.x; o < MS_OUT; o += blockDim.x) {
    T w = sm.v(0)[o];
    int wid = ARG ? sm.id(0)[o] : 0;
    for (int h = 1; h < groups; h++) take(w, wid, sm.v(h)[o], ARG ? sm.id(h)[o] : 0);
    const size_t i = i0 + o % MS_TM, j = j0 + o / MS_TM;
    if (i < q.m && j < q.n) {
      q.C[i + j * q.m] = tr::store((W)w);
      if (ARG) q.K[i + j * q.m] = wid + 1;
    }
  }
}

/* How many warps share k: a slice of at least MS_MIN_SLICE steps each. */
static int ms_groups(size_t k) {
  const size_t g = k / MS_MIN_SLICE;
  return g < 1 ? 1 : g > MS_MAX_GROUPS ? MS_MAX_GROUPS : (int)g;
}

template <class T, bool ARG, class SR> ck_status mp_run_small(const mp_problem<T, SR> &p) {
  static_assert(mp_traits<T, SR>::is_float, "the small kernel takes single and double");
  const size_t blocks = ((p.m + MS_TM - 1) / MS_TM) * ((p.n + MS_TN - 1) / MS_TN);
  if (blocks > INT_MAX || p.k > INT_MAX / 2) return mp_run_coalesced<T, ARG>(p);
  const int groups = ms_groups(p.k);
  const int slice = (int)((p.k + groups - 1) / groups);
  minplus_small<T, ARG, SR><<<(unsigned)blocks, groups * 32, ms_smem<T>::bytes(groups)>>>(p, slice);
  CK_CUDA(cudaGetLastError(), "launching the small min-plus kernel");
  return CK_OK;
}

MP_INSTANTIATE_SEMIRINGS(mp_run_small, FLOATS)
