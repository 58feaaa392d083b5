/* The gateway's device commands: availability, the device's facts, kernel names, sync, reset, and
 * the package's memory accounting. The argument counts are checked by cudakernels.c's table. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gateway.h"

void cmd_available(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)nrhs, (void)prhs;
  plhs[0] = mxCreateLogicalScalar(ck_device_available() != 0);
}

static mxArray *version_string(int v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%d.%d", v / 1000, (v % 1000) / 10);
  return mxCreateString(buf);
}

/* One device's facts as element i of the struct array s. */
static void device_facts(mxArray *s, mwIndex i, int dev) {
  ck_device_info d;
  gw_check(ck_device_query_at(dev, &d));
  char cc[16];
  snprintf(cc, sizeof cc, "%d.%d", d.major, d.minor);
  mxSetField(s, i, "index", mxCreateDoubleScalar(dev + 1));
  mxSetField(s, i, "name", mxCreateString(d.name));
  mxSetField(s, i, "device", mxCreateDoubleScalar(d.device));
  mxSetField(s, i, "selected", mxCreateLogicalScalar(dev == ck_device_selected()));
  mxSetField(s, i, "compute_capability", mxCreateString(cc));
  mxSetField(s, i, "multiprocessors", mxCreateDoubleScalar(d.multiprocessors));
  mxSetField(s, i, "clock_mhz", mxCreateDoubleScalar(d.clock_mhz));
  mxSetField(s, i, "l2_bytes", mxCreateDoubleScalar((double)d.l2_bytes));
  mxSetField(s, i, "total_memory", mxCreateDoubleScalar((double)d.total_bytes));
  mxSetField(s, i, "free_memory", mxCreateDoubleScalar((double)d.free_bytes));
  mxSetField(s, i, "package_memory", mxCreateDoubleScalar((double)ck_dev_bytes_on(dev)));
  mxSetField(s, i, "gpu_arrays", mxCreateDoubleScalar((double)ck_array_count_on(dev)));
  mxSetField(s, i, "driver_version", version_string(d.driver_version));
  mxSetField(s, i, "runtime_version", version_string(d.runtime_version));
}

/* "info": every visible device's facts, a 1-by-N struct array in CUDA's order. */
void cmd_info(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)nrhs, (void)prhs;
  gw_check(ck_device_init());
  static const char *fields[] = {
      "index",           "name",       "device",         "selected",       "compute_capability",
      "multiprocessors", "clock_mhz",  "l2_bytes",       "total_memory",   "free_memory",
      "package_memory",  "gpu_arrays", "driver_version", "runtime_version"};
  const int count = ck_device_count();
  mxArray *s = mxCreateStructMatrix(1, (mwSize)count, sizeof fields / sizeof fields[0], fields);
  for (int i = 0; i < count; i++) device_facts(s, (mwIndex)i, i);
  plhs[0] = s;
}

/* "device_count": the visible devices, 0 without a usable one (never an error). */
void cmd_device_count(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)nrhs, (void)prhs;
  plhs[0] = mxCreateDoubleScalar(ck_device_count());
}

/* "device_select" [, I]: the selected device (1-based) before; device I selected. */
void cmd_device_select(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  gw_check(ck_device_init());
  const int before = ck_device_selected();
  if (nrhs == 1) gw_check(ck_device_select(gw_device_number(gw_scalar(prhs[0], "I"))));
  plhs[0] = mxCreateDoubleScalar(before + 1);
}

void cmd_kernels(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)nrhs;
  char op[32];
  gw_string(prhs[0], op, sizeof op, "OP");
  const char *(*name_of)(int) = NULL;
  if (!strcmp(op, "minplus")) name_of = ck_minplus_kernel_name;
  else if (!strcmp(op, "sum")) name_of = ck_sum_kernel_name;
  else if (!strcmp(op, "matmul")) name_of = ck_matmul_kernel_name;
  else gw_fail_invalid("unknown operation: the operations are: minplus, sum, matmul");
  int count = 0;
  while (name_of(count)) count++;
  mxArray *c = mxCreateCellMatrix(1, (mwSize)count);
  for (int i = 0; i < count; i++) mxSetCell(c, (mwIndex)i, mxCreateString(name_of(i)));
  plhs[0] = c;
}

void cmd_cublas(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)nrhs, (void)prhs;
  plhs[0] = mxCreateString(ck_cublas_available() ? ck_cublas_library() : "");
}

void cmd_sync(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)plhs, (void)nrhs, (void)prhs;
  gw_check(ck_device_sync());
}

/* "reset": every setting back to its default (first, so that a failed device reset still does
 * that), then every device array freed and every device used reset. */
void cmd_reset(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)plhs, (void)nrhs, (void)prhs;
  gw_settings_reset();
  ck_plan_forget();
  gw_check(ck_reset());
}

void cmd_memory(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)nrhs, (void)prhs;
  mxArray *r = mxCreateDoubleMatrix(1, 2, mxREAL);
  mxGetPr(r)[0] = (double)ck_dev_bytes_in_use();
  mxGetPr(r)[1] = (double)ck_dev_live_allocations();
  plhs[0] = r;
}

ck_devices gw_devices(const mxArray *a) {
  ck_devices d;
  memset(&d, 0, sizeof d); /* count 0: the planner's default */
  const size_t count = a ? mxGetNumberOfElements(a) : 0;
  if (count > 0) {
    if (!mxIsDouble(a) || mxIsComplex(a) || count > CK_SPREAD_WORKERS)
      gw_fail_invalid("DEVICES must be a vector of at most 8 device numbers");
    d.count = (int)count;
    for (size_t i = 0; i < count; i++) d.devices[i] = gw_device_number(mxGetPr(a)[i]);
  }
  d.copy_always = gw_setting.spread_copies;
  return d;
}
