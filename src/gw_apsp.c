/* The gateway's shortest-path commands: gpu_apsp on host arrays and gpu_arrays, its timing, the
 * path walk over a device P, and Ctrl-C.
 *
 * Ctrl-C: Octave's signal handler only records the signal (octave_signal_caught) and acts on it
 * when the interpreter next checks; a long call polls the flag between rounds, stops, frees what
 * it holds and raises cudakernels:interrupted; Octave then handles the pending interrupt as
 * usual. The flag is declared weak, so an Octave without it loads the gateway anyway (without
 * Ctrl-C in gpu_apsp). */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "gateway.h"

extern volatile sig_atomic_t octave_signal_caught __attribute__((weak));

/* The setting test_cancel_after counts the polls down: at 0 this one reports a Ctrl-C, once. */
static int interrupted(void *ctx) {
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

static ck_apsp_args apsp_args(ck_dtype t, int kernel, size_t n, int verbose) {
  ck_apsp_args a;
  memset(&a, 0, sizeof a);
  a.t = t;
  a.kernel = kernel;
  a.n = n;
  a.cancelled = interrupted;
  a.progress = verbose ? show_progress : NULL;
  a.ctx = (void *)"gpu_apsp";
  return a;
}

static void check_classes(ck_dtype t) {
  if (t >= CK_INT64)
    gw_fail_invalid("W must be double, single or an integer class up to 32 bits");
}

/* DEVICES of a call of n vertices (1-based; empty: the default). */
static ck_devices get_devices(const mxArray *a, size_t n) {
  ck_devices d;
  ck_apsp_default(n, &d);
  return gw_devices(a, &d);
}

/* "apsp", W, KERNEL ("gpu" or "cpu"), VERBOSE [, DEVICES] -> D [, P] */
void cmd_apsp(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  ck_dtype t = gw_matrix_dtype(prhs[0], "W");
  check_classes(t);
  size_t n = mxGetM(prhs[0]);
  if (mxGetN(prhs[0]) != n) gw_fail_invalid("W must be square");
  char name[16];
  gw_string(prhs[1], name, sizeof name, "KERNEL");
  int kernel = !strcmp(name, "gpu") ? CK_APSP_GPU : !strcmp(name, "cpu") ? CK_APSP_CPU : -1;
  if (kernel < 0) gw_fail_invalid("KERNEL must be \"gpu\" or \"cpu\"");
  ck_apsp_args a = apsp_args(t, kernel, n, get_flag(prhs[2], "VERBOSE"));
  ck_devices d;
  if (kernel == CK_APSP_CPU && nrhs > 3 && mxGetNumberOfElements(prhs[3]) > 0)
    gw_fail_invalid("the cpu kernel runs on the CPU: DEVICES does not apply");
  if (kernel == CK_APSP_GPU) {
    gw_check(ck_device_init());
    d = get_devices(nrhs > 3 ? prhs[3] : NULL, n);
    a.devices = &d;
  }
  mxArray *D = mxCreateUninitNumericMatrix((mwSize)n, (mwSize)n, gw_class_of(t), mxREAL);
  mxArray *P = nlhs > 1 ? mxCreateUninitNumericMatrix((mwSize)n, (mwSize)n, mxINT32_CLASS, mxREAL)
                        : NULL;
  a.W = mxGetData(prhs[0]);
  a.D = mxGetData(D);
  a.P = P ? (int32_t *)mxGetData(P) : NULL;
  ck_status s = ck_apsp(&a);
  if (s != CK_OK) {
    mxDestroyArray(D);
    if (P) mxDestroyArray(P);
  }
  gw_check(s);
  plhs[0] = D;
  if (P) plhs[1] = P;
}

/* "apsp_dev", IDW, N, VERBOSE [, DEVICES] -> IDD [, IDP] */
void cmd_apsp_dev(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  ck_dtype t;
  size_t numel;
  void *w;
  gw_check(ck_array_lookup(gw_id(prhs[0], "IDW"), &t, &numel, &w));
  check_classes(t);
  size_t n = gw_size(prhs[1], "N");
  if (numel != n * n) gw_fail_invalid("N does not match the array");
  ck_apsp_args a = apsp_args(t, CK_APSP_GPU, n, get_flag(prhs[2], "VERBOSE"));
  const ck_devices devices = get_devices(nrhs > 3 ? prhs[3] : NULL, n);
  a.devices = &devices;
  ck_array_id idd = 0, idp = 0;
  void *d = NULL, *p = NULL;
  gw_check(ck_array_create(t, numel, &idd, &d));
  ck_status s = nlhs > 1 ? ck_array_create(CK_INT32, numel, &idp, &p) : CK_OK;
  if (s == CK_OK) {
    a.W = w;
    a.D = d;
    a.P = (int32_t *)p;
    s = ck_apsp_device(&a);
  }
  if (s != CK_OK) {
    ck_array_free(idd);
    ck_array_free(idp);
  }
  gw_check(s);
  plhs[0] = gw_id_value(idd);
  if (nlhs > 1) plhs[1] = gw_id_value(idp);
}

/* "apsp_time", CLASS, N, WARMUP, REPS [, "paths"] -> times in ms */
void cmd_apsp_time(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  int paths = 0;
  if (nrhs == 5) {
    char flag[8];
    gw_string(prhs[4], flag, sizeof flag, "the 5th argument");
    if (strcmp(flag, "paths")) gw_fail_invalid("the 5th argument of apsp_time must be \"paths\"");
    paths = 1;
  }
  ck_dtype t = gw_dtype_name(prhs[0]);
  size_t n = gw_size(prhs[1], "N");
  ck_timing tm;
  mxArray *times = gw_timing(prhs[2], prhs[3], &tm);
  ck_status s = ck_apsp_time(t, n, paths, &tm);
  if (s != CK_OK) mxDestroyArray(times);
  gw_check(s);
  plhs[0] = times;
}

/* "path_dev", IDP, N, S, T -> [LENGTHS, VERTICES]: S and T double vectors of 1-based vertices */
void cmd_path_dev(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nrhs;
  ck_dtype t;
  size_t numel;
  void *p;
  gw_check(ck_array_lookup(gw_id(prhs[0], "IDP"), &t, &numel, &p));
  size_t n = gw_size(prhs[1], "N");
  if (t != CK_INT32 || numel != n * n) gw_fail_invalid("P must be an n-by-n int32 gpu_array");
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
  ck_status st = ck_path_device((const int32_t *)p, n, s, tt, count, mxGetPr(len), NULL);
  size_t total = 0;
  for (size_t q = 0; st == CK_OK && q < count; q++) {
    double l = mxGetPr(len)[q];
    if (l < 0) st = ck_fail(CK_ERR_INVALID, "P holds a loop: it was not made by gpu_apsp");
    total += l > 0 ? (size_t)l : 0;
  }
  mxArray *v = mxCreateDoubleMatrix(1, (mwSize)total, mxREAL);
  if (st == CK_OK && total)
    st = ck_path_device((const int32_t *)p, n, s, tt, count, mxGetPr(len), mxGetPr(v));
  if (st != CK_OK) {
    mxDestroyArray(len);
    mxDestroyArray(v);
  }
  gw_check(st);
  plhs[0] = len;
  if (nlhs > 1) plhs[1] = v; /* Octave's plhs holds nlhs entries, at least one */
  else mxDestroyArray(v);
}

/* "apsp_path": the work type of the last shortest-path call on the device. */
void cmd_apsp_path(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  (void)nrhs;
  (void)prhs;
  plhs[0] = mxCreateString(ck_dtype_name(ck_apsp_last_path()));
}
