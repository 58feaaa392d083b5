/* dev/closure: the transitive closure (closure.h), both paths (tensor, simple), transitive and
 * reflexive, checked bit for bit against Warshall's algorithm on bytes (OpenMP) on ragged sizes
 * and graphs from empty to dense, long chains included; in place (R = G), Ctrl-C and out of
 * memory; then timed at --n N beside the or.and mma ceiling and the or.and product kernel's own
 * rate at n = 8192, measured in the same run, with a breakdown by step. Exit status: 0 all
 * passed, 1 a mismatch, 2 no GPU/usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "closure.h"
#include "common.h"
#include "orand.h"

static const char usage[] =
    "usage: dev/closure [PATH] [--n N] [--reps R] [--seed S] [--small]\n"
    "  PATH   auto, tensor or simple (default: tensor, then simple)\n"
    "  --n    the timed size (default 16384; 0: check only); the timing runs the tensor path\n"
    "  --reps timed runs after one warm-up (default 5); --seed: the inputs' seed\n"
    "  --small  check one size (257) and two graphs, without the error cases (for racecheck,\n"
    "           under which every case takes minutes)\n";

static const char *const path_names[] = {"auto", "tensor", "simple"};
static int path_id(const char *name) {
  for (int p = 0; p < CK_CLOSURE_NUM_PATHS; p++)
    if (!strcmp(name, path_names[p])) return p;
  return -1;
}
static const char *path_name(int id) {
  return id >= 0 && id < CK_CLOSURE_NUM_PATHS ? path_names[id] : "?";
}

static const size_t sizes[] = {1, 2, 31, 33, 257, 1000, 1025, 2049, 4099};
#define SMALL_N 257 /* --small: racecheck took over 200 s on the sizes up to 1025 */
static int small_only;
#define NSIZES (sizeof sizes / sizeof sizes[0])

/* The graphs: empty; a chain through the vertices in random order (the longest paths there are);
 * a random cycle through all of them plus a few edges; the chain plus a few edges (some close
 * cycles); random graphs of about 1 and 3 edges a vertex (near and above the giant component)
 * and of densities 0.05 and 0.5 (any nonzero byte is an edge). */
enum { G_EMPTY, G_CHAIN, G_CYCLE, G_CHAIN_PLUS, G_SPARSE1, G_SPARSE3, G_DENSE5, G_HALF, G_KINDS };
static const char *const kind_names[] = {"empty",        "chain",         "cycle + few",
                                         "chain + few",  "1 edge/vertex", "3 edges/vertex",
                                         "density 0.05", "density 0.5"};

static void edge(dev_rng *r, uint8_t *G, size_t n, size_t i, size_t j) {
  G[i + j * n] = (uint8_t)dev_rand_int(r, 1, 255);
}

static void random_edges(dev_rng *r, uint8_t *G, size_t n, size_t count) {
  for (size_t e = 0; e < count; e++)
    edge(r, G, n, (size_t)dev_rand_int(r, 0, (int64_t)n - 1),
         (size_t)dev_rand_int(r, 0, (int64_t)n - 1));
}

/* G (n x n bytes, column-major) of the given kind. */
static void make_graph(dev_rng *r, int kind, uint8_t *G, size_t n) {
  memset(G, 0, n * n);
  if (kind == G_CHAIN || kind == G_CYCLE || kind == G_CHAIN_PLUS) {
    size_t *order = dev_xmalloc(n * sizeof *order);
    for (size_t i = 0; i < n; i++) order[i] = i;
    for (size_t i = n; i > 1; i--) {
      size_t j = (size_t)dev_rand_int(r, 0, (int64_t)i - 1), t = order[i - 1];
      order[i - 1] = order[j], order[j] = t;
    }
    for (size_t i = 0; i + 1 < n; i++) edge(r, G, n, order[i], order[i + 1]);
    if (kind == G_CYCLE) edge(r, G, n, order[n - 1], order[0]);
    if (kind != G_CHAIN) random_edges(r, G, n, 3);
    free(order);
  } else if (kind == G_SPARSE1 || kind == G_SPARSE3) {
    random_edges(r, G, n, kind == G_SPARSE1 ? n : 3 * n);
  } else if (kind == G_DENSE5 || kind == G_HALF) {
    const double p = kind == G_DENSE5 ? 0.05 : 0.5;
    for (size_t q = 0; q < n * n; q++)
      if (dev_chance(r, p)) G[q] = (uint8_t)dev_rand_int(r, 1, 255);
  }
}

/* Warshall's algorithm on bytes: X row-major (X[i * n + j] = G(i, j) != 0), then for each k every
 * row i that reaches k takes row k; R column-major, as the GPU writes it. */
static void warshall(const uint8_t *G, uint8_t *R, size_t n) {
  uint8_t *X = dev_xmalloc(n * n);
  for (size_t j = 0; j < n; j++)
    for (size_t i = 0; i < n; i++) X[i * n + j] = G[i + j * n] != 0;
  for (size_t k = 0; k < n; k++) {
    const uint8_t *xk = X + k * n;
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
      uint8_t *xi = X + i * n;
      if (i == k || !xi[k]) continue;
      for (size_t j = 0; j < n; j++) xi[j] |= xk[j];
    }
  }
  for (size_t j = 0; j < n; j++)
    for (size_t i = 0; i < n; i++) R[i + j * n] = X[i * n + j];
  free(X);
}

static ck_closure_args args_of(const void *G, void *R, size_t n, int reflexive, int path) {
  ck_closure_args a;
  memset(&a, 0, sizeof a);
  a.G = G, a.R = R, a.n = n, a.reflexive = reflexive, a.path = path;
  return a;
}

static int compare(dev_check *c, const char *label, const uint8_t *R, const uint8_t *ref, size_t n,
                   int reflexive) {
  for (size_t j = 0; j < n; j++)
    for (size_t i = 0; i < n; i++) {
      const uint8_t want = ref[i + j * n] | (reflexive && i == j);
      if (R[i + j * n] != want)
        return dev_fail(c, "%s: R(%zu,%zu) = %d, want %d", label, i + 1, j + 1, R[i + j * n], want);
    }
  return 1;
}

/* One graph through one path, transitive and reflexive, into poisoned R; then in place. */
static void run_case(dev_check *c, int path, int expect, const uint8_t *G, const uint8_t *ref,
                     size_t n, const char *kind) {
  void *dG = NULL, *dR = NULL;
  uint8_t *R = dev_xmalloc(n * n);
  char label[160];
  ck_status st;
  int ok = 1;
  if ((st = dev_put(&dG, G, n * n)) || (st = ck_dev_alloc(&dR, n * n)))
    ok = dev_fail_status(c, "allocating", st);
  for (int q = 0; ok && q < 3; q++) { /* transitive, reflexive, transitive in place */
    const int reflexive = q == 1, in_place = q == 2;
    snprintf(label, sizeof label, "%s n=%zu %s%s%s", path_name(path), n, kind,
             reflexive ? " reflexive" : "", in_place ? " in place" : "");
    ck_closure_args a = args_of(dG, in_place ? dG : dR, n, reflexive, path);
    c->cases++;
    if ((st = dev_poison(dR, n * n)) || (st = ck_closure_device(&a)) || (st = ck_device_sync()) ||
        (st = dev_fetch(R, in_place ? dG : dR, n * n)))
      ok = dev_fail_status(c, label, st);
    else if (a.path_ran != expect)
      ok = dev_fail(c, "%s: ran the %s path, not %s", label, path_name(a.path_ran),
                    path_name(expect));
    else ok = compare(c, label, R, ref, n, reflexive);
    if (ok && ck_closure_fault()) ok = dev_fail(c, "%s: the tensor kernel's watchdog fired", label);
  }
  ck_dev_free(dG);
  ck_dev_free(dR);
  free(R);
}

static int cancel_now(void *ctx) {
  (*(int *)ctx)++;
  return 1;
}

/* Ctrl-C at the first poll, and allocations that fail: the right status, nothing left behind. */
static void check_errors(dev_check *c, int path) {
  const size_t n = 4099; /* 5 rounds: one poll */
  void *dG = NULL;
  ck_status st = ck_dev_alloc(&dG, n * n);
  if (st == CK_OK) st = ck_device_sync();
  if (st != CK_OK) {
    dev_fail_status(c, "errors: allocating", st);
    return;
  }
  const size_t before = ck_dev_live_allocations();
  int polls = 0;
  ck_closure_args a = args_of(dG, dG, n, 0, path);
  a.cancelled = cancel_now;
  a.ctx = &polls;
  c->cases++;
  st = ck_closure_device(&a);
  if (st != CK_ERR_INTERRUPTED || polls != 1)
    dev_fail(c, "Ctrl-C: status %d after %d polls, want %d after 1", (int)st, polls,
             (int)CK_ERR_INTERRUPTED);
  const size_t extra[] = {1024, (size_t)4 << 20};
  for (int q = 0; q < 2; q++) {
    a = args_of(dG, dG, n, 0, path);
    c->cases++;
    ck_dev_set_limit(ck_dev_bytes_in_use() + extra[q]);
    st = ck_closure_device(&a);
    ck_dev_set_limit(0);
    if (st != CK_ERR_OUTOFMEMORY)
      dev_fail(c, "out of memory (limit +%zu bytes): status %d, want %d", extra[q], (int)st,
               (int)CK_ERR_OUTOFMEMORY);
  }
  ck_device_sync();
  if (ck_dev_live_allocations() != before)
    dev_fail(c, "errors: %zu allocations left behind", ck_dev_live_allocations() - before);
  ck_dev_free(dG);
}

/* Every size and graph through `path`, expecting `expect` to run. */
static int check_path(int path, int expect, uint64_t seed) {
  dev_rng r;
  dev_seed(&r, seed);
  dev_check c;
  dev_check_start(&c);
  printf("%-7s", path_name(path));
  if (expect != path) printf(" (runs as %s)", path_name(expect));
  fflush(stdout);
  for (size_t s = 0; s < NSIZES; s++) {
    const size_t n = sizes[s];
    if (small_only && n != SMALL_N) continue;
    uint8_t *G = dev_xmalloc(n * n), *ref = dev_xmalloc(n * n);
    for (int kind = 0; kind < G_KINDS; kind++) {
      if (small_only && kind != G_CHAIN_PLUS && kind != G_SPARSE3) continue;
      make_graph(&r, kind, G, n);
      warshall(G, ref, n);
      run_case(&c, path, expect, G, ref, n, kind_names[kind]);
    }
    free(G);
    free(ref);
  }
  if (!small_only) check_errors(&c, path);
  dev_check_leaks(&c);
  if (c.failed) printf(" FAIL %d of %d: %s\n", c.failed, c.cases, c.first);
  else printf(" PASS %d cases\n", c.cases);
  fflush(stdout);
  return c.failed != 0;
}

/* ---- timing ---- */

#define SAMPLES 16 /* columns of R checked by a search after the timed call */

/* Column j of R by a backward search from j over the edges (i reaches j: a path i -> j). */
static void column_by_search(const size_t *first, const size_t *from, size_t n, size_t j,
                             uint8_t *col, size_t *stack) {
  memset(col, 0, n);
  size_t top = 0;
  stack[top++] = j;
  while (top) {
    const size_t v = stack[--top];
    for (size_t e = first[v]; e < first[v + 1]; e++)
      if (!col[from[e]]) {
        col[from[e]] = 1;
        stack[top++] = from[e];
      }
  }
}

/* A random graph of about 2 edges a vertex (a giant strongly connected part and a fringe), its
 * edges also as lists of predecessors for the check. */
typedef struct {
  uint8_t *G;
  size_t *first, *from; /* predecessors of v: from[first[v] .. first[v + 1] - 1] */
} timed_graph;

static void make_timed_graph(dev_rng *r, size_t n, timed_graph *t) {
  const size_t m = 2 * n;
  size_t *ei = dev_xmalloc(m * sizeof *ei), *ej = dev_xmalloc(m * sizeof *ej);
  t->G = dev_xmalloc(n * n);
  memset(t->G, 0, n * n);
  t->first = calloc(n + 1, sizeof *t->first);
  t->from = dev_xmalloc(m * sizeof *t->from);
  if (!t->first) exit(2);
  for (size_t e = 0; e < m; e++) {
    ei[e] = (size_t)dev_rand_int(r, 0, (int64_t)n - 1);
    ej[e] = (size_t)dev_rand_int(r, 0, (int64_t)n - 1);
    t->G[ei[e] + ej[e] * n] = 1;
    t->first[ej[e] + 1]++;
  }
  for (size_t v = 0; v < n; v++) t->first[v + 1] += t->first[v];
  size_t *fill = dev_xmalloc((n + 1) * sizeof *fill);
  memcpy(fill, t->first, (n + 1) * sizeof *fill);
  for (size_t e = 0; e < m; e++) t->from[fill[ej[e]]++] = ei[e];
  free(fill);
  free(ei);
  free(ej);
}

/* The or.and product kernel's own rate at 8192 (Tpair/s; 0 if it cannot be had). */
static double product_rate(const dev_opts *o) {
  const size_t n = 8192;
  dev_rng r;
  dev_seed(&r, o->seed + 77);
  uint8_t *X = dev_xmalloc(n * n);
  for (size_t q = 0; q < n * n; q++) X[q] = (uint8_t)(dev_rand(&r) & 1);
  void *dA = NULL, *dB = NULL, *dC = NULL;
  double *times = dev_xmalloc((size_t)o->reps * sizeof *times);
  double *prod = dev_xmalloc((size_t)o->reps * sizeof *prod);
  double rate = 0;
  if (dev_put(&dA, X, n * n) == CK_OK && dev_put(&dB, X, n * n) == CK_OK &&
      ck_dev_alloc(&dC, n * n) == CK_OK) {
    ck_product p;
    memset(&p, 0, sizeof p);
    p.A = dA, p.B = dB, p.C = dC, p.m = n, p.k = n, p.n = n;
    ck_timing tm = {1, o->reps, times, 0, 0};
    if (ck_orand_time(&p, CK_ORAND_TENSOR, &tm, prod) == CK_OK &&
        ck_orand_last_path() == CK_ORAND_TENSOR)
      rate = (double)n * n * n / (dev_median(prod, o->reps) * 1e-3) / 1e12;
  }
  ck_dev_free(dA);
  ck_dev_free(dB);
  ck_dev_free(dC);
  free(X);
  free(times);
  free(prod);
  return rate;
}

static int time_closure(const dev_opts *o) {
  const size_t n = o->n;
  double ceiling = 0;
  if (ck_orand_ceiling(CK_ORAND_TENSOR, &ceiling) != CK_OK) ceiling = 0;
  ceiling /= 1e12;
  const double prate = product_rate(o);
  dev_rng r;
  dev_seed(&r, o->seed + n);
  timed_graph t;
  make_timed_graph(&r, n, &t);
  void *dG = NULL, *dR = NULL;
  double *times = dev_xmalloc((size_t)o->reps * sizeof *times);
  double steps[CK_CLOSURE_NUM_STEPS];
  int ok = 1;
  ck_status st;
  ck_closure_args a = args_of(NULL, NULL, n, 0, CK_CLOSURE_TENSOR);
  if ((st = dev_put(&dG, t.G, n * n)) || (st = ck_dev_alloc(&dR, n * n))) ok = 0;
  a.G = dG, a.R = dR;
  if (ok && ((st = ck_closure_device(&a)) || (st = ck_device_sync()))) ok = 0;
  if (ok) { /* sampled columns against a search */
    uint8_t *col = dev_xmalloc(n), *want = dev_xmalloc(n);
    size_t *stack = dev_xmalloc((n + 1) * sizeof *stack);
    for (int q = 0; ok && q < SAMPLES; q++) {
      const size_t j = (size_t)dev_rand_int(&r, 0, (int64_t)n - 1);
      column_by_search(t.first, t.from, n, j, want, stack);
      if ((st = dev_fetch(col, (uint8_t *)dR + j * n, n))) ok = 0;
      for (size_t i = 0; ok && i < n; i++)
        if (col[i] != want[i]) {
          printf("closure n=%zu FAIL: R(%zu,%zu) = %d, want %d\n", n, i + 1, j + 1, col[i],
                 want[i]);
          ok = 0;
          st = CK_OK;
        }
    }
    free(col);
    free(want);
    free(stack);
  }
  ck_timing tm = {1, o->reps, times, 0, 0};
  if (ok && (st = ck_closure_time(&a, &tm))) ok = 0;
  a.steps_ms = steps;
  if (ok && (st = ck_closure_device(&a))) ok = 0;
  if (ok) {
    const double ms = dev_median(times, o->reps), rate = (double)n * n * n / (ms * 1e-3) / 1e12;
    printf("closure n=%zu (%s path, pivot block %zu): %.3f ms, %.1f Tpair/s (n^3/t)", n,
           path_name(a.path_ran), ck_closure_block(), ms, rate);
    if (ceiling > 0) printf(", %.1f%% of the mma ceiling %.0f", 100 * rate / ceiling, ceiling);
    if (prate > 0)
      printf(", %.1f%% of the product kernel's %.0f at 8192", 100 * rate / prate, prate);
    printf("\n  steps (one call, each round waited for): ");
    static const char *const names[] = {"pack", "close", "transpose", "strip T'", "rest", "unpack"};
    double sum = 0;
    for (int s = 0; s < CK_CLOSURE_NUM_STEPS; s++) sum += steps[s];
    for (int s = 0; s < CK_CLOSURE_NUM_STEPS; s++)
      printf("%s %.3f ms (%.0f%%)%s", names[s], steps[s], sum > 0 ? 100 * steps[s] / sum : 0,
             s + 1 < CK_CLOSURE_NUM_STEPS ? ", " : "\n");
    const size_t np = (n + ck_closure_block() - 1) / ck_closure_block() * ck_closure_block();
    if (steps[CK_CLOSURE_STEP_REST] > 0)
      printf("  rest alone: %.1f Tpair/s (np^3 = %zu^3 over its time)\n",
             (double)np * np * np / (steps[CK_CLOSURE_STEP_REST] * 1e-3) / 1e12, np);
  } else if (st != CK_OK) {
    printf("closure n=%zu FAIL: %s%s\n", n, ck_last_error(),
           ck_closure_fault() ? " (the watchdog fired)" : "");
  }
  fflush(stdout);
  ck_dev_free(dG);
  ck_dev_free(dR);
  free(t.G);
  free(t.first);
  free(t.from);
  free(times);
  return !ok;
}

/* Whether the tensor path runs here: what AUTO picks for a 1-vertex graph. */
static int tensor_runs_here(void) {
  void *d = NULL;
  uint8_t one = 1;
  int runs = 0;
  if (dev_put(&d, &one, 1) == CK_OK) {
    ck_closure_args a = args_of(d, d, 1, 0, CK_CLOSURE_AUTO);
    runs = ck_closure_device(&a) == CK_OK && a.path_ran == CK_CLOSURE_TENSOR;
  }
  ck_dev_free(d);
  return runs;
}

int main(int argc, char **argv) {
  dev_opts o = {NULL, -1, 16384, 5, (uint64_t)time(NULL), 0, 0};
  dev_parse(argc, argv, &o, usage, "--small");
  small_only = o.flag;
  const int only = dev_pick_version(o.version, CK_CLOSURE_NUM_PATHS, path_id, path_name);
  dev_init_or_exit("closure");
  const int tensor = tensor_runs_here();
  printf("seed %llu; pivot block %zu bits; the tensor path %s here; checks exact against "
         "Warshall's algorithm on bytes; times: median of %d after a warm-up, events\n",
         (unsigned long long)o.seed, ck_closure_block(), tensor ? "runs" : "does not run", o.reps);
  int bad = 0;
  const int order[] = {CK_CLOSURE_TENSOR, CK_CLOSURE_SIMPLE, CK_CLOSURE_AUTO};
  for (int q = 0; q < 3; q++) {
    const int p = order[q];
    if (only >= 0 ? only != p : p == CK_CLOSURE_AUTO) continue;
    const int expect = p == CK_CLOSURE_SIMPLE || !tensor ? CK_CLOSURE_SIMPLE : CK_CLOSURE_TENSOR;
    bad |= check_path(p, expect, o.seed + 1000u * (unsigned)p);
  }
  if (o.n) bad |= time_closure(&o);
  printf(bad ? "closure: FAILURES (see FAIL lines)\n" : "closure: all checks passed\n");
  return bad;
}
