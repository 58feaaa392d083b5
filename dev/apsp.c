/* dev/apsp: all-pairs shortest paths on the device (ck_apsp_device) against a plain
 * Floyd-Warshall written here, on random graphs with negative edges, unreachable pairs and
 * lengths past the integer classes; D compared exactly (integer-valued weights), P walked back
 * edge by edge to lengths equal to D; negative cycles must be reported. Then timed.
 * Exit status: 0 all passed, 1 a mismatch, 2 no GPU/usage. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common.h"

static const char usage[] =
    "usage: dev/apsp [--class C] [--n N] [--pages P] [--reps R] [--seed S]\n"
    "  --class  double, single, int8, uint8, int16, uint16, int32, uint32 (default: all)\n"
    "  --n      timed vertices (default 4096; 0: check only)\n"
    "  --pages  timed graphs a call (default: one, a 2-D call)\n"
    "  --reps   timed runs after one warm-up (default 5); --seed: the inputs' seed\n";

static const size_t sizes[] = {1, 2, 31, 257, 300};
#define NSIZES (sizeof sizes / sizeof sizes[0])

/* DENSE: most edges; SPARSE: about 2.5 per vertex, so long paths (lengths past the small
 * integer classes, which count as none) and unreachable pairs; WIDE: weights over a quarter of
 * the integer range, or multiples of 1/2 for the float classes (off the integer paths). */
enum { DENSE, SPARSE, WIDE, NFLAVOURS };
static const char *const flavour_names[] = {"dense", "sparse", "wide"};

#define NONE_I (INT64_MAX / 4) /* no path, in the integer reference */

static int64_t int_hi(ck_dtype t) {
  int64_t lo, hi;
  dev_int_bounds(t, &lo, &hi);
  return hi;
}

/* W(i, j) = c + h(i) - h(j) with c >= 0: every cycle weighs at least 0 (the potentials h
 * cancel around it), yet edges are negative wherever h(j) > h(i); unsigned classes take h = 0.
 * No edge: +Inf or intmax. The diagonal gets junk >= 0, which counts as 0. */
static void make_graph(ck_dtype t, dev_rng *r, int flavour, void *W, size_t n) {
  const int is_int = dev_is_int(t);
  int64_t lo, hi;
  dev_int_bounds(t, &lo, &hi);
  const int64_t cmax = !is_int ? 1000 : flavour == WIDE ? hi / 4 : hi <= 255 ? 20 : 1000;
  const int64_t hmax = lo < 0 || !is_int ? cmax / 2 : 0;
  const double p = flavour == SPARSE ? 2.5 / (double)n : 0.6;
  int64_t *h = dev_xmalloc(n * sizeof *h);
  for (size_t i = 0; i < n; i++) h[i] = dev_rand_int(r, 0, hmax);
  for (size_t j = 0; j < n; j++)
    for (size_t i = 0; i < n; i++) {
      size_t idx = i + j * n;
      int edge = i != j && dev_chance(r, p);
      int64_t w = i == j ? dev_rand_int(r, 0, 9) : dev_rand_int(r, 0, cmax) + h[i] - h[j];
      if (is_int) dev_seti(t, W, idx, edge || i == j ? w : hi);
      else if (!(edge || i == j)) dev_setf(t, W, idx, INFINITY);
      else dev_setf(t, W, idx, (double)w + (flavour == WIDE ? 0.5 * (double)(w & 1) : 0.0));
    }
  free(h);
}

/* ---- the reference: Floyd-Warshall, integers in 64 bits, floats in their class ---- */

/* Edge weight i -> j as the reference adds it (the diagonal 0); *none where there is no edge. */
static double edge(ck_dtype t, const void *W, size_t n, size_t i, size_t j, int *none) {
  double w = dev_getf(t, W, i + j * n);
  *none = i != j && (dev_is_int(t) ? w == (double)int_hi(t) : isinf(w));
  return i == j ? 0 : w;
}

/* D (as doubles, exact for these weights) or 0 for a negative cycle. Integers: lengths of
 * intmax or more are no path (intmax), lower ones saturate to intmin. */
static int reference(ck_dtype t, const void *W, size_t n, double *D) {
  const int is_int = dev_is_int(t);
  int64_t *Di = is_int ? dev_xmalloc(n * n * sizeof *Di) : NULL;
  float *Df = t == CK_SINGLE ? dev_xmalloc(n * n * sizeof *Df) : NULL;
  for (size_t idx = 0; idx < n * n; idx++) {
    int none;
    double w = edge(t, W, n, idx % n, idx / n, &none);
    if (is_int) Di[idx] = none ? NONE_I : (int64_t)w;
    else if (Df) Df[idx] = (float)w;
    else D[idx] = w;
  }
  int ok = 1;
  for (size_t i = 0; i < n; i++) /* a negative weight to itself is a negative cycle */
    if (dev_getf(t, W, i + i * n) < 0) ok = 0;
  for (size_t k = 0; k < n && ok; k++) {
    for (size_t j = 0; j < n; j++)
      for (size_t i = 0; i < n; i++) {
        size_t ik = i + k * n, kj = k + j * n, ij = i + j * n;
        if (is_int) {
          if (Di[ik] != NONE_I && Di[kj] != NONE_I && Di[ik] + Di[kj] < Di[ij])
            Di[ij] = Di[ik] + Di[kj];
        } else if (Df) {
          float s = Df[ik] + Df[kj];
          if (s < Df[ij]) Df[ij] = s;
        } else if (D[ik] + D[kj] < D[ij]) {
          D[ij] = D[ik] + D[kj];
        }
      }
    /* stop at the first negative diagonal, before the lengths run away */
    for (size_t i = 0; i < n; i++)
      if (is_int ? Di[i + i * n] < 0 : Df ? Df[i + i * n] < 0 : D[i + i * n] < 0) ok = 0;
  }
  int64_t lo, hi;
  dev_int_bounds(t, &lo, &hi);
  for (size_t idx = 0; ok && idx < n * n; idx++) {
    if (is_int) D[idx] = (double)(Di[idx] >= hi ? hi : Di[idx] < lo ? lo : Di[idx]);
    else if (Df) D[idx] = Df[idx];
  }
  free(Di);
  free(Df);
  return ok;
}

/* ---- one graph on the GPU ---- */

static int compare_d(dev_check *c, const char *label, ck_dtype t, const void *D, const double *ref,
                     size_t n) {
  for (size_t idx = 0; idx < n * n; idx++)
    if (!dev_same(dev_getf(t, D, idx), ref[idx])) {
      char got[64];
      dev_format(t, D, idx, got, sizeof got);
      return dev_fail(c, "%s: D(%zu,%zu) = %s, want %.17g", label, idx % n + 1, idx / n + 1, got,
                      ref[idx]);
    }
  return 1;
}

/* Every P(i, j): 0 on the diagonal and where there is no path; else the predecessors lead back
 * from j to i over existing edges, in at most n - 1 steps, and their weights add up to D(i, j). */
static int walk_p(dev_check *c, const char *label, ck_dtype t, const void *W, const int32_t *P,
                  const double *D, size_t n) {
  const double none_d = dev_is_int(t) ? (double)int_hi(t) : INFINITY;
  for (size_t j = 0; j < n; j++)
    for (size_t i = 0; i < n; i++) {
      int32_t pij = P[i + j * n];
      if (i == j || D[i + j * n] == none_d) {
        if (pij != 0) return dev_fail(c, "%s: P(%zu,%zu) = %d, want 0", label, i + 1, j + 1, pij);
        continue;
      }
      double length = 0;
      size_t cur = j, steps = 0;
      while (cur != i) {
        int32_t prev = P[i + cur * n];
        /* an integer path through a vertex whose length from i is intmax or more: that length
         * counts as none, and its P with it (ck.h), though the whole path's is below intmax
         * again (negative weights after it) */
        if (prev == 0 && cur != j && D[i + cur * n] == none_d) break;
        int none = 1;
        if (prev >= 1 && (size_t)prev <= n) length += edge(t, W, n, (size_t)prev - 1, cur, &none);
        if (none || ++steps >= n)
          return dev_fail(c,
                          "%s: the path %zu -> %zu (D %.17g) breaks at P(%zu,%zu) = %d (D %.17g)",
                          label, i + 1, j + 1, D[i + j * n], i + 1, cur + 1, prev, D[i + cur * n]);
        cur = (size_t)prev - 1;
      }
      if (cur == i && length != D[i + j * n])
        return dev_fail(c, "%s: the path %zu -> %zu along P weighs %.17g, D says %.17g", label,
                        i + 1, j + 1, length, D[i + j * n]);
    }
  return 1;
}

/* D alone into a separate array, then D and P in place (D = W). has_cycle: the reference found
 * a negative cycle, which both calls must report. */
static void run_graph(dev_check *c, const char *label0, ck_dtype t, const void *W, size_t n,
                      const double *ref, int has_cycle) {
  const size_t bytes = n * n * ck_dtype_size(t);
  void *dW = NULL, *dD = NULL, *dP = NULL, *D = dev_xmalloc(bytes);
  int32_t *P = dev_xmalloc(n * n * sizeof *P);
  ck_status st;
  for (int paths = 0; paths < 2; paths++) {
    char label[128];
    snprintf(label, sizeof label, "%s%s", label0, paths ? ", with P, in place" : "");
    c->cases++;
    if ((st = dev_put(&dW, W, bytes)) || (!paths && (st = ck_dev_alloc(&dD, bytes))) ||
        (paths && (st = ck_dev_alloc(&dP, n * n * sizeof *P)))) {
      dev_fail_status(c, label, st);
      break;
    }
    ck_apsp_args a;
    memset(&a, 0, sizeof a);
    a.t = t, a.kernel = CK_APSP_GPU, a.W = dW, a.D = paths ? dW : dD, a.P = dP, a.n = n;
    st = ck_apsp_device(&a);
    if (st == CK_OK) st = ck_device_sync();
    if (has_cycle) {
      if (st != CK_ERR_NEGCYCLE || a.cycle_vertex < 1 || a.cycle_vertex > n)
        dev_fail(c, "%s: status %d, vertex %zu; want CK_ERR_NEGCYCLE and a vertex", label, (int)st,
                 a.cycle_vertex);
    } else if (st || (st = dev_fetch(D, a.D, bytes)) ||
               (paths && (st = dev_fetch(P, dP, n * n * sizeof *P)))) {
      dev_fail_status(c, label, st);
    } else if (compare_d(c, label, t, D, ref, n) && paths) {
      walk_p(c, label, t, W, P, ref, n);
    }
    ck_dev_free(dW);
    dW = NULL;
  }
  ck_dev_free(dW);
  ck_dev_free(dD);
  ck_dev_free(dP);
  free(D);
  free(P);
}

/* The flavours, then (classes with negative weights) a negative cycle: 0 -> n-1 -> 0 weighing
 * -3 + 1, or a negative weight on the diagonal where n is 1. */
static void check_class(dev_check *c, ck_dtype t, uint64_t seed) {
  dev_rng r;
  dev_seed(&r, seed);
  dev_check_start(c);
  int64_t lo, hi;
  dev_int_bounds(t, &lo, &hi);
  for (size_t q = 0; q < NSIZES; q++)
    for (int f = 0; f <= NFLAVOURS; f++) {
      const size_t n = sizes[q];
      if (f == NFLAVOURS && dev_is_int(t) && lo == 0) continue;
      void *W = dev_xmalloc(n * n * ck_dtype_size(t));
      double *D = dev_xmalloc(n * n * sizeof *D);
      make_graph(t, &r, f == NFLAVOURS ? DENSE : f, W, n);
      if (f == NFLAVOURS && n == 1) dev_setf(t, W, 0, -1);
      if (f == NFLAVOURS && n > 1) dev_setf(t, W, (n - 1) * n, -3), dev_setf(t, W, n - 1, 1);
      char label[64];
      snprintf(label, sizeof label, "n=%zu %s", n,
               f == NFLAVOURS ? "negative cycle" : flavour_names[f]);
      int ok = reference(t, W, n, D);
      if (ok == (f == NFLAVOURS))
        dev_fail(c, "%s: the reference disagrees with the graph's making", label);
      else run_graph(c, label, t, W, n, D, !ok);
      free(W);
      free(D);
    }
}

/* ---- pages: many graphs in one call ---- */

/* Sizes of the paged checks: the batched kernel's, a block's (up to 128, ragged) and a
 * cluster's (129 to 256), and one past it (with P page by page, D alone on the tiles). */
static const size_t page_sizes[] = {1, 2, 17, 33, 65, 100, 128, 129, 200, 256, 257};
#define NPAGE_SIZES (sizeof page_sizes / sizeof page_sizes[0])
#define CHECK_PAGES 5

/* One call over `pages` graphs of n vertices (each its flavour, in turn): D and P of every page
 * against the reference of its own graph. With `cycle`, page 3 (or the only page) has a negative
 * cycle, which the call must report with its page. */
static void run_pages(dev_check *c, ck_dtype t, dev_rng *r, size_t n, size_t pages, int cycle) {
  const size_t nn = n * n, es = ck_dtype_size(t);
  char *W = dev_xmalloc(pages * nn * es), *D = dev_xmalloc(pages * nn * es);
  double *ref = dev_xmalloc(pages * nn * sizeof *ref);
  int32_t *P = dev_xmalloc(pages * nn * sizeof *P);
  const size_t bad = pages > 2 ? 2 : 0;
  for (size_t q = 0; q < pages; q++) {
    make_graph(t, r, (int)(q % NFLAVOURS), W + q * nn * es, n);
    if (cycle && q == bad) {
      if (n == 1) dev_setf(t, W + q * nn * es, 0, -1);
      else dev_setf(t, W + q * nn * es, (n - 1) * n, -3), dev_setf(t, W + q * nn * es, n - 1, 1);
    }
    if (!reference(t, W + q * nn * es, n, ref + q * nn) && !(cycle && q == bad))
      dev_fail(c, "pages n=%zu: the reference found a cycle in page %zu", n, q + 1);
  }
  void *dW = NULL, *dD = NULL, *dP = NULL;
  for (int paths = 0; paths < 2; paths++) {
    char label[96];
    snprintf(label, sizeof label, "n=%zu, %zu pages%s%s", n, pages, paths ? ", with P" : "",
             cycle ? ", a negative cycle" : "");
    c->cases++;
    ck_status st;
    if ((st = dev_put(&dW, W, pages * nn * es)) || (st = ck_dev_alloc(&dD, pages * nn * es)) ||
        (paths && (st = ck_dev_alloc(&dP, pages * nn * sizeof *P)))) {
      dev_fail_status(c, label, st);
      break;
    }
    ck_apsp_args a;
    memset(&a, 0, sizeof a);
    a.t = t, a.kernel = CK_APSP_GPU, a.W = dW, a.D = dD, a.P = dP, a.n = n, a.pages = pages;
    st = ck_apsp_device(&a);
    if (st == CK_OK) st = ck_device_sync();
    if (cycle) {
      if (st != CK_ERR_NEGCYCLE || a.page != bad + 1 || a.cycle_vertex < 1 || a.cycle_vertex > n)
        dev_fail(c, "%s: status %d, page %zu, vertex %zu; want CK_ERR_NEGCYCLE, page %zu", label,
                 (int)st, a.page, a.cycle_vertex, bad + 1);
    } else if (st || (st = dev_fetch(D, dD, pages * nn * es)) ||
               (paths && (st = dev_fetch(P, dP, pages * nn * sizeof *P)))) {
      dev_fail_status(c, label, st);
    } else {
      for (size_t q = 0; q < pages; q++) {
        char pl[128];
        snprintf(pl, sizeof pl, "%s, page %zu", label, q + 1);
        if (!compare_d(c, pl, t, D + q * nn * es, ref + q * nn, n)) break;
        if (paths && !walk_p(c, pl, t, W + q * nn * es, P + q * nn, ref + q * nn, n)) break;
      }
    }
    ck_dev_free(dW);
    ck_dev_free(dD);
    ck_dev_free(dP);
    dW = dD = dP = NULL;
  }
  free(W);
  free(D);
  free(ref);
  free(P);
}

static void check_pages(dev_check *c, ck_dtype t, uint64_t seed) {
  dev_rng r;
  dev_seed(&r, seed);
  int64_t lo, hi;
  dev_int_bounds(t, &lo, &hi);
  for (size_t q = 0; q < NPAGE_SIZES; q++) {
    run_pages(c, t, &r, page_sizes[q], CHECK_PAGES, 0);
    if (!dev_is_int(t) || lo < 0) run_pages(c, t, &r, page_sizes[q], CHECK_PAGES, 1);
  }
  run_pages(c, t, &r, 33, 1, 0);
  /* enough pages for the tiled kernel's distances (half a page an SM or more), ragged */
  ck_device_info info;
  const size_t many = (ck_device_query(&info) == CK_OK ? (size_t)info.multiprocessors : 132) + 7;
  run_pages(c, t, &r, 200, many, 0);
  if (!dev_is_int(t) || lo < 0) run_pages(c, t, &r, 129, many, 1);
  /* past the batched kernels: the tiled kernel alone (D alone, up to 4-byte work values; the
   * others page by page on the rounds, and with P) */
  const size_t half = (many - 7 + 1) / 2 + 3;
  run_pages(c, t, &r, 300, half, 0);
  if (!dev_is_int(t) || lo < 0) run_pages(c, t, &r, 257, half, 1);
}

static void time_class(ck_dtype t, const dev_opts *o) {
  double *times = dev_xmalloc((size_t)o->reps * sizeof *times);
  for (int paths = 0; paths < 2; paths++) {
    ck_timing tm = {1, o->reps, times, CK_DATA_INTS, 0};
    const size_t pages = o->pages ? o->pages : 1;
    printf("%-8s %-7s n=%zu", paths ? "D and P" : "D", ck_dtype_name(t), o->n);
    if (o->pages) printf(" x %zu", o->pages);
    ck_apsp_args shape;
    memset(&shape, 0, sizeof shape);
    shape.t = t, shape.n = o->n, shape.pages = o->pages;
    if (ck_apsp_time(&shape, paths, &tm) != CK_OK) {
      printf("  timing failed: %s\n", ck_last_error());
      continue;
    }
    ck_plan plan;
    ck_last_plan(&plan);
    const ck_dtype path = plan.work; /* the work type */
    double ms = dev_median(times, o->reps), ceiling = 0, n = (double)o->n;
    if (ck_minplus_ceiling(path, &ceiling) != CK_OK) ceiling = 0;
    printf(" on %-6s", ck_dtype_name(path));
    dev_print_rate(ms, (double)pages * n * n * n / (ms * 1e-3) / 1e12, "Tpair/s", ceiling / 1e12);
  }
  free(times);
}

int main(int argc, char **argv) {
  dev_opts o = {NULL, -1, 4096, 5, (uint64_t)time(NULL), 0, 0};
  dev_parse(argc, argv, &o, usage, NULL);
  if (o.version || o.cls >= CK_INT64) {
    fprintf(stderr, "%s", usage);
    return 2;
  }
  dev_init_or_exit("apsp");
  printf("seed %llu; D exact, P walked; times: n^3 pair updates, beside the work class's ceiling\n",
         (unsigned long long)o.seed);
  int bad = 0;
  for (int t = 0; t < CK_INT64; t++) {
    if (o.cls >= 0 && t != o.cls) continue;
    dev_check c;
    check_class(&c, (ck_dtype)t, o.seed + (unsigned)t);
    check_pages(&c, (ck_dtype)t, o.seed + 100u + (unsigned)t);
    dev_check_leaks(&c);
    printf("apsp     %-7s", ck_dtype_name((ck_dtype)t));
    if (c.failed) printf(" FAIL %d of %d: %s\n", c.failed, c.cases, c.first);
    else printf(" pass %3d\n", c.cases);
    bad |= c.failed > 0;
    if (o.n && !c.failed) time_class((ck_dtype)t, &o);
  }
  printf(bad ? "apsp: MISMATCHES (see FAIL lines)\n" : "apsp: all checks passed\n");
  return bad;
}
