/* The gateway's device commands: availability, the device's facts, kernel names, sync, reset, and
 * the package's memory accounting. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gateway.h"

void cmd_available(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)prhs;
  gw_need_args(nrhs, 0, "\"available\"");
  plhs[0] = mxCreateLogicalScalar(ck_device_available() != 0);
}

static void set_field(mxArray *s, const char *name, mxArray *value) {
  mxSetField(s, 0, name, value);
}

static mxArray *version_string(int v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%d.%d", v / 1000, (v % 1000) / 10);
  return mxCreateString(buf);
}

void cmd_info(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)prhs;
  gw_need_args(nrhs, 0, "\"info\"");
  ck_device_info d;
  gw_check(ck_device_query(&d));
  static const char *fields[] = {"name", "device", "compute_capability", "multiprocessors",
                                 "clock_mhz", "l2_bytes", "total_memory", "free_memory",
                                 "package_memory", "gpu_arrays", "driver_version",
                                 "runtime_version"};
  mxArray *s = mxCreateStructMatrix(1, 1, sizeof fields / sizeof fields[0], fields);
  char cc[16];
  snprintf(cc, sizeof cc, "%d.%d", d.major, d.minor);
  set_field(s, "name", mxCreateString(d.name));
  set_field(s, "device", mxCreateDoubleScalar(d.device));
  set_field(s, "compute_capability", mxCreateString(cc));
  set_field(s, "multiprocessors", mxCreateDoubleScalar(d.multiprocessors));
  set_field(s, "clock_mhz", mxCreateDoubleScalar(d.clock_mhz));
  set_field(s, "l2_bytes", mxCreateDoubleScalar((double)d.l2_bytes));
  set_field(s, "total_memory", mxCreateDoubleScalar((double)d.total_bytes));
  set_field(s, "free_memory", mxCreateDoubleScalar((double)d.free_bytes));
  set_field(s, "package_memory", mxCreateDoubleScalar((double)ck_dev_bytes_in_use()));
  set_field(s, "gpu_arrays", mxCreateDoubleScalar((double)ck_array_count()));
  set_field(s, "driver_version", version_string(d.driver_version));
  set_field(s, "runtime_version", version_string(d.runtime_version));
  plhs[0] = s;
}

void cmd_kernels(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  gw_need_args(nrhs, 1, "\"kernels\", OP");
  char op[32];
  gw_string(prhs[0], op, sizeof op, "OP");
  const char *(*name_of)(int) = NULL;
  if (!strcmp(op, "minplus"))
    name_of = ck_minplus_kernel_name;
  else if (!strcmp(op, "sum"))
    name_of = ck_sum_kernel_name;
  else if (!strcmp(op, "matmul"))
    name_of = ck_matmul_kernel_name;
  else
    gw_fail_invalid("unknown operation: the operations are: minplus, sum, matmul");
  int count = 0;
  while (name_of(count)) count++;
  mxArray *c = mxCreateCellMatrix(1, (mwSize)count);
  for (int i = 0; i < count; i++) mxSetCell(c, (mwIndex)i, mxCreateString(name_of(i)));
  plhs[0] = c;
}

void cmd_cublas(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)prhs;
  gw_need_args(nrhs, 0, "\"cublas\"");
  plhs[0] = mxCreateString(ck_cublas_available() ? ck_cublas_library() : "");
}

void cmd_sync(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)plhs, (void)prhs;
  gw_need_args(nrhs, 0, "\"sync\"");
  gw_check(ck_device_sync());
}

void cmd_reset(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)plhs, (void)prhs;
  gw_need_args(nrhs, 0, "\"reset\"");
  gw_check(ck_reset());
}

void cmd_memory(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)prhs;
  gw_need_args(nrhs, 0, "\"memory\"");
  mxArray *r = mxCreateDoubleMatrix(1, 2, mxREAL);
  mxGetPr(r)[0] = (double)ck_dev_bytes_in_use();
  mxGetPr(r)[1] = (double)ck_dev_live_allocations();
  plhs[0] = r;
}

void cmd_test_alloc_limit(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)plhs;
  gw_need_args(nrhs, 1, "\"test_alloc_limit\", BYTES");
  ck_dev_set_limit(gw_size(prhs[0], "BYTES"));
}

