/* Devices (which one is selected, which one this thread works on, the facts of each), error
 * detail, and the tracked device allocator. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ck_internal.h"

static _Thread_local char last_error[512] = "no error";

/* The visible devices (-1: not counted yet, or counting failed and is tried again), the home
 * device (gpu_device (I): new arrays and one-device work), and which devices have a context. The
 * CUDA runtime's current device is per host thread: the gateway's thread starts each command on
 * the home device (ck_call_begin) and moves to its arrays' device; the workers of a team over
 * several devices each take their own (team.c). */
static int device_total = -1;
static int home = 0;
static _Atomic int ready[CK_MAX_DEVICES];
/* The device of the arrays of the gateway's command in progress (-1: none yet; see ck_call_device),
 * and whether a command is in progress at all (C callers outside the gateway never open one). */
static int call_device = -1, call_open = 0;

/* Forget every context so that the next ck_device_init makes it afresh (after a device reset). */
void ck_device_forget(void) {
  for (int d = 0; d < CK_MAX_DEVICES; d++) ready[d] = 0;
}
#define CK_DTYPE_ROW_(a, E, T, N, B, F, P, L, MX) [E] = {#N, B, F},
static const struct {
  const char *name;
  size_t size;
  int floating;
} dtypes[CK_NUM_DTYPES] = {CK_CLASS_TABLE(CK_DTYPE_ROW_, _)};
#undef CK_DTYPE_ROW_
#define CK_SEMIRING_ROW_(a, E, TYPE, NAME, ALIAS, CLASSES, ADD, MUL) \
  [E] = {NAME, ALIAS, CK_CLASSES(CLASSES)},
static const struct {
  const char *name, *alias;
  unsigned classes;
} semirings[CK_NUM_SEMIRINGS] = {CK_SEMIRING_TABLE(CK_SEMIRING_ROW_, _)};
#undef CK_SEMIRING_ROW_

static int valid_dtype(ck_dtype t) { return (int)t >= 0 && t < CK_NUM_DTYPES; }

size_t ck_dtype_size(ck_dtype t) { return valid_dtype(t) ? dtypes[t].size : 0; }

const char *ck_dtype_name(ck_dtype t) { return valid_dtype(t) ? dtypes[t].name : "?"; }

int ck_dtype_from_name(const char *name) {
  for (int i = 0; i < CK_NUM_DTYPES; i++)
    if (!strcmp(name, dtypes[i].name)) return i;
  return -1;
}

int ck_dtype_is_float(ck_dtype t) { return valid_dtype(t) && dtypes[t].floating; }

static int valid_semiring(ck_semiring s) { return (int)s >= 0 && s < CK_NUM_SEMIRINGS; }

const char *ck_semiring_name(ck_semiring s) { return valid_semiring(s) ? semirings[s].name : "?"; }

int ck_semiring_from_name(const char *name) {
  for (int i = 0; i < CK_NUM_SEMIRINGS; i++)
    if (!strcmp(name, semirings[i].name) || !strcmp(name, semirings[i].alias)) return i;
  return -1;
}

ck_status ck_semiring_check(ck_semiring s, ck_dtype t) {
  if (!valid_semiring(s)) return ck_fail(CK_ERR_INVALID, "unknown semiring %d", (int)s);
  if (valid_dtype(t) && (semirings[s].classes >> t & 1u)) return CK_OK;
  char took[160] = "";
  for (int c = 0; c < CK_NUM_DTYPES; c++)
    if (semirings[s].classes >> c & 1u) {
      strncat(took, took[0] ? ", " : "", sizeof took - strlen(took) - 1);
      strncat(took, dtypes[c].name, sizeof took - strlen(took) - 1);
    }
  return ck_fail(CK_ERR_INVALID, "the %s product takes %s, not %s", semirings[s].name, took,
                 ck_dtype_name(t));
}

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
  if (e == cudaErrorMemoryAllocation) s = CK_ERR_OUTOFMEMORY;
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

static ck_status count_devices(void) {
  if (device_total >= 0) return CK_OK;
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    ck_cuda_status(e, "looking for a CUDA device");
    return CK_ERR_NODEVICE; /* whatever the cause, there is no device to use */
  }
  if (count == 0) return ck_fail(CK_ERR_NODEVICE, "no CUDA device found");
  device_total = count < CK_MAX_DEVICES ? count : CK_MAX_DEVICES;
  return CK_OK;
}

ck_status ck_device_init(void) {
  CK_TRY(count_devices());
  int dev = 0;
  CK_CUDA(cudaGetDevice(&dev), "querying the device");
  if (dev >= 0 && dev < CK_MAX_DEVICES && ready[dev]) return CK_OK;
  if (dev < 0 || dev >= device_total)
    return ck_fail(CK_ERR_INVALID, "device %d is beyond the %d devices used", dev, device_total);
  /* Creating the context here keeps its cost out of the first timed call. */
  CK_CUDA(cudaFree(NULL), "creating the CUDA context");
  ready[dev] = 1;
  return CK_OK;
}

int ck_device_available(void) { return ck_device_init() == CK_OK; }

int ck_device_used(int dev) { return dev >= 0 && dev < CK_MAX_DEVICES && ready[dev]; }

int ck_device_count(void) { return count_devices() == CK_OK ? device_total : 0; }

static ck_status check_device(int dev) {
  CK_TRY(count_devices());
  if (dev < 0 || dev >= device_total)
    return ck_fail(CK_ERR_INVALID, "there is no device %d: the devices are 1 to %d", dev + 1,
                   device_total);
  return CK_OK;
}

ck_status ck_device_use(int dev) {
  CK_TRY(check_device(dev));
  int cur = -1;
  if (cudaGetDevice(&cur) != cudaSuccess || cur != dev)
    CK_CUDA(cudaSetDevice(dev), "selecting a device");
  return ck_device_init();
}

/* Attribute `what` of the current device, asked once per device (`none` if it cannot be had). */
static int device_attribute(_Atomic int *cache, enum cudaDeviceAttr what, int none) {
  const int dev = ck_device_current();
  if (dev < 0 || dev >= CK_MAX_DEVICES) return none;
  int v = cache[dev];
  if (v < 1 && (cudaDeviceGetAttribute(&v, what, dev) != cudaSuccess || v < 1)) {
    (void)cudaGetLastError();
    return none; /* asked again next time */
  }
  cache[dev] = v;
  return v;
}

int ck_device_sms(void) {
  static _Atomic int sms[CK_MAX_DEVICES];
  return device_attribute(sms, cudaDevAttrMultiProcessorCount, 1);
}

size_t ck_device_sm_smem(void) {
  static _Atomic int bytes[CK_MAX_DEVICES];
  return (size_t)device_attribute(bytes, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 64 * 1024);
}

size_t ck_device_block_smem(void) {
  static _Atomic int bytes[CK_MAX_DEVICES];
  return (size_t)device_attribute(bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, 48 * 1024);
}

int ck_kernel_built(const void *kernel, int arch) {
  /* an error of an earlier launch, waiting to be reported, is not cleared with the query's own */
  const int pending = cudaPeekAtLastError() != cudaSuccess;
  struct cudaFuncAttributes fa;
  const int ok = cudaFuncGetAttributes(&fa, kernel) == cudaSuccess && fa.binaryVersion >= arch &&
                 fa.ptxVersion >= arch;
  if (!pending) (void)cudaGetLastError();
  return ok;
}

int ck_kernel_built_here(const void *kernel, int arch, int *known) {
  const int dev = ck_device_current();
  if (dev < 0 || dev >= CK_MAX_DEVICES) return 0;
  if (!known[dev]) known[dev] = ck_kernel_built(kernel, arch) ? 2 : 1;
  return known[dev] == 2;
}

int ck_blocks_per_sm(const void *kernel, int threads, size_t smem, int *known) {
  const int dev = ck_device_current();
  if (dev < 0 || dev >= CK_MAX_DEVICES) return 1;
  if (known[dev] < 1) {
    int per_sm = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem) !=
            cudaSuccess ||
        per_sm < 1) {
      (void)cudaGetLastError();
      return 1; /* asked again next time */
    }
    known[dev] = per_sm;
  }
  return known[dev];
}

int ck_clusters_built(const void *kernel) {
  /* an error of an earlier launch, waiting to be reported, is not cleared with the queries' own */
  const int pending = cudaPeekAtLastError() != cudaSuccess;
  const int dev = ck_device_current();
  int launch = 0;
  const int ok = dev >= 0 &&
                 cudaDeviceGetAttribute(&launch, cudaDevAttrClusterLaunch, dev) == cudaSuccess &&
                 launch && ck_kernel_built(kernel, 90);
  if (!pending) (void)cudaGetLastError();
  return ok;
}

int ck_device_current(void) {
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return dev;
}

ck_status ck_device_select(int dev) {
  CK_TRY(ck_device_use(dev));
  home = dev;
  return CK_OK;
}

int ck_device_selected(void) { return home; }

void ck_call_begin(void) {
  call_device = -1;
  call_open = 1;
  if (device_total > 0 && ck_device_current() != home && cudaSetDevice(home) != cudaSuccess)
    (void)cudaGetLastError(); /* the command's own first device call reports it */
}

ck_status ck_call_device(int dev) {
  if (call_open && call_device >= 0 && call_device != dev)
    return ck_fail(CK_ERR_INVALID,
                   "the gpu_arrays of one call must live on one device: these are on devices %d "
                   "and %d (gather one of them, or make it again on the other device)",
                   call_device + 1, dev + 1);
  call_device = dev;
  return ck_device_use(dev);
}

ck_status ck_device_query_at(int dev, ck_device_info *info) {
  const int back = ck_device_current();
  CK_TRY(ck_device_use(dev));
  ck_status s = ck_device_query(info);
  if (back != dev && cudaSetDevice(back) != cudaSuccess) (void)cudaGetLastError();
  return s;
}

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

/* ---- tracked allocator: a small table of live allocations, shared by the workers of a team
 * over several devices (team.c), hence the lock ---- */
typedef struct {
  void *p;
  size_t bytes;
  int dev;
} allocation;

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static allocation *live = NULL;
static size_t live_count = 0, live_cap = 0, bytes_in_use = 0, byte_limit = 0;

/* Record an allocation, unless it would pass the test limit (0) or the table cannot grow (-1). */
static int remember(void *p, size_t bytes, int dev) {
  int ok = 1;
  pthread_mutex_lock(&table_lock);
  if (byte_limit && bytes_in_use + bytes > byte_limit) {
    ok = 0;
  } else if (live_count == live_cap) {
    size_t cap = live_cap ? 2 * live_cap : 64;
    allocation *grown = realloc(live, cap * sizeof *grown);
    if (grown) {
      live = grown;
      live_cap = cap;
    } else {
      ok = -1;
    }
  }
  if (ok == 1) {
    live[live_count].p = p;
    live[live_count].bytes = bytes;
    live[live_count].dev = dev;
    live_count++;
    bytes_in_use += bytes;
  }
  pthread_mutex_unlock(&table_lock);
  return ok;
}

/* Forget an allocation; its device, or -1 if it was not in the table. */
static int forget(void *p) {
  int dev = -1;
  pthread_mutex_lock(&table_lock);
  for (size_t i = 0; i < live_count; i++) {
    if (live[i].p == p) {
      dev = live[i].dev;
      bytes_in_use -= live[i].bytes;
      live[i] = live[--live_count];
      break;
    }
  }
  pthread_mutex_unlock(&table_lock);
  return dev;
}

/* Device memory comes from each device's stream-ordered pool, which keeps freed blocks for reuse:
 * a chain of calls that each allocate and free the same sizes (device-resident loops) then costs
 * no cudaMalloc/cudaFree, and cudaFree's implicit device-wide synchronization is gone. When an
 * allocation fails, the pool's cached blocks are returned to the device and it is tried again. */
static cudaMemPool_t pools[CK_MAX_DEVICES];
static _Atomic int pool_state[CK_MAX_DEVICES]; /* 0: not asked yet, 1: pools[dev], 2: none */

static cudaMemPool_t device_pool(int dev) {
  if (dev < 0 || dev >= CK_MAX_DEVICES) return NULL;
  if (pool_state[dev] == 0) {
    cudaMemPool_t pool = NULL;
    if (cudaDeviceGetDefaultMemPool(&pool, dev) != cudaSuccess) {
      (void)cudaGetLastError();
      pool_state[dev] = 2; /* no pool support: plain allocations */
      return NULL;
    }
    uint64_t keep = UINT64_MAX;
    cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
    pools[dev] = pool;
    pool_state[dev] = 1;
  }
  return pool_state[dev] == 1 ? pools[dev] : NULL;
}

/* Peer access does not reach pool allocations (they follow cudaMemPoolSetAccess, not
 * cudaDeviceEnablePeerAccess), so both are granted, once per pair of devices (asked again, the
 * driver answers with an error, which compute-sanitizer reports). */
static _Atomic int peer_granted[CK_MAX_DEVICES][CK_MAX_DEVICES];

void ck_device_peer(int peer) {
  const int dev = ck_device_current();
  int can = 0;
  if (dev == peer || dev < 0 || peer < 0 || dev >= CK_MAX_DEVICES || peer >= CK_MAX_DEVICES ||
      peer_granted[dev][peer])
    return;
  if (cudaDeviceCanAccessPeer(&can, dev, peer) != cudaSuccess || !can) {
    (void)cudaGetLastError(); /* copies go through the host */
    return;
  }
  peer_granted[dev][peer] = 1;
  if (cudaDeviceEnablePeerAccess(peer, 0) != cudaSuccess) (void)cudaGetLastError(); /* already */
  cudaMemPool_t pool = device_pool(peer);
  struct cudaMemAccessDesc access = {{cudaMemLocationTypeDevice, dev},
                                     cudaMemAccessFlagsProtReadWrite};
  if (pool && cudaMemPoolSetAccess(pool, &access, 1) != cudaSuccess) (void)cudaGetLastError();
}

static cudaError_t pool_alloc(void **p, size_t bytes) {
  if (!device_pool(ck_device_current())) return cudaMalloc(p, bytes);
  cudaError_t e = cudaMallocAsync(p, bytes, 0);
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    ck_dev_trim();
    e = cudaMallocAsync(p, bytes, 0);
  }
  return e;
}

void ck_dev_trim(void) {
  cudaMemPool_t pool = device_pool(ck_device_current());
  if (!pool) return;
  cudaDeviceSynchronize();
  cudaMemPoolTrimTo(pool, 0);
}

ck_status ck_dev_alloc(void **p, size_t bytes) {
  *p = NULL;
  CK_TRY(ck_device_init());
  if (bytes == 0) bytes = 1; /* keep every pointer distinct and freeable */
  CK_CUDA(pool_alloc(p, bytes), "allocating device memory");
  const int dev = ck_device_current(), kept = remember(*p, bytes, dev);
  if (kept == 1) return CK_OK;
  cudaFreeAsync(*p, 0);
  *p = NULL;
  if (kept == 0)
    return ck_fail(CK_ERR_OUTOFMEMORY,
                   "allocating %zu bytes on the device: over the test limit of %zu bytes", bytes,
                   byte_limit);
  return ck_fail(CK_ERR_OUTOFMEMORY, "out of host memory tracking a device allocation");
}

/* Stream-ordered: the block returns to its device's pool after the work queued before it there. */
void ck_dev_free(void *p) {
  if (!p) return;
  const int dev = forget(p), cur = ck_device_current();
  const int away = dev >= 0 && dev != cur && cudaSetDevice(dev) == cudaSuccess;
  if (device_pool(away ? dev : cur)) cudaFreeAsync(p, 0);
  else cudaFree(p);
  if (away) cudaSetDevice(cur);
}

void ck_dev_forget_all(void) {
  pthread_mutex_lock(&table_lock);
  live_count = 0;
  bytes_in_use = 0;
  pthread_mutex_unlock(&table_lock);
  for (int d = 0; d < CK_MAX_DEVICES; d++) { /* the reset destroyed them, and peer access */
    pool_state[d] = 0;
    for (int e = 0; e < CK_MAX_DEVICES; e++) peer_granted[d][e] = 0;
  }
}

size_t ck_dev_budget(void) {
  size_t free_b = 0, total_b = 0;
  if (ck_device_init() != CK_OK || cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  cudaMemPool_t pool = device_pool(ck_device_current());
  if (pool) { /* blocks the pool keeps count as used by the device but are ours to reuse */
    uint64_t reserved = 0, used = 0;
    if (cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved) ==
            cudaSuccess &&
        cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used) == cudaSuccess &&
        reserved > used)
      free_b += (size_t)(reserved - used);
  }
  pthread_mutex_lock(&table_lock);
  if (byte_limit) {
    size_t left = byte_limit > bytes_in_use ? byte_limit - bytes_in_use : 0;
    if (left < free_b) free_b = left;
  }
  pthread_mutex_unlock(&table_lock);
  return free_b;
}

static size_t table_sum(int dev, int bytes) {
  size_t sum = 0;
  pthread_mutex_lock(&table_lock);
  for (size_t i = 0; i < live_count; i++)
    if (dev < 0 || live[i].dev == dev) sum += bytes ? live[i].bytes : 1;
  pthread_mutex_unlock(&table_lock);
  return sum;
}

size_t ck_dev_bytes_in_use(void) { return table_sum(-1, 1); }
size_t ck_dev_bytes_on(int dev) { return table_sum(dev, 1); }
size_t ck_dev_live_allocations(void) { return table_sum(-1, 0); }
void ck_dev_set_limit(size_t bytes) {
  pthread_mutex_lock(&table_lock);
  byte_limit = bytes;
  pthread_mutex_unlock(&table_lock);
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double ck_median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n > 0 ? v[n / 2] : 0;
}

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
