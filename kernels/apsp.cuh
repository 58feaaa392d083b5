/* All-pairs shortest paths by blocked Floyd-Warshall (Katz-Kider, Venkataraman): what the three
 * files of the algorithm share.
 *   apsp.cu            the driver: checks and conversions in and out, rounds, Ctrl-C, the API
 *   apsp_tiles.cu      closing a pivot block: Floyd-Warshall on 64 x 64 tiles in shared memory
 *   apsp_warptile.cu   a round's pivot row, column and the rest, on warptile.cuh's kernel
 *
 * The work matrix X is np x np, row-major (np: n rounded up to whole pivot blocks), and holds
 * Octave's column-major W as it lies in memory, so X is W transposed: its paths are W's paths
 * reversed. X's next-hop matrix (the vertex after r on a shortest path from r to c) is then
 * Octave's predecessor matrix P (the vertex before j on a path from i to j) with no transpose
 * either way. Vertices are stored 1-based; 0 is "none".
 *
 * A round with pivot block k (vertices k0 .. k0 + B - 1):
 *   1. close the pivot block (shortest paths through its own vertices): ap_close_block;
 *   2. take copies of the pivot block, its row strip and its column strip (the snapshot);
 *   3. row strip   = min (row strip, pivot (x) row strip), from the copies, into X;
 *      column strip = min (column strip, column strip (x) pivot), from the copies, into X and
 *      into a contiguous copy for step 4;
 *   4. the rest    = min (rest, column strip (x) row strip), in place: every output reads only
 *      the row strip (in X, not written in this step) and the column strip's copy.
 * (x) is the min-plus product. A value and its next hop are replaced together, only where the
 * new sum is strictly smaller, with the next hop of the winning term's first half: so each
 * step reads next hops that belong to the distances it reads, which in-place updates of the
 * strips would not guarantee.
 *
 * Work types (the element of X):
 *   float, double      single and double data (+Inf: no edge; NaN and -Inf are refused)
 *   uint32_t           nonnegative int32 and uint16 data: DPX 32-bit min-add; sums of two values
 *                      up to 2^31 - 1 never wrap a 32-bit word
 *   uint16_t           nonnegative int8, uint8 and int16 data: DPX two 16-bit min-adds per word;
 *                      sums of two values up to 32767 never wrap a half
 * In both integer forms "no edge" is the class's intmax and any sum at or past it is no shorter,
 * so a path of length intmax or more counts as no path. Integer data with negative weights, and
 * uint32, run in double, where every sum is exact (|sum| < 2^53). */
#ifndef CK_APSP_CUH
#define CK_APSP_CUH

#include "minplus.cuh"

/* ---- tuning (the measurements are in doc/NOTES.md) ----
 * AP_BLOCK: the pivot block. Step 4 is an np x np x AP_BLOCK product that also reads (and
 * sometimes writes) every output once per round, so the block must be deep enough for its
 * pair updates to hide that traffic; its closure (step 1) costs a few launches per round.
 * AP_TILE: the tiles of the closure, in shared memory. */
#define AP_BLOCK 256
#define AP_TILE 64
#define AP_TILE_THREADS 256 /* the tile product (16 outputs per thread) */
#define AP_FW_THREADS 1024  /* a tile's Floyd-Warshall (4 entries per thread, 64 dependent steps) */

/* The sum of two work values, wide enough never to wrap (S), which is also the word the
 * warptile steps compute on: 16-bit work runs as two values per 32-bit word. */
template <class T> struct ap_work {
  typedef T S;
  static __host__ __device__ __forceinline__ S sum(T a, T b) { return a + b; }
};
template <> struct ap_work<uint16_t> {
  typedef uint32_t S;
  static __host__ __device__ __forceinline__ S sum(uint16_t a, uint16_t b) {
    return (uint32_t)a + b;
  }
};

/* One tile product of the closure (apsp_tiles.cu), or of a warptile step (apsp_warptile.cu, in
 * words: TA the A operand's element, TB the word of B, the old values and the output):
 *   out = min (old, A (x) B) where strictly smaller, next hops from na (na[r][winning k]);
 *   copy, ncopy (optional): every output's final value and next hop, improved or not (nold);
 *   skip_r, skip_c: a tile row or column of the grid left out (the pivot's), -1: none. */
template <class TA, class TB> struct ap_job {
  const TA *A;
  const TB *B, *old;
  TB *out;
  TA *copy;
  size_t lda, ldb, ldo, ldout, ldcopy;
  const int *na, *nold;
  int *nout, *ncopy;
  size_t ldna, ldnold, ldnout, ldncopy;
  int rows, cols, depth; /* cols in words of TB */
  int skip_r, skip_c;    /* in tiles of the kernel that runs it */
};

/* The buffers of one level's snapshot (step 2). The warptile level's A operands are words: for
 * 16-bit work each value in both halves (pva, csa, cs2a); for the other types they alias pv, cs
 * and cs2. */
template <class T, class TW> struct ap_snap {
  T *pv, *rs, *cs, *cs2;
  TW *pva, *csa, *cs2a;
  int *npv, *ncs, *ncs2; /* NULL without paths */
};

/* The np x np work matrix and its next hops (NULL without paths), with where a negative cycle
 * was seen (the smallest 0-based vertex whose distance to itself went below 0; INT_MAX: none). */
template <class T> struct ap_matrix {
  T *X;
  int *N;
  size_t np;
  int *neg;
};

/* Step 1 (apsp_tiles.cu): close the B x B block at (k0, k0) of m, with `s` the closure's own
 * snapshot buffers (AP_TILE deep). */
template <class T, bool ARG> void ap_close_block(const ap_matrix<T> &m, size_t k0, int B,
                                                 const ap_snap<T, T> &s);
/* Steps 2 to 4 (apsp_warptile.cu) for pivot block k0 with snapshot buffers s (AP_BLOCK deep). */
template <class T, bool ARG> void ap_round_rest(const ap_matrix<T> &m, size_t k0,
                                                const ap_snap<T, typename ap_work<T>::S> &s);
/* Step 2 at either level: the pivot block, its row strip and column strip of the size x size
 * region at `at` (ld: X's row length) into s, B deep, pivot block p. */
template <class T, class TW, bool ARG>
void ap_take_snapshot(const T *X, const int *N, size_t ld, size_t size, size_t p, int B,
                      const ap_snap<T, TW> &s);

#define AP_INSTANTIATE(MACRO) \
  MACRO(float, false)         \
  MACRO(float, true)          \
  MACRO(double, false)        \
  MACRO(double, true)         \
  MACRO(uint32_t, false)      \
  MACRO(uint32_t, true)       \
  MACRO(uint16_t, false)      \
  MACRO(uint16_t, true)

#endif
