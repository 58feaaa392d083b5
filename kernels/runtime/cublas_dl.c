/* cuBLAS, found at run time. Linking it would make the package unloadable wherever the library is
 * missing, and would tie the build to one CUDA major version. Only the few entry points used here
 * are declared; their C ABI has been stable since the _v2 API (CUDA 4). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ck_internal.h"

typedef void *cublas_handle;
typedef int cublas_status; /* CUBLAS_STATUS_SUCCESS == 0 */
enum { CUBLAS_OP_N = 0 };

typedef cublas_status create_fn(cublas_handle *);
typedef cublas_status destroy_fn(cublas_handle);
typedef cublas_status sgemm_fn(cublas_handle, int, int, int, int, int, const float *, const float *,
                               int, const float *, int, const float *, float *, int);
typedef cublas_status dgemm_fn(cublas_handle, int, int, int, int, int, const double *,
                               const double *, int, const double *, int, const double *, double *,
                               int);
typedef cublas_status sgemm_pages_fn(cublas_handle, int, int, int, int, int, const float *,
                                     const float *, int, long long, const float *, int, long long,
                                     const float *, float *, int, long long, int);
typedef cublas_status dgemm_pages_fn(cublas_handle, int, int, int, int, int, const double *,
                                     const double *, int, long long, const double *, int, long long,
                                     const double *, double *, int, long long, int);

/* One handle per device and lane (a handle is bound to the device current when it is made, and
 * two threads using one handle at once broke it: status 14 with two workers on one device); the
 * workers of a product spread over several devices make theirs at once, hence the lock. */
static pthread_mutex_t cublas_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
  int tried;
  void *lib;
  char path[512];
  create_fn *create;
  cublas_handle handle[CK_MAX_DEVICES][CK_LANES];
  sgemm_fn *sgemm;
  dgemm_fn *dgemm;
  sgemm_pages_fn *sgemm_pages; /* strided batched (CUDA 8 on); NULL: page by page */
  dgemm_pages_fn *dgemm_pages;
  destroy_fn *destroy;
} cublas;

/* The handle holds about 64 MB of device workspace; give it back when the process ends. atexit
 * handlers run in reverse order, and this one is registered after the CUDA runtime's own, so the
 * runtime is still up when it runs. */
static int atexit_registered = 0;

void ck_cublas_release(void) {
  pthread_mutex_lock(&cublas_lock);
  const int back = ck_device_current();
  for (int d = 0; d < CK_MAX_DEVICES; d++)
    for (int l = 0; l < CK_LANES; l++) {
      cublas_handle *h = &cublas.handle[d][l];
      if (!*h) continue;
      if (cublas.destroy && cudaSetDevice(d) == cudaSuccess) cublas.destroy(*h);
      *h = NULL;
    }
  if (cudaSetDevice(back) != cudaSuccess) (void)cudaGetLastError();
  pthread_mutex_unlock(&cublas_lock);
}

static void *open_first(const char *const *names) {
  for (int i = 0; names[i]; i++) {
    void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (h) {
      snprintf(cublas.path, sizeof cublas.path, "%s", names[i]);
      return h;
    }
  }
  return NULL;
}

/* Load the library and its entry points once (a missing library is reported as it was the first
 * time); the lock is held. */
static ck_status open_locked(void) {
  if (cublas.create) return CK_OK;
  if (cublas.tried && !cublas.lib)
    return ck_fail(CK_ERR_NODEVICE, "cuBLAS is not available: %s", cublas.path);
  cublas.tried = 1;
  const char *env = getenv("CUDAKERNELS_CUBLAS");
  const char *const user[] = {env, NULL};
  const char *const names[] = {"libcublas.so.13",
                               "libcublas.so.12",
                               "/usr/local/cuda/lib64/libcublas.so.13",
                               "/usr/local/cuda/lib64/libcublas.so.12",
                               "libcublas.so",
                               NULL};
  if (!cublas.lib) cublas.lib = env && *env ? open_first(user) : open_first(names);
  if (!cublas.lib) {
    snprintf(cublas.path, sizeof cublas.path,
             "libcublas.so.13/.12 not found (set CUDAKERNELS_CUBLAS to its path)");
    return ck_fail(CK_ERR_NODEVICE, "cuBLAS is not available: %s", cublas.path);
  }
  create_fn *create = (create_fn *)dlsym(cublas.lib, "cublasCreate_v2");
  cublas.sgemm = (sgemm_fn *)dlsym(cublas.lib, "cublasSgemm_v2");
  cublas.dgemm = (dgemm_fn *)dlsym(cublas.lib, "cublasDgemm_v2");
  cublas.sgemm_pages = (sgemm_pages_fn *)dlsym(cublas.lib, "cublasSgemmStridedBatched");
  cublas.dgemm_pages = (dgemm_pages_fn *)dlsym(cublas.lib, "cublasDgemmStridedBatched");
  cublas.destroy = (destroy_fn *)dlsym(cublas.lib, "cublasDestroy_v2");
  if (!create || !cublas.sgemm || !cublas.dgemm || !cublas.destroy)
    return ck_fail(CK_ERR_NODEVICE,
                   "cuBLAS is not available: %s lacks cublasCreate, gemm or destroy", cublas.path);
  cublas.create = create;
  if (!atexit_registered) atexit(ck_cublas_release);
  atexit_registered = 1;
  return CK_OK;
}

/* This thread's lane's handle on the current device, made on first use; the lock is held. */
static ck_status load_locked(cublas_handle *h) {
  const int dev = ck_device_current();
  if (dev < 0 || dev >= CK_MAX_DEVICES) return ck_fail(CK_ERR_NODEVICE, "no device for cuBLAS");
  cublas_handle *mine = &cublas.handle[dev][ck_lane_slot()];
  if (!*mine) {
    CK_TRY(ck_device_init());
    CK_TRY(open_locked());
    cublas_status st = cublas.create(mine);
    if (st != 0) {
      *mine = NULL;
      return ck_fail(CK_ERR_NODEVICE,
                     "cuBLAS is not available: %s: cublasCreate failed (status %d)", cublas.path,
                     st);
    }
  }
  *h = *mine;
  return CK_OK;
}

static ck_status load_cublas(cublas_handle *h) {
  pthread_mutex_lock(&cublas_lock);
  ck_status s = load_locked(h);
  pthread_mutex_unlock(&cublas_lock);
  return s;
}

int ck_cublas_available(void) {
  cublas_handle h;
  return load_cublas(&h) == CK_OK;
}

const char *ck_cublas_library(void) { return cublas.create ? cublas.path : ""; }

/* Column-major C = A * B: exactly cuBLAS's own convention, default math mode (FP32 stays FP32).
 * The call (which only queues the work) holds the lock: two threads calling gemm at once on one
 * device, even with handles of their own, failed with status 14 (CUBLAS_STATUS_INTERNAL_ERROR). */
ck_status ck_cublas_gemm(ck_dtype t, const void *A, const void *B, void *C, int m, int k, int n) {
  cublas_handle h;
  CK_TRY(load_cublas(&h));
  cublas_status st;
  int lda = m > 0 ? m : 1, ldb = k > 0 ? k : 1, ldc = m > 0 ? m : 1;
  if (t == CK_SINGLE) {
    const float one = 1, zero = 0;
    pthread_mutex_lock(&cublas_lock);
    st = cublas.sgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A, lda, B, ldb, &zero, C, ldc);
  } else {
    const double one = 1, zero = 0;
    pthread_mutex_lock(&cublas_lock);
    st = cublas.dgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A, lda, B, ldb, &zero, C, ldc);
  }
  pthread_mutex_unlock(&cublas_lock);
  if (st != 0) return ck_fail(CK_ERR_CUDA, "cuBLAS gemm failed with status %d", st);
  return CK_OK;
}

ck_status ck_cublas_gemm_pages(ck_dtype t, const void *A, size_t stride_a, const void *B,
                               size_t stride_b, void *C, int m, int k, int n, size_t count) {
  cublas_handle h;
  CK_TRY(load_cublas(&h));
  int lda = m > 0 ? m : 1, ldb = k > 0 ? k : 1, ldc = m > 0 ? m : 1;
  const size_t es = ck_dtype_size(t), stride_c = (size_t)m * n, most = INT_MAX;
  for (size_t q = 0; q < count; q += most) { /* batchCount is an int */
    const int pages = (int)(count - q < most ? count - q : most);
    const char *a = (const char *)A + q * stride_a * es, *b = (const char *)B + q * stride_b * es;
    char *c = (char *)C + q * stride_c * es;
    cublas_status st;
    if (t == CK_SINGLE && cublas.sgemm_pages) {
      const float one = 1, zero = 0;
      st = cublas.sgemm_pages(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, (const float *)a, lda,
                              (long long)stride_a, (const float *)b, ldb, (long long)stride_b,
                              &zero, (float *)c, ldc, (long long)stride_c, pages);
    } else if (t == CK_DOUBLE && cublas.dgemm_pages) {
      const double one = 1, zero = 0;
      st = cublas.dgemm_pages(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, (const double *)a, lda,
                              (long long)stride_a, (const double *)b, ldb, (long long)stride_b,
                              &zero, (double *)c, ldc, (long long)stride_c, pages);
    } else {
      return ck_fail(CK_ERR_NODEVICE, "cuBLAS has no strided batched gemm: %s", cublas.path);
    }
    if (st != 0)
      return ck_fail(CK_ERR_CUDA, "cuBLAS strided batched gemm failed with status %d", st);
  }
  return CK_OK;
}
