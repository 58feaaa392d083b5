/* Helpers shared by the kernels/ sources only (not part of the public C API). */
#ifndef CK_INTERNAL_H
#define CK_INTERNAL_H

#include <cuda_runtime_api.h>
#include <pthread.h>

#include "ck.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Map a CUDA error onto a ck_status, recording CUDA's message with what was being done. */
ck_status ck_cuda_status(cudaError_t e, const char *what);
/* The same, with CK_OK for cudaSuccess: for status chains, st = ck_cuda_check (call, what). */
ck_status ck_cuda_check(cudaError_t e, const char *what);

/* Fill a device array with integers 0..999 (as float/double) from a hash of the index and seed. */
ck_status ck_fill_random_device(ck_dtype t, void *p, size_t count, uint32_t seed);
/* The same of a kind (CK_DATA_*, ck.h). */
ck_status ck_fill_random_kind(ck_dtype t, void *p, size_t count, uint32_t seed, int kind);

/* The custom matmul kernels (matmul.cu) and cuBLAS (cublas_dl.c), on device arrays. */
ck_status ck_matmul_custom_device(const ck_product *p);
ck_status ck_cublas_gemm(ck_dtype t, const void *A, const void *B, void *C, int m, int k, int n);
/* count products of one shape, page q of each operand `stride_*` elements after page q - 1 (0:
 * one page for all): cuBLAS's strided batched gemm. */
ck_status ck_cublas_gemm_pages(ck_dtype t, const void *A, size_t stride_a, const void *B,
                               size_t stride_b, void *C, int m, int k, int n, size_t count);
/* A run of pages in one launch of the warptile matmul kernel (ck_batch_fn). */
ck_status ck_matmul_pages_custom(const ck_product *p, const ck_page_run *r, int *done);

void ck_device_forget(void);
/* Whether device dev has a context made by this package (what a reset must reset). */
int ck_device_used(int dev);
/* Let the current device read and write device peer's memory, its pool's blocks too, where the
 * GPUs allow it (otherwise copies between them go through the host, by the driver). */
void ck_device_peer(int peer);
/* The current device's multiprocessors, asked once per device (1 if it cannot be had). */
int ck_device_sms(void);
/* The shared memory a block of the current device may take (opting in), asked once per device
 * (48 KB if it cannot be had). */
size_t ck_device_block_smem(void);
/* ... and an SM holds for all its blocks (64 KB if it cannot be had). */
size_t ck_device_sm_smem(void);
/* Whether the current device launches thread-block clusters and `kernel` (a __global__
 * function) was built for a GPU that has them (a PTX build for an older one has no cluster
 * code); the callers keep the answer a device. */
int ck_clusters_built(const void *kernel);
/* Whether a kernel (its host-side function) runs on the current device as code compiled for
 * architecture `arch` (90: sm_90) or later: its binary, and the PTX it came from, where a build
 * for an older GPU (JIT-compiled here) has none of the code kept for newer ones. */
int ck_kernel_built(const void *kernel, int arch);
/* The same, asked once per device: known[CK_MAX_DEVICES] keeps the answers (0: not asked). */
int ck_kernel_built_here(const void *kernel, int arch, int *known);
/* Blocks of `threads` threads (and smem bytes of dynamic shared memory) of kernel that an SM of
 * the current device holds at once, asked once a device into known[CK_MAX_DEVICES] (1 where
 * the runtime cannot say, asked again next time). */
int ck_blocks_per_sm(const void *kernel, int threads, size_t smem, int *known);

/* Lanes (transfer.c): each host thread's staging buffers, copy stream, note and scratch on each
 * device. Slot 0 is the gateway's thread; a worker of a team (team.c) enters slot 1 + its
 * index, with the flag that tells it to stop early (another worker failed, or Ctrl-C). */
#define CK_LANES 9
void ck_lane_enter(int slot, const volatile int *stop);
int ck_lane_stopped(void); /* the stop flag is raised: finish quickly, the result is dropped */
int ck_lane_slot(void);
void ck_lanes_release(int dev); /* -1: every device's */
/* A team of workers over devices (team.c; spread.c's panels of a product, apsp_pages.c's runs of
 * pages): a host thread a worker, each in lane 1 + its index, with the stop flag they all read
 * (raised by a failure that `fatal` calls so, every one where it is NULL, and by Ctrl-C, which
 * the calling thread polls through `cancelled` while they work), and the count of the copies
 * out of a source device that its own worker waits for before it works there. */
typedef struct ck_team ck_team;
typedef struct {
  ck_team *team;
  void *job; /* the caller's */
  int dev;
  int copies; /* copies out of the source still to make: counted in the team's until done */
  ck_status s;
  char msg[512]; /* the failure's message */
  pthread_t thread;
  int started, slot;
} ck_worker;
struct ck_team {
  ck_status (*run)(ck_worker *w);
  int (*fatal)(ck_status s);
  int (*cancelled)(void *ctx);
  void *ctx;
  volatile int stop;
  int interrupted; /* `cancelled` said so */
  int copies_pending, running;
  pthread_mutex_t lock;
  pthread_cond_t changed;
};
#define CK_TEAM_INIT(run_fn) \
  { .run = (run_fn), .lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER }
/* Runs ws[0 .. count - 1] (their dev, job and copies set), each on a thread of its own, until
 * all are done; their outcomes are in ws[i].s and .msg. */
void ck_team_run(ck_team *t, ck_worker *ws, int count);
void ck_team_copies_done(ck_worker *w); /* this worker's copies are made (or will never be) */
/* bytes from device src_dev to dst_dev, queued on the current device's default stream */
ck_status ck_peer_copy(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes);
void ck_team_wait_for_copies(ck_team *t);
/* The first failure that is not a worker stopping because another failed (else the first of
 * those): its index, or -1 where all went well. */
int ck_team_first_failure(const ck_worker *ws, int count);

/* The lane's copy stream waits for the work queued so far on the default stream: copies into
 * memory just taken from the stream-ordered pool, which that work may have used last. */
ck_status ck_copies_after_kernels(void);
/* Device-side class conversion (convert.cu). */
ck_status ck_convert_device(ck_dtype from, const void *src, ck_dtype to, void *dst, size_t count);
/* Free all tracked device allocations' bookkeeping after a device reset (ck_device.c). */
void ck_dev_forget_all(void);

/* A product on host arrays (p's pointers): allocate, upload (staged), run `fn` on the device
 * copies, download, free. */
ck_status ck_host_product(ck_product_fn *fn, const ck_product *p);

/* The random device operands a timing runs on: `pages` pages of A and B (of kind tm->data)
 * and of C, in d (a copy of p, K NULL); freed by ck_free_operands, also after a failure. */
ck_status ck_random_operands(const ck_product *p, size_t pages, const ck_timing *tm, ck_product *d);
void ck_free_operands(ck_product *d);

/* Pipelined transfers on the package's copy stream (non-blocking), beside kernels on the default
 * stream: ck_upload_async records `done` when the data is on the device (it returns once the host
 * data has been read); ck_download_after starts when `ready` has fired and returns with the data
 * in host memory. */
ck_status ck_upload_async(void *dst_dev, const void *src_host, size_t bytes, cudaEvent_t done);
ck_status ck_download_after(void *dst_host, const void *src_dev, size_t bytes, cudaEvent_t ready);

/* Reading a few values (up to CK_NOTE_BYTES) back from the device: ck_note_mark marks the work
 * queued so far on the default stream; ck_read_note then queues a copy into a small pinned host
 * buffer (*buf) behind the mark, on a stream of its own, so that work queued on the default
 * stream after the mark does not wait for it (on the default stream, a kernel queued after the
 * copy waited for it), and the copy's own API calls may come after that work is queued; *ready
 * fires when the values are in *buf. CK_ERR_CUDA when either cannot be had (the caller then
 * copies synchronously, after all it queued). Released with the staging buffers. */
#define CK_NOTE_BYTES 64
ck_status ck_note_mark(void);
ck_status ck_read_note(const void *src_dev, size_t bytes, void **buf, cudaEvent_t *ready);
/* The host waits for the work queued before the lane's last mark (ck_note_mark), where a kernel
 * left its values in host words (ck_device_flags) rather than in device memory to copy back. */
ck_status ck_note_wait(void);

/* A few bytes of device memory kept across calls (CK_SCRATCH_BYTES a slot), for state that a
 * kernel carries from one call to the next instead of being allocated and cleared on every call,
 * with one host word beside it: both zero when first handed out, then as the last user left
 * them. A slot for each user, one set per lane; outside the tracked allocations
 * (ck_dev_bytes_in_use); released with the lane, and so at a reset. */
#define CK_SCRATCH_BYTES 128
enum {
  CK_SCRATCH_RANGES, /* the integer products' range record (minplus_ranges.cuh) */
  CK_SCRATCH_APSP,   /* a guessed run of pages' findings, a graph's survey (apsp.cu, ap_kept) */
  CK_SCRATCH_SLOTS
};
ck_status ck_device_scratch(int slot, void **p, long long **word);

/* Host words a kernel may set (pinned and mapped: *dev is their address on the device), so that
 * a call leaves word for a later one without the host waiting for the kernel: CK_FLAG_WORDS of
 * them, zero when first handed out, then as the last user left them. One set per lane, released
 * with it. */
#define CK_FLAG_WORDS 32
enum {
  CK_FLAGS_MISSED = 0,  /* 8 words: the DPX products' missed guesses (minplus_dpx_run.cuh) */
  CK_FLAGS_SURVEY = 16, /* 16 words: a graph's survey, its facts (apsp_survey.cuh) */
};
ck_status ck_device_flags(volatile int **host, int **dev);

/* At least `count` pinned host words for one call's device-to-host copies (the rounds' flags):
 * pinning costs about as much as a small call, so the lane keeps them. Their values are the
 * caller's to set. Released with the lane. */
ck_status ck_host_words(int **words, size_t count);

/* Device memory a new allocation can have now: free memory plus what the pool holds unused,
 * within the test limit. */
size_t ck_dev_budget(void);

/* C = ADD(C, Ct) of semiring s with Octave's rules, K = Kt + k0 where Ct wins (minplus.cu):
 * slices of k. */
ck_status ck_minplus_merge_device(ck_semiring s, ck_dtype t, void *dC, double *dK, const void *dCt,
                                  const double *dKt, size_t count, size_t k0);

/* One device's share of a shortest-path call (apsp_host.c plans the shares, apsp.cu runs them):
 * rows r0 .. r0 + rows - 1 of the work matrix (whole pivot blocks of the padded n), which hold
 * W's columns r0 .. r0 + cols - 1 (cols: those below n, at least one); W, D and P (NULL: no
 * paths) point at those columns, on device dev. D may be W. */
typedef struct {
  int dev;
  size_t r0, rows, cols;
  const void *W;
  void *D;
  int32_t *P;
} ck_apsp_part;
ck_status ck_apsp_parts(ck_apsp_args *a, const ck_apsp_part *parts, int count);
size_t ck_apsp_block(void);   /* the pivot block: the shares' unit */
size_t ck_apsp_batch_n(void); /* the largest graph the batched kernel takes (apsp_batch.cu) */
/* ... and the largest the tiled kernel takes, pages of D alone (apsp_batch_tiled.cu) */
size_t ck_apsp_tiles_n(void);
/* A call with pages (apsp_pages.c): batched on the device, or page by page. */
ck_status ck_apsp_pages(ck_apsp_args *a, ck_where where);

/* ---- plans (plan.c): the executors' side ----
 * The plan a thread carries out: bound by ck_minplus_device for its product (from p->plan), so
 * that the families below it note what they found (the notes do nothing where none is bound). */
ck_plan *ck_plan_bind(ck_plan *pl); /* returns the one bound before */
/* run(p) with p->plan bound (none: run(p) alone), noted as the call's first device product
 * where it was not bound before, and the plan bound before restored. */
ck_status ck_plan_run_bound(ck_product_fn *run, const ck_product *p);
ck_plan *ck_plan_bound(void);
void ck_plan_keep(const ck_plan *pl); /* as the last plan */
/* A share of a call run on its own (a device's columns, a page through the 2-D host path):
 * the call's plan with the share's sizes, and its move planned on the current device. */
ck_status ck_plan_share(const ck_plan *call, const ck_product *share, ck_plan *pl);
/* A share's findings into the call's plan (the first device product's; page counts add). */
void ck_plan_merge(ck_plan *into, const ck_plan *from);
/* CK_ERR_INVALID unless shortest paths take class t. */
ck_status ck_apsp_check_class(ck_dtype t);
/* The words of a path problem that passed ck_apsp_check: its paths ("shortest", "widest", ...),
 * the weights it refuses, and the error of a path through vertex i (0-based) better than any
 * bound, a cycle better than the empty path or (self) a weight to itself better than it, with
 * a->cycle_vertex set. */
const char *ck_apsp_paths(ck_semiring s);
const char *ck_apsp_refused(ck_semiring s);
ck_status ck_apsp_unbounded(ck_apsp_args *a, size_t i, int self);
/* What a product with no plan decides: the look for the integer paths, the pages mode. */
int ck_plan_narrow_default(const ck_product *p);
int ck_plan_pages_mode(const ck_plan *pl); /* pl's, or the setting where pl is NULL */
/* A device product's findings: the class it runs in (first: the rest back to none), the words
 * its arithmetic ran on, how it learned its shifts, whether it read its operands as they are;
 * the warptile's block tile and split (1, 1: none). */
void ck_plan_note_class(ck_dtype work);
void ck_plan_note_path(ck_words words, ck_shifts shifts, int raw);
void ck_plan_note_tiles(int bm, int bn, int bk, int split, int clusters);
void ck_plan_note_shifts(ck_shifts shifts);
/* pl's first device product is done: later products of the call note nothing. */
void ck_plan_noted(ck_plan *pl);

/* A host-array call's look at A for the integer paths and A's narrowed copies, made once and
 * kept in pl->narrow_a for all its panels (minplus_narrow.cu); dA is the device copy of A, the
 * same for every panel. Nothing when the plan does not narrow. */
void ck_narrow_a_begin(ck_plan *pl, const void *dA);
void ck_narrow_a_end(ck_plan *pl);

/* Time `run(ctx)` with CUDA events on the default stream: `warmup` untimed runs, then `reps` timed
 * ones into times_ms. */
typedef ck_status ck_timed_fn(void *ctx);
ck_status ck_time_events(ck_timed_fn *run, void *ctx, int warmup, int reps, double *times_ms);
/* The median of v[0..n-1] (the upper one for even n), which it sorts. */
double ck_median(double *v, int n);
/* The same with `calls` runs back to back between the events, times_ms per run. */
ck_status ck_time_calls(ck_timed_fn *run, void *ctx, int warmup, int reps, int calls,
                        double *times_ms);

#ifdef __cplusplus
}
#endif

/* Return early from a ck_status function on a CUDA failure. */
#define CK_CUDA(call, what)                                       \
  do {                                                            \
    cudaError_t ck_e_ = (call);                                   \
    if (ck_e_ != cudaSuccess) return ck_cuda_status(ck_e_, what); \
  } while (0)

/* Propagate a ck_status failure. */
#define CK_TRY(call)                  \
  do {                                \
    ck_status ck_s_ = (call);         \
    if (ck_s_ != CK_OK) return ck_s_; \
  } while (0)

#endif
