/* Host side of the matrix multiply: kernel names, host-to-host calls, kernel-only timing. */
#include <limits.h>
#include <string.h>

#include "ck_internal.h"

static const char *const kernel_names[] = {"naive",      "tiled16",  "tiled32", "regblock",
                                           "vectorized", "warptile", "cublas"};

int ck_matmul_kernel_id(const char *name) {
  for (int i = 0; i < CK_MATMUL_NUM; i++)
    if (!strcmp(name, kernel_names[i])) return i;
  return -1;
}

const char *ck_matmul_kernel_name(int id) {
  return id >= 0 && id < CK_MATMUL_NUM ? kernel_names[id] : NULL;
}

static ck_status check_args(ck_dtype t, int kernel, size_t m, size_t k, size_t n) {
  if (!ck_dtype_is_float(t))
    return ck_fail(CK_ERR_INVALID, "matmul supports single and double, not %s", ck_dtype_name(t));
  if (kernel < 0 || kernel >= CK_MATMUL_NUM)
    return ck_fail(CK_ERR_INVALID, "unknown matmul kernel %d", kernel);
  /* the kernels and cuBLAS index with int; padding adds up to 127 */
  if (m > INT_MAX - 256 || k > INT_MAX - 256 || n > INT_MAX - 256)
    return ck_fail(CK_ERR_INVALID, "matmul: dimensions must be below 2^31 - 256");
  return CK_OK;
}

ck_status ck_matmul_device(ck_dtype t, int kernel, const void *dA, const void *dB, void *dC,
                           size_t m, size_t k, size_t n) {
  CK_TRY(check_args(t, kernel, m, k, n));
  if (kernel == CK_MATMUL_CUBLAS) {
    if (m == 0 || n == 0) return CK_OK;
    if (k == 0) {
      CK_CUDA(cudaMemset(dC, 0, m * n * ck_dtype_size(t)), "clearing the product");
      return CK_OK;
    }
    return ck_cublas_gemm(t, dA, dB, dC, (int)m, (int)k, (int)n);
  }
  return ck_matmul_custom_device(t, kernel, dA, dB, dC, (int)m, (int)k, (int)n);
}

ck_status ck_matmul(ck_dtype t, int kernel, const void *A, const void *B, void *C, size_t m,
                    size_t k, size_t n) {
  CK_TRY(check_args(t, kernel, m, k, n));
  CK_TRY(ck_device_init());
  return ck_host_product(ck_matmul_device, t, kernel, A, B, C, m, k, n);
}

ck_status ck_matmul_time(ck_dtype t, int kernel, size_t m, size_t k, size_t n, int warmup,
                         int reps, double *times_ms) {
  CK_TRY(check_args(t, kernel, m, k, n));
  return ck_time_product(ck_matmul_device, t, kernel, m, k, n, warmup, reps, times_ms);
}
