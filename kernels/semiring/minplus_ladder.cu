/* Min-plus ladder, versions v0-v2 (doc/NOTES.md has what each measured), for every semiring of
 * the family (SR):
 *   v0 naive        one thread per output, threads along rows of C (uncoalesced)
 *   v1 coalesced    one thread per output, threads down columns of C
 *   v2 regblock     8x8 outputs per thread from registers; also the warptile path's fallback for
 *                   integer sums no DPX word holds, and for grids beyond its 2-D limits. */
#include "minplus.cuh"

/* ---- v0 naive: consecutive threads walk along a row of C, so each thread of a warp reads a
 * different column of B (stride k) and writes C with stride m. ---- */
template <class T, bool ARG, class SR> __global__ void minplus_v0(mp_problem<T, SR> q) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= q.m * q.n) return;
  typedef mp_traits<T, SR> tr;
  typedef typename tr::W W;
  size_t j = idx % q.n, i = idx / q.n;
  W v = tr::init();
  int id = 0;
  for (size_t p = 0; p < q.k; p++)
    mp_update<T, ARG, SR>(v, id, tr::term((W)q.A[i + p * q.m], (W)q.B[p + j * q.k]), (int)p);
  q.C[i + j * q.m] = tr::store(v);
  if (ARG) q.K[i + j * q.m] = id + 1;
}

/* ---- v1 coalesced: the same work with consecutive threads walking down a column of C, so a
 * warp reads 32 consecutive elements of A, one broadcast element of B, and writes contiguously. ---- */
template <class T, bool ARG, class SR> __global__ void minplus_v1(mp_problem<T, SR> q) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= q.m * q.n) return;
  typedef mp_traits<T, SR> tr;
  typedef typename tr::W W;
  size_t i = idx % q.m, j = idx / q.m;
  W v = tr::init();
  int id = 0;
  const T *a = q.A + i, *b = q.B + j * q.k;
  for (size_t p = 0; p < q.k; p++)
    mp_update<T, ARG, SR>(v, id, tr::term((W)a[p * q.m], (W)b[p]), (int)p);
  q.C[i + j * q.m] = tr::store(v);
  if (ARG) q.K[i + j * q.m] = id + 1;
}

template <class T, bool ARG, class SR> ck_status mp_run_naive(const mp_problem<T, SR> &p) {
  minplus_v0<T, ARG, SR><<<grid_for(p.m * p.n, MP_THREADS), MP_THREADS>>>(p);
  CK_CUDA(cudaGetLastError(), "launching the naive min-plus kernel");
  return CK_OK;
}

template <class T, bool ARG, class SR> ck_status mp_run_coalesced(const mp_problem<T, SR> &p) {
  minplus_v1<T, ARG, SR><<<grid_for(p.m * p.n, MP_THREADS), MP_THREADS>>>(p);
  CK_CUDA(cudaGetLastError(), "launching the coalesced min-plus kernel");
  return CK_OK;
}

/* ---- v2 register-blocked (the seed's design): each thread keeps an 8x8 block of C in registers
 * and per step of p loads 8 values of column p of A and 8 of row p of B, doing 64 pair updates per
 * 16 loads. A 8x8-thread block covers a 64x64 tile of C. The operands are first laid out so that
 * both loads are contiguous in p-major order and need no bounds checks: Ap is A with its rows
 * padded to a multiple of 64 (A itself when m already is one), Bt is B transposed (n-by-k) with its
 * rows padded likewise.
 * Addressing matters here (doc/NOTES.md): the row pointers are the same for the whole block, so
 * they live in uniform registers and each thread adds only a small offset; with per-thread 64-bit
 * pointers the compiler issued some loads mid-step and the kernel ran 25-40% slower. ---- */

/* dst (padded_rows-by-cols) = src (rows-by-cols) with zero rows appended. */
template <class T>
__global__ void pad_rows(const T *__restrict__ src, T *__restrict__ dst, size_t rows, size_t cols,
                         size_t padded_rows) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= padded_rows * cols) return;
  size_t r = idx % padded_rows, c = idx / padded_rows;
  dst[idx] = r < rows ? src[r + c * rows] : (T)0;
}

/* Block (x, y) computes tile (x, y0 + y) of C from Ap (mm-by-k) and Bt (nn-by-k), p-major. */
template <class T, bool ARG, class SR>
__global__ void __launch_bounds__(MP_RB *MP_RB)
    minplus_v2(const T *__restrict__ Ap, const T *__restrict__ Bt, T *__restrict__ C,
               double *__restrict__ K, size_t m, size_t k, size_t n, size_t mm, size_t nn,
               unsigned y0) {
  const int ia = threadIdx.x, ja = threadIdx.y;
  const size_t ic = blockIdx.x, jc = (size_t)blockIdx.y + y0;
  typedef mp_traits<T, SR> tr;
  typedef typename tr::W W;
  const T *ap = Ap + ic * MP_TILE, *bp = Bt + jc * MP_TILE; /* uniform across the block */
  W v[MP_RB][MP_RB];
  int id[MP_RB][MP_RB];
#pragma unroll
  for (int ib = 0; ib < MP_RB; ib++)
#pragma unroll
    for (int jb = 0; jb < MP_RB; jb++) {
      v[ib][jb] = tr::init();
      id[ib][jb] = 0;
    }
#pragma unroll v2_unroll < T> ::value
  for (size_t p = 0; p < k; p++) {
    W x[MP_RB], y[MP_RB];
#pragma unroll
    for (int ib = 0; ib < MP_RB; ib++) x[ib] = (W)ap[ia + ib * MP_RB];
#pragma unroll
    for (int jb = 0; jb < MP_RB; jb++) y[jb] = (W)bp[ja + jb * MP_RB];
#pragma unroll
    for (int ib = 0; ib < MP_RB; ib++)
#pragma unroll
      for (int jb = 0; jb < MP_RB; jb++)
        mp_update<T, ARG, SR>(v[ib][jb], id[ib][jb], tr::term(x[ib], y[jb]), (int)p);
    ap += mm;
    bp += nn;
  }
#pragma unroll
  for (int ib = 0; ib < MP_RB; ib++)
#pragma unroll
    for (int jb = 0; jb < MP_RB; jb++) {
      size_t i = ic * MP_TILE + ib * MP_RB + ia, j = jc * MP_TILE + jb * MP_RB + ja;
      if (i < m && j < n) {
        C[i + j * m] = tr::store(v[ib][jb]);
        if (ARG) K[i + j * m] = id[ib][jb] + 1;
      }
    }
}

template <class T, bool ARG, class SR> ck_status mp_run_regblock(const mp_problem<T, SR> &p) {
  const size_t m = p.m, k = p.k, n = p.n;
  size_t mm = round_up(m, MP_TILE), nn = round_up(n, MP_TILE);
  T *Ap = NULL, *Bt = NULL;
  ck_status s = CK_OK;
  cudaError_t e;
  const T *a = p.A;
  if (mm != m) { /* A already has the p-major layout; it only needs padding when m is ragged */
    if ((s = ck_dev_alloc((void **)&Ap, mm * k * sizeof(T))) != CK_OK) goto done;
    pad_rows<T><<<grid_for(mm * k, MP_THREADS), MP_THREADS>>>(p.A, Ap, m, k, mm);
    a = Ap;
  }
  if ((s = ck_dev_alloc((void **)&Bt, nn * k * sizeof(T))) != CK_OK) goto done;
  transpose_pad<T><<<transpose_grid(k, nn), dim3(32, 8)>>>(p.B, Bt, k, n, nn);
  for (size_t y0 = 0; y0 < nn / MP_TILE; y0 += MP_MAX_GRID_Y) {
    size_t rows = nn / MP_TILE - y0 < MP_MAX_GRID_Y ? nn / MP_TILE - y0 : MP_MAX_GRID_Y;
    minplus_v2<T, ARG, SR><<<dim3((unsigned)(mm / MP_TILE), (unsigned)rows), dim3(MP_RB, MP_RB)>>>(
        a, Bt, p.C, p.K, m, k, n, mm, nn, (unsigned)y0);
  }
  if ((e = cudaGetLastError()) != cudaSuccess)
    s = ck_cuda_status(e, "launching the regblock min-plus kernel");
done:
  /* Frees are stream-ordered: the scratch returns to the pool only after the kernels using it. */
  ck_dev_free(Ap);
  ck_dev_free(Bt);
  return s;
}

MP_INSTANTIATE_SEMIRINGS(mp_run_naive, ANY)
MP_INSTANTIATE_SEMIRINGS(mp_run_coalesced, ANY)
MP_INSTANTIATE_SEMIRINGS(mp_run_regblock, ANY)
