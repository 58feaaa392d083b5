/* Paged products (issue 18): C(:, :, q) = A(:, :, ia[q]) (x) B(:, :, ib[q]) for q = 0 .. count-1,
 * every page of A m x k, of B k x n, of C m x n, stored one after the other as Octave stores an
 * N-D array; ia and ib (0-based) carry pagemtimes's broadcasting, worked out by the caller.
 *
 * This first form runs the 2-D product of each page in turn, on the device without a host round
 * trip between pages: the answers are the 2-D form's by construction. One launch per call for
 * many small pages, the point of the paged form, is not done yet (issue 18). */
#include "ck_internal.h"

static size_t page_of(const ck_pages *pg, int b, size_t q) { return b ? pg->ib[q] : pg->ia[q]; }

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

static ck_status check_pages(const ck_pages *pg) {
  for (size_t q = 0; q < pg->count; q++)
    if (pg->ia[q] >= pg->pages_a || pg->ib[q] >= pg->pages_b)
      return ck_fail(CK_ERR_INVALID, "page %zu refers to a page the operands do not have", q + 1);
  return CK_OK;
}

ck_status ck_pages_device(ck_product_fn *fn, const ck_product *p, const ck_pages *pg) {
  CK_TRY(check_pages(pg));
  for (size_t q = 0; q < pg->count; q++) {
    ck_product d = page_product(p, pg, q);
    CK_TRY(fn(&d));
  }
  return CK_OK;
}

/* Host arrays: every page of A, B and C on the device at once where they fit (the pages run back
 * to back on the device), else each page through the 2-D host path, which slices what does not
 * fit; the CPU kernel page by page on the host. */
ck_status ck_pages_host(ck_product_fn *device_fn, ck_product_fn *host_fn, int on_host,
                        const ck_product *p, const ck_pages *pg) {
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
      if ((s = ck_upload(dA, p->A, bytes_a)) == CK_OK && (s = ck_upload(dB, p->B, bytes_b)) == CK_OK &&
          (s = ck_pages_device(device_fn, &d, pg)) == CK_OK &&
          (s = ck_download(p->C, dC, bytes_c)) == CK_OK && p->K)
        s = ck_download(p->K, dK, bytes_k);
    }
    ck_dev_free(dA);
    ck_dev_free(dB);
    ck_dev_free(dC);
    ck_dev_free(dK);
    if (fits) return s;
  }
  for (size_t q = 0; q < pg->count; q++) { /* on the host, or too large for the device at once */
    ck_product d = page_product(p, pg, q);
    CK_TRY(host_fn(&d));
  }
  return CK_OK;
}
