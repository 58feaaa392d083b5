/* The page map of a paged product (the "product" command's IA and IB): which pages of A and B
 * each page of C takes. The .m layer works out pagemtimes's broadcast: for each page of C, the
 * 1-based pages of A and B; or both 0 for the 3-D map, where page q of C takes page q of each
 * operand or its only page, and nobody builds or reads a list. */
#include <string.h>

#include "gateway.h"

/* IA or IB: `count` 1-based page numbers into 0-based ones (mxMalloc'd: freed on an error). */
static size_t *page_list(const mxArray *a, size_t count, const char *what) {
  if (!mxIsDouble(a) || mxIsComplex(a) || mxGetNumberOfElements(a) != count)
    gw_fail_invalid("IA and IB must be real double vectors of one entry per page of C");
  const double *v = mxGetPr(a);
  size_t *out = mxMalloc((count ? count : 1) * sizeof *out);
  for (size_t q = 0; q < count; q++) {
    if (!(v[q] >= 1) || v[q] != (double)(size_t)v[q]) gw_fail_invalid(what);
    out[q] = (size_t)v[q] - 1;
  }
  return out;
}

/* The pages of an operand of `numel` elements, each `per_page`, that the lists refer to. */
static size_t page_count(size_t numel, size_t per_page, const size_t *list, size_t count) {
  if (per_page) return numel / per_page;
  size_t most = 0;
  for (size_t q = 0; q < count; q++)
    if (list[q] + 1 > most) most = list[q] + 1;
  return most;
}

/* Whether IA and IB are both the scalar 0 (no page number): the 3-D map. */
static int map_3d(const mxArray *ia, const mxArray *ib) {
  return mxIsDouble(ia) && mxIsDouble(ib) && mxGetNumberOfElements(ia) == 1 &&
         mxGetNumberOfElements(ib) == 1 && !mxIsComplex(ia) && !mxIsComplex(ib) &&
         mxGetPr(ia)[0] == 0 && mxGetPr(ib)[0] == 0;
}

/* The 3-D map for nonempty pages: as many pages of C as the operand with more has; the other has
 * as many, or one. */
static ck_pages pages_3d(const ck_product *p, size_t numel_a, size_t numel_b) {
  const size_t per_a = p->m * p->k, per_b = p->k * p->n;
  if (!per_a || !per_b || !numel_a || !numel_b)
    gw_fail_invalid("the 3-D page map (IA = IB = 0) needs pages that are not empty");
  if (numel_a % per_a || numel_b % per_b)
    gw_fail_invalid("M, K, N do not match the operands' pages");
  const size_t pa = numel_a / per_a, pb = numel_b / per_b, count = pa > pb ? pa : pb;
  if ((pa != 1 && pa != count) || (pb != 1 && pb != count))
    gw_fail_invalid("the 3-D page map (IA = IB = 0) needs A and B to have as many pages, or one");
  return (ck_pages){count, pa, pb, NULL, NULL};
}

ck_pages gw_page_map(const ck_product *p, const mxArray *ia, const mxArray *ib,
                     const size_t numel[2]) {
  if (map_3d(ia, ib)) return pages_3d(p, numel[0], numel[1]);
  size_t count = mxGetNumberOfElements(ia);
  ck_pages pg = {count, 0, 0, NULL, NULL};
  size_t *la = page_list(ia, count, "IA must hold page numbers of A, from 1");
  size_t *lb = page_list(ib, count, "IB must hold page numbers of B, from 1");
  pg.ia = la;
  pg.ib = lb;
  pg.pages_a = page_count(numel[0], p->m * p->k, la, count);
  pg.pages_b = page_count(numel[1], p->k * p->n, lb, count);
  if (pg.pages_a * p->m * p->k != numel[0] || pg.pages_b * p->k * p->n != numel[1])
    gw_fail_invalid("M, K, N do not match the operands' pages");
  return pg;
}
