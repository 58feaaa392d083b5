/* The gateway's transitive closure: "closure", WHERE, G, REFLEXIVE -> R, on the GPU (closure.h);
 * gpu_closure.m keeps its cpu kernel in Octave. Ctrl-C as gw_apsp.c's. */
#include <math.h>
#include <string.h>

#include "closure.h"
#include "gateway.h"

/* Host G (logical, n-by-n): uploaded, closed in place on the device, downloaded into R. */
static void host_call(mxArray *plhs[], const mxArray *G, ck_closure_args *a) {
  const size_t n = a->n;
  mxArray *R = mxCreateLogicalMatrix((mwSize)n, (mwSize)n);
  void *d = NULL;
  ck_status s = ck_dev_alloc(&d, n * n);
  if (s == CK_OK) s = ck_upload(d, mxGetData(G), n * n);
  if (s == CK_OK) {
    a->G = d;
    a->R = d;
    s = ck_closure_device(a);
  }
  if (s == CK_OK) s = ck_download(mxGetData(R), d, n * n);
  ck_dev_free(d);
  if (s != CK_OK) mxDestroyArray(R);
  gw_check(s);
  plhs[0] = R;
}

/* Device G (the id of a logical n*n gpu_array): the id of R, on G's device. */
static void device_call(mxArray *plhs[], const void *g, ck_closure_args *a) {
  const size_t n = a->n;
  ck_array_id id = 0;
  void *r = NULL;
  gw_check(ck_array_create(CK_LOGICAL, n * n, &id, &r));
  a->G = g;
  a->R = r;
  const ck_status s = ck_closure_device(a);
  if (s != CK_OK) ck_array_free(id);
  gw_check(s);
  plhs[0] = gw_id_value(id);
}

/* "closure", WHERE, G, REFLEXIVE -> R: G a square logical host matrix, or (WHERE "device") the id
 * of a logical n*n gpu_array, whose R is a gpu_array too. */
void cmd_closure(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)nrhs;
  const ck_where where = gw_where(prhs[0]);
  ck_closure_args a;
  memset(&a, 0, sizeof a);
  a.reflexive = gw_scalar(prhs[2], "REFLEXIVE") != 0;
  a.path = CK_CLOSURE_AUTO;
  a.cancelled = gw_interrupted;
  size_t n;
  if (where == CK_ON_HOST) {
    if (!mxIsLogical(prhs[1]) || mxIsSparse(prhs[1]) || mxGetNumberOfDimensions(prhs[1]) != 2)
      gw_fail_invalid("G must be a full logical matrix");
    n = mxGetM(prhs[1]);
    if (mxGetN(prhs[1]) != n) gw_fail_invalid("G must be square");
    a.n = n;
    host_call(plhs, prhs[1], &a);
  } else {
    ck_dtype t;
    size_t numel = 0;
    void *g = NULL;
    gw_check(ck_array_lookup(gw_id(prhs[1], "G (an id)"), &t, &numel, &g));
    if (t != CK_LOGICAL) gw_fail_invalid("G must be a logical gpu_array");
    n = (size_t)sqrt((double)numel);
    while (n * n > numel) n--;
    while ((n + 1) * (n + 1) <= numel) n++;
    if (n * n != numel) gw_fail_invalid("G must be a square n-by-n array");
    a.n = n;
    device_call(plhs, g, &a);
  }
}
