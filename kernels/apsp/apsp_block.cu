/* Closing a pivot block (apsp.cuh, step 1 of a round) by blocked Floyd-Warshall over AP_TILE-wide
 * tiles, each tile of the block in one thread block's registers, a TT x TT piece a thread, as
 * the batched kernels hold a small graph (apsp_batch.cuh).
 *
 * Distances alone: one launch a tile round t, a thread block per tile (I, J) of the pivot block.
 * Every thread block first closes the diagonal tile (t, t) itself, by plain Floyd-Warshall in
 * registers; then, from that closure D* and the tiles as they stood before the launch:
 *   (t, t)   is D*;
 *   (t, J)   = min ((t, J), D* (x) (t, J)), the row strip;
 *   (I, t)   = min ((I, t), (I, t) (x) D*), the column strip;
 *   (I, J)   = min ((I, J), (I, t)' (x) (t, J)'), from both strips, which it computes itself.
 * So no thread block waits for another within a round: each reads the block as it stood (src)
 * and writes its own tile into the other of two buffers (dst), the pivot block in X and a
 * scratch block, which swap roles each round. The redundant closures and strips cost a few
 * microseconds of a block's time; the four launches of each of the four rounds they replaced,
 * and the shared-memory Floyd-Warshall before (a 64-step closure took 24 us there), cost far more
 * (doc/NOTES.md). The terms are those of the closure before, so the distances are the same.
 *
 * With paths: the tile on the diagonal, plain Floyd-Warshall in registers, recording each of its
 * rows and columns k as they stood at step k (its histories: apsp.cuh); the strips and the rest
 * of the block stay as they were (apsp_tiles.cu, apsp_history.cu). */
#include "apsp_tile.cuh"

static_assert(AP_BLOCK / AP_TILE % 2 == 0, "the rounds must end in X (ap_close_block)");

/* One tile round of the distances-only closure (the file's head): src and dst, the pivot block
 * in its two buffers; base, the round's first vertex. */
template <class T> struct ac_round_args {
  const T *src;
  T *dst;
  size_t lds, ldd;
  int t, base;
  int *neg;
};

template <class T, class SR>
__global__ void __launch_bounds__(AC_THREADS) ac_round(const ac_round_args<T> a) {
  typedef ac_piece<T> Pc;
  /* two tiles, A by columns (At, in A words: apsp_tile.cuh) and B by rows (Bs) of each product in
   * turn; the closure's row and column buffers lie in Bs until the closure is done. 32 KB (64 KB
   * for double, 24 KB for 16-bit values): within what every GPU the package is built for gives a
   * block (Turing: 64 KB). */
  extern __shared__ __align__(16) unsigned char ac_smem[];
  typename Pc::A *At = (typename Pc::A *)ac_smem;
  T *Bs = (T *)(At + AC_TILE_ELEMS), *rowk = Bs, *colk = rowk + 2 * AP_TILE;
  const int I = blockIdx.y, J = blockIdx.x, t = a.t;
  int ty, tx;
  ac_place(ty, tx);
  const int r0 = ty * AC_TT, c0 = tx * AC_TT;
  auto src = [&](int i, int j) { return a.src + (size_t)i * AP_TILE * a.lds + j * AP_TILE; };
  T *out = a.dst + (size_t)I * AP_TILE * a.ldd + J * AP_TILE;
  typename Pc::W v[AC_TT][Pc::WN], u[AC_TT][Pc::WN], w[AC_TT][Pc::WN], acc[AC_TT][Pc::WN];
  int nx[AC_TT][AC_TT];
  ac_load<T>(v, src(t, t), a.lds, r0, c0);
  if (I != t) ac_load<T>(u, src(I, t), a.lds, r0, c0);
  if (J != t) ac_load<T>(w, src(t, J), a.lds, r0, c0);
  ab_steps<T, SR, AC_TT, AC_TT, false>(v, nx, rowk, colk, NULL, AP_TILE, AP_TILE, ty, tx,
                                       AC_THREADS, [](int, int) {});
  if (I == t && J == t) {
    ac_store<T>(v, out, a.ldd, r0, c0);
    ac_check_diagonal<T, SR>(v, r0, c0, a.base, a.neg);
    return;
  }
  if (I != t && J != t) ac_load<T>(acc, src(I, J), a.lds, r0, c0);
  /* the column strip, (I, t)' = (I, t) (x) D* */
  ac_put_rows<T>(v, Bs, r0, c0);
  if (I != t) ac_put_cols<T>(u, At, r0, c0);
  __syncthreads();
  if (I != t) ac_product<T, SR>(u, At, Bs, r0, c0);
  if (J == t) return ac_store<T>(u, out, a.ldd, r0, c0);
  ac_load<T>(v, Bs, AP_TILE, r0, c0); /* D* back: its registers were free meanwhile */
  __syncthreads();
  /* the row strip, (t, J)' = D* (x) (t, J) */
  ac_put_cols<T>(v, At, r0, c0);
  ac_put_rows<T>(w, Bs, r0, c0);
  __syncthreads();
  ac_product<T, SR>(w, At, Bs, r0, c0);
  if (I == t) return ac_store<T>(w, out, a.ldd, r0, c0);
  __syncthreads();
  /* the rest, (I, J)' = (I, J) min (I, t)' (x) (t, J)' */
  ac_put_cols<T>(u, At, r0, c0);
  ac_put_rows<T>(w, Bs, r0, c0);
  __syncthreads();
  ac_product<T, SR>(acc, At, Bs, r0, c0);
  ac_store<T>(acc, out, a.ldd, r0, c0);
}

template <class T> static constexpr size_t ac_round_smem() {
  static_assert(4 * AP_TILE <= AC_TILE_ELEMS, "the closure's buffers fit in a tile");
  return AC_TILE_ELEMS * (sizeof(T) + sizeof(typename ac_piece<T>::A));
}

template <class T, class SR> void ap_close_block(const ap_matrix<T, SR> &m, size_t k0, T *scratch) {
  const int tiles = AP_BLOCK / AP_TILE;
  const size_t smem = ac_round_smem<T>();
  /* double takes 64 KB, over the default 48: the limit is raised for each call's device (it
   * does not survive a device reset; a GPU that refuses fails the launch, which the rounds
   * report) */
  if constexpr (ac_round_smem<T>() > 48 * 1024)
    cudaFuncSetAttribute(ac_round<T, SR>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  ac_round_args<T> a = {m.X + (k0 - m.r0) * m.np + k0, scratch, m.np, AP_BLOCK, 0, 0, m.neg};
  for (int t = 0; t < tiles; t++) {
    a.t = t, a.base = (int)k0 + t * AP_TILE;
    ac_round<T, SR><<<dim3(tiles, tiles), AC_THREADS, smem, m.st>>>(a);
    /* the next round reads what this one wrote */
    const T *s = a.src;
    const size_t ls = a.lds;
    a.src = a.dst, a.lds = a.ldd;
    a.dst = (T *)s, a.ldd = ls;
  }
}

/* ---- with paths: the diagonal tile's closure and histories ---- */

template <class T, class SR>
__global__ void __launch_bounds__(AC_THREADS)
    ac_fw_hist(T *__restrict__ X, int *__restrict__ N, size_t ld, int base, int *neg,
               const ap_fw_rec<T> rec) {
  __shared__ __align__(16) T rowk[2 * AP_TILE], colk[2 * AP_TILE];
  __shared__ __align__(16) int nxk[2 * AP_TILE];
  int ty, tx;
  ac_place(ty, tx);
  const int r0 = ty * AC_TT, c0 = tx * AC_TT;
  typename ac_piece<T>::W v[AC_TT][ac_piece<T>::WN];
  int nx[AC_TT][AC_TT];
  ac_load<T>(v, X, ld, r0, c0);
#pragma unroll
  for (int i = 0; i < AC_TT; i++) ab_lds<int, AC_TT>(nx[i], N + (r0 + i) * ld + c0);
  ab_steps<T, SR, AC_TT, AC_TT, true>(
      v, nx, rowk, colk, nxk, AP_TILE, AP_TILE, ty, tx, AC_THREADS, [&](int k, int buf) {
        const int c = threadIdx.x;
        if (c < AP_TILE) { /* row and column k as they stood at step k */
          rec.row[k * rec.ld + c] = rowk[buf * AP_TILE + c];
          rec.col[c * rec.ld + k] = colk[buf * AP_TILE + c];
          rec.ncol[c * rec.ld + k] = nxk[buf * AP_TILE + c];
        }
      });
  ac_store<T>(v, X, ld, r0, c0);
#pragma unroll
  for (int i = 0; i < AC_TT; i++) ab_sts<int, AC_TT>(N + (r0 + i) * ld + c0, nx[i]);
  ac_check_diagonal<T, SR>(v, r0, c0, base, neg);
}

template <class T, class SR>
void ap_fw_hist(T *X, int *N, size_t ld, int base, int *neg, const ap_fw_rec<T> &rec,
                cudaStream_t st) {
  ac_fw_hist<T, SR><<<1, AC_THREADS, 0, st>>>(X, N, ld, base, neg, rec);
}

#define AP_BLOCK_INSTANCE(T, SR)                                                        \
  template void ap_close_block<T, SR>(const ap_matrix<T, SR> &, size_t, T *);           \
  template void ap_fw_hist<T, SR>(T *, int *, size_t, int, int *, const ap_fw_rec<T> &, \
                                  cudaStream_t);
AP_INSTANTIATE_SR(AP_BLOCK_INSTANCE)
