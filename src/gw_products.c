/* The gateway's product commands: min-plus and matrix products on host arrays and on gpu_arrays,
 * their kernel-only timings and the min-plus ceiling. */
#include <stdio.h>
#include <string.h>

#include "gateway.h"

typedef int kernel_id_fn(const char *name);

static int get_kernel(const mxArray *a, kernel_id_fn *id_of, const char *op) {
  char name[32];
  gw_string(a, name, sizeof name, "KERNEL");
  int id = id_of(name);
  if (id < 0) {
    char msg[160];
    snprintf(msg, sizeof msg, "unknown %s kernel \"%s\"", op, name);
    gw_fail_invalid(msg);
  }
  return id;
}

int get_minplus_kernel(const mxArray *a) {
  return get_kernel(a, ck_minplus_kernel_id, "min-plus");
}

int get_matmul_kernel(const mxArray *a) {
  return get_kernel(a, ck_matmul_kernel_id, "matmul");
}

/* DEVICES of a product (1-based; empty: the default for p's shape and operands, on_device for
 * gpu_arrays, on the current device). */
static ck_devices get_devices(const mxArray *a, const ck_product *p, int on_device) {
  ck_devices d;
  ck_spread_default(p, on_device, &d);
  return gw_devices(a, &d);
}

/* prhs = A, B (host matrices of class t, inner dimensions agreeing) into p; C (and K) are set by
 * the caller. */
static ck_product host_operands(const mxArray *prhs[], ck_dtype t, int kernel) {
  size_t m = mxGetM(prhs[0]), k = mxGetN(prhs[0]), n = mxGetN(prhs[1]);
  if (mxGetM(prhs[1]) != k) gw_fail_invalid("inner dimensions must agree: columns(A) == rows(B)");
  ck_product p = {t, kernel, mxGetData(prhs[0]), mxGetData(prhs[1]), NULL, NULL, m, k, n};
  return p;
}

/* A product on the devices d, or (with_devices 0: the CPU kernel) where fn puts it. */
typedef struct {
  ck_product p;
  ck_product_fn *fn;
  ck_devices d;
  int with_devices;
} spread_call;

static ck_status run_host_call(void *ctx, void *C, double *K) {
  spread_call *c = ctx;
  c->p.C = C;
  c->p.K = K;
  return c->with_devices ? ck_spread_host(c->fn, &c->p, &c->d) : c->fn(&c->p);
}

static ck_status run_device_call(void *ctx, void *C, double *K) {
  spread_call *c = ctx;
  c->p.C = C;
  c->p.K = K;
  return ck_spread_device(c->fn, &c->p, &c->d);
}

/* "minplus" / "matmul", A, B, KERNEL [, DEVICES] */
static void host_product(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[], int minplus) {
  if (nrhs != 4) gw_need_args(nrhs, 3, minplus ? "\"minplus\", A, B, KERNEL [, DEVICES]"
                                               : "\"matmul\", A, B, KERNEL [, DEVICES]");
  ck_dtype t = minplus ? gw_matrix_dtype(prhs[0], "A") : gw_float_matrix_dtype(prhs[0], "A");
  if ((minplus ? gw_matrix_dtype(prhs[1], "B") : gw_float_matrix_dtype(prhs[1], "B")) != t)
    gw_fail_invalid("A and B must be of the same class");
  const int kernel = minplus ? get_minplus_kernel(prhs[2]) : get_matmul_kernel(prhs[2]);
  spread_call c = {.p = host_operands(prhs, t, kernel), .fn = minplus ? ck_minplus : ck_matmul};
  c.with_devices = !(minplus && kernel == CK_MINPLUS_CPU);
  if (c.with_devices) c.d = get_devices(nrhs > 3 ? prhs[3] : NULL, &c.p, 0);
  else if (nrhs > 3 && mxGetNumberOfElements(prhs[3]) > 0)
    gw_fail_invalid("the cpu kernel runs on the CPU: DEVICES does not apply");
  gw_host_result(plhs, t, c.p.m, c.p.n, minplus && nlhs > 1, run_host_call, &c);
}

void cmd_minplus(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  host_product(nlhs, plhs, nrhs, prhs, 1);
}

/* CLASS, KERNEL, M, K, N of a timing command into a product with no operands. */
static ck_product timed_shape(const mxArray *prhs[], int kernel) {
  ck_product p = {gw_dtype_name(prhs[0]), kernel, NULL, NULL, NULL, NULL,
                  gw_size(prhs[2], "M"), gw_size(prhs[3], "K"), gw_size(prhs[4], "N")};
  return p;
}

void cmd_minplus_time(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  static const char usage[] =
      "\"minplus_time\", CLASS, KERNEL, M, K, N, WARMUP, REPS [, \"arg\"] [, \"fractions\" | \"wide\"] [, CALLS]";
  if (nrhs < 7 || nrhs > 10) gw_need_args(nrhs, 7, usage);
  int with_arg = 0, data = CK_DATA_INTS, calls = 1;
  for (int i = 7; i < nrhs; i++) {
    char flag[16];
    if (mxIsNumeric(prhs[i])) {
      calls = gw_calls(prhs[i]);
      continue;
    }
    gw_string(prhs[i], flag, sizeof flag, "a flag");
    if (!strcmp(flag, "arg")) with_arg = 1;
    else if (!strcmp(flag, "fractions")) data = CK_DATA_FRACTIONS;
    else if (!strcmp(flag, "wide")) data = CK_DATA_WIDE;
    else gw_fail_invalid("the flags of minplus_time are \"arg\", \"fractions\" and \"wide\"");
  }
  ck_product p = timed_shape(prhs, get_minplus_kernel(prhs[1]));
  ck_timing tm;
  mxArray *times = gw_timing(prhs[5], prhs[6], &tm);
  tm.data = data;
  tm.calls = calls;
  ck_status s = ck_minplus_time(&p, with_arg, &tm);
  if (s != CK_OK) mxDestroyArray(times);
  gw_check(s);
  plhs[0] = times;
}

/* "minplus_narrow" [, MODE]: the mode of integer-valued single and double operands ("auto", "off",
 * "always"), set where MODE is given; returns the mode before. */
void cmd_minplus_narrow(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  static const char *const modes[] = {"auto", "off", "always"};
  const int mode =
      nrhs > 0 ? gw_mode(prhs[0], modes, 3, "the narrowing mode is \"auto\", \"off\" or \"always\"")
               : -1;
  const int old = ck_minplus_set_narrow(mode);
  plhs[0] = mxCreateString(modes[old]);
}

/* "minplus_path": the class the last min-plus product on the device ran in. */
void cmd_minplus_path(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  (void)nrhs;
  (void)prhs;
  plhs[0] = mxCreateString(ck_dtype_name(ck_minplus_last_path()));
}

void cmd_minplus_ceiling(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  gw_need_args(nrhs, 1, "\"minplus_ceiling\", CLASS");
  double rate = 0;
  gw_check(ck_minplus_ceiling(gw_dtype_name(prhs[0]), &rate));
  plhs[0] = mxCreateDoubleScalar(rate);
}

void cmd_matmul(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  host_product(nlhs, plhs, nrhs, prhs, 0);
}

void cmd_matmul_time(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  static const char usage[] = "\"matmul_time\", CLASS, KERNEL, M, K, N, WARMUP, REPS [, CALLS]";
  if (nrhs != 8) gw_need_args(nrhs, 7, usage);
  ck_product p = timed_shape(prhs, get_matmul_kernel(prhs[1]));
  ck_timing tm;
  mxArray *times = gw_timing(prhs[5], prhs[6], &tm);
  if (nrhs > 7) tm.calls = gw_calls(prhs[7]);
  ck_status s = ck_matmul_time(&p, &tm);
  if (s != CK_OK) mxDestroyArray(times);
  gw_check(s);
  plhs[0] = times;
}

/* "test_texture_limit", ELEMENTS: the "texture" matmul kernel refuses operands beyond ELEMENTS
 * (0: only the device's own limit), so that tests reach the refusal with small arrays; returns
 * the value before. */
void cmd_test_texture_limit(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  gw_need_args(nrhs, 1, "\"test_texture_limit\", ELEMENTS");
  plhs[0] = mxCreateDoubleScalar((double)ck_matmul_set_texture_limit(gw_size(prhs[0], "ELEMENTS")));
}

/* The operands of a device product (prhs = IDA, IDB, M, K, N, KERNEL [, DEVICES]): two arrays of
 * one class with m*k and k*n elements, on one device; the result C, and with `witness` the
 * min-plus witness K (double) as a second array, on that device. */
static void device_product(mxArray *plhs[], int nrhs, const mxArray *prhs[], int kernel,
                           ck_product_fn *fn, int witness) {
  ck_dtype ta, tb;
  size_t na, nb;
  void *pa, *pb;
  gw_check(ck_array_lookup(gw_id(prhs[0], "IDA"), &ta, &na, &pa));
  gw_check(ck_array_lookup(gw_id(prhs[1], "IDB"), &tb, &nb, &pb));
  size_t m = gw_size(prhs[2], "M"), k = gw_size(prhs[3], "K"), n = gw_size(prhs[4], "N");
  if (ta != tb) gw_fail_invalid("A and B must be of the same class");
  if (na != m * k || nb != k * n) gw_fail_invalid("M, K, N do not match the arrays");
  spread_call c = {.p = {ta, kernel, pa, pb, NULL, NULL, m, k, n}, .fn = fn};
  c.d = get_devices(nrhs > 6 ? prhs[6] : NULL, &c.p, 1);
  c.with_devices = 1;
  gw_device_result(plhs, ta, m * n, witness, run_device_call, &c);
}

void cmd_minplus_dev(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  if (nrhs != 7) gw_need_args(nrhs, 6, "\"minplus_dev\", IDA, IDB, M, K, N, KERNEL [, DEVICES]");
  int kernel = get_minplus_kernel(prhs[5]);
  if (kernel == CK_MINPLUS_CPU) gw_fail_invalid("the cpu kernel takes host arrays, not gpu_arrays");
  device_product(plhs, nrhs, prhs, kernel, ck_minplus_device, nlhs > 1);
}

void cmd_matmul_dev(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  if (nrhs != 7) gw_need_args(nrhs, 6, "\"matmul_dev\", IDA, IDB, M, K, N, KERNEL [, DEVICES]");
  device_product(plhs, nrhs, prhs, get_matmul_kernel(prhs[5]), ck_matmul_device, 0);
}
