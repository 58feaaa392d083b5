/* Ranks of single and double values (minplus_rank.cu makes them): every value replaced by its
 * rank among the distinct values, in order, with a table of the distinct values' keys. What the
 * comparing semirings run on: gpu_mxm's max.min and min.max products (minplus_rank.cu) and
 * gpu_apsp's widest and minimax paths (apsp_ranks.cu). */
#ifndef CK_RANKS_CUH
#define CK_RANKS_CUH

#include <stdint.h>

#include "ck_internal.h"

/* A value's bits as an unsigned key in the value's order: negatives reversed below the
 * positives. NaN is never keyed (it rules ranks out). */
template <class T> struct mr_key;
template <> struct mr_key<float> {
  typedef uint32_t K;
  static __device__ K of(float x) {
    const K b = __float_as_uint(x);
    return b >> 31 ? ~b : b | 0x80000000u;
  }
  static __device__ float value(K k) { return __uint_as_float(k >> 31 ? k & 0x7fffffffu : ~k); }
};
template <> struct mr_key<double> {
  typedef unsigned long long K;
  static __device__ K of(double x) {
    const K b = (K)__double_as_longlong(x);
    return b >> 63 ? ~b : b | (1ull << 63);
  }
  static __device__ double value(K k) {
    return __longlong_as_double((long long)(k >> 63 ? k & ~(1ull << 63) : ~k));
  }
};

enum { MR_NAN = 1, MR_NEG_ZERO = 2, MR_POS_ZERO = 4 };

/* What the host reads back: the flags seen among the values and the count of distinct values. */
typedef struct {
  unsigned flags, distinct;
} mr_verdict;

/* The ranks of a call: A's at ranks, B's after them (or B's are A's), and the table. */
template <class T> struct mr_ranks {
  typedef typename mr_key<T>::K K;
  size_t na, count;
  bool same; /* B is A */
  uint32_t *ranks;
  K *table;
  mr_verdict verdict;
};

/* Sort, scan and scatter, then the verdict to the host: the ranks of A's na values then B's (or
 * B is A: r->same), r->count in all. *ok = false, with nothing kept, where there is no room (the
 * class path needs none of this). The ranks are uint16 where r->verdict.distinct <= 65536,
 * else uint32. */
template <class T> ck_status mr_make_ranks(const T *A, const T *B, mr_ranks<T> *r, bool *ok);
/* Whether the values' flags rule ranks out: NaN, or -0 beside +0. */
bool mr_ruled_out(unsigned flags);

#endif
