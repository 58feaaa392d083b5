/* The gateway's device-resident array commands (gpu_array's storage). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gateway.h"

/* ---- device-resident arrays ---- */

void cmd_array_put(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  ck_dtype t = gw_host_dtype(prhs[0]);
  if (nrhs == 2) /* the array lives there; the call's other work has none */
    gw_check(ck_call_device(gw_device_number(gw_scalar(prhs[1], "DEVICE"))));
  size_t numel = mxGetNumberOfElements(prhs[0]);
  ck_array_id id = 0;
  void *p = NULL;
  gw_check(ck_array_create(t, numel, &id, &p));
  ck_status s = ck_upload(p, mxGetData(prhs[0]), numel * ck_dtype_size(t));
  if (s != CK_OK) ck_array_free(id);
  gw_check(s);
  plhs[0] = gw_id_value(id);
}

void cmd_array_get(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)nrhs;
  ck_dtype t;
  size_t numel;
  void *p;
  gw_check(ck_array_lookup(gw_id(prhs[0], "ID"), &t, &numel, &p));
  const mxArray *d = prhs[1];
  size_t nd = mxGetNumberOfElements(d), prod = 1;
  if (!mxIsDouble(d) || nd < 2 || nd > 32) gw_fail_invalid("DIMS must be a size vector");
  mwSize dims[32];
  for (size_t i = 0; i < nd; i++) {
    double v = mxGetPr(d)[i];
    if (!(v >= 0) || v != floor(v)) gw_fail_invalid("DIMS must be non-negative integers");
    dims[i] = (mwSize)v;
    prod *= (size_t)v;
  }
  if (prod != numel) gw_fail_invalid("DIMS do not match the array's number of elements");
  mxArray *x = gw_create_array((mwSize)nd, dims, t);
  ck_status s = ck_download(mxGetData(x), p, numel * ck_dtype_size(t));
  if (s != CK_OK) mxDestroyArray(x);
  gw_check(s);
  plhs[0] = x;
}

void cmd_array_free(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)plhs, (void)nrhs;
  ck_array_free(gw_id(prhs[0], "ID"));
}

void cmd_array_info(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nrhs;
  ck_dtype t;
  size_t numel;
  gw_check(ck_array_lookup(gw_id(prhs[0], "ID"), &t, &numel, NULL)); /* its device is current */
  plhs[0] = mxCreateString(ck_dtype_name(t));
  if (nlhs > 1) plhs[1] = mxCreateDoubleScalar((double)numel);
  if (nlhs > 2) plhs[2] = mxCreateDoubleScalar(ck_device_current() + 1);
}

void cmd_array_convert(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)nrhs;
  ck_array_id out = 0;
  gw_check(ck_array_convert(gw_id(prhs[0], "ID"), gw_dtype_name(prhs[1]), &out));
  plhs[0] = gw_id_value(out);
}
