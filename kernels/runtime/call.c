/* The calls: a product or a shortest-path call planned (plan.c), its plan carried out, and the plan
 * kept as the last one. A product's plan goes to the executor its operands need: the CPU
 * kernel, pages (pages.c), or a 2-D product on one device or spread over several (spread.c), on
 * host arrays (the family's host executor: panels or slices) or device arrays. Timings run the
 * same executors on random device operands between CUDA events. */
#include <string.h>

#include "ck_internal.h"

typedef struct {
  ck_product_fn *host, *device;
  ck_batch_fn *batch;
} family;

static family family_of(int semiring) {
  if (semiring == CK_PLUS_TIMES)
    return (family){ck_matmul, ck_matmul_device, ck_matmul_pages_device};
  return (family){ck_minplus, ck_minplus_device, ck_minplus_pages_device};
}

static ck_status run_product(const ck_call *c, ck_plan *pl) {
  const family f = family_of(c->semiring);
  ck_product p = c->p;
  p.plan = pl;
  if (c->semiring != CK_PLUS_TIMES) p.semiring = (ck_semiring)c->semiring;
  if (c->pages && c->where == CK_ON_HOST)
    return ck_pages_host(f.device, f.batch, f.host, pl->move == CK_MOVE_CPU, &p, c->pages);
  if (c->pages) return ck_pages_device(f.device, f.batch, &p, c->pages);
  if (pl->move == CK_MOVE_CPU) return f.host(&p);
  if (c->where == CK_ON_HOST) return ck_spread_host(f.host, &p, &pl->devices);
  return ck_spread_device(f.device, &p, &pl->devices);
}

ck_status ck_product_call(const ck_call *c, ck_plan *pl) {
  ck_status s = ck_plan_product(c, pl);
  if (s == CK_OK) s = run_product(c, pl);
  ck_plan_keep(pl);
  return s;
}

/* ---- timings: random device operands, the plan made once, the executor between events ---- */

typedef struct {
  const ck_call *c;
  ck_product d; /* the operands */
  ck_pages pg;  /* 3-D: page q of each */
} timed_product;

/* One timed run. With the witness, K is scratch taken and given back within the run: what a
 * call with the witness costs beyond one without. */
static ck_status run_timed(void *ctx) {
  timed_product *t = ctx;
  const family f = family_of(t->c->semiring);
  if (t->c->pages) {
    t->d.plan->batched_runs = t->d.plan->single_pages = 0; /* the plan counts one run's */
    return ck_pages_device(f.device, f.batch, &t->d, &t->pg);
  }
  if (!t->c->witness) return f.device(&t->d);
  ck_product d = t->d;
  const size_t outputs = d.m * d.n;
  CK_TRY(ck_dev_alloc((void **)&d.K, (outputs ? outputs : 1) * sizeof(double)));
  ck_status s = f.device(&d);
  ck_dev_free(d.K);
  return s;
}

ck_status ck_product_time(const ck_call *c, const ck_timing *tm, ck_plan *pl) {
  ck_status s = ck_plan_product(c, pl);
  if (s == CK_OK && c->p.kernel == CK_MINPLUS_CPU && c->semiring != CK_PLUS_TIMES)
    s = ck_fail(CK_ERR_INVALID, "only GPU kernels can be timed");
  if (s == CK_OK && c->pages && c->witness)
    s = ck_fail(CK_ERR_INVALID, "paged products are timed without the witness");
  timed_product t = {c, {0}, {0, 0, 0, NULL, NULL}};
  const size_t pages = c->pages ? c->pages->count : 1;
  if (s == CK_OK) s = ck_random_operands(&c->p, pages, tm, &t.d);
  if (s == CK_OK) {
    t.d.plan = pl;
    if (c->semiring != CK_PLUS_TIMES) t.d.semiring = (ck_semiring)c->semiring;
    t.pg = (ck_pages){pages, pages, pages, NULL, NULL};
    s = ck_time_calls(run_timed, &t, tm->warmup, tm->reps, tm->calls, tm->times_ms);
  }
  ck_free_operands(&t.d);
  ck_plan_keep(pl);
  return s;
}

/* The C API's timings of one family, as before the calls: the semiring product of p's semiring
 * (with the witness when asked), the matrix product, shortest paths. */
ck_status ck_minplus_time(const ck_product *p, int witness, const ck_timing *tm) {
  const ck_call c = {p->semiring, CK_ON_RANDOM, *p, NULL, NULL, witness};
  ck_plan pl;
  return ck_product_time(&c, tm, &pl);
}

ck_status ck_matmul_time(const ck_product *p, const ck_timing *tm) {
  const ck_call c = {CK_PLUS_TIMES, CK_ON_RANDOM, *p, NULL, NULL, 0};
  ck_plan pl;
  return ck_product_time(&c, tm, &pl);
}

/* ---- shortest paths ---- */

ck_status ck_apsp_call(ck_apsp_args *a, ck_where where, ck_plan *pl) {
  ck_status s = ck_plan_apsp(a, where, pl);
  if (s == CK_OK) {
    a->plan = pl;
    s = where == CK_ON_HOST ? ck_apsp(a) : ck_apsp_device(a);
    a->plan = NULL; /* the plan is the caller's: a stays as it came */
  }
  ck_plan_keep(pl);
  return s;
}

typedef struct {
  ck_apsp_args a;
} timed_apsp;

static ck_status run_apsp(void *ctx) { return ck_apsp_device(&((timed_apsp *)ctx)->a); }

ck_status ck_apsp_time(const ck_apsp_args *shape, int paths, const ck_timing *tm) {
  CK_TRY(ck_apsp_check_class(shape->t));
  CK_TRY(ck_device_init());
  const size_t n = shape->n, pages = shape->pages ? shape->pages : 1, count = n * n * pages;
  if (count == 0) return ck_fail(CK_ERR_INVALID, "nothing to time: n or the pages are 0");
  const size_t bytes = count * ck_dtype_size(shape->t);
  timed_apsp c;
  memset(&c, 0, sizeof c);
  c.a.t = shape->t;
  c.a.semiring = shape->semiring;
  c.a.kernel = CK_APSP_GPU;
  c.a.n = n;
  c.a.pages = shape->pages;
  void *dW = NULL, *dD = NULL;
  int32_t *dP = NULL;
  ck_status s = ck_dev_alloc(&dW, bytes);
  if (s == CK_OK) s = ck_dev_alloc(&dD, bytes);
  if (s == CK_OK && paths) s = ck_dev_alloc((void **)&dP, count * sizeof(int32_t));
  if (s == CK_OK) s = ck_fill_random_device(shape->t, dW, count, 12345u);
  c.a.W = dW;
  c.a.D = dD;
  c.a.P = dP;
  ck_plan pl;
  if (s == CK_OK) s = ck_plan_apsp(&c.a, CK_ON_RANDOM, &pl);
  if (s == CK_OK) {
    c.a.plan = &pl;
    s = ck_time_events(run_apsp, &c, tm->warmup, tm->reps, tm->times_ms);
    ck_plan_keep(&pl);
  }
  ck_dev_free(dW);
  ck_dev_free(dD);
  ck_dev_free(dP);
  return s;
}
