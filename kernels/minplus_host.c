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
  if (m == 0 || n == 0) return CK_OK;
  size_t es = ck_dtype_size(t);
  void *dA = NULL, *dB = NULL, *dC = NULL;
  ck_status s;
  if ((s = ck_dev_alloc(&dA, m * k * es)) != CK_OK) goto done;
  if ((s = ck_dev_alloc(&dB, k * n * es)) != CK_OK) goto done;
  if ((s = ck_dev_alloc(&dC, m * n * es)) != CK_OK) goto done;
  cudaError_t e;
  if ((e = cudaMemcpy(dA, A, m * k * es, cudaMemcpyHostToDevice)) != cudaSuccess ||
      (e = cudaMemcpy(dB, B, k * n * es, cudaMemcpyHostToDevice)) != cudaSuccess) {
    s = ck_cuda_status(e, "copying the inputs to the device");
    goto done;
  }
  if ((s = ck_minplus_device(t, kernel, dA, dB, dC, m, k, n)) != CK_OK) goto done;
  if ((e = cudaMemcpy(C, dC, m * n * es, cudaMemcpyDeviceToHost)) != cudaSuccess)
    s = ck_cuda_status(e, "running the min-plus kernel and copying its result back");
done:
  ck_dev_free(dA);
  ck_dev_free(dB);
  ck_dev_free(dC);
  return s;
}

static ck_status time_runs(ck_dtype t, int kernel, const void *dA, const void *dB, void *dC,
                           size_t m, size_t k, size_t n, int warmup, int reps, double *times_ms) {
  cudaEvent_t start = NULL, stop = NULL;
  ck_status s = CK_OK;
  cudaError_t e = cudaSuccess;
  if ((e = cudaEventCreate(&start)) != cudaSuccess || (e = cudaEventCreate(&stop)) != cudaSuccess) {
    s = ck_cuda_status(e, "creating timing events");
    goto done;
  }
  for (int r = 0; r < warmup + reps && s == CK_OK; r++) {
    float ms = 0;
    if ((e = cudaEventRecord(start, 0)) != cudaSuccess) break;
    if ((s = ck_minplus_device(t, kernel, dA, dB, dC, m, k, n)) != CK_OK) break;
    if ((e = cudaEventRecord(stop, 0)) != cudaSuccess ||
        (e = cudaEventSynchronize(stop)) != cudaSuccess ||
        (e = cudaEventElapsedTime(&ms, start, stop)) != cudaSuccess)
      break;
    if (r >= warmup) times_ms[r - warmup] = ms;
  }
  if (s == CK_OK && e != cudaSuccess) s = ck_cuda_status(e, "timing the min-plus kernel");
done:
  if (start) cudaEventDestroy(start);
  if (stop) cudaEventDestroy(stop);
  return s;
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
  s = time_runs(t, kernel, dA, dB, dC, m, k, n, warmup, reps, times_ms);
done:
  ck_dev_free(dA);
  ck_dev_free(dB);
  ck_dev_free(dC);
  return s;
}
