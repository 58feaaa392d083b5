/* The gateway's argument checks and error mapping, shared by its commands (gateway.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gateway.h"

void gw_fail_invalid(const char *msg) { mexErrMsgIdAndTxt(ID_INVALID, "%s", msg); }

/* Raise the Octave error that matches a C-layer status. */
void gw_check(ck_status s) {
  switch (s) {
  case CK_OK: return;
  case CK_ERR_NODEVICE:
    mexErrMsgIdAndTxt("cudakernels:nodevice", "no usable GPU: %s", ck_last_error());
    break;
  case CK_ERR_OUTOFMEMORY:
    mexErrMsgIdAndTxt("cudakernels:outofmemory", "out of device memory: %s", ck_last_error());
    break;
  case CK_ERR_STALE: mexErrMsgIdAndTxt("cudakernels:stalearray", "%s", ck_last_error()); break;
  case CK_ERR_INVALID: mexErrMsgIdAndTxt(ID_INVALID, "%s", ck_last_error()); break;
  case CK_ERR_NEGCYCLE:
    mexErrMsgIdAndTxt("cudakernels:negativecycle", "%s", ck_last_error());
    break;
  case CK_ERR_POSCYCLE:
    mexErrMsgIdAndTxt("cudakernels:positivecycle", "%s", ck_last_error());
    break;
  case CK_ERR_INTERRUPTED:
    mexErrMsgIdAndTxt("cudakernels:interrupted", "%s", ck_last_error());
    break;
  default: mexErrMsgIdAndTxt("cudakernels:cudaerror", "CUDA error: %s", ck_last_error());
  }
}

/* A mode argument: its index in names[0 .. count-1], else the invalid-input error `usage`. */
int gw_mode(const mxArray *a, const char *const names[], int count, const char *usage) {
  char name[32];
  gw_string(a, name, sizeof name, "MODE");
  for (int i = 0; i < count; i++)
    if (!strcmp(name, names[i])) return i;
  gw_fail_invalid(usage);
  return -1;
}

void gw_string(const mxArray *a, char *buf, size_t size, const char *what) {
  if (!mxIsChar(a) || mxGetNumberOfDimensions(a) != 2 || mxGetM(a) > 1 ||
      mxGetString(a, buf, (mwSize)size) != 0) {
    char msg[128];
    snprintf(msg, sizeof msg, "%s must be a short character string", what);
    gw_fail_invalid(msg);
  }
}

double gw_scalar(const mxArray *a, const char *what) {
  if (!mxIsNumeric(a) || mxIsComplex(a) || mxGetNumberOfElements(a) != 1) {
    char msg[128];
    snprintf(msg, sizeof msg, "%s must be a real numeric scalar", what);
    gw_fail_invalid(msg);
  }
  return mxGetScalar(a);
}

size_t gw_size(const mxArray *a, const char *what) {
  double v = gw_scalar(a, what);
  if (!(v >= 0) || v != floor(v) || v > 9.0e15) {
    char msg[128];
    snprintf(msg, sizeof msg, "%s must be a non-negative integer", what);
    gw_fail_invalid(msg);
  }
  return (size_t)v;
}

int gw_sizes(const mxArray *a, int least, int most, size_t *out, const char *usage) {
  const size_t count = a && mxIsDouble(a) && !mxIsComplex(a) ? mxGetNumberOfElements(a) : 0;
  if (count < (size_t)least || count > (size_t)most) gw_fail_invalid(usage);
  const double *v = mxGetPr(a);
  for (size_t i = 0; i < count; i++) {
    if (!(v[i] >= 0) || v[i] != (double)(size_t)v[i] || v[i] > 9.0e15) gw_fail_invalid(usage);
    out[i] = (size_t)v[i];
  }
  return (int)count;
}

/* A class name; each operation checks which classes it supports. */
ck_dtype gw_dtype_name(const mxArray *a) {
  char name[16];
  gw_string(a, name, sizeof name, "CLASS");
  int t = ck_dtype_from_name(name);
  if (t < 0) gw_fail_invalid("CLASS must name a numeric class, e.g. \"single\"");
  return (ck_dtype)t;
}

#define GW_MX_CLASS_(a, E, T, N, B, F, P, L, MX) [E] = mx##MX##_CLASS,
static const mxClassID mx_classes[CK_NUM_DTYPES] = {CK_CLASS_TABLE(GW_MX_CLASS_, _)};
#undef GW_MX_CLASS_

mxClassID gw_class_of(ck_dtype t) { return mx_classes[t]; }

/* An array of class t for results, uninitialized where the API allows (logical has no such
 * form). */
mxArray *gw_create_array(mwSize nd, const mwSize *dims, ck_dtype t) {
  if (t == CK_LOGICAL) return mxCreateLogicalArray(nd, dims);
  return mxCreateUninitNumericArray(nd, (mwSize *)dims, gw_class_of(t), mxREAL);
}

/* The ck_dtype of a real, full numeric array, or -1. */
int gw_dtype_of(const mxArray *a) {
  if (mxIsSparse(a) || mxIsComplex(a)) return -1;
  for (int t = 0; t < CK_NUM_DTYPES; t++)
    if (mxGetClassID(a) == mx_classes[t]) return t;
  return -1;
}

/* A real, full, 2-D single or double matrix; anything else is refused before any device work. */
ck_dtype gw_float_matrix_dtype(const mxArray *a, const char *what) {
  char msg[160];
  if (mxIsSparse(a) || mxIsComplex(a) || mxGetNumberOfDimensions(a) != 2 ||
      !(mxIsDouble(a) || mxIsSingle(a))) {
    snprintf(msg, sizeof msg, "%s must be a real, full, 2-D single or double matrix", what);
    gw_fail_invalid(msg);
  }
  return mxIsSingle(a) ? CK_SINGLE : CK_DOUBLE;
}

/* A real, full, 2-D matrix of any class the package knows; min-plus checks its own classes. */
ck_dtype gw_matrix_dtype(const mxArray *a, const char *what) {
  int t = gw_dtype_of(a);
  if (t < 0 || mxGetNumberOfDimensions(a) != 2) {
    char msg[160];
    snprintf(msg, sizeof msg, "%s must be a real, full, 2-D numeric matrix", what);
    gw_fail_invalid(msg);
  }
  return (ck_dtype)t;
}

ck_dtype gw_host_dtype(const mxArray *x) {
  int t = gw_dtype_of(x);
  if (t < 0) gw_fail_invalid("X must be a real, full numeric array");
  return (ck_dtype)t;
}

ck_array_id gw_id(const mxArray *a, const char *what) { return (ck_array_id)gw_size(a, what); }

mxArray *gw_id_value(ck_array_id id) { return mxCreateDoubleScalar((double)id); }

int gw_device_number(double v) {
  gw_check(ck_device_init()); /* no GPU: that error, not "no device 1" */
  if (!(v >= 1 && v <= ck_device_count()) || v != floor(v)) {
    char msg[96];
    snprintf(msg, sizeof msg, "there is no device %g: the devices are 1 to %d", v,
             ck_device_count());
    gw_fail_invalid(msg);
  }
  return (int)v - 1;
}

/* CALLS of a timing: back-to-back calls per timed run, 1..10000. */
int gw_calls(const mxArray *a) {
  size_t c = gw_size(a, "CALLS");
  if (c < 1 || c > 10000) gw_fail_invalid("CALLS must be 1..10000");
  return (int)c;
}

mxArray *gw_timing(const mxArray *warmup, const mxArray *reps, ck_timing *tm) {
  size_t w = gw_size(warmup, "WARMUP"), r = gw_size(reps, "REPS");
  if (r < 1 || r > 100000 || w > 100000)
    gw_fail_invalid("REPS must be 1..100000, WARMUP at most that");
  mxArray *times = mxCreateDoubleMatrix(1, (mwSize)r, mxREAL);
  tm->warmup = (int)w;
  tm->reps = (int)r;
  tm->times_ms = mxGetPr(times);
  tm->data = CK_DATA_INTS;
  tm->calls = 1;
  return times;
}

void gw_device_result(mxArray *plhs[], ck_dtype t, size_t count, int witness, gw_device_run *run,
                      void *ctx) {
  ck_array_id idc = 0, idk = 0;
  void *pc, *pk = NULL;
  gw_check(ck_array_create(t, count, &idc, &pc));
  ck_status s = witness ? ck_array_create(CK_DOUBLE, count, &idk, &pk) : CK_OK;
  if (s == CK_OK) s = run(ctx, pc, (double *)pk);
  if (s != CK_OK) {
    ck_array_free(idc);
    ck_array_free(idk);
  }
  gw_check(s);
  plhs[0] = gw_id_value(idc);
  if (witness) plhs[1] = gw_id_value(idk);
}

void gw_host_result(mxArray *plhs[], ck_dtype t, size_t rows, size_t cols, int witness,
                    gw_device_run *run, void *ctx) {
  const mwSize dims[2] = {(mwSize)rows, (mwSize)cols};
  mxArray *C = gw_create_array(2, dims, t);
  mxArray *K = witness
                   ? mxCreateUninitNumericMatrix((mwSize)rows, (mwSize)cols, mxDOUBLE_CLASS, mxREAL)
                   : NULL;
  ck_status s = run(ctx, mxGetData(C), K ? mxGetPr(K) : NULL);
  if (s != CK_OK) {
    mxDestroyArray(C);
    if (K) mxDestroyArray(K);
  }
  gw_check(s);
  plhs[0] = C;
  if (K) plhs[1] = K;
}
