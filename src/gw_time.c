/* The gateway's timing command: a product or a shortest-path call on random device operands,
 * planned once, run between CUDA events (ck_product_time, ck_apsp_time). The benchmarks read
 * which path ran from "last_plan" afterwards.
 *
 *   "time", OP, SEMIRING, CLASS, KERNEL, SIZE, WARMUP, REPS [, FLAG ...] [, CALLS] -> ms per run
 *
 * OP "product": SIZE [M K N], or [M K N P] for P pages of the 3-D map (page q of each
 * operand); CALLS back-to-back calls between the events (times per call). OP "apsp": SIZE N, or
 * [N PAGES], random complete graphs (weights 0..999) of any path semiring, KERNEL "gpu". FLAGs: "witness" (K, or P), and for
 * products the data, "fractions" (integers 0..999 plus 0.5, single and double) or "wide"
 * (integers 0..2^20 - 1); by default integers 0..999. */
#include <string.h>

#include "gateway.h"

typedef struct {
  int witness, data, calls;
} time_flags;

static time_flags read_flags(int nrhs, const mxArray *prhs[]) {
  time_flags f = {0, CK_DATA_INTS, 1};
  for (int i = 7; i < nrhs; i++) {
    if (mxIsNumeric(prhs[i])) {
      f.calls = gw_calls(prhs[i]);
      continue;
    }
    char flag[16];
    gw_string(prhs[i], flag, sizeof flag, "a flag");
    if (!strcmp(flag, "witness")) f.witness = 1;
    else if (!strcmp(flag, "fractions")) f.data = CK_DATA_FRACTIONS;
    else if (!strcmp(flag, "wide")) f.data = CK_DATA_WIDE;
    else gw_fail_invalid("the flags of \"time\" are \"witness\", \"fractions\" and \"wide\"");
  }
  return f;
}

/* What is timed: a product call, or shortest paths of class t on n vertices. */
typedef struct {
  int apsp;
  ck_call c;
  ck_pages pages;
  ck_dtype t;
  ck_apsp_args a; /* shortest paths: the class, semiring, n and pages */
} timed;

static void product_args(const mxArray *prhs[], const time_flags *f, timed *w) {
  ck_call *c = &w->c;
  c->semiring = gw_semiring(prhs[1]);
  c->where = CK_ON_RANDOM;
  c->p.t = gw_dtype_name(prhs[2]);
  c->p.kernel = gw_kernel(prhs[3], c->semiring);
  size_t size[4];
  const int dims = gw_sizes(prhs[4], 3, 4, size, "SIZE of a product is [M K N] or [M K N P]");
  c->p.m = size[0], c->p.k = size[1], c->p.n = size[2];
  w->pages = (ck_pages){dims == 4 ? size[3] : 0, 0, 0, NULL, NULL};
  if (dims == 4) c->pages = &w->pages;
  c->witness = f->witness;
}

static void apsp_args(const mxArray *prhs[], const time_flags *f, timed *w) {
  const int semiring = gw_semiring(prhs[1]);
  if (semiring == CK_PLUS_TIMES) gw_fail_invalid("paths take a semiring, not +.*");
  w->t = gw_dtype_name(prhs[2]);
  char kernel[8];
  gw_string(prhs[3], kernel, sizeof kernel, "KERNEL");
  if (strcmp(kernel, "gpu")) gw_fail_invalid("only the \"gpu\" kernel of shortest paths is timed");
  size_t size[2] = {0, 0};
  gw_sizes(prhs[4], 1, 2, size, "SIZE of shortest paths is N, or [N PAGES]");
  memset(&w->a, 0, sizeof w->a);
  w->a.t = w->t;
  w->a.semiring = (ck_semiring)semiring;
  w->a.n = size[0];
  w->a.pages = size[1];
  if (f->data != CK_DATA_INTS || f->calls != 1)
    gw_fail_invalid("shortest paths are timed on integers 0..999, one call at a time");
}

void cmd_time(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  static const char *const ops[] = {"product", "apsp"};
  timed w;
  memset(&w, 0, sizeof w);
  w.apsp = gw_mode(prhs[0], ops, 2, "OP is \"product\" or \"apsp\"");
  const time_flags f = read_flags(nrhs, prhs);
  if (w.apsp) apsp_args(prhs, &f, &w);
  else product_args(prhs, &f, &w);
  ck_timing tm;
  mxArray *times = gw_timing(prhs[5], prhs[6], &tm);
  tm.data = f.data;
  tm.calls = f.calls;
  ck_plan pl;
  const ck_status s = w.apsp ? ck_apsp_time(&w.a, f.witness, &tm) : ck_product_time(&w.c, &tm, &pl);
  if (s != CK_OK) mxDestroyArray(times);
  gw_check(s);
  plhs[0] = times;
}
