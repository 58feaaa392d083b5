/* The gateway's shortest-path commands: one call for host arrays and gpu_arrays (planned and run
 * by the C layer, ck_apsp_call), the path walk over a device P, and Ctrl-C.
 *
 * Ctrl-C: Octave's signal handler only records the signal (octave_signal_caught) and acts on it
 * when the interpreter next checks; a long call polls the flag between rounds, stops, frees what
 * it holds and raises cudakernels:interrupted; Octave then handles the pending interrupt as
 * usual. The flag is declared weak, so an Octave without it loads the gateway anyway (without
 * Ctrl-C in gpu_apsp). */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "gateway.h"

extern volatile sig_atomic_t octave_signal_caught __attribute__((weak));

/* The setting test_cancel_after counts the polls down: at 0 this one reports a Ctrl-C, once.
 * gw_closure.c polls it too. */
int gw_interrupted(void *ctx) {
  (void)ctx;
  long *polls = &gw_setting.test_cancel_after;
  if (*polls == 0) {
    *polls = -1;
    return 1;
  }
  if (*polls > 0) (*polls)--;
  return &octave_signal_caught != NULL && octave_signal_caught;
}

static void show_progress(void *ctx, size_t done, size_t total) {
  mexPrintf("%s: %zu of %zu rounds\n", (const char *)ctx, done, total);
  mexEvalString("fflush (stdout);");
}

static int get_flag(const mxArray *a, const char *what) { return gw_scalar(a, what) != 0; }

/* The arguments of a call of n vertices of class t. */
static ck_apsp_args apsp_args(int semiring, ck_dtype t, int kernel, size_t n, int verbose) {
  ck_apsp_args a;
  memset(&a, 0, sizeof a);
  a.semiring = (ck_semiring)semiring;
  a.t = t;
  a.kernel = kernel;
  a.n = n;
  a.cancelled = gw_interrupted;
  a.progress = verbose ? show_progress : NULL;
  a.ctx = (void *)"gpu_apsp";
  return a;
}

static void check_classes(ck_dtype t) {
  if (t >= CK_INT64) gw_fail_invalid("W must be double, single or an integer class up to 32 bits");
}

static int apsp_kernel(const mxArray *a) {
  static const char *const names[] = {"gpu", "cpu"};
  _Static_assert(CK_APSP_GPU == 0 && CK_APSP_CPU == 1, "a kernel's index is its id");
  return gw_mode(a, names, 2, "KERNEL must be \"gpu\" or \"cpu\"");
}

/* The semiring of a shortest-path call: one of the table's (the planner says which it takes). */
static int apsp_semiring(const mxArray *a) {
  const int s = gw_semiring(a);
  if (s == CK_PLUS_TIMES) gw_fail_invalid("shortest paths take a semiring, not +.*");
  return s;
}

#define GW_MAX_DIMS 32 /* W's dimensions at most */

/* The shape of a call: n vertices, and W's dimensions (n, n, and any trailing ones: the pages). */
typedef struct {
  size_t n, pages, numel; /* pages 0: a 2-D call */
  int no_graph;           /* pages with a trailing dimension 0: nothing to run */
  mwSize nd;
  mwSize dims[GW_MAX_DIMS];
} apsp_shape;

/* The shape of dimensions dims (nd of them): square pages. */
static apsp_shape shape_of(mwSize nd, const mwSize *dims) {
  apsp_shape sh;
  memset(&sh, 0, sizeof sh);
  if (nd < 2 || nd > GW_MAX_DIMS || dims[0] != dims[1])
    gw_fail_invalid("W must be square: n-by-n, or n-by-n-by-... for pages of graphs");
  sh.nd = nd;
  sh.n = dims[0];
  sh.numel = 1;
  for (mwSize i = 0; i < nd; i++) { /* a product past size_t is no array's */
    sh.dims[i] = dims[i];
    if (dims[i] && sh.numel > SIZE_MAX / dims[i]) gw_fail_invalid("DIMS are too large");
    sh.numel *= dims[i];
  }
  if (nd > 2) sh.pages = sh.n ? sh.numel / (sh.n * sh.n) : 0;
  sh.no_graph = nd > 2 && sh.numel == 0;
  return sh;
}

/* The dimensions of a device W: DIMS (double), or a square n*n array when absent. */
static apsp_shape device_shape(const mxArray *dims, size_t numel) {
  if (!dims) {
    size_t n = (size_t)sqrt((double)numel);
    while (n * n > numel) n--;
    while ((n + 1) * (n + 1) <= numel) n++;
    if (n * n != numel) gw_fail_invalid("W must be a square n-by-n array");
    const mwSize d[2] = {(mwSize)n, (mwSize)n};
    return shape_of(2, d);
  }
  size_t v[GW_MAX_DIMS];
  const int nd = gw_sizes(dims, 2, GW_MAX_DIMS, v, "DIMS must be W's dimensions");
  mwSize d[GW_MAX_DIMS];
  for (int i = 0; i < nd; i++) d[i] = (mwSize)v[i];
  const apsp_shape sh = shape_of((mwSize)nd, d);
  if (sh.numel != numel) gw_fail_invalid("DIMS do not match W's number of elements");
  return sh;
}

/* Host W: D [, P] made in Octave's memory, with W's dimensions. */
static void host_call(int nlhs, mxArray *plhs[], ck_apsp_args *a, const mxArray *W,
                      const apsp_shape *sh) {
  mxArray *D = gw_create_array(sh->nd, sh->dims, a->t);
  mxArray *P = nlhs > 1 ? gw_create_array(sh->nd, sh->dims, CK_INT32) : NULL;
  a->W = mxGetData(W);
  a->D = mxGetData(D);
  a->P = P ? (int32_t *)mxGetData(P) : NULL;
  ck_plan pl;
  /* no graph to run still meets the problem's rules */
  ck_status s = sh->no_graph ? ck_apsp_check(a->semiring, a->t) : ck_apsp_call(a, CK_ON_HOST, &pl);
  if (s != CK_OK) {
    mxDestroyArray(D);
    if (P) mxDestroyArray(P);
  }
  gw_check(s);
  plhs[0] = D;
  if (P) plhs[1] = P;
}

/* Device W (an id): the ids of D [, P], on W's device. */
static void device_call(int nlhs, mxArray *plhs[], ck_apsp_args *a, void *w, const apsp_shape *sh) {
  const size_t numel = sh->numel;
  ck_array_id idd = 0, idp = 0;
  void *d = NULL, *p = NULL;
  gw_check(ck_array_create(a->t, numel, &idd, &d));
  ck_status s = nlhs > 1 ? ck_array_create(CK_INT32, numel, &idp, &p) : CK_OK;
  ck_plan pl;
  if (s == CK_OK && sh->no_graph) s = ck_apsp_check(a->semiring, a->t);
  else if (s == CK_OK) {
    a->W = w;
    a->D = d;
    a->P = (int32_t *)p;
    s = ck_apsp_call(a, CK_ON_DEVICE, &pl);
  }
  if (s != CK_OK) {
    ck_array_free(idd);
    ck_array_free(idp);
  }
  gw_check(s);
  plhs[0] = gw_id_value(idd);
  if (nlhs > 1) plhs[1] = gw_id_value(idp);
}

/* "apsp", SEMIRING, WHERE, W, KERNEL, VERBOSE [, DEVICES [, DIMS]] -> D [, P]: W a host array of
 * n-by-n pages (one, or any trailing dimensions: a graph a page), or (WHERE "device") the id of a
 * gpu_array of dimensions DIMS (absent: n*n elements, one graph), whose D and P are gpu_arrays
 * too. */
void cmd_apsp(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  const int semiring = apsp_semiring(prhs[0]);
  const ck_where where = gw_where(prhs[1]);
  const int kernel = apsp_kernel(prhs[3]), verbose = get_flag(prhs[4], "VERBOSE");
  ck_dtype t;
  size_t numel = 0;
  void *w = NULL;
  apsp_shape sh;
  if (where == CK_ON_HOST) {
    const int c = gw_dtype_of(prhs[2]);
    if (c < 0) gw_fail_invalid("W must be a real, full numeric array");
    t = (ck_dtype)c;
    sh = shape_of(mxGetNumberOfDimensions(prhs[2]), mxGetDimensions(prhs[2]));
  } else {
    gw_check(ck_array_lookup(gw_id(prhs[2], "W (an id)"), &t, &numel, &w));
    sh = device_shape(nrhs > 6 ? prhs[6] : NULL, numel);
  }
  check_classes(t);
  ck_apsp_args a = apsp_args(semiring, t, kernel, sh.n, verbose);
  a.pages = sh.pages;
  const ck_devices devices = gw_devices(nrhs > 5 ? prhs[5] : NULL);
  a.devices = &devices;
  if (where == CK_ON_HOST) host_call(nlhs, plhs, &a, prhs[2], &sh);
  else device_call(nlhs, plhs, &a, w, &sh);
}

/* "path_dev", IDP, N, S, T [, Q] -> [LENGTHS, VERTICES]: S and T double vectors of 1-based
 * vertices; Q the 1-based page of a P of n-by-n pages (default 1) */
void cmd_path_dev(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  ck_dtype t;
  size_t numel;
  void *pages;
  gw_check(ck_array_lookup(gw_id(prhs[0], "IDP"), &t, &numel, &pages));
  size_t n = gw_size(prhs[1], "N"), q = nrhs > 4 ? gw_size(prhs[4], "Q") : 1;
  if (t != CK_INT32 || n == 0 || n > numel / n || numel % (n * n))
    gw_fail_invalid("P must be an int32 gpu_array of n-by-n pages");
  if (q < 1 || q > numel / (n * n)) gw_fail_invalid("Q must be a page of P");
  const int32_t *p = (const int32_t *)pages + (q - 1) * n * n;
  const mxArray *S = prhs[2], *T = prhs[3];
  if (!mxIsDouble(S) || !mxIsDouble(T) || mxIsComplex(S) || mxIsComplex(T) ||
      mxGetNumberOfElements(S) != mxGetNumberOfElements(T))
    gw_fail_invalid("S and T must be real double vectors of the same length");
  size_t count = mxGetNumberOfElements(S);
  const double *s = mxGetPr(S), *tt = mxGetPr(T);
  for (size_t q = 0; q < count; q++)
    if (!(s[q] >= 1 && s[q] <= (double)n && tt[q] >= 1 && tt[q] <= (double)n) ||
        s[q] != (double)(size_t)s[q] || tt[q] != (double)(size_t)tt[q])
      gw_fail_invalid("S and T must be vertices: integers from 1 to n");
  mxArray *len = mxCreateDoubleMatrix(1, (mwSize)count, mxREAL);
  ck_status st = ck_path_device(p, n, s, tt, count, mxGetPr(len), NULL);
  size_t total = 0;
  for (size_t q = 0; st == CK_OK && q < count; q++) {
    double l = mxGetPr(len)[q];
    if (l < 0) st = ck_fail(CK_ERR_INVALID, "P holds a loop: it was not made by gpu_apsp");
    total += l > 0 ? (size_t)l : 0;
  }
  mxArray *v = mxCreateDoubleMatrix(1, (mwSize)total, mxREAL);
  if (st == CK_OK && total) st = ck_path_device(p, n, s, tt, count, mxGetPr(len), mxGetPr(v));
  if (st != CK_OK) {
    mxDestroyArray(len);
    mxDestroyArray(v);
  }
  gw_check(st);
  plhs[0] = len;
  if (nlhs > 1) plhs[1] = v; /* Octave's plhs holds nlhs entries, at least one */
  else mxDestroyArray(v);
}
