/* Index arithmetic every kernel family shares: grids of threads over a count, rounding sizes up
 * to tiles, and splitting a flat index. */
#ifndef CK_INDEX_CUH
#define CK_INDEX_CUH

#include <stddef.h>

static inline unsigned grid_for(size_t work, unsigned threads) {
  return (unsigned)((work + threads - 1) / threads);
}

static inline size_t round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }

/* idx = q * d + r. 64-bit division is a long software sequence; the passes over operands and
 * outputs that index this way measured twice as slow as their bytes allow, so the common case
 * of sizes within 32 bits divides in 32 bits (the branch is the same for the whole grid). */
__device__ __forceinline__ void split_index(size_t idx, size_t d, size_t &q, size_t &r) {
  if ((idx | d) >> 32) {
    q = idx / d;
    r = idx % d;
  } else {
    unsigned q32 = (unsigned)idx / (unsigned)d;
    q = q32;
    r = (unsigned)idx - q32 * (unsigned)d;
  }
}

#endif
