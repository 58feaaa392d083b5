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
#include <string.h>

#include "ck_internal.h"

#include "plan_policy.h"

typedef struct {
  ck_team team;      /* first: a worker's team is its plan */
  ck_product_fn *fn; /* host product, or device product */
  const ck_product *p;
  int on_device; /* the operands are device arrays on device `source` */
  int source;
  int copy_always; /* tests: copy the operands even to their own device */
  /* Device operands: the workers that copy them have not all got their copies yet (the team's
   * count). The source's own panel waits for them: a copy out of the source device queued behind
   * the source's product waited for the whole product (two H200s: int16 min-plus on gpu_arrays
   * ran its two halves one after the other, 0.96x of one GPU; 1.87x with the wait; single stayed
   * at 0.98x, see doc/multigpu.md). */
} spread_plan;

/* A worker's panel: columns j0 .. j0 + cols - 1 of B, C and K. */
typedef struct {
  ck_plan share; /* the call's plan for this worker's panel, planned on its device */
  size_t j0, cols;
} panel;

static spread_plan *plan_of(const ck_worker *w) { return (spread_plan *)w->team; }

/* This worker's product: the plan's, on its panel's columns. */
static ck_product panel_of(const ck_worker *w) {
  const ck_product *p = plan_of(w)->p;
  const panel *pn = w->job;
  const size_t es = ck_dtype_size(p->t);
  ck_product q = *p;
  q.B = (const char *)p->B + pn->j0 * p->k * es;
  q.C = (char *)p->C + pn->j0 * p->m * es;
  q.K = p->K ? p->K + pn->j0 * p->m : NULL;
  q.n = pn->cols;
  return q;
}

/* A device panel on another device than its operands': copy in, compute, copy out. */
static ck_status copied_panel(ck_worker *w, const ck_product *q) {
  const spread_plan *pl = plan_of(w);
  const size_t es = ck_dtype_size(q->t), m = q->m, k = q->k, n = q->n;
  ck_device_peer(pl->source);
  ck_product d = *q;
  void *dA = NULL, *dB = NULL, *dC = NULL, *dK = NULL;
  ck_status s;
  if ((s = ck_dev_alloc(&dA, m * k * es)) == CK_OK &&
      (s = ck_dev_alloc(&dB, k * n * es)) == CK_OK &&
      (s = ck_dev_alloc(&dC, m * n * es)) == CK_OK &&
      (!q->K || (s = ck_dev_alloc(&dK, m * n * sizeof(double))) == CK_OK) &&
      (s = ck_peer_copy(dA, w->dev, q->A, pl->source, m * k * es)) == CK_OK &&
      (s = ck_peer_copy(dB, w->dev, q->B, pl->source, k * n * es)) == CK_OK &&
      (s = ck_cuda_check(cudaStreamSynchronize(0), "copying the operands")) == CK_OK) {
    ck_team_copies_done(w);
    d.A = dA;
    d.B = dB;
    d.C = dC;
    d.K = dK;
    if ((s = pl->fn(&d)) == CK_OK &&
        (s = ck_peer_copy(q->C, pl->source, dC, w->dev, m * n * es)) == CK_OK && q->K)
      s = ck_peer_copy(q->K, pl->source, dK, w->dev, m * n * sizeof(double));
  }
  if (s == CK_OK) s = ck_cuda_check(cudaStreamSynchronize(0), "finishing a device's panel");
  if (s != CK_OK) cudaDeviceSynchronize(); /* nothing may still use the buffers below */
  ck_dev_free(dA);
  ck_dev_free(dB);
  ck_dev_free(dC);
  ck_dev_free(dK);
  return s;
}

static ck_status run_panel(ck_worker *w) {
  spread_plan *pl = plan_of(w);
  panel *pn = w->job;
  /* explicitly, even for device 0 (a new thread's default): the libraries loaded beside the
   * package (cuBLAS) find the device's context current in this thread */
  CK_CUDA(cudaSetDevice(w->dev), "selecting a device");
  CK_TRY(ck_device_use(w->dev));
  ck_product q = panel_of(w);
  if (q.plan) {
    CK_TRY(ck_plan_share(q.plan, &q, &pn->share));
    q.plan = &pn->share;
  }
  if (!pl->on_device) return pl->fn(&q);
  if (w->dev == pl->source && !pl->copy_always) {
    ck_team_wait_for_copies(&pl->team);
    CK_TRY(pl->fn(&q));
    return ck_cuda_check(cudaStreamSynchronize(0), "finishing a device's panel");
  }
  return copied_panel(w, &q);
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
  ck_worker ws[CK_SPREAD_WORKERS];
  panel panels[CK_SPREAD_WORKERS];
  int count = 0;
  for (; count < d->count && (size_t)count * share < p->n; count++) {
    ck_worker *w = &ws[count];
    panel *pn = &panels[count];
    memset(w, 0, sizeof *w);
    memset(pn, 0, sizeof *pn);
    w->job = pn;
    w->dev = d->devices[count];
    pn->j0 = (size_t)count * share;
    pn->cols = p->n - pn->j0 < share ? p->n - pn->j0 : share;
    w->copies = pl->on_device && (w->dev != pl->source || pl->copy_always);
  }
  ck_team_run(&pl->team, ws, count);
  for (int i = 0; p->plan && i < count; i++) ck_plan_merge(p->plan, &panels[i].share);
  const int f = ck_team_first_failure(ws, count);
  if (f < 0) return CK_OK;
  return ck_fail(ws[f].s, "on device %d: %s", ws[f].dev + 1, ws[f].msg);
}

/* One device, the current one, and no copies asked for: the one-device call itself. */
static int just_here(const ck_devices *d) {
  return d->count == 1 && d->devices[0] == ck_device_current() && !d->copy_always;
}

ck_status ck_spread_host(ck_product_fn *host_fn, const ck_product *p, const ck_devices *d) {
  if (just_here(d)) return host_fn(p);
  spread_plan pl = {.team = CK_TEAM_INIT(run_panel), .fn = host_fn, .p = p, .source = -1};
  return spread(&pl, d);
}

ck_status ck_spread_device(ck_product_fn *device_fn, const ck_product *p, const ck_devices *d) {
  if (just_here(d)) return device_fn(p);
  spread_plan pl = {.team = CK_TEAM_INIT(run_panel),
                    .fn = device_fn,
                    .p = p,
                    .on_device = 1,
                    .source = ck_device_current(),
                    .copy_always = d->copy_always};
  CK_TRY(ck_device_init());
  return spread(&pl, d);
}
