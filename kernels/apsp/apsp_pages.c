/* Paged all-pairs path calls (ck.h, ck_apsp_args.pages): W, D and P hold many graphs of n
 * vertices, n*n each, one after the other, and each page is its own call.
 *
 * On the GPU, graphs of up to ck_apsp_batch_n () vertices run on the batched kernels
 * (apsp_batch.cu), and D alone of up to ck_apsp_tiles_n () on the tiled kernel where it takes
 * them (else one by one on the rounds), every page of the call in one launch or a few
 * (apsp_pages_run.cuh, ap_run_pages): device arrays whole and in place, host arrays in runs of pages that
 * fit a share of the device's free memory, each run uploaded, closed and downloaded. Larger
 * graphs, and the "cpu" kernel, run page by page as 2-D calls. An error about one page (an
 * unbounded cycle) names it. */
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
    b.page = q + 1; /* the page an unbounded cycle's error names */
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

ck_status ck_apsp_pages(ck_apsp_args *a, ck_where where) {
  if (a->pages == 0 || a->n == 0) return CK_OK;
  const int batched = a->n <= ck_apsp_batch_n() ||
                      (!a->P && a->n <= ck_apsp_tiles_n() && on_current_device(a));
  if (a->kernel == CK_APSP_CPU || !batched) return page_by_page(a, where);
  CK_TRY(ck_device_init());
  if (where == CK_ON_HOST) return host_batches(a);
  return run_batch(a, a->W, a->D, a->P);
}
