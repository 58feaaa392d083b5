/* Device selection, device information, error detail and the tracked device allocator. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ck_internal.h"

static _Thread_local char last_error[512] = "no error";
static int device_ready = 0;

/* Forget the device so that the next ck_device_init selects it afresh (after cudaDeviceReset). */
void ck_device_forget(void) { device_ready = 0; }

static const struct {
  const char *name;
  size_t size;
} dtypes[CK_NUM_DTYPES] = {{"double", 8}, {"single", 4}, {"int8", 1},  {"uint8", 1},
                           {"int16", 2},  {"uint16", 2}, {"int32", 4}, {"uint32", 4},
                           {"int64", 8},  {"uint64", 8}};

static int valid_dtype(ck_dtype t) { return (int)t >= 0 && t < CK_NUM_DTYPES; }

size_t ck_dtype_size(ck_dtype t) { return valid_dtype(t) ? dtypes[t].size : 0; }

const char *ck_dtype_name(ck_dtype t) { return valid_dtype(t) ? dtypes[t].name : "?"; }

int ck_dtype_from_name(const char *name) {
  for (int i = 0; i < CK_NUM_DTYPES; i++)
    if (!strcmp(name, dtypes[i].name)) return i;
  return -1;
}

int ck_dtype_is_float(ck_dtype t) { return t == CK_DOUBLE || t == CK_SINGLE; }

const char *ck_last_error(void) { return last_error; }

ck_status ck_fail(ck_status s, const char *fmt, ...) {
  char msg[sizeof last_error]; /* the arguments may point into last_error itself */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  memcpy(last_error, msg, sizeof msg);
  return s;
}

ck_status ck_cuda_status(cudaError_t e, const char *what) {
  ck_status s = CK_ERR_CUDA;
  if (e == cudaErrorMemoryAllocation)
    s = CK_ERR_OUTOFMEMORY;
  else if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ||
           e == cudaErrorInitializationError || e == cudaErrorDevicesUnavailable ||
           e == cudaErrorSystemDriverMismatch || e == cudaErrorCompatNotSupportedOnDevice ||
           e == cudaErrorNoKernelImageForDevice || e == cudaErrorUnsupportedPtxVersion)
    s = CK_ERR_NODEVICE;
  /* Clear a non-sticky error so the next call does not trip over it. */
  (void)cudaGetLastError();
  return ck_fail(s, "%s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
}

ck_status ck_cuda_check(cudaError_t e, const char *what) {
  return e == cudaSuccess ? CK_OK : ck_cuda_status(e, what);
}

ck_status ck_device_init(void) {
  if (device_ready) return CK_OK;
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    ck_cuda_status(e, "looking for a CUDA device");
    return CK_ERR_NODEVICE; /* whatever the cause, there is no device to use */
  }
  if (count == 0) return ck_fail(CK_ERR_NODEVICE, "no CUDA device found");
  CK_CUDA(cudaSetDevice(0), "selecting device 0");
  /* Creating the context here keeps its cost out of the first timed call. */
  CK_CUDA(cudaFree(NULL), "creating the CUDA context");
  device_ready = 1;
  return CK_OK;
}

int ck_device_available(void) { return ck_device_init() == CK_OK; }

ck_status ck_device_query(ck_device_info *info) {
  CK_TRY(ck_device_init());
  struct cudaDeviceProp p;
  memset(info, 0, sizeof *info);
  CK_CUDA(cudaGetDevice(&info->device), "querying the device");
  CK_CUDA(cudaGetDeviceProperties(&p, info->device), "querying device properties");
  snprintf(info->name, sizeof info->name, "%s", p.name);
  info->major = p.major;
  info->minor = p.minor;
  info->multiprocessors = p.multiProcessorCount;
  info->l2_bytes = (size_t)p.l2CacheSize;
  int khz = 0;
  CK_CUDA(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, info->device), "querying the clock");
  info->clock_mhz = khz / 1000;
  ck_dev_trim(); /* report cached pool blocks as free: they are, to any other user */
  CK_CUDA(cudaMemGetInfo(&info->free_bytes, &info->total_bytes), "querying device memory");
  CK_CUDA(cudaDriverGetVersion(&info->driver_version), "querying the driver version");
  CK_CUDA(cudaRuntimeGetVersion(&info->runtime_version), "querying the runtime version");
  return CK_OK;
}

ck_status ck_device_sync(void) {
  CK_TRY(ck_device_init());
  CK_CUDA(cudaDeviceSynchronize(), "waiting for the device");
  return CK_OK;
}

/* ---- tracked allocator: a small table of live allocations ---- */
typedef struct {
  void *p;
  size_t bytes;
} allocation;

static allocation *live = NULL;
static size_t live_count = 0, live_cap = 0, bytes_in_use = 0, byte_limit = 0;

static int remember(void *p, size_t bytes) {
  if (live_count == live_cap) {
    size_t cap = live_cap ? 2 * live_cap : 64;
    allocation *grown = realloc(live, cap * sizeof *grown);
    if (!grown) return 0;
    live = grown;
    live_cap = cap;
  }
  live[live_count].p = p;
  live[live_count].bytes = bytes;
  live_count++;
  bytes_in_use += bytes;
  return 1;
}

/* Device memory comes from the stream-ordered pool, which keeps freed blocks for reuse: a chain
 * of calls that each allocate and free the same sizes (device-resident loops) then costs no
 * cudaMalloc/cudaFree, and cudaFree's implicit device-wide synchronization is gone. When an
 * allocation fails, the pool's cached blocks are returned to the device and it is tried again. */
static cudaMemPool_t pool = NULL;

static cudaError_t pool_alloc(void **p, size_t bytes) {
  if (!pool) {
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetDefaultMemPool(&pool, dev);
    if (e != cudaSuccess) {
      pool = NULL;
      (void)cudaGetLastError();
      return cudaMalloc(p, bytes); /* no pool support: plain allocations */
    }
    uint64_t keep = UINT64_MAX;
    cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
  }
  cudaError_t e = cudaMallocAsync(p, bytes, 0);
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    ck_dev_trim();
    e = cudaMallocAsync(p, bytes, 0);
  }
  return e;
}

void ck_dev_trim(void) {
  if (!pool) return;
  cudaDeviceSynchronize();
  cudaMemPoolTrimTo(pool, 0);
}

ck_status ck_dev_alloc(void **p, size_t bytes) {
  *p = NULL;
  CK_TRY(ck_device_init());
  if (bytes == 0) bytes = 1; /* keep every pointer distinct and freeable */
  if (byte_limit && bytes_in_use + bytes > byte_limit)
    return ck_fail(CK_ERR_OUTOFMEMORY,
                   "allocating %zu bytes on the device: over the test limit of %zu bytes", bytes,
                   byte_limit);
  CK_CUDA(pool_alloc(p, bytes), "allocating device memory");
  if (!remember(*p, bytes)) {
    cudaFreeAsync(*p, 0);
    *p = NULL;
    return ck_fail(CK_ERR_OUTOFMEMORY, "out of host memory tracking a device allocation");
  }
  return CK_OK;
}

void ck_dev_free(void *p) {
  if (!p) return;
  for (size_t i = 0; i < live_count; i++) {
    if (live[i].p == p) {
      bytes_in_use -= live[i].bytes;
      live[i] = live[--live_count];
      break;
    }
  }
  /* Stream-ordered: the block returns to the pool after the work queued before it. */
  if (pool)
    cudaFreeAsync(p, 0);
  else
    cudaFree(p);
}

void ck_dev_forget_all(void) {
  live_count = 0;
  bytes_in_use = 0;
  pool = NULL; /* the reset destroyed it; the next allocation takes the new default pool */
}

size_t ck_dev_budget(void) {
  size_t free_b = 0, total_b = 0;
  if (ck_device_init() != CK_OK || cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  if (pool) { /* blocks the pool keeps count as used by the device but are ours to reuse */
    uint64_t reserved = 0, used = 0;
    if (cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved) == cudaSuccess &&
        cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used) == cudaSuccess &&
        reserved > used)
      free_b += (size_t)(reserved - used);
  }
  if (byte_limit) {
    size_t left = byte_limit > bytes_in_use ? byte_limit - bytes_in_use : 0;
    if (left < free_b) free_b = left;
  }
  return free_b;
}

size_t ck_dev_bytes_in_use(void) { return bytes_in_use; }
size_t ck_dev_live_allocations(void) { return live_count; }
void ck_dev_set_limit(size_t bytes) { byte_limit = bytes; }

ck_status ck_time_events(ck_timed_fn *run, void *ctx, int warmup, int reps, double *times_ms) {
  return ck_time_calls(run, ctx, warmup, reps, 1, times_ms);
}

ck_status ck_time_calls(ck_timed_fn *run, void *ctx, int warmup, int reps, int calls,
                        double *times_ms) {
  cudaEvent_t start = NULL, stop = NULL;
  if (calls < 1) calls = 1;
  ck_status s = CK_OK;
  cudaError_t e = cudaSuccess;
  if ((e = cudaEventCreate(&start)) == cudaSuccess) e = cudaEventCreate(&stop);
  for (int r = 0; r < warmup + reps && e == cudaSuccess && s == CK_OK; r++) {
    float ms = 0;
    if ((e = cudaEventRecord(start, 0)) != cudaSuccess) break;
    for (int c = 0; c < calls && s == CK_OK; c++) s = run(ctx);
    if (s != CK_OK) break;
    if ((e = cudaEventRecord(stop, 0)) != cudaSuccess ||
        (e = cudaEventSynchronize(stop)) != cudaSuccess ||
        (e = cudaEventElapsedTime(&ms, start, stop)) != cudaSuccess)
      break;
    if (r >= warmup) times_ms[r - warmup] = ms / calls;
  }
  if (s == CK_OK && e != cudaSuccess) s = ck_cuda_status(e, "timing with events");
  if (start) cudaEventDestroy(start);
  if (stop) cudaEventDestroy(stop);
  return s;
}
