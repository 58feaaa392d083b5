/* Matmul ladder v5 "warptile": the block kernel of kernels/engine/warptile.cuh, shared with the
 * min-plus ladder, run with the plus-times semiring defined here (a plain accumulator).
 *
 * What it adds over v4: a level of tiling between the block and the thread, and overlap. Each warp
 * owns a WM x WN tile of the block's tile, cut into sub-tiles in which each thread owns TM x TN
 * outputs, so that a warp's shared-memory reads stay within a few rows (fewer bank conflicts, more
 * reuse of each register); and the next tiles are loaded into registers while the current ones are
 * computed (register-staged double buffering), so global latency hides behind the multiply-adds.
 * The shapes (matmul_policy.cuh's cfg) came from timing nine candidates on an H100: 90-93% of
 * cuBLAS in single (doc/NOTES.md). With few output tiles and a deep k, k is split into slices
 * whose planes a reduce adds (matmul_split.cuh). */
#ifndef CK_MM_V5_WARPTILE_CUH
#define CK_MM_V5_WARPTILE_CUH

#include "warptile.cuh"

template <class TT> struct plus_times {
  typedef TT T;
  struct Acc {
    T v;
  };
  T *C;
  int Mr, Nr; /* the real output, row-major */
  static __device__ __forceinline__ void init(Acc &x) { x.v = 0; }
  static __device__ __forceinline__ void first(Acc &x, T a, T b) { x.v += a * b; }
  static __device__ __forceinline__ void step(Acc &x, T a, T b) { x.v += a * b; }
  static __device__ __forceinline__ void tile_end(Acc &, int) {}
  __device__ __forceinline__ void store(const Acc &x, int i, int j) const {
    if (i < Mr && j < Nr) C[(size_t)i * Nr + j] = x.v;
  }
};

/* The same over a batch (warptile_paged: blockIdx.z is the page, each Mr x Nr). */
template <class T> struct plus_times_page : plus_times<T> {
  __device__ __forceinline__ void store(const typename plus_times<T>::Acc &x, int i, int j) const {
    if (i < this->Mr && j < this->Nr)
      this->C[((size_t)blockIdx.z * this->Mr + i) * this->Nr + j] = x.v;
  }
};

/* Split-K's slices (matmul_split.cuh): blockIdx.z is the slice, whose sums go to plane z of the
 * scratch, Mr x Nr each: the same store as a page's. */
template <class T> using plus_times_plane = plus_times_page<T>;

#endif
