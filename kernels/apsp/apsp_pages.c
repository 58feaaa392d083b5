/* Paged all-pairs path calls (ck.h, ck_apsp_args.pages): W, D and P hold many graphs of n
 * vertices, n*n each, one after the other, and each page is its own call. Where the plan names
 * several devices, each takes a run of whole pages, on a thread of its own (ck_team), and runs
 * them as one device would: host arrays uploaded by each, device arrays in place on theirs and
 * copied to the others (peer to peer where the GPUs allow it).
 *
 * On the GPU, graphs of up to ck_apsp_batch_n () vertices run on the batched kernels
 * (apsp_batch.cu), D alone of up to ck_apsp_tiles_n () on the tiled kernel where it takes
 * them, and the others, where the plan has graphs by tiles, as many graphs by tiles
 * (apsp_graph_tiled.cu, with P apsp_graph_paths.cu; where their work type is not taken, one by
 * one on the rounds), every page of the call in one launch or a few (apsp_pages_run.cuh,
 * ap_run_pages, ap_run_graph_pages): device arrays whole and in place, host arrays in runs of
 * pages that fit a share of the device's free memory, each run uploaded, closed and downloaded.
 * Larger graphs, and the "cpu" kernel, run page by page as 2-D calls. An error about one page
 * (an unbounded cycle) names it. */
#include <string.h>

#include "ck_internal.h"

/* The share of the device's free memory that one run of host pages may take. */
#define PAGES_MEMORY_SHARE 4

/* Page q's pointers in args b, from the call's. */
static void at_page(ck_apsp_args *b, const ck_apsp_args *a, size_t q) {
  const size_t nn = a->n * a->n, es = ck_dtype_size(a->t);
  b->W = (const char *)a->W + q * nn * es;
  b->D = (char *)a->D + q * nn * es;
  b->P = a->P ? a->P + q * nn : NULL;
}

/* Each page as a 2-D call of its own; the first that fails ends the call, named. */
static ck_status page_by_page(ck_apsp_args *a, ck_where where) {
  ck_status s = CK_OK;
  for (size_t q = 0; s == CK_OK && q < a->pages; q++) {
    ck_apsp_args b = *a;
    b.pages = 0;
    b.page = a->page0 + q + 1; /* the page an unbounded cycle's error names */
    at_page(&b, a, q);
    if (a->kernel == CK_APSP_CPU) s = ck_apsp_cpu(&b);
    else s = where == CK_ON_HOST ? ck_apsp(&b) : ck_apsp_device(&b);
    a->cycle_vertex = b.cycle_vertex;
    a->page = b.page;
  }
  if (a->plan) a->plan->single_pages = a->pages;
  return s;
}

/* One run of pages already on the device, on the current device. */
static ck_status run_batch(ck_apsp_args *a, const void *W, void *D, int32_t *P) {
  ck_apsp_part part;
  memset(&part, 0, sizeof part);
  part.dev = ck_device_current();
  part.rows = part.cols = a->n;
  part.W = W;
  part.D = D;
  part.P = P;
  return ck_apsp_parts(a, &part, 1);
}

/* Host pages in runs: each uploaded, closed and downloaded. W stays apart from D: a call whose
 * guessed work type missed runs again from W (apsp.cu, ap_guess). */
static ck_status host_batches(ck_apsp_args *a) {
  const size_t nn = a->n * a->n, es = ck_dtype_size(a->t);
  /* W, D, the work values' copy (at most a double a value), P */
  const size_t per_page = nn * (2 * es + sizeof(double) + (a->P ? sizeof(int32_t) : 0));
  size_t run = ck_dev_budget() / PAGES_MEMORY_SHARE / per_page;
  if (run < 1) run = 1;
  if (run > a->pages) run = a->pages;
  void *W = NULL, *D = NULL;
  int32_t *P = NULL;
  ck_status s = ck_dev_alloc(&W, run * nn * es);
  if (s == CK_OK) s = ck_dev_alloc(&D, run * nn * es);
  if (s == CK_OK && a->P) s = ck_dev_alloc((void **)&P, run * nn * sizeof(int32_t));
  size_t runs = 0, singles = 0;
  for (size_t q0 = 0; s == CK_OK && q0 < a->pages; q0 += run) {
    ck_apsp_args b = *a;
    b.pages = a->pages - q0 < run ? a->pages - q0 : run;
    b.page0 = a->page0 + q0;
    at_page(&b, a, q0);
    s = ck_upload(W, b.W, b.pages * nn * es);
    if (s == CK_OK) s = run_batch(&b, W, D, P);
    if (s == CK_OK) s = ck_download(b.D, D, b.pages * nn * es);
    if (s == CK_OK && P) s = ck_download(b.P, P, b.pages * nn * sizeof(int32_t));
    a->cycle_vertex = b.cycle_vertex;
    a->page = b.page;
    runs += a->plan ? a->plan->batched_runs : 0;
    singles += a->plan ? a->plan->single_pages : 0;
  }
  ck_dev_free(W);
  ck_dev_free(D);
  ck_dev_free(P);
  if (a->plan) a->plan->batched_runs = runs, a->plan->single_pages = singles;
  return s;
}

/* Whether the plan runs the call on the current device alone: pages past the batched kernels
 * that run as 2-D calls keep the devices those calls would share. */
static int on_current_device(const ck_apsp_args *a) {
  const ck_devices *d = a->plan ? &a->plan->devices : NULL;
  return !d || d->count == 0 || (d->count == 1 && d->devices[0] == ck_device_current());
}

/* ---- pages shared among devices: a run of whole pages each, on a thread of its own ---- */

/* A worker's run of pages. */
typedef struct {
  ck_apsp_args b; /* its pages of the call's arrays */
  ck_plan plan;   /* the call's, on the worker's device alone */
  ck_where where;
  int source, copy_always; /* device arrays: where they live; copied to every worker (tests) */
} page_run;

/* Whether the plan shares the call's pages among devices (ck_plan_apsp). */
static int shared(const ck_apsp_args *a) {
  return a->plan && a->plan->devices.count > 1 && a->pages > 1 && a->kernel == CK_APSP_GPU &&
         a->n <= ck_apsp_tiles_n();
}

/* Ctrl-C reaches a worker through the team's stop flag, which the calling thread raises. */
static int stopped(void *ctx) {
  (void)ctx;
  return ck_lane_stopped();
}

/* An error about the pages' weights (an unbounded cycle, a refused weight), which one device
 * gives in the same words. The other runs go on after it: the call reports the one that one
 * device would (reported). */
static int about_the_weights(ck_status s) {
  return s == CK_ERR_NEGCYCLE || s == CK_ERR_POSCYCLE || s == CK_ERR_INVALID;
}
static int stops_the_others(ck_status s) { return !about_the_weights(s); }

/* Device pages on another device than their own (or copied to it, tests): their weights copied
 * in, run there, D and P copied back. */
static ck_status copied_run(ck_worker *w, page_run *r) {
  ck_apsp_args *b = &r->b, c = r->b;
  const size_t count = b->pages * b->n * b->n, es = ck_dtype_size(b->t);
  ck_device_peer(r->source);
  void *W = NULL, *D = NULL;
  int32_t *P = NULL;
  ck_status s = ck_dev_alloc(&W, count * es);
  if (s == CK_OK) s = ck_dev_alloc(&D, count * es);
  if (s == CK_OK && b->P) s = ck_dev_alloc((void **)&P, count * sizeof(int32_t));
  if (s == CK_OK) s = ck_peer_copy(W, w->dev, b->W, r->source, count * es);
  if (s == CK_OK) s = ck_cuda_check(cudaStreamSynchronize(0), "copying the weights");
  ck_team_copies_done(w);
  if (s == CK_OK) {
    c.W = W, c.D = D, c.P = P;
    s = ck_apsp_pages(&c, CK_ON_DEVICE);
    b->page = c.page, b->cycle_vertex = c.cycle_vertex;
  }
  if (s == CK_OK) s = ck_peer_copy(b->D, r->source, D, w->dev, count * es);
  if (s == CK_OK && P) s = ck_peer_copy(b->P, r->source, P, w->dev, count * sizeof(int32_t));
  if (s == CK_OK) s = ck_cuda_check(cudaStreamSynchronize(0), "copying the paths back");
  if (s != CK_OK) (void)cudaDeviceSynchronize(); /* nothing may still use the pieces */
  ck_dev_free(W);
  ck_dev_free(D);
  ck_dev_free(P);
  return s;
}

static ck_status run_share(ck_worker *w) {
  page_run *r = w->job;
  CK_CUDA(cudaSetDevice(w->dev), "selecting a device"); /* a new thread's, device 0 too */
  CK_TRY(ck_device_use(w->dev));
  if (r->where == CK_ON_HOST) return ck_apsp_pages(&r->b, CK_ON_HOST);
  if (w->dev != r->source || r->copy_always) return copied_run(w, r);
  /* the source's own pages wait for the others' copies, which would wait behind its kernels */
  ck_team_wait_for_copies(w->team);
  CK_TRY(ck_apsp_pages(&r->b, CK_ON_DEVICE));
  return ck_cuda_check(cudaStreamSynchronize(0), "closing the graphs");
}

/* Run i of count: pages as even as they come, in the devices' order. */
static void plan_run(page_run *r, const ck_apsp_args *a, ck_where where, int source, int i,
                     int count, size_t q0) {
  const ck_devices *d = &a->plan->devices;
  memset(r, 0, sizeof *r);
  r->b = *a;
  r->b.pages = a->pages / (size_t)count + ((size_t)i < a->pages % (size_t)count);
  r->b.page0 = a->page0 + q0;
  at_page(&r->b, a, q0);
  r->b.cancelled = stopped; /* the callers' poll is the calling thread's */
  r->b.progress = NULL;
  r->b.devices = NULL;
  r->plan = *a->plan;
  memset(&r->plan.devices, 0, sizeof r->plan.devices);
  r->plan.devices.count = 1;
  r->plan.devices.devices[0] = d->devices[i];
  r->plan.looks_ahead = r->plan.rounds > 1;
  r->plan.batched_runs = r->plan.single_pages = 0;
  r->b.plan = &r->plan;
  r->where = where;
  r->source = source;
  r->copy_always = d->copy_always;
}

/* The run whose failure the call reports, as one device would: where the runs closed their pages
 * all at once, a refused weight in any run (the kernels look at every weight before the call
 * names a cycle); after Ctrl-C the interruption; else the first failure in page order (page by
 * page, one device stops at the first page that fails), but for runs another one stopped. -1:
 * none failed. */
static int reported(const ck_worker *ws, const page_run *runs, int count, const ck_team *t) {
  int at_once = 1;
  for (int i = 0; i < count; i++) at_once &= runs[i].plan.single_pages == 0;
  for (int i = 0; at_once && i < count; i++)
    if (ws[i].s == CK_ERR_INVALID) return i;
  for (int i = 0; t->interrupted && i < count; i++)
    if (ws[i].s == CK_ERR_INTERRUPTED) return i;
  return ck_team_first_failure(ws, count);
}

static ck_status pages_shared(ck_apsp_args *a, ck_where where) {
  const ck_devices *d = &a->plan->devices;
  CK_TRY(ck_devices_check(d));
  if (where == CK_ON_DEVICE) /* the other devices' copies start on their streams */
    CK_CUDA(cudaDeviceSynchronize(), "waiting for the weights");
  const int source = ck_device_current(),
            count = (size_t)d->count < a->pages ? d->count : (int)a->pages;
  ck_worker ws[CK_SPREAD_WORKERS];
  page_run runs[CK_SPREAD_WORKERS];
  size_t q0 = 0;
  for (int i = 0; i < count; i++) {
    plan_run(&runs[i], a, where, source, i, count, q0);
    q0 += runs[i].b.pages;
    memset(&ws[i], 0, sizeof ws[i]);
    ws[i].job = &runs[i];
    ws[i].dev = d->devices[i];
    ws[i].copies = where == CK_ON_DEVICE && (ws[i].dev != source || d->copy_always);
  }
  ck_team t = CK_TEAM_INIT(run_share);
  t.fatal = stops_the_others;
  t.cancelled = a->cancelled;
  t.ctx = a->ctx;
  ck_team_run(&t, ws, count);
  CK_TRY(ck_device_use(source));
  a->plan->work = runs[0].plan.work;
  memcpy(a->plan->tile, runs[0].plan.tile, sizeof a->plan->tile);
  for (int i = 0; i < count; i++) {
    a->plan->batched_runs += runs[i].plan.batched_runs;
    a->plan->single_pages += runs[i].plan.single_pages;
  }
  const int f = reported(ws, runs, count, &t);
  if (f < 0) return CK_OK;
  a->page = runs[f].b.page;
  a->cycle_vertex = runs[f].b.cycle_vertex;
  if (about_the_weights(ws[f].s)) return ck_fail(ws[f].s, "%s", ws[f].msg); /* as on one */
  return ck_fail(ws[f].s, "on device %d: %s", ws[f].dev + 1, ws[f].msg);
}

ck_status ck_apsp_pages(ck_apsp_args *a, ck_where where) {
  if (a->pages == 0 || a->n == 0) return CK_OK;
  if (shared(a)) return pages_shared(a, where);
  const int batched = a->n <= ck_apsp_batch_n() ||
                      (on_current_device(a) &&
                       ((!a->P && a->n <= ck_apsp_tiles_n()) || (a->plan && a->plan->graph_tiles)));
  if (a->kernel == CK_APSP_CPU || !batched) return page_by_page(a, where);
  CK_TRY(ck_device_init());
  if (where == CK_ON_HOST) return host_batches(a);
  return run_batch(a, a->W, a->D, a->P);
}
