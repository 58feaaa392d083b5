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
  if ((int)t >= 0 && t < CK_INT64) return CK_OK;
  return ck_fail(CK_ERR_INVALID,
                 "min-plus supports double, single and integers up to 32 bits, not %s",
                 ck_dtype_name(t));
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

ck_status ck_minplus_arg(ck_dtype t, int kernel, const void *A, const void *B, void *C, double *K,
                         size_t m, size_t k, size_t n) {
  CK_TRY(check_class(t));
  if (kernel == CK_MINPLUS_CPU) {
    ck_minplus_arg_cpu(t, A, B, C, K, m, k, n);
    return CK_OK;
  }
  if (!is_gpu_kernel(kernel)) return ck_fail(CK_ERR_INVALID, "unknown min-plus kernel %d", kernel);
  CK_TRY(ck_device_init());
  if (m == 0 || n == 0) return CK_OK;
  size_t es = ck_dtype_size(t);
  void *dA = NULL, *dB = NULL, *dC = NULL, *dK = NULL;
  ck_status s;
  if ((s = ck_dev_alloc(&dA, m * k * es)) == CK_OK && (s = ck_dev_alloc(&dB, k * n * es)) == CK_OK &&
      (s = ck_dev_alloc(&dC, m * n * es)) == CK_OK &&
      (s = ck_dev_alloc(&dK, m * n * sizeof(double))) == CK_OK &&
      (s = ck_upload(dA, A, m * k * es)) == CK_OK && (s = ck_upload(dB, B, k * n * es)) == CK_OK &&
      (s = ck_minplus_arg_device(t, kernel, dA, dB, dC, dK, m, k, n)) == CK_OK &&
      (s = ck_download(C, dC, m * n * es)) == CK_OK)
    s = ck_download(K, dK, m * n * sizeof(double));
  ck_dev_free(dA);
  ck_dev_free(dB);
  ck_dev_free(dC);
  ck_dev_free(dK);
  return s;
}

/* The product with its witness, the witness in scratch: what ck_minplus_arg_time times. */
static ck_status arg_with_scratch(ck_dtype t, int kernel, const void *dA, const void *dB, void *dC,
                                  size_t m, size_t k, size_t n) {
  void *dK = NULL;
  CK_TRY(ck_dev_alloc(&dK, (m * n > 0 ? m * n : 1) * sizeof(double)));
  ck_status s = ck_minplus_arg_device(t, kernel, dA, dB, dC, dK, m, k, n);
  ck_dev_free(dK);
  return s;
}

ck_status ck_minplus_arg_time(ck_dtype t, int kernel, size_t m, size_t k, size_t n, int warmup,
                              int reps, double *times_ms) {
  CK_TRY(check_class(t));
  if (!is_gpu_kernel(kernel)) return ck_fail(CK_ERR_INVALID, "only GPU kernels can be timed");
  return ck_time_product(arg_with_scratch, t, kernel, m, k, n, warmup, reps, times_ms);
}

ck_status ck_minplus_time(ck_dtype t, int kernel, size_t m, size_t k, size_t n, int warmup,
                          int reps, double *times_ms) {
  CK_TRY(check_class(t));
  if (!is_gpu_kernel(kernel)) return ck_fail(CK_ERR_INVALID, "only GPU kernels can be timed");
  return ck_time_product(ck_minplus_device, t, kernel, m, k, n, warmup, reps, times_ms);
}
