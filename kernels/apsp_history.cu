/* Blocked Floyd-Warshall with paths, in plain Floyd-Warshall's order (apsp.cuh says why): the
 * pivot's row and column strips evolved step by step from the pivot block's histories, each
 * recording its rows or columns k as they stood at step k, and the round that puts the three
 * steps together.
 *
 * Within a pivot block's steps a strip depends on nothing but itself and the pivot block: step k
 * updates the row strip's (k', c) from (k', k), in the pivot, and (k, c), in the strip, and the
 * column strip likewise. So each column of the row strip (each row of the column strip) runs its
 * R steps on its own, in registers, while the rest of the matrix waits for step 3. Their work is
 * 2 R^2 np per round against R np^2 for the rest, but they wait on a barrier or a shuffle
 * every step, and with the closure's step-by-step strips they took about 3 ms a round at
 * n = 16384 on an H100 (the product 6): doc/NOTES.md has the measurement and the next step. */
#include "apsp.cuh"

#define AP_STRIP_COLS 16 /* columns per block of the row strip: one register each per thread */
#define AP_STRIP_WARPS 8 /* rows (one per warp) per block of the column strip */

template <class T, class TW> __device__ __forceinline__ TW ap_hist_word(T v) {
  if constexpr (sizeof(TW) == sizeof(T)) return (TW)v;
  else return (TW)v | (TW)v << 16; /* a 16-bit value in both halves of its word */
}

/* The row strip: thread k' evolves row p + k' over AP_STRIP_COLS columns. Before step k, row k
 * (as it stands: step k does not change it) goes to shared memory and into the history. */
template <class T, class TW, int R>
__global__ void __launch_bounds__(R) ap_strip_rows_kernel(const ap_strip<T, TW> s) {
  typedef typename ap_work<T>::S S;
  const int C = AP_STRIP_COLS, c0 = blockIdx.x * C, kp = threadIdx.x;
  if (c0 >= s.p && c0 < s.p + R) return; /* the pivot's own columns (whole blocks: C | 64) */
  __shared__ T row[C];
  T *x = s.X + (size_t)(s.p + kp) * s.ld + c0;
  int *nx = s.N + (size_t)(s.p + kp) * s.ld + c0;
  T v[C];
  int nv[C];
#pragma unroll
  for (int j = 0; j < C; j++) v[j] = x[j], nv[j] = nx[j];
  const T *h = s.H + (size_t)kp * s.ldh;
  const int *hn = s.Hn + (size_t)kp * s.ldh;
  T hk = h[0];
  int hnk = hn[0];
  for (int k = 0; k < R; k++) {
    if (kp == k) {
#pragma unroll
      for (int j = 0; j < C; j++) {
        row[j] = v[j];
        s.out[(size_t)k * s.ldout + c0 + j] = v[j];
      }
    }
    const T hcur = hk;
    const int hncur = hnk;
    if (k + 1 < R) hk = h[k + 1], hnk = hn[k + 1]; /* the next step's, in flight meanwhile */
    __syncthreads();
    if (kp != k) {
#pragma unroll
      for (int j = 0; j < C; j++) {
        const S t = ap_work<T>::sum(hcur, row[j]);
        if (t < (S)v[j]) v[j] = (T)t, nv[j] = hncur;
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int j = 0; j < C; j++) x[j] = v[j], nx[j] = nv[j];
}

/* The column strip: a warp evolves row r over the R pivot columns, lane l holding columns
 * l + 32 j. Column k's value at step k comes from its lane by a shuffle, and stays there as
 * that lane's history. */
template <class T, class TW, int R>
__global__ void __launch_bounds__(32 * AP_STRIP_WARPS) ap_strip_cols_kernel(const ap_strip<T, TW> s) {
  typedef typename ap_work<T>::S S;
  constexpr int J = R / 32;
  const int lane = threadIdx.x % 32, r = blockIdx.x * AP_STRIP_WARPS + threadIdx.x / 32;
  if (r >= s.size || (r >= s.p && r < s.p + R)) return; /* a whole warp either way */
  T *x = s.X + (size_t)r * s.ld + s.p;
  int *nx = s.N + (size_t)r * s.ld + s.p;
  S v[J];
  int nv[J];
  S hv[J];
  int hnv[J];
#pragma unroll
  for (int j = 0; j < J; j++) v[j] = x[lane + 32 * j], nv[j] = nx[lane + 32 * j];
#pragma unroll
  for (int jb = 0; jb < J; jb++) {
    for (int kk = 0; kk < 32; kk++) {
      const int k = 32 * jb + kk;
      const S vk = __shfl_sync(0xffffffffu, v[jb], kk);
      const int nk = __shfl_sync(0xffffffffu, nv[jb], kk);
      if (lane == kk) hv[jb] = v[jb], hnv[jb] = nv[jb];
      const T *hrow = s.H + (size_t)k * s.ldh + lane;
#pragma unroll
      for (int j = 0; j < J; j++) {
        const S t = ap_work<T>::sum((T)vk, hrow[32 * j]);
        if (t < v[j]) v[j] = t, nv[j] = nk;
      }
    }
  }
  T *out = s.out + (size_t)r * s.ldout + lane;
#pragma unroll
  for (int j = 0; j < J; j++) {
    x[lane + 32 * j] = (T)v[j];
    nx[lane + 32 * j] = nv[j];
    out[32 * j] = (T)hv[j];
    if (s.nout) s.nout[(size_t)r * s.ldout + lane + 32 * j] = hnv[j];
    if (s.outa) s.outa[(size_t)r * s.ldout + lane + 32 * j] = ap_hist_word<T, TW>((T)hv[j]);
  }
}

template <class T, class TW, int R> void ap_strip_rows(const ap_strip<T, TW> &s) {
  ap_strip_rows_kernel<T, TW, R><<<(unsigned)(s.size / AP_STRIP_COLS), R>>>(s);
}

template <class T, class TW, int R> void ap_strip_cols(const ap_strip<T, TW> &s) {
  const unsigned blocks = (unsigned)((s.size + AP_STRIP_WARPS - 1) / AP_STRIP_WARPS);
  ap_strip_cols_kernel<T, TW, R><<<blocks, 32 * AP_STRIP_WARPS>>>(s);
}

template <class T>
void ap_round_hist(const ap_matrix<T> &m, size_t k0, const ap_hist<T, typename ap_work<T>::S> &h) {
  typedef typename ap_work<T>::S TW;
  const int B = AP_BLOCK;
  ap_close_block_hist<T>(m, k0, h);
  ap_strip<T, TW> rows = {m.X, m.N, m.np, (int)k0, (int)m.np, h.pc, h.npc, B, h.rs, NULL, NULL,
                          m.np};
  ap_strip<T, TW> cols = {m.X, m.N, m.np, (int)k0, (int)m.np, h.pr, NULL, B, h.cs, h.ncs,
                          sizeof(TW) != sizeof(T) ? h.csa : NULL, (size_t)B};
  ap_strip_rows<T, TW, AP_BLOCK>(rows);
  ap_strip_cols<T, TW, AP_BLOCK>(cols);
  ap_rest_hist<T>(m, k0, h);
}

#define AP_HISTORY_INSTANCE(T)                                                                   \
  template void ap_round_hist<T>(const ap_matrix<T> &, size_t,                                   \
                                 const ap_hist<T, typename ap_work<T>::S> &);                    \
  template void ap_strip_rows<T, typename ap_work<T>::S, AP_TILE>(                               \
      const ap_strip<T, typename ap_work<T>::S> &);                                              \
  template void ap_strip_cols<T, typename ap_work<T>::S, AP_TILE>(                               \
      const ap_strip<T, typename ap_work<T>::S> &);
AP_INSTANTIATE(AP_HISTORY_INSTANCE)
