/* Host side of the sum: kernel names, output classes, host-to-host calls, timing, and the copy
 * bandwidth the reductions are measured against. */
#include <stdlib.h>
#include <string.h>

#include "ck_internal.h"

static const char *const kernel_names[] = {"atomic",     "pairwise", "interleaved", "strided",
                                           "sequential", "twoload",  "warpunroll",  "shuffle",
                                           "cub",        "cpu"};
#define NUM_KERNELS (int)(sizeof kernel_names / sizeof kernel_names[0])

int ck_sum_kernel_id(const char *name) {
  for (int i = 0; i < NUM_KERNELS; i++)
    if (!strcmp(name, kernel_names[i])) return i;
  return -1;
}

const char *ck_sum_kernel_name(int id) {
  return id >= 0 && id < NUM_KERNELS ? kernel_names[id] : NULL;
}

static ck_status check_args(const ck_sum_args *a) {
  if ((int)a->t < 0 || a->t >= CK_NUM_DTYPES) return ck_fail(CK_ERR_INVALID, "sum: unknown class");
  if (a->t == CK_LOGICAL) /* Octave sums logical as double: the caller converts it first */
    return ck_fail(CK_ERR_INVALID, "sum: logical is summed as double; convert it first");
  if (a->mode > CK_SUM_MODE_NATIVE) return ck_fail(CK_ERR_INVALID, "sum: unknown mode");
  if (a->kernel < 0 || a->kernel >= NUM_KERNELS)
    return ck_fail(CK_ERR_INVALID, "unknown sum kernel %d", a->kernel);
  return CK_OK;
}

static size_t out_bytes(const ck_sum_args *a) {
  return a->before * a->after * ck_dtype_size(ck_sum_out_dtype(a->t, a->mode));
}

/* d: a with device copies of x (uploaded) and y. */
static ck_status upload(const ck_sum_args *a, ck_sum_args *d) {
  const size_t in_bytes = a->before * a->len * a->after * ck_dtype_size(a->t);
  void *dx = NULL;
  *d = *a;
  d->x = NULL;
  d->y = NULL;
  CK_TRY(ck_dev_alloc(&dx, in_bytes));
  d->x = dx;
  CK_TRY(ck_dev_alloc(&d->y, out_bytes(a)));
  return ck_upload(dx, a->x, in_bytes);
}

static void free_device(ck_sum_args *d) {
  ck_dev_free((void *)d->x);
  ck_dev_free(d->y);
}

ck_status ck_sum(const ck_sum_args *a) {
  CK_TRY(check_args(a));
  if (a->kernel == CK_SUM_CPU) return ck_sum_cpu(a);
  CK_TRY(ck_device_init());
  if (a->before * a->after == 0) return CK_OK;
  ck_sum_args d;
  ck_status s = upload(a, &d);
  if (s == CK_OK) s = ck_sum_device(&d);
  if (s == CK_OK) s = ck_download(a->y, d.y, out_bytes(a));
  free_device(&d);
  return s;
}

static ck_status run_sum_call(void *ctx) { return ck_sum_device((const ck_sum_args *)ctx); }

ck_status ck_sum_time(const ck_sum_args *a, const ck_timing *tm) {
  CK_TRY(check_args(a));
  if (a->kernel == CK_SUM_CPU) return ck_fail(CK_ERR_INVALID, "only GPU kernels can be timed");
  if (tm->reps < 1 || tm->warmup < 0)
    return ck_fail(CK_ERR_INVALID, "reps must be >= 1, warmup >= 0");
  CK_TRY(ck_device_init());
  if (a->before * a->after == 0)
    return ck_fail(CK_ERR_INVALID, "nothing to time: the sum is empty");
  ck_sum_args d;
  ck_status s = upload(a, &d);
  if (s == CK_OK) s = ck_time_events(run_sum_call, &d, tm->warmup, tm->reps, tm->times_ms);
  if (s == CK_OK) s = ck_download(a->y, d.y, out_bytes(a));
  free_device(&d);
  return s;
}

typedef struct {
  void *dst;
  const void *src;
  size_t bytes;
} copy_call;

static ck_status run_copy(void *ctx) {
  copy_call *c = ctx;
  CK_CUDA(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice, 0),
          "copying on the device");
  return CK_OK;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

ck_status ck_copy_bandwidth(size_t bytes, int reps, double *bytes_per_second) {
  if (reps < 1 || reps > 1000 || bytes == 0)
    return ck_fail(CK_ERR_INVALID, "copy bandwidth: bytes > 0 and 1 <= reps <= 1000");
  CK_TRY(ck_device_init());
  double times[1000];
  copy_call c = {NULL, NULL, bytes};
  void *src = NULL;
  ck_status s = ck_dev_alloc(&src, bytes);
  if (s == CK_OK) s = ck_dev_alloc(&c.dst, bytes);
  c.src = src;
  if (s == CK_OK) s = ck_fill_random_device(CK_SINGLE, src, bytes / sizeof(float), 3);
  if (s == CK_OK) s = ck_time_events(run_copy, &c, 2, reps, times);
  ck_dev_free(src);
  ck_dev_free(c.dst);
  CK_TRY(s);
  qsort(times, (size_t)reps, sizeof times[0], cmp_double);
  *bytes_per_second = 2.0 * (double)bytes / (times[reps / 2] * 1e-3);
  return CK_OK;
}
