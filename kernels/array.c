/* Pinned staging for host<->device copies, and the registry of device-resident arrays. */
#define _DEFAULT_SOURCE /* madvise */
#include <omp.h>
#include <stdint.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>

#include "ck_internal.h"

/* ---- staging ---- */
#define STAGE_BYTES ((size_t)32 << 20) /* per buffer; two of them */
#define DIRECT_BYTES ((size_t)256 << 10) /* below this a plain cudaMemcpy is as fast */

static struct {
  void *buf[2];
  cudaEvent_t done[2];
  int ready, failed, atexit_registered;
} stage;

static cudaStream_t copy_stream = NULL; /* see ck_copy_stream */

static struct {
  void *buf;
  cudaEvent_t queued, ready;
  cudaStream_t stream; /* its own, so that a note never waits behind the staged transfers */
} note; /* see ck_read_note */

static void *scratch_dev = NULL; /* see ck_device_scratch */

static void stage_release(void) {
  if (copy_stream) cudaStreamDestroy(copy_stream);
  copy_stream = NULL;
  if (note.buf) cudaFreeHost(note.buf);
  if (note.queued) cudaEventDestroy(note.queued);
  if (note.ready) cudaEventDestroy(note.ready);
  if (note.stream) cudaStreamDestroy(note.stream);
  note.buf = NULL;
  note.queued = note.ready = NULL;
  note.stream = NULL;
  if (scratch_dev) cudaFree(scratch_dev);
  scratch_dev = NULL;
  for (int b = 0; b < 2; b++) {
    if (stage.buf[b]) cudaFreeHost(stage.buf[b]);
    if (stage.done[b]) cudaEventDestroy(stage.done[b]);
    stage.buf[b] = NULL;
    stage.done[b] = NULL;
  }
  stage.ready = stage.failed = 0;
}

static void stage_release_at_exit(void) { stage_release(); }

/* Released before the CUDA runtime's own exit handler, which was registered earlier. */
static void release_at_exit(void) {
  if (!stage.atexit_registered) atexit(stage_release_at_exit);
  stage.atexit_registered = 1;
}

/* Pinned buffers on first use; when pinning fails the copies fall back to pageable ones. */
static int stage_ok(void) {
  if (stage.ready) return 1;
  if (stage.failed) return 0;
  for (int b = 0; b < 2; b++)
    if (cudaHostAlloc(&stage.buf[b], STAGE_BYTES, cudaHostAllocDefault) != cudaSuccess ||
        cudaEventCreateWithFlags(&stage.done[b], cudaEventDisableTiming) != cudaSuccess) {
      (void)cudaGetLastError();
      stage_release();
      stage.failed = 1;
      return 0;
    }
  stage.ready = 1;
  release_at_exit();
  return 1;
}

/* memcpy on several threads: one thread cannot saturate memory bandwidth, least of all when the
 * destination pages are touched for the first time. */
static void parallel_copy(void *dst, const void *src, size_t bytes) {
  int threads = bytes >= ((size_t)4 << 20) ? 8 : 1;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int t = 0; t < threads; t++) {
    size_t lo = bytes * (size_t)t / (size_t)threads, hi = bytes * (size_t)(t + 1) / (size_t)threads;
    memcpy((char *)dst + lo, (const char *)src + lo, hi - lo);
  }
}

/* The stream of the pipelined transfers (ck_upload_async, ck_download_after): non-blocking, so
 * that its copies run beside kernels on the default stream. */
static cudaStream_t ck_copy_stream(void) {
  if (!copy_stream && cudaStreamCreateWithFlags(&copy_stream, cudaStreamNonBlocking) != cudaSuccess) {
    (void)cudaGetLastError();
    copy_stream = NULL; /* the default stream then: correct, without the overlap */
  }
  return copy_stream;
}

static int note_ok(void) {
  if (!note.buf && cudaHostAlloc(&note.buf, CK_NOTE_BYTES, cudaHostAllocDefault) != cudaSuccess)
    note.buf = NULL;
  if (note.buf && !note.queued &&
      cudaEventCreateWithFlags(&note.queued, cudaEventDisableTiming) != cudaSuccess)
    note.queued = NULL;
  if (note.buf && !note.ready &&
      cudaEventCreateWithFlags(&note.ready, cudaEventDisableTiming) != cudaSuccess)
    note.ready = NULL;
  if (note.buf && !note.stream &&
      cudaStreamCreateWithFlags(&note.stream, cudaStreamNonBlocking) != cudaSuccess)
    note.stream = NULL;
  if (!note.buf || !note.queued || !note.ready || !note.stream) return 0;
  release_at_exit();
  return 1;
}

ck_status ck_note_mark(void) {
  if (!note_ok() || cudaEventRecord(note.queued, 0) != cudaSuccess) {
    (void)cudaGetLastError();
    return CK_ERR_CUDA;
  }
  return CK_OK;
}

ck_status ck_read_note(const void *src_dev, size_t bytes, void **buf, cudaEvent_t *ready) {
  if (bytes > CK_NOTE_BYTES) return ck_fail(CK_ERR_INVALID, "a note holds %d bytes", CK_NOTE_BYTES);
  if (!note_ok() || cudaStreamWaitEvent(note.stream, note.queued, 0) != cudaSuccess ||
      cudaMemcpyAsync(note.buf, src_dev, bytes, cudaMemcpyDeviceToHost, note.stream) !=
          cudaSuccess ||
      cudaEventRecord(note.ready, note.stream) != cudaSuccess) {
    (void)cudaGetLastError();
    return CK_ERR_CUDA;
  }
  *buf = note.buf;
  *ready = note.ready;
  return CK_OK;
}

ck_status ck_device_scratch(void **p, int *fresh) {
  *fresh = 0;
  if (!scratch_dev) {
    CK_CUDA(cudaMalloc(&scratch_dev, CK_SCRATCH_BYTES), "allocating the device scratch");
    cudaError_t e = cudaMemset(scratch_dev, 0, CK_SCRATCH_BYTES);
    if (e != cudaSuccess) {
      cudaFree(scratch_dev);
      scratch_dev = NULL;
      return ck_cuda_status(e, "clearing the device scratch");
    }
    release_at_exit();
    *fresh = 1;
  }
  *p = scratch_dev;
  return CK_OK;
}

/* Host to device on stream st through the two pinned buffers: one is filled while the DMA engine
 * drains the other. Returns once the host data has been read; the last copies may still be in
 * flight on st. */
static ck_status staged_upload(void *dst_dev, const void *src_host, size_t bytes, cudaStream_t st) {
  if (bytes < DIRECT_BYTES || !stage_ok()) {
    CK_CUDA(cudaMemcpyAsync(dst_dev, src_host, bytes, cudaMemcpyHostToDevice, st),
            "copying to the device");
    return CK_OK;
  }
  for (size_t off = 0, i = 0; off < bytes; off += STAGE_BYTES, i++) {
    int b = (int)(i % 2);
    size_t len = bytes - off < STAGE_BYTES ? bytes - off : STAGE_BYTES;
    CK_CUDA(cudaEventSynchronize(stage.done[b]), "waiting for a staging buffer");
    parallel_copy(stage.buf[b], (const char *)src_host + off, len);
    CK_CUDA(cudaMemcpyAsync((char *)dst_dev + off, stage.buf[b], len, cudaMemcpyHostToDevice, st),
            "copying to the device");
    CK_CUDA(cudaEventRecord(stage.done[b], st), "copying to the device");
  }
  return CK_OK;
}

/* A download's destination is mostly a fresh result, and its first touch is page faults: on the
 * H100 machine a fresh 256 MiB took 26 ms from 8 threads on 4 KiB pages and 10 ms on transparent
 * huge pages (161 and 54 ms from one thread), and most distributions ship those in `madvise`
 * mode, on request only (doc/NOTES.md, eighth round). So the whole 2 MiB pages inside
 * [p, p + bytes) are asked for as huge pages before the copy touches them (a hint: refused or
 * already touched, nothing changes). */
#define HUGE_PAGE ((uintptr_t)2 << 20)
static void prefer_huge_pages(void *p, size_t bytes) {
#ifdef MADV_HUGEPAGE
  uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
  uintptr_t hi = ((uintptr_t)p + bytes) & ~(HUGE_PAGE - 1);
  if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
  (void)p, (void)bytes;
#endif
}

/* Device to host on stream st: chunk i+1 is in flight while chunk i is copied out of its
 * buffer. Returns when the data is in dst_host. */
static ck_status staged_download(void *dst_host, const void *src_dev, size_t bytes,
                                 cudaStream_t st) {
  prefer_huge_pages(dst_host, bytes);
  if (bytes < DIRECT_BYTES || !stage_ok()) {
    CK_CUDA(cudaMemcpyAsync(dst_host, src_dev, bytes, cudaMemcpyDeviceToHost, st),
            "copying from the device");
    CK_CUDA(cudaStreamSynchronize(st), "copying from the device");
    return CK_OK;
  }
  size_t chunks = (bytes + STAGE_BYTES - 1) / STAGE_BYTES;
  for (size_t i = 0; i < chunks + 1; i++) {
    if (i < chunks) {
      int b = (int)(i % 2);
      size_t off = i * STAGE_BYTES, len = bytes - off < STAGE_BYTES ? bytes - off : STAGE_BYTES;
      CK_CUDA(cudaMemcpyAsync(stage.buf[b], (const char *)src_dev + off, len,
                              cudaMemcpyDeviceToHost, st),
              "copying from the device");
      CK_CUDA(cudaEventRecord(stage.done[b], st), "copying from the device");
    }
    if (i > 0) {
      size_t j = i - 1, off = j * STAGE_BYTES;
      size_t len = bytes - off < STAGE_BYTES ? bytes - off : STAGE_BYTES;
      CK_CUDA(cudaEventSynchronize(stage.done[j % 2]), "copying from the device");
      parallel_copy((char *)dst_host + off, stage.buf[j % 2], len);
    }
  }
  return CK_OK;
}

ck_status ck_upload(void *dst_dev, const void *src_host, size_t bytes) {
  CK_TRY(ck_device_init());
  CK_TRY(staged_upload(dst_dev, src_host, bytes, 0));
  CK_CUDA(cudaStreamSynchronize(0), "copying to the device");
  return CK_OK;
}

ck_status ck_download(void *dst_host, const void *src_dev, size_t bytes) {
  CK_TRY(ck_device_init());
  return staged_download(dst_host, src_dev, bytes, 0);
}

ck_status ck_upload_async(void *dst_dev, const void *src_host, size_t bytes, cudaEvent_t done) {
  cudaStream_t st = ck_copy_stream();
  CK_TRY(staged_upload(dst_dev, src_host, bytes, st));
  CK_CUDA(cudaEventRecord(done, st), "copying to the device");
  return CK_OK;
}

ck_status ck_download_after(void *dst_host, const void *src_dev, size_t bytes, cudaEvent_t ready) {
  cudaStream_t st = ck_copy_stream();
  CK_CUDA(cudaStreamWaitEvent(st, ready, 0), "ordering a copy after a kernel");
  return staged_download(dst_host, src_dev, bytes, st);
}

ck_status ck_host_product(ck_product_fn *fn, const ck_product *p) {
  CK_TRY(ck_device_init());
  const size_t m = p->m, k = p->k, n = p->n, es = ck_dtype_size(p->t);
  if (m == 0 || n == 0) return CK_OK;
  ck_product d = *p;
  void *dA = NULL, *dB = NULL, *dC = NULL;
  ck_status s;
  if ((s = ck_dev_alloc(&dA, m * k * es)) == CK_OK && (s = ck_dev_alloc(&dB, k * n * es)) == CK_OK &&
      (s = ck_dev_alloc(&dC, m * n * es)) == CK_OK && (s = ck_upload(dA, p->A, m * k * es)) == CK_OK &&
      (s = ck_upload(dB, p->B, k * n * es)) == CK_OK) {
    d.A = dA;
    d.B = dB;
    d.C = dC;
    d.K = NULL;
    if ((s = fn(&d)) == CK_OK) s = ck_download(p->C, dC, m * n * es);
  }
  ck_dev_free(dA);
  ck_dev_free(dB);
  ck_dev_free(dC);
  return s;
}

typedef struct {
  ck_product_fn *fn;
  const ck_product *p;
} product_call;

static ck_status run_product_call(void *ctx) {
  product_call *c = ctx;
  return c->fn(c->p);
}

ck_status ck_random_operands(const ck_product *p, size_t pages, const ck_timing *tm,
                             ck_product *d) {
  *d = *p;
  d->A = d->B = d->C = NULL;
  d->K = NULL;
  if (tm->reps < 1 || tm->warmup < 0) return ck_fail(CK_ERR_INVALID, "reps must be >= 1, warmup >= 0");
  CK_TRY(ck_device_init());
  const size_t m = p->m, k = p->k, n = p->n, es = ck_dtype_size(p->t);
  void *dA = NULL, *dB = NULL;
  CK_TRY(ck_dev_alloc(&dA, m * k * pages * es));
  d->A = dA;
  CK_TRY(ck_dev_alloc(&dB, k * n * pages * es));
  d->B = dB;
  CK_TRY(ck_dev_alloc(&d->C, m * n * pages * es));
  CK_TRY(ck_fill_random_kind(p->t, dA, m * k * pages, 1, tm->data));
  return ck_fill_random_kind(p->t, dB, k * n * pages, 2, tm->data);
}

void ck_free_operands(ck_product *d) {
  ck_dev_free((void *)d->A);
  ck_dev_free((void *)d->B);
  ck_dev_free(d->C);
  d->A = d->B = d->C = NULL;
}

ck_status ck_time_product(ck_product_fn *fn, const ck_product *p, const ck_timing *tm) {
  ck_product d;
  ck_status s = ck_random_operands(p, 1, tm, &d);
  if (s == CK_OK) {
    product_call c = {fn, &d};
    s = ck_time_calls(run_product_call, &c, tm->warmup, tm->reps, tm->calls, tm->times_ms);
  }
  ck_free_operands(&d);
  return s;
}

/* ---- device-resident arrays ---- */
typedef struct {
  ck_array_id id;
  void *ptr;
  ck_dtype t;
  size_t numel;
} entry;

static entry *table = NULL;
static size_t count = 0, cap = 0;
static ck_array_id next_id = 1;

static entry *find(ck_array_id id) {
  for (size_t i = 0; i < count; i++)
    if (table[i].id == id) return &table[i];
  return NULL;
}

ck_status ck_array_create(ck_dtype t, size_t numel, ck_array_id *id, void **ptr) {
  if (count == cap) {
    size_t ncap = cap ? 2 * cap : 64;
    entry *grown = realloc(table, ncap * sizeof *grown);
    if (!grown) return ck_fail(CK_ERR_OUTOFMEMORY, "out of host memory for the array registry");
    table = grown;
    cap = ncap;
  }
  CK_TRY(ck_dev_alloc(ptr, numel * ck_dtype_size(t)));
  entry e = {next_id++, *ptr, t, numel};
  table[count++] = e;
  *id = e.id;
  return CK_OK;
}

ck_status ck_array_lookup(ck_array_id id, ck_dtype *t, size_t *numel, void **ptr) {
  entry *e = find(id);
  if (!e)
    return ck_fail(CK_ERR_STALE,
                   "device array %llu no longer exists (it was freed, or the device was reset)",
                   (unsigned long long)id);
  if (t) *t = e->t;
  if (numel) *numel = e->numel;
  if (ptr) *ptr = e->ptr;
  return CK_OK;
}

void ck_array_free(ck_array_id id) {
  entry *e = find(id);
  if (!e) return;
  ck_dev_free(e->ptr);
  *e = table[--count];
}

size_t ck_array_count(void) { return count; }

ck_status ck_array_convert(ck_array_id src, ck_dtype to, ck_array_id *out) {
  ck_dtype t;
  size_t numel;
  void *p, *q;
  CK_TRY(ck_array_lookup(src, &t, &numel, &p));
  CK_TRY(ck_array_create(to, numel, out, &q));
  ck_status s = ck_convert_device(t, p, to, q, numel);
  if (s != CK_OK) ck_array_free(*out);
  return s;
}

ck_status ck_reset(void) {
  for (size_t i = 0; i < count; i++) ck_dev_free(table[i].ptr);
  count = 0;
  stage_release();
  ck_cublas_release();
  cudaError_t e = cudaDeviceReset();
  ck_dev_forget_all(); /* the reset freed whatever was still allocated */
  ck_device_forget();
  if (e != cudaSuccess) return ck_cuda_status(e, "resetting the device");
  return CK_OK;
}
