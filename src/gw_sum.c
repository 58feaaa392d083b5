/* The gateway's sum commands, on host arrays and on gpu_arrays. */
#include <stdio.h>
#include <string.h>

#include "gateway.h"

/* prhs[1..5]: BEFORE, LEN, AFTER, MODE, KERNEL, for an array of class t with numel elements;
 * x and y are left for the caller. */
static ck_sum_args get_sum_args(const mxArray *prhs[], ck_dtype t, size_t numel) {
  ck_sum_args a;
  a.t = t;
  a.x = NULL;
  a.y = NULL;
  a.before = gw_size(prhs[1], "BEFORE");
  a.len = gw_size(prhs[2], "LEN");
  a.after = gw_size(prhs[3], "AFTER");
  if (a.before * a.len * a.after != numel) gw_fail_invalid("BEFORE*LEN*AFTER must equal numel (X)");
  char mode[16], kernel[32];
  gw_string(prhs[4], mode, sizeof mode, "MODE");
  if (!strcmp(mode, "default")) a.mode = CK_SUM_MODE_DEFAULT;
  else if (!strcmp(mode, "double")) a.mode = CK_SUM_MODE_DOUBLE;
  else if (!strcmp(mode, "native")) a.mode = CK_SUM_MODE_NATIVE;
  else gw_fail_invalid("MODE must be \"default\", \"double\" or \"native\"");
  gw_string(prhs[5], kernel, sizeof kernel, "KERNEL");
  a.kernel = ck_sum_kernel_id(kernel);
  if (a.kernel < 0) {
    char msg[160];
    snprintf(msg, sizeof msg, "unknown sum kernel \"%s\"", kernel);
    gw_fail_invalid(msg);
  }
  return a;
}

static mxArray *sum_output(const ck_sum_args *a) {
  return mxCreateUninitNumericMatrix((mwSize)(a->before * a->after), 1,
                                     gw_class_of(ck_sum_out_dtype(a->t, a->mode)), mxREAL);
}

void cmd_sum(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)nrhs;
  ck_sum_args a = get_sum_args(prhs, gw_host_dtype(prhs[0]), mxGetNumberOfElements(prhs[0]));
  mxArray *y = sum_output(&a);
  a.x = mxGetData(prhs[0]);
  a.y = mxGetData(y);
  ck_status s = ck_sum(&a);
  if (s != CK_OK) mxDestroyArray(y);
  gw_check(s);
  plhs[0] = y;
}

void cmd_sum_time(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nrhs;
  ck_sum_args a = get_sum_args(prhs, gw_host_dtype(prhs[0]), mxGetNumberOfElements(prhs[0]));
  ck_timing tm;
  mxArray *times = gw_timing(prhs[6], prhs[7], &tm);
  mxArray *y = sum_output(&a);
  a.x = mxGetData(prhs[0]);
  a.y = mxGetData(y);
  ck_status s = ck_sum_time(&a, &tm);
  if (s != CK_OK) {
    mxDestroyArray(times);
    mxDestroyArray(y);
  }
  gw_check(s);
  plhs[0] = times;
  if (nlhs > 1) plhs[1] = y; /* Octave's plhs holds nlhs entries, at least one */
  else mxDestroyArray(y);
}

void cmd_copy_bandwidth(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)nrhs;
  double rate = 0;
  gw_check(ck_copy_bandwidth(gw_size(prhs[0], "BYTES"), (int)gw_size(prhs[1], "REPS"), &rate));
  plhs[0] = mxCreateDoubleScalar(rate);
}

void cmd_sum_dev(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)nrhs;
  ck_dtype t;
  size_t numel;
  void *px, *py;
  ck_array_id idx = gw_id(prhs[0], "ID");
  gw_check(ck_array_lookup(idx, &t, &numel, &px));
  ck_sum_args a = get_sum_args(prhs, t, numel);
  if (a.kernel == CK_SUM_CPU) gw_fail_invalid("the cpu kernel takes host arrays, not gpu_arrays");
  ck_array_id idy = 0;
  gw_check(ck_array_create(ck_sum_out_dtype(t, a.mode), a.before * a.after, &idy, &py));
  a.x = px;
  a.y = py;
  ck_status s = ck_sum_device(&a);
  if (s != CK_OK) ck_array_free(idy);
  gw_check(s);
  plhs[0] = gw_id_value(idy);
}
