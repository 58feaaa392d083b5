/* The transitive closure of a directed graph, bit-packed blocked Floyd-Warshall (Warshall's
 * algorithm in pivot blocks) on the 1-bit tensor cores. G is an n-by-n matrix of bytes,
 * column-major as Octave stores it: a nonzero G(i,j) is an edge from i to j. R(i,j) is 1 when a
 * path of one or more edges leads from i to j (i reaches itself only on a cycle), 0 otherwise;
 * with `reflexive`, also on the diagonal. closure_steps.cu has the method. */
#ifndef CK_CLOSURE_H
#define CK_CLOSURE_H

#include "ck.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The paths: CK_CLOSURE_AUTO (the tensor path where it can run, else SIMPLE), CK_CLOSURE_TENSOR
 * (the products on wgmma .b1, sm_90a code on Hopper; where it cannot run, SIMPLE runs and
 * a->path_ran says so), CK_CLOSURE_SIMPLE (the products one thread per output word: plain, the
 * check and the fallback). The other steps (packing, closing the pivot block, the transposes) are
 * the same kernels on both paths. */
enum { CK_CLOSURE_AUTO = 0, CK_CLOSURE_TENSOR, CK_CLOSURE_SIMPLE, CK_CLOSURE_NUM_PATHS };

/* The steps a->steps_ms times, in order: packing G, closing the pivot blocks, transposing the row
 * strips, the strips' products (T'), the rest of the matrix, unpacking R. */
enum {
  CK_CLOSURE_STEP_PACK = 0,
  CK_CLOSURE_STEP_CLOSE,
  CK_CLOSURE_STEP_TRANSPOSE,
  CK_CLOSURE_STEP_STRIP,
  CK_CLOSURE_STEP_REST,
  CK_CLOSURE_STEP_UNPACK,
  CK_CLOSURE_NUM_STEPS
};

typedef struct {
  const uint8_t *G; /* device, n*n bytes */
  uint8_t *R;       /* device, n*n bytes; may be G itself */
  size_t n;
  int reflexive; /* nonzero: every vertex also reaches itself */
  int path;      /* CK_CLOSURE_AUTO, _TENSOR or _SIMPLE */
  /* Polled every few rounds (a few ms of GPU time at large n): nonzero stops the call with
   * CK_ERR_INTERRUPTED, everything freed. NULL: never. */
  int (*cancelled)(void *ctx);
  void *ctx;
  /* NULL, or CK_CLOSURE_NUM_STEPS doubles: each step's device time in ms, summed over the rounds,
   * between events (the call then waits for every round: for the dev driver's breakdown). */
  double *steps_ms;
  int path_ran; /* out: the path that ran (CK_CLOSURE_TENSOR or _SIMPLE; AUTO when n is 0) */
} ck_closure_args;

/* Device arrays in and out, on the current device; allocates and frees its own scratch (about
 * n^2 / 8 bytes, n rounded up to the pivot block). Work is queued on the default stream. */
ck_status ck_closure_device(ck_closure_args *a);

/* Timing for the dev driver: tm->warmup untimed calls of ck_closure_device (a->steps_ms unread),
 * then tm->reps calls each timed between CUDA events into tm->times_ms. */
ck_status ck_closure_time(ck_closure_args *a, const ck_timing *tm);

/* Whether the tensor kernel's pipeline watchdog fired since the last ask (a barrier wait of over
 * 2 s: the kernel then gives up and the result is wrong, rather than hanging); synchronizes. */
int ck_closure_fault(void);

/* The pivot block (bits), for the driver's report. */
size_t ck_closure_block(void);

#ifdef __cplusplus
}
#endif
#endif
