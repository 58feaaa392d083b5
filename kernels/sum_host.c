/* Host side of the sum: kernel names, output classes, host-to-host calls, timing, and the copy
 * bandwidth the reductions are measured against. */
#include <stdlib.h>
#include <string.h>

#include "ck_internal.h"

static const char *const kernel_names[] = {"atomic",     "pairwise",   "interleaved",
                                           "strided",    "sequential", "twoload",
                                           "warpunroll", "shuffle",    "cub",
                                           "cpu"};
#define NUM_KERNELS (int)(sizeof kernel_names / sizeof kernel_names[0])

int ck_sum_kernel_id(const char *name) {
  for (int i = 0; i < NUM_KERNELS; i++)
    if (!strcmp(name, kernel_names[i])) return i;
  return -1;
}

const char *ck_sum_kernel_name(int id) {
  return id >= 0 && id < NUM_KERNELS ? kernel_names[id] : NULL;
}

ck_dtype ck_sum_out_dtype(ck_dtype in, ck_sum_mode mode) {
  if (mode == CK_SUM_MODE_DOUBLE) return CK_DOUBLE;
  if (in == CK_SINGLE) return CK_SINGLE;
  if (mode == CK_SUM_MODE_NATIVE) return in;
  return CK_DOUBLE;
}

static ck_status check_args(ck_dtype t, ck_sum_mode mode, int kernel) {
  if ((int)t < 0 || t >= CK_NUM_DTYPES) return ck_fail(CK_ERR_INVALID, "sum: unknown class");
  if (mode > CK_SUM_MODE_NATIVE) return ck_fail(CK_ERR_INVALID, "sum: unknown mode");
  if (kernel < 0 || kernel >= NUM_KERNELS)
    return ck_fail(CK_ERR_INVALID, "unknown sum kernel %d", kernel);
  return CK_OK;
}

/* Device copies of x and y, with x uploaded. */
static ck_status upload(ck_dtype t, ck_sum_mode mode, const void *x, size_t nx, size_t ny,
                        void **dx, void **dy) {
  CK_TRY(ck_dev_alloc(dx, nx * ck_dtype_size(t)));
  CK_TRY(ck_dev_alloc(dy, ny * ck_dtype_size(ck_sum_out_dtype(t, mode))));
  return ck_upload(*dx, x, nx * ck_dtype_size(t));
}

ck_status ck_sum(ck_dtype t, ck_sum_mode mode, int kernel, const void *x, void *y, size_t before,
                 size_t len, size_t after) {
  CK_TRY(check_args(t, mode, kernel));
  if (kernel == CK_SUM_CPU) return ck_sum_cpu(t, mode, x, y, before, len, after);
  CK_TRY(ck_device_init());
  size_t ny = before * after;
  if (ny == 0) return CK_OK;
  void *dx = NULL, *dy = NULL;
  ck_status s = upload(t, mode, x, before * len * after, ny, &dx, &dy);
  if (s == CK_OK) s = ck_sum_device(t, mode, kernel, dx, dy, before, len, after);
  if (s == CK_OK) s = ck_download(y, dy, ny * ck_dtype_size(ck_sum_out_dtype(t, mode)));
  ck_dev_free(dx);
  ck_dev_free(dy);
  return s;
}

typedef struct {
  ck_dtype t;
  ck_sum_mode mode;
  int kernel;
  const void *dx;
  void *dy;
  size_t before, len, after;
} sum_call;

static ck_status run_sum_call(void *ctx) {
  sum_call *c = ctx;
  return ck_sum_device(c->t, c->mode, c->kernel, c->dx, c->dy, c->before, c->len, c->after);
}

ck_status ck_sum_time(ck_dtype t, ck_sum_mode mode, int kernel, const void *x, void *y,
                      size_t before, size_t len, size_t after, int warmup, int reps,
                      double *times_ms) {
  CK_TRY(check_args(t, mode, kernel));
  if (kernel == CK_SUM_CPU) return ck_fail(CK_ERR_INVALID, "only GPU kernels can be timed");
  if (reps < 1 || warmup < 0) return ck_fail(CK_ERR_INVALID, "reps must be >= 1, warmup >= 0");
  CK_TRY(ck_device_init());
  size_t ny = before * after;
  if (ny == 0) return ck_fail(CK_ERR_INVALID, "nothing to time: the sum is empty");
  sum_call c = {t, mode, kernel, NULL, NULL, before, len, after};
  void *dx = NULL, *dy = NULL;
  ck_status s = upload(t, mode, x, before * len * after, ny, &dx, &dy);
  c.dx = dx;
  c.dy = dy;
  if (s == CK_OK) s = ck_time_events(run_sum_call, &c, warmup, reps, times_ms);
  if (s == CK_OK) s = ck_download(y, dy, ny * ck_dtype_size(ck_sum_out_dtype(t, mode)));
  ck_dev_free(dx);
  ck_dev_free(dy);
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
