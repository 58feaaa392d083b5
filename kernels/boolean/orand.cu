/* The or.and product's host side (orand.h): the checks, the path that runs, the packed scratch,
 * the order of the passes (pack, product, witness), and the timing the dev driver uses. The
 * kernels are in the other files of this folder (orand.cuh lists them). */
#include <stdint.h>

#include "orand.cuh"

/* Per host thread, as the current device is: a spread product's workers each note their own. */
static thread_local int oa_last_path = CK_ORAND_AUTO;

extern "C" int ck_orand_last_path(void) { return oa_last_path; }

/* The path that runs for `path` here: the tensor path where it can, else LOP3 in its place. */
static int oa_resolve(int path) {
  if (path == CK_ORAND_AUTO || path == CK_ORAND_TENSOR)
    return oa_mma_available() ? CK_ORAND_TENSOR : CK_ORAND_LOP3;
  return path;
}

static ck_status oa_check(const ck_product *p, int path) {
  if (!p) return ck_fail(CK_ERR_INVALID, "or.and: no product");
  if (path < 0 || path >= CK_ORAND_NUM_PATHS)
    return ck_fail(CK_ERR_INVALID, "or.and: unknown path %d", path);
  const size_t m = p->m, k = p->k, n = p->n;
  if ((n && m > SIZE_MAX / 8 / n) || (k && m > SIZE_MAX / k) || (k && n > SIZE_MAX / k))
    return ck_fail(CK_ERR_INVALID, "or.and: sizes %zu x %zu x %zu overflow", m, k, n);
  /* the tensor kernels' counts of common bits are signed 32-bit */
  if (k > 0x7fffffffu - 32 * (size_t)OA_MMA_KW)
    return ck_fail(CK_ERR_INVALID, "or.and: k must be below 2^31, not %zu", k);
  if ((m * k && !p->A) || (k * n && !p->B) || (m * n && !p->C))
    return ck_fail(CK_ERR_INVALID, "or.and: an operand is missing");
  return CK_OK;
}

/* Marks the product's start or end for the timing (NULL: not timed). */
static ck_status oa_mark(cudaEvent_t ev) {
  return ev ? ck_cuda_check(cudaEventRecord(ev, 0), "recording a timing event") : CK_OK;
}

/* The passes on packed operands already allocated: pack, product (between the marks), witness. */
static ck_status oa_passes(const ck_product *p, int run, const oa_packed &q, uint32_t *Abits,
                           uint32_t *Bbits, cudaEvent_t start, cudaEvent_t stop) {
  uint8_t *C = (uint8_t *)p->C;
  CK_TRY(oa_pack(p, q, Abits, Bbits));
  CK_TRY(oa_mark(start));
  if (run == CK_ORAND_TENSOR) CK_TRY(oa_run_mma(q, C));
  else if (run == CK_ORAND_LOP3) CK_TRY(oa_run_lop3(q, C));
  else CK_TRY(oa_run_simple(q, C, p->K));
  CK_TRY(oa_mark(stop));
  if (p->K && run != CK_ORAND_SIMPLE) CK_TRY(oa_run_witness(q, C, p->K));
  return CK_OK;
}

static ck_status oa_run(const ck_product *p, int path, cudaEvent_t start, cudaEvent_t stop) {
  oa_last_path = CK_ORAND_AUTO;
  CK_TRY(oa_check(p, path));
  CK_TRY(ck_device_init());
  const size_t m = p->m, k = p->k, n = p->n;
  if (m == 0 || n == 0 || k == 0) { /* no pairs: C (and K) all zero, where there are any */
    CK_TRY(oa_mark(start));
    if (m * n) {
      CK_CUDA(cudaMemsetAsync(p->C, 0, m * n, 0), "clearing C");
      if (p->K) CK_CUDA(cudaMemsetAsync(p->K, 0, m * n * sizeof(double), 0), "clearing K");
    }
    return oa_mark(stop);
  }
  const int run = oa_resolve(path);
  size_t rows, cols, words;
  oa_padding(run, &rows, &cols, &words);
  oa_packed q;
  q.m = m;
  q.n = n;
  q.k = k;
  q.m_pad = round_up(m, rows);
  q.n_pad = round_up(n, cols);
  q.kw = round_up((k + 31) / 32, words);
  uint32_t *Abits = NULL, *Bbits = NULL;
  ck_status s = ck_dev_alloc((void **)&Abits, q.m_pad * q.kw * sizeof(uint32_t));
  if (s == CK_OK) s = ck_dev_alloc((void **)&Bbits, q.n_pad * q.kw * sizeof(uint32_t));
  if (s == CK_OK) {
    q.A = Abits;
    q.B = Bbits;
    s = oa_passes(p, run, q, Abits, Bbits, start, stop);
  }
  /* Stream-ordered: the scratch returns to the pool after the kernels queued before. */
  ck_dev_free(Abits);
  ck_dev_free(Bbits);
  if (s == CK_OK) oa_last_path = run;
  return s;
}

extern "C" ck_status ck_orand_device(const ck_product *p, int path) {
  return oa_run(p, path, NULL, NULL);
}

static ck_status oa_time_calls(const ck_product *p, int path, const ck_timing *tm,
                               double *product_ms, cudaEvent_t ev[4]) {
  for (int r = -tm->warmup; r < tm->reps; r++) {
    CK_CUDA(cudaEventRecord(ev[0], 0), "recording a timing event");
    CK_TRY(oa_run(p, path, ev[1], ev[2]));
    CK_CUDA(cudaEventRecord(ev[3], 0), "recording a timing event");
    CK_CUDA(cudaEventSynchronize(ev[3]), "running the timed or.and product");
    if (r < 0) continue;
    float whole = 0, product = 0;
    CK_CUDA(cudaEventElapsedTime(&whole, ev[0], ev[3]), "reading a timing event");
    CK_CUDA(cudaEventElapsedTime(&product, ev[1], ev[2]), "reading a timing event");
    tm->times_ms[r] = whole;
    if (product_ms) product_ms[r] = product;
  }
  return CK_OK;
}

extern "C" ck_status ck_orand_time(const ck_product *p, int path, const ck_timing *tm,
                                   double *product_ms) {
  if (!tm || tm->reps < 1 || tm->warmup < 0 || !tm->times_ms)
    return ck_fail(CK_ERR_INVALID, "or.and timing: reps must be >= 1, warmup >= 0");
  CK_TRY(ck_device_init());
  cudaEvent_t ev[4] = {NULL, NULL, NULL, NULL};
  ck_status s = CK_OK;
  for (int i = 0; i < 4 && s == CK_OK; i++)
    s = ck_cuda_check(cudaEventCreate(&ev[i]), "creating timing events");
  if (s == CK_OK) s = oa_time_calls(p, path, tm, product_ms, ev);
  for (int i = 0; i < 4; i++)
    if (ev[i]) cudaEventDestroy(ev[i]);
  return s;
}
