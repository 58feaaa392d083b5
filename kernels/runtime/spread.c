/* Products spread over several devices. C's columns are cut into one panel per worker, whole tiles
 * wide, and a host thread per worker runs the one-device code on its panel on its device:
 *   - host operands: the one-device host product (ck_minplus, ck_matmul) on the worker's columns
 *     of B, C and K, which are contiguous in column-major order, so each device copies the whole
 *     A once and only its own columns of B, and pipelines them as it would alone;
 *   - device operands (living on one device, the source): the worker on the source device works
 *     on its panel in place; every other worker copies A and its panel of B from the source
 *     (peer to peer where the GPUs allow it, through the host otherwise, both by the driver),
 *     computes, and copies its panel of C (and K) back.
 * Every column of C depends only on A and that column of B, so the result is the one-device
 * result: min-plus bit for bit (each panel may take its own integer path, which never changes an
 * answer), matmul within the same bound (cuBLAS may choose another algorithm for a narrower
 * panel). A failure on one worker raises a flag the others read between their panels; all free
 * what they hold, and the first real failure is reported. The devices are the call's plan's
 * (plan.c); each worker plans its panel on its own device (ck_plan_share). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "ck_internal.h"

#include "plan_policy.h"

typedef struct {
  ck_product_fn *fn; /* host product, or device product */
  const ck_product *p;
  int on_device; /* the operands are device arrays on device `source` */
  int source;
  int copy_always; /* tests: copy the operands even to their own device */
  volatile int stop;
  /* Device operands: the workers that copy them have not all got their copies yet. The source's
   * own panel waits for them: a copy out of the source device queued behind the source's product
   * waited for the whole product (two H200s: int16 min-plus on gpu_arrays ran its two halves one
   * after the other, 0.96x of one GPU; 1.87x with the wait; single stayed at 0.98x, see
   * doc/multigpu.md). */
  int copies_pending;
  pthread_mutex_t lock;
  pthread_cond_t copied;
} spread_plan;

typedef struct {
  spread_plan *plan;
  ck_plan share; /* the call's plan for this worker's panel, planned on its device */
  int slot, dev;
  int copies; /* counted in plan->copies_pending, and not yet done */
  size_t j0, cols;
  ck_status s;
  char msg[512];
  pthread_t thread;
  int started;
} worker;

/* This worker's product: the plan's, on columns j0 .. j0 + cols - 1 of B, C and K. */
static ck_product panel_of(const worker *w) {
  const ck_product *p = w->plan->p;
  const size_t es = ck_dtype_size(p->t);
  ck_product q = *p;
  q.B = (const char *)p->B + w->j0 * p->k * es;
  q.C = (char *)p->C + w->j0 * p->m * es;
  q.K = p->K ? p->K + w->j0 * p->m : NULL;
  q.n = w->cols;
  return q;
}

static ck_status peer_copy(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes) {
  if (bytes == 0) return CK_OK;
  CK_CUDA(cudaMemcpyPeerAsync(dst, dst_dev, src, src_dev, bytes, 0), "copying between devices");
  return CK_OK;
}

/* This worker's copies of the operands are done (or will never be): tell the source's panel. */
static void copies_done(worker *w) {
  spread_plan *pl = w->plan;
  if (!w->copies) return;
  w->copies = 0;
  pthread_mutex_lock(&pl->lock);
  pl->copies_pending--;
  pthread_cond_broadcast(&pl->copied);
  pthread_mutex_unlock(&pl->lock);
}

static void wait_for_copies(spread_plan *pl) {
  pthread_mutex_lock(&pl->lock);
  while (pl->copies_pending > 0 && !pl->stop) pthread_cond_wait(&pl->copied, &pl->lock);
  pthread_mutex_unlock(&pl->lock);
}

/* A device panel on another device than its operands': copy in, compute, copy out. */
static ck_status copied_panel(worker *w, const ck_product *q) {
  const spread_plan *pl = w->plan;
  const size_t es = ck_dtype_size(q->t), m = q->m, k = q->k, n = q->n;
  ck_device_peer(pl->source);
  ck_product d = *q;
  void *dA = NULL, *dB = NULL, *dC = NULL, *dK = NULL;
  ck_status s;
  if ((s = ck_dev_alloc(&dA, m * k * es)) == CK_OK &&
      (s = ck_dev_alloc(&dB, k * n * es)) == CK_OK &&
      (s = ck_dev_alloc(&dC, m * n * es)) == CK_OK &&
      (!q->K || (s = ck_dev_alloc(&dK, m * n * sizeof(double))) == CK_OK) &&
      (s = peer_copy(dA, w->dev, q->A, pl->source, m * k * es)) == CK_OK &&
      (s = peer_copy(dB, w->dev, q->B, pl->source, k * n * es)) == CK_OK &&
      (s = ck_cuda_check(cudaStreamSynchronize(0), "copying the operands")) == CK_OK) {
    copies_done(w);
    d.A = dA;
    d.B = dB;
    d.C = dC;
    d.K = dK;
    if ((s = pl->fn(&d)) == CK_OK &&
        (s = peer_copy(q->C, pl->source, dC, w->dev, m * n * es)) == CK_OK && q->K)
      s = peer_copy(q->K, pl->source, dK, w->dev, m * n * sizeof(double));
  }
  if (s == CK_OK) s = ck_cuda_check(cudaStreamSynchronize(0), "finishing a device's panel");
  if (s != CK_OK) cudaDeviceSynchronize(); /* nothing may still use the buffers below */
  ck_dev_free(dA);
  ck_dev_free(dB);
  ck_dev_free(dC);
  ck_dev_free(dK);
  return s;
}

static ck_status run_panel(worker *w) {
  spread_plan *pl = w->plan;
  /* explicitly, even for device 0 (a new thread's default): the libraries loaded beside the
   * package (cuBLAS) find the device's context current in this thread */
  CK_CUDA(cudaSetDevice(w->dev), "selecting a device");
  CK_TRY(ck_device_use(w->dev));
  ck_product q = panel_of(w);
  if (q.plan) {
    CK_TRY(ck_plan_share(q.plan, &q, &w->share));
    q.plan = &w->share;
  }
  if (!pl->on_device) return pl->fn(&q);
  if (w->dev == pl->source && !pl->copy_always) {
    wait_for_copies(pl);
    CK_TRY(pl->fn(&q));
    return ck_cuda_check(cudaStreamSynchronize(0), "finishing a device's panel");
  }
  return copied_panel(w, &q);
}

static void *work(void *arg) {
  worker *w = arg;
  ck_lane_enter(w->slot, &w->plan->stop);
  w->s = run_panel(w);
  if (w->s != CK_OK) {
    snprintf(w->msg, sizeof w->msg, "%s", ck_last_error());
    w->plan->stop = 1;
  }
  copies_done(w); /* after a failure too: the source's panel must not wait for it */
  ck_lane_enter(0, NULL);
  return NULL;
}

/* The first failure that is not a worker stopping because another failed. */
static ck_status first_failure(const worker *ws, int count) {
  const worker *stopped = NULL;
  for (int i = 0; i < count; i++) {
    if (ws[i].s == CK_OK) continue;
    if (ws[i].s != CK_ERR_INTERRUPTED)
      return ck_fail(ws[i].s, "on device %d: %s", ws[i].dev + 1, ws[i].msg);
    if (!stopped) stopped = &ws[i];
  }
  if (stopped) return ck_fail(stopped->s, "on device %d: %s", stopped->dev + 1, stopped->msg);
  return CK_OK;
}

ck_status ck_devices_check(const ck_devices *d) {
  if (d->count < 1 || d->count > CK_SPREAD_WORKERS)
    return ck_fail(CK_ERR_INVALID, "work is spread over 1 to %d devices", CK_SPREAD_WORKERS);
  for (int i = 0; i < d->count; i++)
    if (d->devices[i] < 0 || d->devices[i] >= ck_device_count())
      return ck_fail(CK_ERR_INVALID, "there is no device %d: the devices are 1 to %d",
                     d->devices[i] + 1, ck_device_count());
  return CK_OK;
}

static ck_status spread(spread_plan *pl, const ck_devices *d) {
  const ck_product *p = pl->p;
  CK_TRY(ck_devices_check(d));
  if (p->m == 0 || p->n == 0) return CK_OK;
  if (pl->on_device) /* the workers' copies start on other streams: the operands must be ready */
    CK_CUDA(cudaDeviceSynchronize(), "waiting for the operands");
  size_t share = (p->n + (size_t)d->count - 1) / (size_t)d->count;
  share = (share + CK_PANEL_TILE - 1) / CK_PANEL_TILE * CK_PANEL_TILE;
  worker ws[CK_SPREAD_WORKERS];
  int count = 0;
  for (; count < d->count && (size_t)count * share < p->n; count++) {
    worker *w = &ws[count];
    memset(w, 0, sizeof *w);
    w->plan = pl;
    w->slot = 1 + count;
    w->dev = d->devices[count];
    w->j0 = (size_t)count * share;
    w->cols = p->n - w->j0 < share ? p->n - w->j0 : share;
    w->copies = pl->on_device && (w->dev != pl->source || pl->copy_always);
    pl->copies_pending += w->copies;
  }
  for (int i = 0; i < count; i++) { /* every count is known before a thread may wait on it */
    worker *w = &ws[i];
    w->started = pthread_create(&w->thread, NULL, work, w) == 0;
    if (!w->started) {
      w->s = ck_fail(CK_ERR_CUDA, "could not start a thread for device %d", w->dev + 1);
      snprintf(w->msg, sizeof w->msg, "%s", ck_last_error());
      pl->stop = 1;
      copies_done(w);
    }
  }
  for (int i = 0; i < count; i++)
    if (ws[i].started) pthread_join(ws[i].thread, NULL);
  for (int i = 0; p->plan && i < count; i++) ck_plan_merge(p->plan, &ws[i].share);
  return first_failure(ws, count);
}

/* One device, the current one, and no copies asked for: the one-device call itself. */
static int just_here(const ck_devices *d) {
  return d->count == 1 && d->devices[0] == ck_device_current() && !d->copy_always;
}

ck_status ck_spread_host(ck_product_fn *host_fn, const ck_product *p, const ck_devices *d) {
  if (just_here(d)) return host_fn(p);
  spread_plan pl = {.fn = host_fn,
                    .p = p,
                    .source = -1,
                    .lock = PTHREAD_MUTEX_INITIALIZER,
                    .copied = PTHREAD_COND_INITIALIZER};
  return spread(&pl, d);
}

ck_status ck_spread_device(ck_product_fn *device_fn, const ck_product *p, const ck_devices *d) {
  if (just_here(d)) return device_fn(p);
  spread_plan pl = {.fn = device_fn,
                    .p = p,
                    .on_device = 1,
                    .source = ck_device_current(),
                    .copy_always = d->copy_always,
                    .lock = PTHREAD_MUTEX_INITIALIZER,
                    .copied = PTHREAD_COND_INITIALIZER};
  CK_TRY(ck_device_init());
  return spread(&pl, d);
}
