/* Host side of the min-plus product: kernel names, host-to-host calls, kernel-only timing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ck_internal.h"

static const char *const kernel_names[] = {"naive", "coalesced", "regblock", "cpu"};
static const char *const kernel_aliases[] = {"v0", "v1", "v2", NULL};
#define NUM_KERNELS (int)(sizeof kernel_names / sizeof kernel_names[0])

int ck_minplus_kernel_id(const char *name) {
  for (int i = 0; i < NUM_KERNELS; i++)
    if (!strcmp(name, kernel_names[i]) || (kernel_aliases[i] && !strcmp(name, kernel_aliases[i])))
      return i;
  return -1;
}

const char *ck_minplus_kernel_name(int id) {
  return id >= 0 && id < NUM_KERNELS ? kernel_names[id] : NULL;
}

static int is_gpu_kernel(int kernel) { return kernel >= 0 && kernel < CK_MINPLUS_NUM_GPU; }

static ck_status check_class(ck_dtype t) {
  if (ck_dtype_is_float(t)) return CK_OK;
  return ck_fail(CK_ERR_INVALID, "min-plus supports single and double, not %s", ck_dtype_name(t));
}

ck_status ck_minplus(ck_dtype t, int kernel, const void *A, const void *B, void *C, size_t m,
                     size_t k, size_t n) {
  CK_TRY(check_class(t));
  if (kernel == CK_MINPLUS_CPU) {
    ck_minplus_cpu(t, A, B, C, m, k, n);
    return CK_OK;
  }
  if (!is_gpu_kernel(kernel)) return ck_fail(CK_ERR_INVALID, "unknown min-plus kernel %d", kernel);
  CK_TRY(ck_device_init());
  return ck_host_product(ck_minplus_device, t, kernel, A, B, C, m, k, n);
}

typedef struct {
  ck_dtype t;
  int kernel;
  const void *dA, *dB;
  void *dC;
  size_t m, k, n;
} minplus_call;

static ck_status run_minplus_call(void *ctx) {
  minplus_call *c = ctx;
  return ck_minplus_device(c->t, c->kernel, c->dA, c->dB, c->dC, c->m, c->k, c->n);
}

ck_status ck_minplus_time(ck_dtype t, int kernel, size_t m, size_t k, size_t n, int warmup,
                          int reps, double *times_ms) {
  CK_TRY(check_class(t));
  if (!is_gpu_kernel(kernel)) return ck_fail(CK_ERR_INVALID, "only GPU kernels can be timed");
  if (reps < 1 || warmup < 0) return ck_fail(CK_ERR_INVALID, "reps must be >= 1, warmup >= 0");
  CK_TRY(ck_device_init());
  size_t es = ck_dtype_size(t);
  void *dA = NULL, *dB = NULL, *dC = NULL;
  ck_status s;
  if ((s = ck_dev_alloc(&dA, m * k * es)) != CK_OK) goto done;
  if ((s = ck_dev_alloc(&dB, k * n * es)) != CK_OK) goto done;
  if ((s = ck_dev_alloc(&dC, m * n * es)) != CK_OK) goto done;
  if ((s = ck_fill_random_device(t, dA, m * k, 1)) != CK_OK) goto done;
  if ((s = ck_fill_random_device(t, dB, k * n, 2)) != CK_OK) goto done;
  minplus_call c = {t, kernel, dA, dB, dC, m, k, n};
  s = ck_time_events(run_minplus_call, &c, warmup, reps, times_ms);
done:
  ck_dev_free(dA);
  ck_dev_free(dB);
  ck_dev_free(dC);
  return s;
}
