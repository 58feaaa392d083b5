/* What the sum files share (sum.cu: the ladder and the dispatch; sum_native.cu: Octave's
 * "native" saturating integer sums): launch shapes and slicing of tall grids. */
#ifndef CK_SUM_CUH
#define CK_SUM_CUH

#include <stdint.h>

#include "ck_internal.h"

#define SUM_THREADS 256
#define MAX_GRID_Y 65535u
#define WARP 32

typedef long long i64;
typedef unsigned long long u64;

static inline unsigned blocks_for(size_t work, size_t per_block) {
  return (unsigned)((work + per_block - 1) / per_block);
}

/* Launch `launch(y0, rows)` over segments in slices of at most 65535 grid rows. */
template <class F> static void over_segments(size_t segments, F launch) {
  for (size_t y0 = 0; y0 < segments; y0 += MAX_GRID_Y)
    launch((unsigned)y0, (unsigned)(segments - y0 < MAX_GRID_Y ? segments - y0 : MAX_GRID_Y));
}

template <class T> __global__ void fill_zero(T *p, size_t count) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) p[i] = (T)0;
}

/* Octave's "native" sum of an integer class In: saturating at every step, in order. */
template <class In>
ck_status sum_run_native(const In *x, In *y, size_t before, size_t len, size_t after);

#endif
