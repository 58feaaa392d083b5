/* The gateway's paged products (kernels/runtime/pages.c): min-plus and matrix products page by page, on
 * host arrays and on gpu_arrays. The .m layer works out the broadcast (IA, IB: for each page of
 * C, the 1-based pages of A and B; or both 0 for the 3-D map, read_pages) and hands host operands
 * over as 2-D matrices, A as m x (k * pages of A), B as k x (n * pages of B). */
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

/* M, K, N, IA, IB (prhs) into p's sizes and the page map: the lists, or with IA = IB = 0 the 3-D
 * map (page q of C takes page q of A and of B, or their only page), which the .m layer passes
 * where it applies, so that nobody builds or reads a list. */
static ck_pages read_pages(ck_product *p, const mxArray *prhs[], size_t numel_a, size_t numel_b) {
  p->m = gw_size(prhs[0], "M");
  p->k = gw_size(prhs[1], "K");
  p->n = gw_size(prhs[2], "N");
  if (map_3d(prhs[3], prhs[4])) return pages_3d(p, numel_a, numel_b);
  size_t count = mxGetNumberOfElements(prhs[3]);
  ck_pages pg = {count, 0, 0, NULL, NULL};
  pg.ia = page_list(prhs[3], count, "IA must hold page numbers of A, from 1");
  pg.ib = page_list(prhs[4], count, "IB must hold page numbers of B, from 1");
  pg.pages_a = page_count(numel_a, p->m * p->k, pg.ia, count);
  pg.pages_b = page_count(numel_b, p->k * p->n, pg.ib, count);
  if (pg.pages_a * p->m * p->k != numel_a || pg.pages_b * p->k * p->n != numel_b)
    gw_fail_invalid("M, K, N do not match the operands' pages");
  return pg;
}

typedef struct {
  ck_product_fn *device, *host;
  ck_batch_fn *batch;
  int minplus;
} gw_paged_op;

static const gw_paged_op minplus_op = {ck_minplus_device, ck_minplus, ck_minplus_pages_device, 1};
static const gw_paged_op matmul_op = {ck_matmul_device, ck_matmul, ck_matmul_pages_device, 0};

typedef struct {
  ck_product p;
  ck_pages pg;
  const gw_paged_op *op;
  int on_host;
} paged_host;

static ck_status run_paged_host(void *ctx, void *C, double *K) {
  paged_host *c = ctx;
  c->p.C = C;
  c->p.K = K;
  return ck_pages_host(c->op->device, c->op->batch, c->op->host, c->on_host, &c->p, &c->pg);
}

/* prhs = A, B, KERNEL, M, K, N, IA, IB; host C (m x n * pages), and K for min-plus. */
static void host_pages(const gw_paged_op *op, int nlhs, mxArray *plhs[], const mxArray *prhs[]) {
  ck_dtype t = op->minplus ? gw_matrix_dtype(prhs[0], "A") : gw_float_matrix_dtype(prhs[0], "A");
  if ((op->minplus ? gw_matrix_dtype(prhs[1], "B") : gw_float_matrix_dtype(prhs[1], "B")) != t)
    gw_fail_invalid("A and B must be of the same class");
  int kernel = op->minplus ? get_minplus_kernel(prhs[2]) : get_matmul_kernel(prhs[2]);
  ck_product p = {t, kernel, mxGetData(prhs[0]), mxGetData(prhs[1]), NULL, NULL, 0, 0, 0};
  ck_pages pg = read_pages(&p, prhs + 3, mxGetNumberOfElements(prhs[0]),
                           mxGetNumberOfElements(prhs[1]));
  paged_host c = {p, pg, op, op->minplus && kernel == CK_MINPLUS_CPU};
  gw_host_result(plhs, t, p.m, p.n * pg.count, op->minplus && nlhs > 1, run_paged_host, &c);
}

typedef struct {
  ck_product p;
  ck_pages pg;
  const gw_paged_op *op;
} paged_call;

static ck_status run_paged_call(void *ctx, void *C, double *K) {
  paged_call *c = ctx;
  c->p.C = C;
  c->p.K = K;
  return ck_pages_device(c->op->device, c->op->batch, &c->p, &c->pg);
}

/* prhs = IDA, IDB, M, K, N, KERNEL, IA, IB; the ids of C (m*n*pages) and, asked for, K. */
static void device_pages(const gw_paged_op *op, int nlhs, mxArray *plhs[], const mxArray *prhs[]) {
  ck_dtype ta, tb;
  size_t na, nb;
  void *pa, *pb;
  gw_check(ck_array_lookup(gw_id(prhs[0], "IDA"), &ta, &na, &pa));
  gw_check(ck_array_lookup(gw_id(prhs[1], "IDB"), &tb, &nb, &pb));
  if (ta != tb) gw_fail_invalid("A and B must be of the same class");
  int kernel = op->minplus ? get_minplus_kernel(prhs[5]) : get_matmul_kernel(prhs[5]);
  if (op->minplus && kernel == CK_MINPLUS_CPU)
    gw_fail_invalid("the cpu kernel takes host arrays, not gpu_arrays");
  ck_product p = {ta, kernel, pa, pb, NULL, NULL, 0, 0, 0};
  const mxArray *sizes[5] = {prhs[2], prhs[3], prhs[4], prhs[6], prhs[7]};
  ck_pages pg = read_pages(&p, sizes, na, nb);
  paged_call c = {p, pg, op};
  gw_device_result(plhs, ta, p.m * p.n * pg.count, op->minplus && nlhs > 1, run_paged_call, &c);
}

void cmd_minplus_pages(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nrhs;
  host_pages(&minplus_op, nlhs, plhs, prhs);
}

void cmd_matmul_pages(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nrhs;
  host_pages(&matmul_op, nlhs, plhs, prhs);
}

void cmd_minplus_pages_dev(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nrhs;
  device_pages(&minplus_op, nlhs, plhs, prhs);
}

void cmd_matmul_pages_dev(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nrhs;
  device_pages(&matmul_op, nlhs, plhs, prhs);
}

/* "pages_time", OP, CLASS, KERNEL, M, K, N, P, WARMUP, REPS: times (ms) of OP ("minplus" or
 * "matmul") over P pages of random device operands, each page its own (no witness). */
void cmd_pages_time(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)nrhs;
  static const char *const ops[] = {"minplus", "matmul"};
  const gw_paged_op *op = gw_mode(prhs[0], ops, 2, "OP is \"minplus\" or \"matmul\"") == 0
                              ? &minplus_op : &matmul_op;
  int kernel = op->minplus ? get_minplus_kernel(prhs[2]) : get_matmul_kernel(prhs[2]);
  ck_product p = {gw_dtype_name(prhs[1]), kernel, NULL, NULL, NULL, NULL,
                  gw_size(prhs[3], "M"), gw_size(prhs[4], "K"), gw_size(prhs[5], "N")};
  const size_t count = gw_size(prhs[6], "P");
  ck_timing tm;
  mxArray *times = gw_timing(prhs[7], prhs[8], &tm);
  ck_status s = ck_pages_time(op->device, op->batch, &p, count, &tm);
  if (s != CK_OK) mxDestroyArray(times);
  gw_check(s);
  plhs[0] = times;
}

/* "pages_counts": [batched runs, pages run one by one] of the paged products so far (how they
 * run is the setting pages_mode). */
void cmd_pages_counts(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)nrhs, (void)prhs;
  size_t runs, pages;
  ck_pages_counts(&runs, &pages);
  plhs[0] = mxCreateDoubleMatrix(1, 2, mxREAL);
  mxGetPr(plhs[0])[0] = (double)runs;
  mxGetPr(plhs[0])[1] = (double)pages;
}
