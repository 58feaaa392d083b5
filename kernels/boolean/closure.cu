/* The closure's host side (closure.h): the checks, the path, the scratch, the rounds of the
 * blocked method (closure_steps.cu explains it), Ctrl-C, and the timing the dev driver uses. */
#include <stdint.h>

#include "closure.cuh"

extern "C" size_t ck_closure_block(void) { return CL_BLOCK; }

/* The scratch of a call: the packed matrix, the row strip transposed (T) and its product (T2),
 * D* of the pivot block. */
struct cl_work {
  size_t n, np, nw;
  uint32_t *M, *T, *T2, *Dstar;
};

static void cl_free(cl_work *w) {
  ck_dev_free(w->M);
  ck_dev_free(w->T);
  ck_dev_free(w->T2);
  ck_dev_free(w->Dstar);
}

static ck_status cl_alloc(cl_work *w) {
  CK_TRY(ck_dev_alloc((void **)&w->M, w->np * w->nw * sizeof(uint32_t)));
  CK_TRY(ck_dev_alloc((void **)&w->T, w->np * CL_WORDS * sizeof(uint32_t)));
  CK_TRY(ck_dev_alloc((void **)&w->T2, w->np * CL_WORDS * sizeof(uint32_t)));
  return ck_dev_alloc((void **)&w->Dstar, (size_t)CL_BLOCK * CL_WORDS * sizeof(uint32_t));
}

/* The events between the steps of a breakdown (closure.h's steps_ms), NULL when not timed. */
struct cl_marks {
  cudaEvent_t ev[CK_CLOSURE_NUM_STEPS + 1];
  double *ms;
};

static ck_status cl_mark(cl_marks *m, int step) {
  return m ? ck_cuda_check(cudaEventRecord(m->ev[step], 0), "recording a timing event") : CK_OK;
}

/* Adds the time from mark `from` to `to` (both recorded) to step `step`. */
static ck_status cl_add(cl_marks *m, int from, int to, int step) {
  if (!m) return CK_OK;
  float ms = 0;
  CK_CUDA(cudaEventSynchronize(m->ev[to]), "running the closure");
  CK_CUDA(cudaEventElapsedTime(&ms, m->ev[from], m->ev[to]), "reading a timing event");
  m->ms[step] += ms;
  return CK_OK;
}

static ck_status cl_product_run(const cl_product &p, int tensor) {
  return tensor ? cl_run_mma(p) : cl_run_simple(p);
}

/* One round, pivot block [k0, k0 + CL_BLOCK): close, transpose, strip, rest. */
static ck_status cl_round(const cl_work *w, size_t k0, int tensor, cl_marks *m) {
  cl_product strip = {}, rest = {};
  strip.A = w->T; /* T' = T x D*^T */
  strip.lda = CL_WORDS, strip.a0 = 0, strip.a_rows = w->np;
  strip.B = w->Dstar, strip.ldb = CL_WORDS, strip.b_rows = CL_BLOCK;
  strip.C = w->T2, strip.ldc = CL_WORDS, strip.rows = w->np, strip.cols = CL_BLOCK;
  strip.kw = CL_WORDS, strip.accumulate = 0;
  rest.A = w->M; /* M |= M(:, K) x T'^T, in place */
  rest.lda = w->nw, rest.a0 = k0 / 32, rest.a_rows = w->np;
  rest.B = w->T2, rest.ldb = CL_WORDS, rest.b_rows = w->np;
  rest.C = w->M, rest.ldc = w->nw, rest.rows = w->np, rest.cols = w->np;
  rest.kw = CL_WORDS, rest.accumulate = 1;
  CK_TRY(cl_mark(m, 0));
  CK_TRY(cl_run_close(w->M, w->nw, k0, w->Dstar));
  CK_TRY(cl_mark(m, 1));
  CK_TRY(cl_run_transpose(w->M, w->nw, k0, w->T));
  CK_TRY(cl_mark(m, 2));
  CK_TRY(cl_product_run(strip, tensor));
  CK_TRY(cl_mark(m, 3));
  CK_TRY(cl_product_run(rest, tensor));
  CK_TRY(cl_mark(m, 4));
  CK_TRY(cl_add(m, 0, 1, CK_CLOSURE_STEP_CLOSE));
  CK_TRY(cl_add(m, 1, 2, CK_CLOSURE_STEP_TRANSPOSE));
  CK_TRY(cl_add(m, 2, 3, CK_CLOSURE_STEP_STRIP));
  return cl_add(m, 3, 4, CK_CLOSURE_STEP_REST);
}

/* Every round, with a Ctrl-C poll every CL_POLL_ROUNDS rounds. A poll first waits for the rounds
 * queued up to the poll before it (the event `done`), so that the GPU always has a group of rounds
 * queued while the host waits. */
static ck_status cl_rounds(ck_closure_args *a, const cl_work *w, int tensor, cl_marks *m,
                           cudaEvent_t done) {
  const size_t rounds = w->np / CL_BLOCK;
  for (size_t r = 0; r < rounds; r++) {
    if (r > 0 && r % CL_POLL_ROUNDS == 0 && a->cancelled) {
      if (r > CL_POLL_ROUNDS) CK_CUDA(cudaEventSynchronize(done), "running the closure");
      if (a->cancelled(a->ctx))
        return ck_fail(CK_ERR_INTERRUPTED, "closure: interrupted after %zu of %zu rounds",
                       r - CL_POLL_ROUNDS, rounds);
      CK_CUDA(cudaEventRecord(done, 0), "recording a closure event");
    }
    CK_TRY(cl_round(w, r * CL_BLOCK, tensor, m));
  }
  return CK_OK;
}

/* *tensor: the path asked, then the path that ran: where the tensor kernel's watchdog gave up on
 * a wait (its rounds are then wrong, ck_closure_fault), the rounds run again on the plain kernel
 * from G, which only the unpack overwrites. */
static ck_status cl_passes(ck_closure_args *a, const cl_work *w, int *tensor, cl_marks *m,
                           cudaEvent_t done) {
  CK_TRY(cl_mark(m, 0));
  CK_TRY(oa_pack_columns(a->G, w->M, w->n, w->n, w->np, w->nw));
  CK_TRY(cl_mark(m, 1));
  CK_TRY(cl_add(m, 0, 1, CK_CLOSURE_STEP_PACK));
  CK_TRY(cl_rounds(a, w, *tensor, m, done));
  if (*tensor && ck_closure_fault()) {
    *tensor = 0;
    CK_TRY(oa_pack_columns(a->G, w->M, w->n, w->n, w->np, w->nw));
    CK_TRY(cl_rounds(a, w, 0, NULL, done));
  }
  CK_TRY(cl_mark(m, 0));
  CK_TRY(cl_run_unpack(w->M, w->nw, a->R, w->n, a->reflexive));
  CK_TRY(cl_mark(m, 1));
  return cl_add(m, 0, 1, CK_CLOSURE_STEP_UNPACK);
}

static ck_status cl_check(const ck_closure_args *a) {
  if (!a) return ck_fail(CK_ERR_INVALID, "closure: no arguments");
  if (a->path < 0 || a->path >= CK_CLOSURE_NUM_PATHS)
    return ck_fail(CK_ERR_INVALID, "closure: unknown path %d", a->path);
  /* np^2 bytes of R must be addressable, np's word count an int for the tensor maps */
  if (a->n > ((size_t)1 << 31) - CL_BLOCK || (a->n && a->n > SIZE_MAX / a->n))
    return ck_fail(CK_ERR_INVALID, "closure: %zu vertices are too many", a->n);
  if (a->n && (!a->G || !a->R)) return ck_fail(CK_ERR_INVALID, "closure: an array is missing");
  return CK_OK;
}

/* The whole call: scratch, passes, events; everything freed on every return. */
static ck_status cl_call(ck_closure_args *a) {
  a->path_ran = CK_CLOSURE_AUTO;
  CK_TRY(cl_check(a));
  CK_TRY(ck_device_init());
  if (a->steps_ms)
    for (int s = 0; s < CK_CLOSURE_NUM_STEPS; s++) a->steps_ms[s] = 0;
  if (a->n == 0) return CK_OK;
  int tensor = a->path != CK_CLOSURE_SIMPLE && cl_mma_available();
  cl_work w = {};
  w.n = a->n;
  w.np = round_up(a->n, CL_BLOCK);
  w.nw = w.np / 32;
  cl_marks marks = {}, *m = a->steps_ms ? &marks : NULL;
  marks.ms = a->steps_ms;
  cudaEvent_t done = NULL;
  ck_status s = cl_alloc(&w);
  if (s == CK_OK)
    s = ck_cuda_check(cudaEventCreateWithFlags(&done, cudaEventDisableTiming),
                      "creating a closure event");
  for (int e = 0; m && s == CK_OK && e <= CK_CLOSURE_NUM_STEPS; e++)
    s = ck_cuda_check(cudaEventCreate(&marks.ev[e]), "creating timing events");
  if (s == CK_OK) s = cl_passes(a, &w, &tensor, m, done);
  /* Stream-ordered: the scratch returns to the pool after the kernels queued before. */
  cl_free(&w);
  if (done) cudaEventDestroy(done);
  for (int e = 0; e <= CK_CLOSURE_NUM_STEPS; e++)
    if (marks.ev[e]) cudaEventDestroy(marks.ev[e]);
  if (s == CK_OK) a->path_ran = tensor ? CK_CLOSURE_TENSOR : CK_CLOSURE_SIMPLE;
  return s;
}

extern "C" ck_status ck_closure_device(ck_closure_args *a) { return cl_call(a); }

extern "C" ck_status ck_closure_time(ck_closure_args *a, const ck_timing *tm) {
  if (!a || !tm || tm->reps < 1 || tm->warmup < 0 || !tm->times_ms)
    return ck_fail(CK_ERR_INVALID, "closure timing: reps must be >= 1, warmup >= 0");
  CK_TRY(ck_device_init());
  ck_closure_args b = *a;
  b.steps_ms = NULL;
  cudaEvent_t ev[2] = {NULL, NULL};
  ck_status s = CK_OK;
  for (int i = 0; i < 2 && s == CK_OK; i++)
    s = ck_cuda_check(cudaEventCreate(&ev[i]), "creating timing events");
  for (int r = -tm->warmup; s == CK_OK && r < tm->reps; r++) {
    float ms = 0;
    s = ck_cuda_check(cudaEventRecord(ev[0], 0), "recording a timing event");
    if (s == CK_OK) s = cl_call(&b);
    if (s == CK_OK) s = ck_cuda_check(cudaEventRecord(ev[1], 0), "recording a timing event");
    if (s == CK_OK) s = ck_cuda_check(cudaEventSynchronize(ev[1]), "running the timed closure");
    if (s == CK_OK) s = ck_cuda_check(cudaEventElapsedTime(&ms, ev[0], ev[1]), "reading events");
    if (s == CK_OK && r >= 0) tm->times_ms[r] = ms;
  }
  for (int i = 0; i < 2; i++)
    if (ev[i]) cudaEventDestroy(ev[i]);
  a->path_ran = b.path_ran;
  return s;
}
