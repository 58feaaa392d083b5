/* Paged products (issue 18): C(:, :, q) = A(:, :, ia[q]) (x) B(:, :, ib[q]) for q = 0 .. count-1,
 * every page of A m x k, of B k x n, of C m x n, stored one after the other as Octave stores an
 * N-D array; ia and ib (0-based) carry pagemtimes's broadcasting, worked out by the caller.
 *
 * The pages are cut into runs that step evenly through A and B (one run for 3-D operands, with or
 * without broadcasting; for N-D broadcasting, one per stretch of C's first page dimension), and
 * each run goes to the product's batch function: one launch over all its pages. Where that
 * declines (another kernel, pages that each fill the GPU, sums needing v2) the run's pages go
 * one by one through the 2-D device product, without a host round trip between them. Which of
 * the two the plan's pages mode says (plan.c); the plan counts the runs and the single pages. */
#include <stdlib.h>

#include "ck_internal.h"

/* The page of A (b = 0) or B (b = 1) that page q of C takes. */
static size_t page_of(const ck_pages *pg, int b, size_t q) {
  const size_t *list = b ? pg->ib : pg->ia;
  return list ? list[q] : (b ? pg->pages_b : pg->pages_a) == 1 ? 0 : q;
}

/* The product of page q: pointers into the operands and results of p. */
static ck_product page_product(const ck_product *p, const ck_pages *pg, size_t q) {
  const size_t es = ck_dtype_size(p->t), m = p->m, k = p->k, n = p->n;
  ck_product d = *p;
  d.A = (const char *)p->A + page_of(pg, 0, q) * m * k * es;
  d.B = (const char *)p->B + page_of(pg, 1, q) * k * n * es;
  d.C = (char *)p->C + q * m * n * es;
  d.K = p->K ? p->K + q * m * n : NULL;
  return d;
}

static ck_status check_list(const size_t *list, size_t pages, size_t count, const char *name) {
  if (!list) {
    if (pages != 1 && pages != count)
      return ck_fail(CK_ERR_INVALID, "%s has %zu pages, where the map needs %zu or 1", name, pages,
                     count);
    return CK_OK;
  }
  for (size_t q = 0; q < count; q++)
    if (list[q] >= pages)
      return ck_fail(CK_ERR_INVALID, "page %zu refers to a page %s does not have", q + 1, name);
  return CK_OK;
}

static ck_status check_pages(const ck_pages *pg) {
  CK_TRY(check_list(pg->ia, pg->pages_a, pg->count, "A"));
  return check_list(pg->ib, pg->pages_b, pg->count, "B");
}

/* The run of pages from q0: the longest stretch with steps of A's and B's pages that do not
 * change (nor go back). Without lists, every page from q0 on: at 4096 pages the two scans of the
 * lists took 12 us of host time before the launch, a fifth of a 64^3 int16 batch (H100 host). */
static ck_page_run run_from(const ck_pages *pg, size_t q0, int mode) {
  ck_page_run r = {1, 0, 0, mode == CK_PAGES_BATCHED};
  if (q0 + 1 >= pg->count) return r;
  const size_t a0 = page_of(pg, 0, q0), b0 = page_of(pg, 1, q0);
  const size_t a1 = page_of(pg, 0, q0 + 1), b1 = page_of(pg, 1, q0 + 1);
  if (a1 < a0 || b1 < b0) return r;
  r.a_step = a1 - a0;
  r.b_step = b1 - b0;
  if (!pg->ia && !pg->ib) {
    r.count = pg->count - q0;
    return r;
  }
  while (q0 + r.count < pg->count && page_of(pg, 0, q0 + r.count) == a0 + r.count * r.a_step &&
         page_of(pg, 1, q0 + r.count) == b0 + r.count * r.b_step)
    r.count++;
  return r;
}

ck_status ck_pages_device(ck_product_fn *fn, ck_batch_fn *batch, const ck_product *p,
                          const ck_pages *pg) {
  CK_TRY(check_pages(pg));
  const int mode = ck_plan_pages_mode(p->plan);
  size_t runs = 0, singles = 0;
  ck_status s = CK_OK;
  for (size_t q0 = 0; q0 < pg->count && s == CK_OK;) {
    const ck_page_run r = run_from(pg, q0, mode);
    const ck_product first = page_product(p, pg, q0);
    int done = 0;
    if (batch && mode != CK_PAGES_LOOP) s = batch(&first, &r, &done);
    runs += done;
    for (size_t q = q0; s == CK_OK && !done && q < q0 + r.count; q++) {
      ck_product d = page_product(p, pg, q);
      s = fn(&d);
      singles++;
    }
    q0 += r.count;
  }
  if (p->plan) {
    p->plan->batched_runs += runs;
    p->plan->single_pages += singles;
  }
  return s;
}

/* Host arrays: every page of A, B and C on the device at once where they fit (the pages run back
 * to back on the device), else each page through the 2-D host path, which slices what does not
 * fit; the CPU kernel page by page on the host. */
ck_status ck_pages_host(ck_product_fn *device_fn, ck_batch_fn *batch, ck_product_fn *host_fn,
                        int on_host, const ck_product *p, const ck_pages *pg) {
  CK_TRY(check_pages(pg));
  const size_t es = ck_dtype_size(p->t), m = p->m, k = p->k, n = p->n;
  if (!on_host) CK_TRY(ck_device_init()); /* no GPU: the 2-D form's error, even when empty */
  if (pg->count == 0 || m == 0 || n == 0) return CK_OK;
  if (!on_host) {
    const size_t bytes_a = pg->pages_a * m * k * es, bytes_b = pg->pages_b * k * n * es;
    const size_t bytes_c = pg->count * m * n * es, bytes_k = p->K ? pg->count * m * n * 8 : 0;
    ck_product d = *p;
    void *dA = NULL, *dB = NULL, *dC = NULL, *dK = NULL;
    int fits = ck_dev_alloc(&dA, bytes_a) == CK_OK && ck_dev_alloc(&dB, bytes_b) == CK_OK &&
               ck_dev_alloc(&dC, bytes_c) == CK_OK &&
               (!p->K || ck_dev_alloc(&dK, bytes_k) == CK_OK);
    ck_status s = CK_OK;
    if (fits) {
      d.A = dA, d.B = dB, d.C = dC, d.K = dK;
      if ((s = ck_upload(dA, p->A, bytes_a)) == CK_OK &&
          (s = ck_upload(dB, p->B, bytes_b)) == CK_OK &&
          (s = ck_pages_device(device_fn, batch, &d, pg)) == CK_OK &&
          (s = ck_download(p->C, dC, bytes_c)) == CK_OK && p->K)
        s = ck_download(p->K, dK, bytes_k);
    }
    ck_dev_free(dA);
    ck_dev_free(dB);
    ck_dev_free(dC);
    ck_dev_free(dK);
    if (fits) return s;
  }
  /* on the host, or too large for the device at once: each page its own 2-D host product */
  if (p->plan && !on_host) p->plan->move = CK_MOVE_PAGES;
  for (size_t q = 0; q < pg->count; q++) {
    ck_product d = page_product(p, pg, q);
    ck_plan share;
    if (p->plan) {
      CK_TRY(ck_plan_share(p->plan, &d, &share));
      d.plan = &share;
    }
    const ck_status s = host_fn(&d);
    if (p->plan) ck_plan_merge(p->plan, &share);
    CK_TRY(s);
  }
  return CK_OK;
}
