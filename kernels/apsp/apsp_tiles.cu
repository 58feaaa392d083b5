/* Blocked Floyd-Warshall, step 1 with paths: closing a pivot block (apsp.cuh has the round). The
 * block (AP_BLOCK wide) is itself closed by blocked Floyd-Warshall over AP_TILE-wide tiles: each
 * tile on the diagonal by plain Floyd-Warshall (apsp_block.cu), then its row and column strips
 * step by step (apsp_history.cu) and the rest of the block by a small tile product. Its work is
 * AP_BLOCK^3 per round, a few hundredth of the round's, and it is bound by the latency of its
 * dependent steps, not by arithmetic: the kernels here are simple, and exact (the winner of
 * every term is tracked, not of every tile). The snapshot kernel (step 2 without paths) is here
 * too. */
#include <type_traits>

#include "apsp.cuh"

/* ---- step 2: the snapshot ---- */

/* One flat pass over the pieces asked for: the pivot block (B x B), the row strip (B x cols) and
 * the column strip (rows x B); for word operands (TW != T) the pivot block and the column strip
 * also as words. (Only the distances-only round takes a snapshot: with paths the strips keep
 * their histories instead, apsp_history.cu.) */
template <class T, class TW>
__global__ void ap_snapshot(const T *__restrict__ X, const ap_snap_at at, ap_snap<T, TW> s) {
  const size_t B = (size_t)at.B;
  const size_t pieces[3] = {at.pieces & AP_PV ? B * B : 0, at.pieces & AP_RS ? B * at.cols : 0,
                            at.pieces & AP_CS ? at.rows * B : 0};
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  int piece = 0;
  while (piece < 3 && idx >= pieces[piece]) idx -= pieces[piece++];
  if (piece == 3) return;
  size_t r, c;
  split_index(idx, piece == 1 ? at.cols : B, r, c);
  const size_t row = piece == 2 ? r : at.pr + r, col = piece == 1 ? c : at.pc + c;
  const T v = X[row * at.ld + col];
  const bool words = !std::is_same<T, TW>::value;
  if (piece == 0) {
    s.pv[idx] = v;
    if (words) s.pva[idx] = ap_word_of<T, TW>(v);
  } else if (piece == 1) {
    s.rs[idx] = v;
  } else {
    s.cs[idx] = v;
    if (words) s.csa[idx] = ap_word_of<T, TW>(v);
  }
}

template <class T, class TW>
void ap_take_snapshot(const T *X, const ap_snap_at &at, const ap_snap<T, TW> &s, cudaStream_t st) {
  const size_t B = (size_t)at.B;
  const size_t count = (at.pieces & AP_PV ? B * B : 0) + (at.pieces & AP_RS ? B * at.cols : 0) +
                       (at.pieces & AP_CS ? at.rows * B : 0);
  if (count) ap_snapshot<T, TW><<<grid_for(count, MP_THREADS), MP_THREADS, 0, st>>>(X, at, s);
}

/* ---- the tile product of the closure's rest (with paths) ----
 * 64 x 64 outputs per block, 4 x 4 per thread on a stride of 16 (so that a warp's shared-memory
 * reads hit distinct banks), k in chunks of AP_CHUNK through shared memory. Each output starts
 * from its old value and keeps the k of its last strict improvement. */
#define AP_CHUNK 32
template <class T, class SR, bool ARG>
__global__ void __launch_bounds__(AP_TILE_THREADS) ap_tile_product(const ap_job<T, T> j) {
  typedef typename ap_word<T>::S S;
  const int tr = blockIdx.y, tc = blockIdx.x;
  if (tr * AP_TILE >= j.rows || tc * AP_TILE >= j.cols || tr == j.skip_r || tc == j.skip_c) return;
  __shared__ T As[AP_CHUNK][AP_TILE + 1], Bs[AP_CHUNK][AP_TILE];
  const int ty = threadIdx.x / 16, tx = threadIdx.x % 16;
  const size_t r0 = (size_t)tr * AP_TILE, c0 = (size_t)tc * AP_TILE;
  S v[4][4];
  int arg[4][4];
#pragma unroll
  for (int i = 0; i < 4; i++)
#pragma unroll
    for (int q = 0; q < 4; q++) {
      v[i][q] = j.old[(r0 + ty + 16 * i) * j.ldo + c0 + tx + 16 * q];
      arg[i][q] = -1;
    }
  for (int k0 = 0; k0 < j.depth; k0 += AP_CHUNK) {
    for (int e = threadIdx.x; e < AP_CHUNK * AP_TILE; e += AP_TILE_THREADS) {
      As[e % AP_CHUNK][e / AP_CHUNK] = j.A[(r0 + e / AP_CHUNK) * j.lda + k0 + e % AP_CHUNK];
      Bs[e / AP_TILE][e % AP_TILE] = j.B[(size_t)(k0 + e / AP_TILE) * j.ldb + c0 + e % AP_TILE];
    }
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < AP_CHUNK; k++) {
      T a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; i++) a[i] = As[k][ty + 16 * i];
#pragma unroll
      for (int q = 0; q < 4; q++) b[q] = Bs[k][tx + 16 * q];
#pragma unroll
      for (int i = 0; i < 4; i++)
#pragma unroll
        for (int q = 0; q < 4; q++) {
          const S t = ap_work<T, SR>::sum(a[i], b[q]);
          if (SR::add::beats(t, v[i][q])) {
            v[i][q] = t;
            arg[i][q] = k0 + k;
          }
        }
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; i++)
#pragma unroll
    for (int q = 0; q < 4; q++) {
      const size_t r = r0 + ty + 16 * i, c = c0 + tx + 16 * q;
      const bool better = arg[i][q] >= 0;
      int nx = 0;
      if (ARG) nx = better ? j.na[r * j.ldna + arg[i][q]] : j.ncopy ? j.nold[r * j.ldnold + c] : 0;
      if (better) {
        j.out[r * j.ldout + c] = (T)v[i][q];
        if (ARG) j.nout[r * j.ldnout + c] = nx;
      }
      if (j.copy) j.copy[r * j.ldcopy + c] = (T)v[i][q];
      if (ARG && j.ncopy) j.ncopy[r * j.ldncopy + c] = nx;
    }
}

static dim3 ap_tile_grid(int rows, int cols) {
  return dim3((unsigned)((cols + AP_TILE - 1) / AP_TILE),
              (unsigned)((rows + AP_TILE - 1) / AP_TILE));
}

/* The same closure with paths, in plain Floyd-Warshall's order (apsp.cuh): each tile on the
 * diagonal records its histories, the strips evolve step by step from them (apsp_history.cu)
 * and record theirs, all straight into the block's histories h.pr, h.pc and h.npc, and the rest
 * of the block is the product of the strips' histories. */
template <class T, class SR>
void ap_close_block_hist(const ap_matrix<T, SR> &m, size_t k0,
                         const ap_hist<T, typename ap_word<T>::S> &h) {
  typedef typename ap_word<T>::S TW;
  const size_t ld = m.np;
  const int B = AP_BLOCK;
  T *X = m.X + (k0 - m.r0) * ld + k0;
  int *N = m.N + (k0 - m.r0) * ld + k0;
  for (int t = 0; t < B / AP_TILE; t++) {
    const int p = t * AP_TILE;
    const size_t d = (size_t)p * B + p; /* the tile's place in the histories */
    const ap_fw_rec<T> rec = {h.pr + d, h.pc + d, h.npc + d, B};
    ap_fw_hist<T, SR>(X + p * ld + p, N + p * ld + p, ld, (int)k0 + p, m.neg, rec, m.st);
    ap_strip<T, TW> rows = {X,    N,        ld,        p,   B,
                            p,    h.pc + d, h.npc + d, B,   h.pr + (size_t)p * B,
                            NULL, NULL,     (size_t)B, m.st};
    ap_strip<T, TW> cols = {X,    N, ld,       p,         B,    p,         h.pr + d,
                            NULL, B, h.pc + p, h.npc + p, NULL, (size_t)B, m.st};
    ap_strip_rows<T, SR, TW, AP_TILE>(rows);
    ap_strip_cols<T, SR, TW, AP_TILE>(cols);
    ap_job<T, T> rest = {};
    rest.A = h.pc + p, rest.lda = B, rest.B = h.pr + (size_t)p * B, rest.ldb = B;
    rest.old = X, rest.ldo = ld, rest.out = X, rest.ldout = ld;
    rest.na = h.npc + p, rest.ldna = B, rest.nout = N, rest.ldnout = ld;
    rest.rows = B, rest.cols = B, rest.depth = AP_TILE, rest.skip_r = t, rest.skip_c = t;
    ap_tile_product<T, SR, true><<<ap_tile_grid(B, B), AP_TILE_THREADS, 0, m.st>>>(rest);
  }
}

#define AP_TILES_INSTANCE(T, SR)                                             \
  template void ap_close_block_hist<T, SR>(const ap_matrix<T, SR> &, size_t, \
                                           const ap_hist<T, typename ap_word<T>::S> &);
AP_INSTANTIATE_SR(AP_TILES_INSTANCE)
#define AP_SNAPSHOT_INSTANCE(T)                              \
  template void ap_take_snapshot<T, typename ap_word<T>::S>( \
      const T *, const ap_snap_at &, const ap_snap<T, typename ap_word<T>::S> &, cudaStream_t);
AP_INSTANTIATE(AP_SNAPSHOT_INSTANCE)
