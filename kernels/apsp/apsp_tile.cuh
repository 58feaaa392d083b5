/* A 64-wide tile (AP_TILE) in one thread block's registers, a TT x TT piece a thread: the
 * pieces the pivot block's closure (apsp_block.cu) and the tiled batched kernel
 * (apsp_batch_tiled.cu) share. A tile goes to shared memory by rows (a product's B operand) or
 * by columns (its A operand), and a product updates a piece from two tiles there. */
#ifndef CK_APSP_TILE_CUH
#define CK_APSP_TILE_CUH

#include "apsp_batch.cuh"

/* A thread's piece: TT x TT values, on 256 threads. The closure's steps are bound by latency
 * (one block, a barrier a step): a step of ac_fw_hist takes about 520 cycles at an issue rate of
 * 0.39 a scheduler (ncu, H100). 2 x 2 pieces on 1024 threads were slower still (ac_round 21.3
 * against 17.4 us, ac_fw_hist 22.4 against 17.1): the barrier of 32 warps costs more than their
 * issue slots give. */
#define AC_TT 4
#define AC_SIDE (AP_TILE / AC_TT)                 /* threads across a tile */
#define AC_THREADS (AC_SIDE * AC_SIDE)            /* a tile's thread block */
#define AC_TILE_ELEMS ((size_t)AP_TILE * AP_TILE) /* one tile in shared memory */

template <class T> struct ac_piece {
  typedef typename ab_word<T>::W W;
  static constexpr int WN = AC_TT / ab_word<T>::PK;
};

/* Where this thread's piece lies: a warp takes 4 rows of 8 pieces, so that its reads of a row
 * (8 pieces) and of a column (4) take one shared-memory wavefront each. */
__device__ __forceinline__ void ac_place(int &ty, int &tx) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  constexpr int WX = AC_SIDE / 8; /* warps across */
  ty = warp / WX * 4 + lane / 8;
  tx = warp % WX * 8 + lane % 8;
}

/* This thread's piece of the tile at t (leading dimension ld) into registers, and back. */
template <class T>
__device__ __forceinline__ void ac_load(typename ac_piece<T>::W (&v)[AC_TT][ac_piece<T>::WN],
                                        const T *t, size_t ld, int r0, int c0) {
  typedef ac_piece<T> Pc;
#pragma unroll
  for (int i = 0; i < AC_TT; i++)
    ab_lds<typename Pc::W, Pc::WN>(v[i], (const typename Pc::W *)(t + (r0 + i) * ld + c0));
}
template <class T>
__device__ __forceinline__ void ac_store(const typename ac_piece<T>::W (&v)[AC_TT][ac_piece<T>::WN],
                                         T *t, size_t ld, int r0, int c0) {
  typedef ac_piece<T> Pc;
#pragma unroll
  for (int i = 0; i < AC_TT; i++)
    ab_sts<typename Pc::W, Pc::WN>((typename Pc::W *)(t + (r0 + i) * ld + c0), v[i]);
}

/* The piece into a tile in shared memory, by rows (S[r][c]: a product's B operand) or by columns
 * (S[c][r]: its A operand). */
template <class T>
__device__ __forceinline__ void
ac_put_rows(const typename ac_piece<T>::W (&v)[AC_TT][ac_piece<T>::WN], T *S, int r0, int c0) {
  ac_store<T>(v, S, AP_TILE, r0, c0);
}
template <class T>
__device__ __forceinline__ void
ac_put_cols(const typename ac_piece<T>::W (&v)[AC_TT][ac_piece<T>::WN], T *S, int r0, int c0) {
  const int nx[AC_TT][AC_TT] = {};
#pragma unroll
  for (int j = 0; j < AC_TT; j++)
    ab_put_column<T, AC_TT, AC_TT, false>(S + (c0 + j) * AP_TILE + r0, NULL, v, nx, j);
}

/* acc = min (acc, A (x) B) over the tile's AP_TILE steps, A by columns, B by rows. */
template <class T, class SR>
__device__ __forceinline__ void ac_product(typename ac_piece<T>::W (&acc)[AC_TT][ac_piece<T>::WN],
                                           const T *At, const T *Bs, int r0, int c0) {
  typedef ac_piece<T> Pc;
  int nx[AC_TT][AC_TT];
#pragma unroll 4
  for (int k = 0; k < AP_TILE; k++) {
    typename Pc::W bw[Pc::WN];
    T a[AC_TT];
    ab_lds<typename Pc::W, Pc::WN>(bw, (const typename Pc::W *)(Bs + k * AP_TILE + c0));
    ab_lds<T, AC_TT>(a, At + k * AP_TILE + r0);
#pragma unroll
    for (int i = 0; i < AC_TT; i++) ab_step_row<T, SR, AC_TT, false>(acc[i], nx[i], a[i], bw, 0);
  }
}

/* The diagonal entries of the piece that came out unbounded, as base + their row (the smallest
 * wins; the integer work types hold no negatives). */
template <class T, class SR>
__device__ __forceinline__ void
ac_check_diagonal(const typename ac_piece<T>::W (&v)[AC_TT][ac_piece<T>::WN], int r0, int c0,
                  int base, int *neg) {
  if constexpr (std::is_floating_point<T>::value) {
#pragma unroll
    for (int i = 0; i < AC_TT; i++)
#pragma unroll
      for (int j = 0; j < AC_TT; j++)
        if (r0 + i == c0 + j && SR::unbounded(ab_at<T, AC_TT>(v[i], j)))
          atomicMin(neg, base + r0 + i);
  }
}

#endif
