/* Host<->device transfers through pinned staging buffers, and the other per-thread, per-device
 * resources they share a home with: the copy stream, the note (a few values read back), the
 * device scratch and the flags (host words a kernel may set). Each host thread working on a
 * device has its own set, a "lane": the gateway's thread uses slot 0 of each device, the
 * workers of a team over several devices (team.c: a product's panels, pages of graphs) slots 1
 * and up, so that two of them never share a buffer, even on one device. */
#define _DEFAULT_SOURCE /* madvise */
#include <omp.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>

#include "ck_internal.h"

#define STAGE_BYTES ((size_t)32 << 20)   /* per buffer; two of them */
#define DIRECT_BYTES ((size_t)256 << 10) /* below this a plain cudaMemcpy is as fast */

typedef struct {
  struct {
    void *buf[2];
    cudaEvent_t done[2];
    int ready, failed;
  } stage;
  cudaStream_t copy_stream; /* see ck_copy_stream */
  cudaEvent_t kernels_done; /* see ck_copies_after_kernels */
  struct {
    void *buf;
    cudaEvent_t queued, ready;
    cudaStream_t stream; /* its own, so that a note never waits behind the staged transfers */
  } note;                /* see ck_read_note */
  void *scratch;         /* see ck_device_scratch: CK_SCRATCH_SLOTS slots */
  long long scratch_word[CK_SCRATCH_SLOTS];
  int *flags, *flags_dev; /* see ck_device_flags */
  int *words;             /* see ck_host_words */
  size_t nwords;
  int used; /* a thread has worked on this device through this lane: it has a context */
} lane_t;

static lane_t lanes[CK_MAX_DEVICES][CK_LANES];
static _Thread_local int lane_slot = 0;
static _Thread_local const volatile int *lane_stop = NULL;
static int atexit_registered = 0;

void ck_lane_enter(int slot, const volatile int *stop) {
  lane_slot = slot >= 0 && slot < CK_LANES ? slot : 0;
  lane_stop = stop;
}

int ck_lane_stopped(void) { return lane_stop && *lane_stop; }

int ck_lane_slot(void) { return lane_slot; }

/* This thread's lane on its current device. */
static lane_t *lane(void) {
  int dev = ck_device_current();
  if (dev < 0 || dev >= CK_MAX_DEVICES) dev = 0;
  lane_t *l = &lanes[dev][lane_slot];
  l->used = 1;
  return l;
}

static void lane_release(lane_t *l) {
  if (l->copy_stream) cudaStreamDestroy(l->copy_stream);
  if (l->kernels_done) cudaEventDestroy(l->kernels_done);
  if (l->note.buf) cudaFreeHost(l->note.buf);
  if (l->note.queued) cudaEventDestroy(l->note.queued);
  if (l->note.ready) cudaEventDestroy(l->note.ready);
  if (l->note.stream) cudaStreamDestroy(l->note.stream);
  if (l->scratch) cudaFree(l->scratch);
  if (l->flags) cudaFreeHost(l->flags);
  if (l->words) cudaFreeHost(l->words);
  for (int b = 0; b < 2; b++) {
    if (l->stage.buf[b]) cudaFreeHost(l->stage.buf[b]);
    if (l->stage.done[b]) cudaEventDestroy(l->stage.done[b]);
  }
  memset(l, 0, sizeof *l);
}

void ck_lanes_release(int dev) {
  const int back = ck_device_current();
  for (int d = 0; d < CK_MAX_DEVICES; d++) {
    if (dev >= 0 && d != dev) continue;
    int used = 0;
    for (int s = 0; s < CK_LANES; s++) used |= lanes[d][s].used;
    /* streams go with their device; one never worked on is not woken (that would make a context) */
    if (!used || cudaSetDevice(d) != cudaSuccess) continue;
    for (int s = 0; s < CK_LANES; s++) lane_release(&lanes[d][s]);
  }
  if (cudaSetDevice(back) != cudaSuccess) (void)cudaGetLastError();
}

static void release_all_at_exit(void) { ck_lanes_release(-1); }

/* Released before the CUDA runtime's own exit handler, which was registered earlier. */
static void release_at_exit(void) {
  if (!atexit_registered) atexit(release_all_at_exit);
  atexit_registered = 1;
}

/* Pinned buffers on first use; when pinning fails the copies fall back to pageable ones. */
static int stage_ok(lane_t *l) {
  if (l->stage.ready) return 1;
  if (l->stage.failed) return 0;
  for (int b = 0; b < 2; b++)
    if (cudaHostAlloc(&l->stage.buf[b], STAGE_BYTES, cudaHostAllocPortable) != cudaSuccess ||
        cudaEventCreateWithFlags(&l->stage.done[b], cudaEventDisableTiming) != cudaSuccess) {
      (void)cudaGetLastError();
      for (int c = 0; c < 2; c++) {
        if (l->stage.buf[c]) cudaFreeHost(l->stage.buf[c]);
        if (l->stage.done[c]) cudaEventDestroy(l->stage.done[c]);
        l->stage.buf[c] = NULL;
        l->stage.done[c] = NULL;
      }
      l->stage.failed = 1;
      return 0;
    }
  l->stage.ready = 1;
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
static cudaStream_t ck_copy_stream(lane_t *l) {
  if (!l->copy_stream &&
      cudaStreamCreateWithFlags(&l->copy_stream, cudaStreamNonBlocking) != cudaSuccess) {
    (void)cudaGetLastError();
    l->copy_stream = NULL; /* the default stream then: correct, without the overlap */
  }
  if (l->copy_stream) release_at_exit();
  return l->copy_stream;
}

ck_status ck_copies_after_kernels(void) {
  lane_t *l = lane();
  cudaStream_t st = ck_copy_stream(l);
  if (!st) return CK_OK; /* the default stream: in order already */
  if (!l->kernels_done)
    CK_CUDA(cudaEventCreateWithFlags(&l->kernels_done, cudaEventDisableTiming),
            "ordering copies after kernels");
  CK_CUDA(cudaEventRecord(l->kernels_done, 0), "ordering copies after kernels");
  CK_CUDA(cudaStreamWaitEvent(st, l->kernels_done, 0), "ordering copies after kernels");
  return CK_OK;
}

static int note_ok(lane_t *l) {
  if (!l->note.buf &&
      cudaHostAlloc(&l->note.buf, CK_NOTE_BYTES, cudaHostAllocPortable) != cudaSuccess)
    l->note.buf = NULL;
  if (l->note.buf && !l->note.queued &&
      cudaEventCreateWithFlags(&l->note.queued, cudaEventDisableTiming) != cudaSuccess)
    l->note.queued = NULL;
  if (l->note.buf && !l->note.ready &&
      cudaEventCreateWithFlags(&l->note.ready, cudaEventDisableTiming) != cudaSuccess)
    l->note.ready = NULL;
  if (l->note.buf && !l->note.stream &&
      cudaStreamCreateWithFlags(&l->note.stream, cudaStreamNonBlocking) != cudaSuccess)
    l->note.stream = NULL;
  if (!l->note.buf || !l->note.queued || !l->note.ready || !l->note.stream) return 0;
  release_at_exit();
  return 1;
}

ck_status ck_note_mark(void) {
  lane_t *l = lane();
  if (!note_ok(l) || cudaEventRecord(l->note.queued, 0) != cudaSuccess) {
    (void)cudaGetLastError();
    return CK_ERR_CUDA;
  }
  return CK_OK;
}

ck_status ck_note_wait(void) {
  lane_t *l = lane();
  if (!l->note.queued) return ck_fail(CK_ERR_CUDA, "no mark to wait for");
  return ck_cuda_check(cudaEventSynchronize(l->note.queued), "waiting for the device");
}

ck_status ck_read_note(const void *src_dev, size_t bytes, void **buf, cudaEvent_t *ready) {
  if (bytes > CK_NOTE_BYTES) return ck_fail(CK_ERR_INVALID, "a note holds %d bytes", CK_NOTE_BYTES);
  lane_t *l = lane();
  if (!note_ok(l) || cudaStreamWaitEvent(l->note.stream, l->note.queued, 0) != cudaSuccess ||
      cudaMemcpyAsync(l->note.buf, src_dev, bytes, cudaMemcpyDeviceToHost, l->note.stream) !=
          cudaSuccess ||
      cudaEventRecord(l->note.ready, l->note.stream) != cudaSuccess) {
    (void)cudaGetLastError();
    return CK_ERR_CUDA;
  }
  *buf = l->note.buf;
  *ready = l->note.ready;
  return CK_OK;
}

ck_status ck_device_scratch(int slot, void **p, long long **word) {
  if (slot < 0 || slot >= CK_SCRATCH_SLOTS)
    return ck_fail(CK_ERR_INVALID, "no device scratch slot %d", slot);
  lane_t *l = lane();
  const size_t bytes = (size_t)CK_SCRATCH_SLOTS * CK_SCRATCH_BYTES;
  if (!l->scratch) {
    CK_CUDA(cudaMalloc(&l->scratch, bytes), "allocating the device scratch");
    cudaError_t e = cudaMemset(l->scratch, 0, bytes);
    if (e != cudaSuccess) {
      cudaFree(l->scratch);
      l->scratch = NULL;
      return ck_cuda_status(e, "clearing the device scratch");
    }
    memset(l->scratch_word, 0, sizeof l->scratch_word);
    release_at_exit();
  }
  *p = (char *)l->scratch + (size_t)slot * CK_SCRATCH_BYTES;
  *word = &l->scratch_word[slot];
  return CK_OK;
}

ck_status ck_device_flags(volatile int **host, int **dev) {
  lane_t *l = lane();
  if (!l->flags) {
    void *p = NULL, *d = NULL;
    CK_CUDA(cudaHostAlloc(&p, CK_FLAG_WORDS * sizeof(int),
                          cudaHostAllocPortable | cudaHostAllocMapped),
            "allocating the device flags");
    cudaError_t e = cudaHostGetDevicePointer(&d, p, 0);
    if (e != cudaSuccess) {
      cudaFreeHost(p);
      return ck_cuda_status(e, "mapping the device flags");
    }
    memset(p, 0, CK_FLAG_WORDS * sizeof(int));
    l->flags = (int *)p;
    l->flags_dev = (int *)d;
    release_at_exit();
  }
  *host = l->flags;
  *dev = l->flags_dev;
  return CK_OK;
}

ck_status ck_host_words(int **words, size_t count) {
  lane_t *l = lane();
  if (l->nwords < count) {
    if (l->words) cudaFreeHost(l->words);
    l->words = NULL;
    l->nwords = 0;
    CK_CUDA(cudaHostAlloc((void **)&l->words, count * sizeof(int), cudaHostAllocPortable),
            "allocating pinned memory");
    l->nwords = count;
    release_at_exit();
  }
  *words = l->words;
  return CK_OK;
}

/* Host to device on stream st through the two pinned buffers: one is filled while the DMA engine
 * drains the other. Returns once the host data has been read; the last copies may still be in
 * flight on st. */
static ck_status staged_upload(lane_t *l, void *dst_dev, const void *src_host, size_t bytes,
                               cudaStream_t st) {
  if (bytes < DIRECT_BYTES || !stage_ok(l)) {
    CK_CUDA(cudaMemcpyAsync(dst_dev, src_host, bytes, cudaMemcpyHostToDevice, st),
            "copying to the device");
    return CK_OK;
  }
  for (size_t off = 0, i = 0; off < bytes; off += STAGE_BYTES, i++) {
    int b = (int)(i % 2);
    size_t len = bytes - off < STAGE_BYTES ? bytes - off : STAGE_BYTES;
    CK_CUDA(cudaEventSynchronize(l->stage.done[b]), "waiting for a staging buffer");
    parallel_copy(l->stage.buf[b], (const char *)src_host + off, len);
    CK_CUDA(cudaMemcpyAsync((char *)dst_dev + off, l->stage.buf[b], len, cudaMemcpyHostToDevice,
                            st),
            "copying to the device");
    CK_CUDA(cudaEventRecord(l->stage.done[b], st), "copying to the device");
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
static ck_status staged_download(lane_t *l, void *dst_host, const void *src_dev, size_t bytes,
                                 cudaStream_t st) {
  prefer_huge_pages(dst_host, bytes);
  if (bytes < DIRECT_BYTES || !stage_ok(l)) {
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
      CK_CUDA(cudaMemcpyAsync(l->stage.buf[b], (const char *)src_dev + off, len,
                              cudaMemcpyDeviceToHost, st),
              "copying from the device");
      CK_CUDA(cudaEventRecord(l->stage.done[b], st), "copying from the device");
    }
    if (i > 0) {
      size_t j = i - 1, off = j * STAGE_BYTES;
      size_t len = bytes - off < STAGE_BYTES ? bytes - off : STAGE_BYTES;
      CK_CUDA(cudaEventSynchronize(l->stage.done[j % 2]), "copying from the device");
      parallel_copy((char *)dst_host + off, l->stage.buf[j % 2], len);
    }
  }
  return CK_OK;
}

ck_status ck_upload(void *dst_dev, const void *src_host, size_t bytes) {
  CK_TRY(ck_device_init());
  CK_TRY(staged_upload(lane(), dst_dev, src_host, bytes, 0));
  CK_CUDA(cudaStreamSynchronize(0), "copying to the device");
  return CK_OK;
}

ck_status ck_download(void *dst_host, const void *src_dev, size_t bytes) {
  CK_TRY(ck_device_init());
  return staged_download(lane(), dst_host, src_dev, bytes, 0);
}

ck_status ck_upload_async(void *dst_dev, const void *src_host, size_t bytes, cudaEvent_t done) {
  lane_t *l = lane();
  cudaStream_t st = ck_copy_stream(l);
  CK_TRY(staged_upload(l, dst_dev, src_host, bytes, st));
  CK_CUDA(cudaEventRecord(done, st), "copying to the device");
  return CK_OK;
}

ck_status ck_download_after(void *dst_host, const void *src_dev, size_t bytes, cudaEvent_t ready) {
  lane_t *l = lane();
  cudaStream_t st = ck_copy_stream(l);
  CK_CUDA(cudaStreamWaitEvent(st, ready, 0), "ordering a copy after a kernel");
  return staged_download(l, dst_host, src_dev, bytes, st);
}
