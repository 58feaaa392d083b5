/* Blocked Floyd-Warshall with paths, in plain Floyd-Warshall's order (apsp.cuh says why): the
 * pivot's row and column strips evolved step by step from the pivot block's histories, each
 * recording its rows or columns k as they stood at step k, and the round that puts the three
 * steps together.
 *
 * Within a pivot block's steps a strip depends on nothing but itself and the pivot block: step k
 * updates the row strip's (k', c) from (k', k), in the pivot, and (k, c), in the strip, and the
 * column strip likewise. So each column of the row strip (each row of the column strip) runs its
 * R steps on its own, in registers, while the rest of the matrix waits for step 3. Their work is
 * 2 R^2 np per round against R np^2 for the rest, but each step of a vector waits on the one
 * before: at n = 8192 on an H100 the row strip takes 217 us a round and the column strip 145
 * (doc/NOTES.md). */
#include "apsp.cuh"

/* ---- tuning (doc/NOTES.md has the measurements) ----
 * A strip is a set of vectors (the row strip's columns, the column strip's rows), each R long,
 * each evolving through the R steps on its own: a warp holds AP_STRIP_VECS of them, R / 32
 * entries per lane, and gets entry k of each at step k by a shuffle, with no barrier. The
 * pivot's history for the steps is staged in shared memory a chunk at a time, read once per
 * step for all the warp's vectors. The first version (a thread per row, a barrier per step, the
 * history read from memory every step) took 420 to 860 us a strip at n = 8192; this one 145 to
 * 217 (AP_STRIP_VECS 2: two blocks of 8 warps per multiprocessor at 92 to 122 registers; 1 and
 * 4 vectors per warp not measured). */
#define AP_STRIP_WARPS 8                                    /* warps per block */
#define AP_STRIP_VECS 2                                     /* vectors per warp */
#define AP_STRIP_PER_BLOCK (AP_STRIP_WARPS * AP_STRIP_VECS) /* must divide AP_TILE */

/* Entry e of vector `vec`: the column strip's vectors are X's rows (their entries p + e), the
 * row strip's are X's columns (their entries in rows p + e). */
template <bool COLS>
__device__ __forceinline__ size_t ap_strip_at(size_t ld, int p, int vec, int e) {
  return COLS ? (size_t)vec * ld + p + e : (size_t)(p + e) * ld + vec;
}

/* The pivot's value that step k adds to entry e: the column strip's row k of the pivot's row
 * history, the row strip's column k of its column history (H[e][k]). */
template <bool COLS> __device__ __forceinline__ size_t ap_hist_at(int ldh, int k, int e) {
  return COLS ? (size_t)k * ldh + e : (size_t)e * ldh + k;
}

/* The history for steps k0 .. k0 + KC - 1 into hs[kk][e], T*CH elements (16 bytes) per load,
 * all of a thread's loads in flight before the first store: H is read along its rows, so the
 * column strip's chunk is row-contiguous there and in hs, the row strip's is transposed on the
 * way (hs rows padded by one element against bank conflicts). */
template <class T, int R, int KC, int PAD, bool COLS>
__device__ __forceinline__ void ap_stage_hist(T (*hs)[R + PAD], const T *H, int ldh, int k0) {
  constexpr int CH = 16 / sizeof(T), LOADS = KC * R / CH / (32 * AP_STRIP_WARPS);
  static_assert(LOADS >= 1 && KC * R == LOADS * CH * 32 * AP_STRIP_WARPS, "whole loads");
  uint4 buf[LOADS];
#pragma unroll
  for (int u = 0; u < LOADS; u++) {
    const int idx = threadIdx.x + u * 32 * AP_STRIP_WARPS;
    const int kk = COLS ? idx / (R / CH) : idx % (KC / CH) * CH;
    const int e = COLS ? idx % (R / CH) * CH : idx / (KC / CH);
    buf[u] = *(const uint4 *)(H + ap_hist_at<COLS>(ldh, k0 + kk, e));
  }
#pragma unroll
  for (int u = 0; u < LOADS; u++) {
    const int idx = threadIdx.x + u * 32 * AP_STRIP_WARPS;
    const T *val = (const T *)&buf[u];
    if (COLS) {
      *(uint4 *)&hs[idx / (R / CH)][idx % (R / CH) * CH] = buf[u];
    } else {
      const int kk = idx % (KC / CH) * CH, e = idx / (KC / CH);
#pragma unroll
      for (int q = 0; q < CH; q++) hs[kk + q][e] = val[q];
    }
  }
}

/* The strip kernel: COLS, the column strip (X[r][p + e] += X[r][p + k] + Hrow_k[e], next hop
 * that of X[r][p + k] at step k); otherwise the row strip (X[p + e][c] += Hcol_k[e] + X[p + k][c],
 * next hop the pivot's Hn[e][k], kept as -1 - k until the end). Entry k at step k is the
 * vector's history, written for each 32 steps from the lanes that held it. */
template <class T, class SR, class TW, int R, bool COLS>
__global__ void __launch_bounds__(32 * AP_STRIP_WARPS) ap_strip_kernel(const ap_strip<T, TW> s) {
  typedef typename ap_word<T>::S S;
  constexpr int J = R / 32, V = AP_STRIP_VECS, KC = sizeof(T) > 4 ? 16 : 32, PAD = COLS ? 0 : 1;
  __shared__ __align__(16) T hs[KC][R + PAD];
  const int lane = threadIdx.x % 32, first = blockIdx.x * AP_STRIP_PER_BLOCK;
  if (s.skip >= 0 && first >= s.skip && first < s.skip + R) return; /* the pivot's: whole blocks */
  int vec[V];
  bool live[V];
  S v[V][J];
  int nv[V][J];
#pragma unroll
  for (int i = 0; i < V; i++) {
    vec[i] = first + (threadIdx.x / 32) * V + i;
    live[i] = vec[i] < s.size;
#pragma unroll
    for (int j = 0; j < J; j++) {
      const size_t at = ap_strip_at<COLS>(s.ld, s.p, vec[i], lane + 32 * j);
      v[i][j] = live[i] ? (S)s.X[at] : (S)0;
      nv[i][j] = live[i] ? s.N[at] : 0;
    }
  }
#pragma unroll
  for (int jb = 0; jb < J; jb++) {
    S hist[V];
    int histn[V];
#pragma unroll
    for (int c = 0; c < 32 / KC; c++) {
      __syncthreads(); /* everyone is done with the last chunk */
      ap_stage_hist<T, R, KC, PAD, COLS>(hs, s.H, s.ldh, 32 * jb + KC * c);
      __syncthreads();
#pragma unroll 2 /* not more: the body is V x J updates, and the icache ran dry unrolled */
      for (int kk = 0; kk < KC; kk++) {
        const int src = KC * c + kk, k = 32 * jb + src;
        S h[J];
#pragma unroll
        for (int j = 0; j < J; j++) h[j] = (S)hs[kk][lane + 32 * j];
#pragma unroll
        for (int i = 0; i < V; i++) {
          const S vk = __shfl_sync(0xffffffffu, v[i][jb], src);
          const int nk = COLS ? __shfl_sync(0xffffffffu, nv[i][jb], src) : -1 - k;
          if (lane == src) hist[i] = vk, histn[i] = nk;
#pragma unroll
          for (int j = 0; j < J; j++) {
            const S t = COLS ? ap_work<T, SR>::sum((T)vk, (T)h[j])
                             : ap_work<T, SR>::sum((T)h[j], (T)vk);
            SR::add::take(v[i][j], nv[i][j], t, nk);
          }
        }
      }
    }
#pragma unroll
    for (int i = 0; i < V; i++) {
      if (!live[i]) continue;
      const size_t at = COLS ? (size_t)vec[i] * s.ldout + 32 * jb + lane
                             : (size_t)(32 * jb + lane) * s.ldout + vec[i];
      s.out[at] = (T)hist[i];
      if (COLS && s.nout) s.nout[at] = histn[i];
      if (COLS && s.outa) s.outa[at] = ap_word_of<T, TW>((T)hist[i]);
    }
  }
#pragma unroll
  for (int i = 0; i < V; i++) { /* the row strip's next hops first, their loads all in flight */
#pragma unroll
    for (int j = 0; j < J; j++)
      if (live[i] && nv[i][j] < 0)
        nv[i][j] = s.Hn[ap_hist_at<false>(s.ldh, -1 - nv[i][j], lane + 32 * j)];
  }
#pragma unroll
  for (int i = 0; i < V; i++) {
    if (!live[i]) continue;
#pragma unroll
    for (int j = 0; j < J; j++) {
      const size_t at = ap_strip_at<COLS>(s.ld, s.p, vec[i], lane + 32 * j);
      s.X[at] = (T)v[i][j];
      s.N[at] = nv[i][j];
    }
  }
}

template <class T, class SR, class TW, int R, bool COLS>
void ap_strip_launch(const ap_strip<T, TW> &s) {
  const unsigned blocks = (unsigned)((s.size + AP_STRIP_PER_BLOCK - 1) / AP_STRIP_PER_BLOCK);
  ap_strip_kernel<T, SR, TW, R, COLS><<<blocks, 32 * AP_STRIP_WARPS, 0, s.st>>>(s);
}

template <class T, class SR, class TW, int R> void ap_strip_rows(const ap_strip<T, TW> &s) {
  ap_strip_launch<T, SR, TW, R, false>(s);
}

template <class T, class SR, class TW, int R> void ap_strip_cols(const ap_strip<T, TW> &s) {
  ap_strip_launch<T, SR, TW, R, true>(s);
}

template <class T, class SR>
void ap_rows_hist(const ap_matrix<T, SR> &m, size_t k0,
                  const ap_hist<T, typename ap_word<T>::S> &h) {
  typedef typename ap_word<T>::S TW;
  const size_t at = (k0 - m.r0) * m.np; /* the row strip's first row */
  ap_strip<T, TW> rows = {m.X + at, m.N + at, m.np, 0,    (int)m.np, (int)k0, h.pc,
                          h.npc,    AP_BLOCK, h.rs, NULL, NULL,      m.np,    m.st};
  ap_strip_rows<T, SR, TW, AP_BLOCK>(rows);
}

template <class T, class SR>
void ap_cols_hist(const ap_matrix<T, SR> &m, size_t k0, const T *strip,
                  const ap_hist<T, typename ap_word<T>::S> &h) {
  typedef typename ap_word<T>::S TW;
  const int B = AP_BLOCK;
  ap_strip<T, TW> cols = {m.X,       m.N,         m.np,
                          (int)k0,   (int)m.rows, m.pivot_rows(k0),
                          strip,     NULL,        B,
                          h.cs,      h.ncs,       sizeof(TW) != sizeof(T) ? h.csa : NULL,
                          (size_t)B, m.st};
  ap_strip_cols<T, SR, TW, AP_BLOCK>(cols);
}

template <class T, class SR>
void ap_rows_transposed(const ap_matrix<T, SR> &m, const T *strip,
                        const ap_hist<T, typename ap_word<T>::S> &h) {
  const int B = AP_BLOCK;
  transpose_pad<T>
      <<<transpose_grid(m.np, B), dim3(32, 8), 0, m.st>>>(strip + (size_t)B * B, h.rst, m.np, B, B);
}

template <class T, class SR>
void ap_round_pivot_hist(const ap_matrix<T, SR> &m, size_t k0,
                         const ap_hist<T, typename ap_word<T>::S> &h) {
  ap_close_block_hist<T, SR>(m, k0, h);
  ap_rows_hist<T, SR>(m, k0, h);
}

template <class T, class SR>
void ap_round_cols_hist(const ap_matrix<T, SR> &m, size_t k0, const T *strip,
                        const ap_hist<T, typename ap_word<T>::S> &h) {
  ap_cols_hist<T, SR>(m, k0, strip, h);
  ap_rows_transposed<T, SR>(m, strip, h);
}

#define AP_HISTORY_INSTANCE(T, SR)                                                      \
  template void ap_round_pivot_hist<T, SR>(const ap_matrix<T, SR> &, size_t,            \
                                           const ap_hist<T, typename ap_word<T>::S> &); \
  template void ap_round_cols_hist<T, SR>(const ap_matrix<T, SR> &, size_t, const T *,  \
                                          const ap_hist<T, typename ap_word<T>::S> &);  \
  template void ap_rows_hist<T, SR>(const ap_matrix<T, SR> &, size_t,                   \
                                    const ap_hist<T, typename ap_word<T>::S> &);        \
  template void ap_cols_hist<T, SR>(const ap_matrix<T, SR> &, size_t, const T *,        \
                                    const ap_hist<T, typename ap_word<T>::S> &);        \
  template void ap_rows_transposed<T, SR>(const ap_matrix<T, SR> &, const T *,          \
                                          const ap_hist<T, typename ap_word<T>::S> &);  \
  template void ap_strip_rows<T, SR, typename ap_word<T>::S, AP_TILE>(                  \
      const ap_strip<T, typename ap_word<T>::S> &);                                     \
  template void ap_strip_cols<T, SR, typename ap_word<T>::S, AP_TILE>(                  \
      const ap_strip<T, typename ap_word<T>::S> &);
AP_INSTANTIATE_SR(AP_HISTORY_INSTANCE)
