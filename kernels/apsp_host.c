/* Host side of all-pairs shortest paths: host arrays through the device call, and its timing. */
#include <stdlib.h>

#include "ck_internal.h"

static ck_status check_class(ck_dtype t) {
  if ((int)t >= 0 && t < CK_INT64) return CK_OK;
  return ck_fail(CK_ERR_INVALID,
                 "shortest paths take double, single and integers up to 32 bits, not %s",
                 ck_dtype_name(t));
}

/* W is uploaded into the device D, where the device call converts it in place when the work
 * type allows (single, double and nonnegative int32 or int16 at n a multiple of the pivot
 * block): then the device holds only D and P. */
ck_status ck_apsp(ck_apsp_args *a) {
  CK_TRY(check_class(a->t));
  if (a->kernel == CK_APSP_CPU) return ck_apsp_cpu(a);
  if (a->kernel != CK_APSP_GPU) return ck_fail(CK_ERR_INVALID, "unknown shortest-path kernel %d", a->kernel);
  CK_TRY(ck_device_init());
  const size_t n = a->n, bytes = n * n * ck_dtype_size(a->t);
  if (n == 0) return CK_OK;
  void *dD = NULL;
  int32_t *dP = NULL;
  ck_status s = ck_dev_alloc(&dD, bytes);
  if (s == CK_OK && a->P) s = ck_dev_alloc((void **)&dP, n * n * sizeof(int32_t));
  if (s == CK_OK) s = ck_upload(dD, a->W, bytes);
  if (s == CK_OK) {
    ck_apsp_args d = *a;
    d.W = dD;
    d.D = dD;
    d.P = dP;
    s = ck_apsp_device(&d);
    a->cycle_vertex = d.cycle_vertex;
  }
  if (s == CK_OK) s = ck_download(a->D, dD, bytes);
  if (s == CK_OK && a->P) s = ck_download(a->P, dP, n * n * sizeof(int32_t));
  ck_dev_free(dD);
  ck_dev_free(dP);
  return s;
}

typedef struct {
  ck_apsp_args a;
} timed_apsp;

static ck_status run_apsp(void *ctx) { return ck_apsp_device(&((timed_apsp *)ctx)->a); }

ck_status ck_apsp_time(ck_dtype t, size_t n, int paths, const ck_timing *tm) {
  CK_TRY(check_class(t));
  CK_TRY(ck_device_init());
  if (n == 0) return ck_fail(CK_ERR_INVALID, "nothing to time: n is 0");
  const size_t bytes = n * n * ck_dtype_size(t);
  void *dW = NULL, *dD = NULL;
  int32_t *dP = NULL;
  ck_status s = ck_dev_alloc(&dW, bytes);
  if (s == CK_OK) s = ck_dev_alloc(&dD, bytes);
  if (s == CK_OK && paths) s = ck_dev_alloc((void **)&dP, n * n * sizeof(int32_t));
  if (s == CK_OK) s = ck_fill_random_device(t, dW, n * n, 12345u);
  if (s == CK_OK) {
    timed_apsp c = {{t, CK_APSP_GPU, dW, dD, dP, n, NULL, NULL, NULL, 0}};
    s = ck_time_events(run_apsp, &c, tm->warmup, tm->reps, tm->times_ms);
  }
  ck_dev_free(dW);
  ck_dev_free(dD);
  ck_dev_free(dP);
  return s;
}
