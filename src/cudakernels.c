/* __cudakernels__: the package's one MEX gateway. It owns the shared state (the CUDA context made
 * by kernels/ck_device.c, the tracked device allocations) and dispatches commands:
 *
 *   __cudakernels__ ("available")                       -> logical
 *   __cudakernels__ ("info")                            -> struct
 *   __cudakernels__ ("kernels", OP)                     -> cellstr of kernel names for OP
 *   __cudakernels__ ("minplus", A, B, KERNEL)           -> C, and K (the argmin) if asked for
 *   __cudakernels__ ("minplus_time", CLASS, KERNEL, M, K, N, WARMUP, REPS [, "arg"]) -> times in ms
 *   __cudakernels__ ("minplus_ceiling", CLASS)          -> register-only pair updates per second
 *   __cudakernels__ ("sum", X, BEFORE, LEN, AFTER, MODE, KERNEL) -> Y (BEFORE*AFTER-by-1)
 *   __cudakernels__ ("sum_time", X, BEFORE, LEN, AFTER, MODE, KERNEL, WARMUP, REPS) -> [times, Y]
 *   __cudakernels__ ("copy_bandwidth", BYTES, REPS)     -> device copy rate, bytes moved per s
 *   __cudakernels__ ("matmul", A, B, KERNEL)            -> C = A * B
 *   __cudakernels__ ("matmul_time", CLASS, KERNEL, M, K, N, WARMUP, REPS) -> times in ms
 *   __cudakernels__ ("cublas")                          -> the cuBLAS library loaded, "" if none
 *   __cudakernels__ ("sync")                            -> waits for the device to finish
 *   __cudakernels__ ("array_put", X)                    -> ID of a device copy of X
 *   __cudakernels__ ("array_get", ID, DIMS)             -> the array, shaped DIMS
 *   __cudakernels__ ("array_free", ID)                  -> (unknown IDs are ignored)
 *   __cudakernels__ ("array_info", ID)                  -> [class name, numel]
 *   __cudakernels__ ("array_convert", ID, CLASS)        -> ID of a converted copy
 *   __cudakernels__ ("minplus_dev", IDA, IDB, M, K, N, KERNEL)  -> ID of C
 *   __cudakernels__ ("matmul_dev", IDA, IDB, M, K, N, KERNEL)   -> ID of C
 *   __cudakernels__ ("sum_dev", ID, BEFORE, LEN, AFTER, MODE, KERNEL) -> ID of Y
 *   __cudakernels__ ("reset")                           -> frees everything, resets the device
 *   __cudakernels__ ("memory")                          -> [bytes held, live allocations]
 *   __cudakernels__ ("test_alloc_limit", BYTES)         -> (for tests) cap device allocations
 *
 * The .m wrappers in inst/ validate for the user; the checks here keep a direct call from crashing.
 * Every failure is raised only after the C layer has released what it allocated. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mex.h"
#include "ck.h"

#define ID_INVALID "cudakernels:invalidinput"

typedef void command_fn(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]);

static void fail_invalid(const char *msg) { mexErrMsgIdAndTxt(ID_INVALID, "%s", msg); }

/* Raise the Octave error that matches a C-layer status. */
static void check(ck_status s) {
  switch (s) {
  case CK_OK:
    return;
  case CK_ERR_NODEVICE:
    mexErrMsgIdAndTxt("cudakernels:nodevice", "no usable GPU: %s", ck_last_error());
    break;
  case CK_ERR_OUTOFMEMORY:
    mexErrMsgIdAndTxt("cudakernels:outofmemory", "out of device memory: %s",
                      ck_last_error());
    break;
  case CK_ERR_STALE:
    mexErrMsgIdAndTxt("cudakernels:stalearray", "%s", ck_last_error());
    break;
  case CK_ERR_INVALID:
    mexErrMsgIdAndTxt(ID_INVALID, "%s", ck_last_error());
    break;
  default:
    mexErrMsgIdAndTxt("cudakernels:cudaerror", "CUDA error: %s", ck_last_error());
  }
}

static void get_string(const mxArray *a, char *buf, size_t size, const char *what) {
  if (!mxIsChar(a) || mxGetNumberOfDimensions(a) != 2 || mxGetM(a) > 1 ||
      mxGetString(a, buf, (mwSize)size) != 0) {
    char msg[128];
    snprintf(msg, sizeof msg, "%s must be a short character string", what);
    fail_invalid(msg);
  }
}

static double get_scalar(const mxArray *a, const char *what) {
  if (!mxIsNumeric(a) || mxIsComplex(a) || mxGetNumberOfElements(a) != 1) {
    char msg[128];
    snprintf(msg, sizeof msg, "%s must be a real numeric scalar", what);
    fail_invalid(msg);
  }
  return mxGetScalar(a);
}

static size_t get_size(const mxArray *a, const char *what) {
  double v = get_scalar(a, what);
  if (!(v >= 0) || v != floor(v) || v > 9.0e15) {
    char msg[128];
    snprintf(msg, sizeof msg, "%s must be a non-negative integer", what);
    fail_invalid(msg);
  }
  return (size_t)v;
}

/* A class name; each operation checks which classes it supports. */
static ck_dtype get_dtype_name(const mxArray *a) {
  char name[16];
  get_string(a, name, sizeof name, "CLASS");
  int t = ck_dtype_from_name(name);
  if (t < 0) fail_invalid("CLASS must name a numeric class, e.g. \"single\"");
  return (ck_dtype)t;
}

static const mxClassID mx_classes[CK_NUM_DTYPES] = {
    mxDOUBLE_CLASS, mxSINGLE_CLASS, mxINT8_CLASS,  mxUINT8_CLASS, mxINT16_CLASS,
    mxUINT16_CLASS, mxINT32_CLASS,  mxUINT32_CLASS, mxINT64_CLASS, mxUINT64_CLASS};

static mxClassID class_of(ck_dtype t) { return mx_classes[t]; }

/* The ck_dtype of a real, full numeric array, or -1. */
static int dtype_of(const mxArray *a) {
  if (mxIsSparse(a) || mxIsComplex(a)) return -1;
  for (int t = 0; t < CK_NUM_DTYPES; t++)
    if (mxGetClassID(a) == mx_classes[t]) return t;
  return -1;
}

/* A real, full, 2-D single or double matrix; anything else is refused before any device work. */
static ck_dtype get_matrix_dtype(const mxArray *a, const char *what) {
  char msg[160];
  if (mxIsSparse(a) || mxIsComplex(a) || mxGetNumberOfDimensions(a) != 2 ||
      !(mxIsDouble(a) || mxIsSingle(a))) {
    snprintf(msg, sizeof msg, "%s must be a real, full, 2-D single or double matrix", what);
    fail_invalid(msg);
  }
  return mxIsSingle(a) ? CK_SINGLE : CK_DOUBLE;
}

static void need_args(int nrhs, int want, const char *usage) {
  if (nrhs != want) {
    char msg[200];
    snprintf(msg, sizeof msg, "usage: __cudakernels__ (%s)", usage);
    fail_invalid(msg);
  }
}

/* ---- commands ---- */

static void cmd_available(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)prhs;
  need_args(nrhs, 0, "\"available\"");
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

static void cmd_info(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)prhs;
  need_args(nrhs, 0, "\"info\"");
  ck_device_info d;
  check(ck_device_query(&d));
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

static void cmd_kernels(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  need_args(nrhs, 1, "\"kernels\", OP");
  char op[32];
  get_string(prhs[0], op, sizeof op, "OP");
  const char *(*name_of)(int) = NULL;
  if (!strcmp(op, "minplus"))
    name_of = ck_minplus_kernel_name;
  else if (!strcmp(op, "sum"))
    name_of = ck_sum_kernel_name;
  else if (!strcmp(op, "matmul"))
    name_of = ck_matmul_kernel_name;
  else
    fail_invalid("unknown operation: the operations are: minplus, sum, matmul");
  int count = 0;
  while (name_of(count)) count++;
  mxArray *c = mxCreateCellMatrix(1, (mwSize)count);
  for (int i = 0; i < count; i++) mxSetCell(c, (mwIndex)i, mxCreateString(name_of(i)));
  plhs[0] = c;
}

static int get_minplus_kernel(const mxArray *a) {
  char name[32];
  get_string(a, name, sizeof name, "KERNEL");
  int id = ck_minplus_kernel_id(name);
  if (id < 0) {
    char msg[160];
    snprintf(msg, sizeof msg, "unknown min-plus kernel \"%s\"", name);
    fail_invalid(msg);
  }
  return id;
}

/* A real, full, 2-D matrix of any class the package knows; min-plus checks its own classes. */
static ck_dtype get_any_matrix_dtype(const mxArray *a, const char *what) {
  int t = dtype_of(a);
  if (t < 0 || mxGetNumberOfDimensions(a) != 2) {
    char msg[160];
    snprintf(msg, sizeof msg, "%s must be a real, full, 2-D numeric matrix", what);
    fail_invalid(msg);
  }
  return (ck_dtype)t;
}

static void cmd_minplus(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  need_args(nrhs, 3, "\"minplus\", A, B, KERNEL");
  ck_dtype t = get_any_matrix_dtype(prhs[0], "A");
  if (get_any_matrix_dtype(prhs[1], "B") != t) fail_invalid("A and B must be of the same class");
  size_t m = mxGetM(prhs[0]), k = mxGetN(prhs[0]), n = mxGetN(prhs[1]);
  if (mxGetM(prhs[1]) != k) fail_invalid("inner dimensions must agree: columns(A) == rows(B)");
  int kernel = get_minplus_kernel(prhs[2]);
  mxArray *C = mxCreateUninitNumericMatrix((mwSize)m, (mwSize)n, class_of(t), mxREAL);
  mxArray *K = nlhs > 1 ? mxCreateUninitNumericMatrix((mwSize)m, (mwSize)n, mxDOUBLE_CLASS, mxREAL)
                        : NULL;
  ck_status s = K ? ck_minplus_arg(t, kernel, mxGetData(prhs[0]), mxGetData(prhs[1]), mxGetData(C),
                                   mxGetPr(K), m, k, n)
                  : ck_minplus(t, kernel, mxGetData(prhs[0]), mxGetData(prhs[1]), mxGetData(C), m,
                               k, n);
  if (s != CK_OK) {
    mxDestroyArray(C);
    if (K) mxDestroyArray(K);
  }
  check(s);
  plhs[0] = C;
  if (K) plhs[1] = K;
}

static void cmd_minplus_time(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  if (nrhs != 8) need_args(nrhs, 7, "\"minplus_time\", CLASS, KERNEL, M, K, N, WARMUP, REPS [, \"arg\"]");
  int with_arg = 0;
  if (nrhs == 8) {
    char flag[8];
    get_string(prhs[7], flag, sizeof flag, "the 8th argument");
    if (strcmp(flag, "arg")) fail_invalid("the 8th argument of minplus_time must be \"arg\"");
    with_arg = 1;
  }
  ck_dtype t = get_dtype_name(prhs[0]);
  int kernel = get_minplus_kernel(prhs[1]);
  size_t m = get_size(prhs[2], "M"), k = get_size(prhs[3], "K"), n = get_size(prhs[4], "N");
  size_t warmup = get_size(prhs[5], "WARMUP"), reps = get_size(prhs[6], "REPS");
  if (reps < 1 || reps > 100000 || warmup > 100000) fail_invalid("REPS must be 1..100000");
  mxArray *times = mxCreateDoubleMatrix(1, (mwSize)reps, mxREAL);
  ck_status s = with_arg ? ck_minplus_arg_time(t, kernel, m, k, n, (int)warmup, (int)reps,
                                               mxGetPr(times))
                         : ck_minplus_time(t, kernel, m, k, n, (int)warmup, (int)reps, mxGetPr(times));
  if (s != CK_OK) mxDestroyArray(times);
  check(s);
  plhs[0] = times;
}

static void cmd_minplus_ceiling(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  need_args(nrhs, 1, "\"minplus_ceiling\", CLASS");
  double rate = 0;
  check(ck_minplus_ceiling(get_dtype_name(prhs[0]), &rate));
  plhs[0] = mxCreateDoubleScalar(rate);
}

/* ---- sum ---- */

static ck_dtype host_dtype(const mxArray *x) {
  int t = dtype_of(x);
  if (t < 0) fail_invalid("X must be a real, full numeric array");
  return (ck_dtype)t;
}

typedef struct {
  ck_dtype t;
  ck_sum_mode mode;
  int kernel;
  size_t before, len, after;
} sum_args;

/* prhs[1..5]: BEFORE, LEN, AFTER, MODE, KERNEL, for an array of class t with numel elements. */
static sum_args get_sum_args(const mxArray *prhs[], ck_dtype t, size_t numel) {
  sum_args a;
  a.t = t;
  a.before = get_size(prhs[1], "BEFORE");
  a.len = get_size(prhs[2], "LEN");
  a.after = get_size(prhs[3], "AFTER");
  if (a.before * a.len * a.after != numel)
    fail_invalid("BEFORE*LEN*AFTER must equal numel (X)");
  char mode[16], kernel[32];
  get_string(prhs[4], mode, sizeof mode, "MODE");
  if (!strcmp(mode, "default"))
    a.mode = CK_SUM_MODE_DEFAULT;
  else if (!strcmp(mode, "double"))
    a.mode = CK_SUM_MODE_DOUBLE;
  else if (!strcmp(mode, "native"))
    a.mode = CK_SUM_MODE_NATIVE;
  else
    fail_invalid("MODE must be \"default\", \"double\" or \"native\"");
  get_string(prhs[5], kernel, sizeof kernel, "KERNEL");
  a.kernel = ck_sum_kernel_id(kernel);
  if (a.kernel < 0) {
    char msg[160];
    snprintf(msg, sizeof msg, "unknown sum kernel \"%s\"", kernel);
    fail_invalid(msg);
  }
  return a;
}

static mxArray *sum_output(const sum_args *a) {
  return mxCreateUninitNumericMatrix((mwSize)(a->before * a->after), 1,
                                     class_of(ck_sum_out_dtype(a->t, a->mode)), mxREAL);
}

static void cmd_sum(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  need_args(nrhs, 6, "\"sum\", X, BEFORE, LEN, AFTER, MODE, KERNEL");
  sum_args a = get_sum_args(prhs, host_dtype(prhs[0]), mxGetNumberOfElements(prhs[0]));
  mxArray *y = sum_output(&a);
  ck_status s = ck_sum(a.t, a.mode, a.kernel, mxGetData(prhs[0]), mxGetData(y), a.before, a.len,
                       a.after);
  if (s != CK_OK) mxDestroyArray(y);
  check(s);
  plhs[0] = y;
}

static void cmd_sum_time(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  need_args(nrhs, 8, "\"sum_time\", X, BEFORE, LEN, AFTER, MODE, KERNEL, WARMUP, REPS");
  sum_args a = get_sum_args(prhs, host_dtype(prhs[0]), mxGetNumberOfElements(prhs[0]));
  size_t warmup = get_size(prhs[6], "WARMUP"), reps = get_size(prhs[7], "REPS");
  if (reps < 1 || reps > 100000 || warmup > 100000) fail_invalid("REPS must be 1..100000");
  mxArray *times = mxCreateDoubleMatrix(1, (mwSize)reps, mxREAL);
  mxArray *y = sum_output(&a);
  ck_status s = ck_sum_time(a.t, a.mode, a.kernel, mxGetData(prhs[0]), mxGetData(y), a.before,
                            a.len, a.after, (int)warmup, (int)reps, mxGetPr(times));
  if (s != CK_OK) {
    mxDestroyArray(times);
    mxDestroyArray(y);
  }
  check(s);
  plhs[0] = times;
  plhs[1] = y;
}

static void cmd_copy_bandwidth(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  need_args(nrhs, 2, "\"copy_bandwidth\", BYTES, REPS");
  double rate = 0;
  check(ck_copy_bandwidth(get_size(prhs[0], "BYTES"), (int)get_size(prhs[1], "REPS"), &rate));
  plhs[0] = mxCreateDoubleScalar(rate);
}

/* ---- matmul ---- */

static int get_matmul_kernel(const mxArray *a) {
  char name[32];
  get_string(a, name, sizeof name, "KERNEL");
  int id = ck_matmul_kernel_id(name);
  if (id < 0) {
    char msg[160];
    snprintf(msg, sizeof msg, "unknown matmul kernel \"%s\"", name);
    fail_invalid(msg);
  }
  return id;
}

static void cmd_matmul(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  need_args(nrhs, 3, "\"matmul\", A, B, KERNEL");
  ck_dtype t = get_matrix_dtype(prhs[0], "A");
  if (get_matrix_dtype(prhs[1], "B") != t) fail_invalid("A and B must be of the same class");
  size_t m = mxGetM(prhs[0]), k = mxGetN(prhs[0]), n = mxGetN(prhs[1]);
  if (mxGetM(prhs[1]) != k) fail_invalid("inner dimensions must agree: columns(A) == rows(B)");
  int kernel = get_matmul_kernel(prhs[2]);
  mxArray *C = mxCreateUninitNumericMatrix((mwSize)m, (mwSize)n, class_of(t), mxREAL);
  ck_status s = ck_matmul(t, kernel, mxGetData(prhs[0]), mxGetData(prhs[1]), mxGetData(C), m, k, n);
  if (s != CK_OK) mxDestroyArray(C);
  check(s);
  plhs[0] = C;
}

static void cmd_matmul_time(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  need_args(nrhs, 7, "\"matmul_time\", CLASS, KERNEL, M, K, N, WARMUP, REPS");
  ck_dtype t = get_dtype_name(prhs[0]);
  int kernel = get_matmul_kernel(prhs[1]);
  size_t m = get_size(prhs[2], "M"), k = get_size(prhs[3], "K"), n = get_size(prhs[4], "N");
  size_t warmup = get_size(prhs[5], "WARMUP"), reps = get_size(prhs[6], "REPS");
  if (reps < 1 || reps > 100000 || warmup > 100000) fail_invalid("REPS must be 1..100000");
  mxArray *times = mxCreateDoubleMatrix(1, (mwSize)reps, mxREAL);
  ck_status s = ck_matmul_time(t, kernel, m, k, n, (int)warmup, (int)reps, mxGetPr(times));
  if (s != CK_OK) mxDestroyArray(times);
  check(s);
  plhs[0] = times;
}

static void cmd_cublas(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)prhs;
  need_args(nrhs, 0, "\"cublas\"");
  plhs[0] = mxCreateString(ck_cublas_available() ? ck_cublas_library() : "");
}

static void cmd_sync(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)plhs, (void)prhs;
  need_args(nrhs, 0, "\"sync\"");
  check(ck_device_sync());
}

/* ---- device-resident arrays ---- */

static ck_array_id get_id(const mxArray *a, const char *what) {
  return (ck_array_id)get_size(a, what);
}

static mxArray *id_value(ck_array_id id) { return mxCreateDoubleScalar((double)id); }

static void cmd_array_put(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  need_args(nrhs, 1, "\"array_put\", X");
  ck_dtype t = host_dtype(prhs[0]);
  size_t numel = mxGetNumberOfElements(prhs[0]);
  ck_array_id id = 0;
  void *p = NULL;
  check(ck_array_create(t, numel, &id, &p));
  ck_status s = ck_upload(p, mxGetData(prhs[0]), numel * ck_dtype_size(t));
  if (s != CK_OK) ck_array_free(id);
  check(s);
  plhs[0] = id_value(id);
}

static void cmd_array_get(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  need_args(nrhs, 2, "\"array_get\", ID, DIMS");
  ck_dtype t;
  size_t numel;
  void *p;
  check(ck_array_lookup(get_id(prhs[0], "ID"), &t, &numel, &p));
  const mxArray *d = prhs[1];
  size_t nd = mxGetNumberOfElements(d), prod = 1;
  if (!mxIsDouble(d) || nd < 2 || nd > 32) fail_invalid("DIMS must be a size vector");
  mwSize dims[32];
  for (size_t i = 0; i < nd; i++) {
    double v = mxGetPr(d)[i];
    if (!(v >= 0) || v != floor(v)) fail_invalid("DIMS must be non-negative integers");
    dims[i] = (mwSize)v;
    prod *= (size_t)v;
  }
  if (prod != numel) fail_invalid("DIMS do not match the array's number of elements");
  mxArray *x = mxCreateUninitNumericArray((mwSize)nd, dims, class_of(t), mxREAL);
  ck_status s = ck_download(mxGetData(x), p, numel * ck_dtype_size(t));
  if (s != CK_OK) mxDestroyArray(x);
  check(s);
  plhs[0] = x;
}

static void cmd_array_free(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)plhs;
  need_args(nrhs, 1, "\"array_free\", ID");
  ck_array_free(get_id(prhs[0], "ID"));
}

static void cmd_array_info(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  need_args(nrhs, 1, "\"array_info\", ID");
  ck_dtype t;
  size_t numel;
  check(ck_array_lookup(get_id(prhs[0], "ID"), &t, &numel, NULL));
  plhs[0] = mxCreateString(ck_dtype_name(t));
  if (nlhs > 1) plhs[1] = mxCreateDoubleScalar((double)numel);
}

static void cmd_array_convert(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  need_args(nrhs, 2, "\"array_convert\", ID, CLASS");
  ck_array_id out = 0;
  check(ck_array_convert(get_id(prhs[0], "ID"), get_dtype_name(prhs[1]), &out));
  plhs[0] = id_value(out);
}

/* The operands of a device product: two arrays of one class with m*k and k*n elements; the
 * result C, and with `fn_k` the min-plus witness K (double) as a second array. */
typedef ck_status device_product_fn(ck_dtype t, int kernel, const void *dA, const void *dB,
                                    void *dC, size_t m, size_t k, size_t n);
typedef ck_status device_witness_fn(ck_dtype t, int kernel, const void *dA, const void *dB,
                                    void *dC, double *dK, size_t m, size_t k, size_t n);

static void device_product(mxArray *plhs[], const mxArray *prhs[], int kernel,
                           device_product_fn *fn, device_witness_fn *fn_k) {
  ck_dtype ta, tb;
  size_t na, nb;
  void *pa, *pb, *pc, *pk = NULL;
  check(ck_array_lookup(get_id(prhs[0], "IDA"), &ta, &na, &pa));
  check(ck_array_lookup(get_id(prhs[1], "IDB"), &tb, &nb, &pb));
  size_t m = get_size(prhs[2], "M"), k = get_size(prhs[3], "K"), n = get_size(prhs[4], "N");
  if (ta != tb) fail_invalid("A and B must be of the same class");
  if (na != m * k || nb != k * n) fail_invalid("M, K, N do not match the arrays");
  ck_array_id idc = 0, idk = 0;
  check(ck_array_create(ta, m * n, &idc, &pc));
  ck_status s = fn_k ? ck_array_create(CK_DOUBLE, m * n, &idk, &pk) : CK_OK;
  if (s == CK_OK)
    s = fn_k ? fn_k(ta, kernel, pa, pb, pc, (double *)pk, m, k, n)
             : fn(ta, kernel, pa, pb, pc, m, k, n);
  if (s != CK_OK) {
    ck_array_free(idc);
    ck_array_free(idk);
  }
  check(s);
  plhs[0] = id_value(idc);
  if (fn_k) plhs[1] = id_value(idk);
}

static void cmd_minplus_dev(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  need_args(nrhs, 6, "\"minplus_dev\", IDA, IDB, M, K, N, KERNEL");
  int kernel = get_minplus_kernel(prhs[5]);
  if (kernel == CK_MINPLUS_CPU) fail_invalid("the cpu kernel takes host arrays, not gpu_arrays");
  device_product(plhs, prhs, kernel, ck_minplus_device, nlhs > 1 ? ck_minplus_arg_device : NULL);
}

static void cmd_matmul_dev(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  need_args(nrhs, 6, "\"matmul_dev\", IDA, IDB, M, K, N, KERNEL");
  device_product(plhs, prhs, get_matmul_kernel(prhs[5]), ck_matmul_device, NULL);
}

static void cmd_sum_dev(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  need_args(nrhs, 6, "\"sum_dev\", ID, BEFORE, LEN, AFTER, MODE, KERNEL");
  ck_dtype t;
  size_t numel;
  void *px, *py;
  ck_array_id idx = get_id(prhs[0], "ID");
  check(ck_array_lookup(idx, &t, &numel, &px));
  sum_args a = get_sum_args(prhs, t, numel);
  if (a.kernel == CK_SUM_CPU) fail_invalid("the cpu kernel takes host arrays, not gpu_arrays");
  ck_array_id idy = 0;
  check(ck_array_create(ck_sum_out_dtype(t, a.mode), a.before * a.after, &idy, &py));
  ck_status s = ck_sum_device(t, a.mode, a.kernel, px, py, a.before, a.len, a.after);
  if (s != CK_OK) ck_array_free(idy);
  check(s);
  plhs[0] = id_value(idy);
}

static void cmd_reset(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)plhs, (void)prhs;
  need_args(nrhs, 0, "\"reset\"");
  check(ck_reset());
}

static void cmd_memory(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)prhs;
  need_args(nrhs, 0, "\"memory\"");
  mxArray *r = mxCreateDoubleMatrix(1, 2, mxREAL);
  mxGetPr(r)[0] = (double)ck_dev_bytes_in_use();
  mxGetPr(r)[1] = (double)ck_dev_live_allocations();
  plhs[0] = r;
}

static void cmd_test_alloc_limit(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)plhs;
  need_args(nrhs, 1, "\"test_alloc_limit\", BYTES");
  ck_dev_set_limit(get_size(prhs[0], "BYTES"));
}

static const struct {
  const char *name;
  command_fn *fn;
} commands[] = {
    {"available", cmd_available},
    {"info", cmd_info},
    {"kernels", cmd_kernels},
    {"minplus", cmd_minplus},
    {"minplus_time", cmd_minplus_time},
    {"minplus_ceiling", cmd_minplus_ceiling},
    {"sum", cmd_sum},
    {"sum_time", cmd_sum_time},
    {"copy_bandwidth", cmd_copy_bandwidth},
    {"matmul", cmd_matmul},
    {"matmul_time", cmd_matmul_time},
    {"cublas", cmd_cublas},
    {"sync", cmd_sync},
    {"array_put", cmd_array_put},
    {"array_get", cmd_array_get},
    {"array_free", cmd_array_free},
    {"array_info", cmd_array_info},
    {"array_convert", cmd_array_convert},
    {"minplus_dev", cmd_minplus_dev},
    {"matmul_dev", cmd_matmul_dev},
    {"sum_dev", cmd_sum_dev},
    {"reset", cmd_reset},
    {"memory", cmd_memory},
    {"test_alloc_limit", cmd_test_alloc_limit},
};

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  /* Stay loaded: unloading a library that holds a CUDA context and the statically linked runtime
   * would leave the runtime's exit handlers pointing at unmapped code. */
  if (!mexIsLocked()) mexLock();
  if (nrhs < 1) fail_invalid("usage: __cudakernels__ (COMMAND, ...)");
  char name[32];
  get_string(prhs[0], name, sizeof name, "COMMAND");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (!strcmp(name, commands[i].name)) {
      commands[i].fn(nlhs, plhs, nrhs - 1, prhs + 1);
      return;
    }
  char msg[96];
  snprintf(msg, sizeof msg, "unknown command \"%s\"", name);
  fail_invalid(msg);
}
