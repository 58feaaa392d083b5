/* dev/matmul: every matrix-multiply version (cuBLAS too, where it loads) against a plain triple
 * loop in double, within the bound of the kernel's rounding, on ragged shapes; then timed, each
 * rate as a share of cuBLAS's in the same run. Exit status: 0 all passed, 1 a mismatch, 2 no
 * GPU/usage. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common.h"

static const char usage[] =
    "usage: dev/matmul [VERSION] [--class C] [--n N] [--reps R] [--seed S]\n"
    "  VERSION  0..6 or naive, tiled16, tiled32, regblock, vectorized, warptile, cublas\n"
    "  --class  single or double (default: both)\n"
    "  --n      timed size, N x N times N x N (default 4096; 0: check only)\n"
    "  --reps   timed runs after one warm-up (default 5); --seed: the inputs' seed\n";

typedef struct {
  size_t m, k, n;
} shape;

static const shape shapes[] = {{1, 1, 1}, {63, 65, 17}, {65, 63, 129},  {1000, 7, 300},
                               {5, 0, 7}, {17, 300, 3}, {33, 2500, 40}, {257, 129, 200},
                               {2, 3, 1}, {1, 1000, 64}};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

/* Uniform values in [-1, 1]; SPECIAL sprinkles NaN and +-Inf (1% each), whose outcome (NaN, or
 * an infinity's sign) does not depend on the order of the sums. */
enum { UNIFORM, SPECIAL, NFLAVOURS };
static const char *const flavour_names[] = {"uniform", "special"};

static void fill(ck_dtype t, dev_rng *r, int flavour, void *X, size_t count) {
  for (size_t i = 0; i < count; i++) {
    double u = dev_uniform(r), v = dev_uniform(r) * 2 - 1;
    if (flavour == SPECIAL && u < 0.03) v = u < 0.01 ? NAN : u < 0.02 ? INFINITY : -INFINITY;
    dev_setf(t, X, i, v);
  }
}

/* C = A * B in double, and beside it sum_p |A(i,p) B(p,j)|, which bounds the rounding error. */
static void reference(ck_dtype t, const void *A, const void *B, double *C, double *mag,
                      const shape *s) {
  const size_t m = s->m, k = s->k, n = s->n;
  for (size_t j = 0; j < n; j++)
    for (size_t i = 0; i < m; i++) {
      double sum = 0, abs_sum = 0;
      for (size_t p = 0; p < k; p++) {
        double term = dev_getf(t, A, i + p * m) * dev_getf(t, B, p + j * k);
        sum += term;
        abs_sum += fabs(term);
      }
      C[i + j * m] = sum;
      mag[i + j * m] = abs_sum;
    }
}

/* Each output within 2 (k + 1) u sum |a b| (u the class's unit roundoff: the classic bound on a
 * dot product in any order, with room for the reference's own rounding); non-finite references
 * exactly. */
static int compare(dev_check *c, const char *label, ck_dtype t, const void *C, const double *ref,
                   const double *mag, const shape *s) {
  const double u = t == CK_SINGLE ? 0x1p-24 : 0x1p-53;
  for (size_t idx = 0; idx < s->m * s->n; idx++) {
    double got = dev_getf(t, C, idx), want = ref[idx];
    double tol = 2 * (double)(s->k + 1) * u * mag[idx];
    int ok = isfinite(want) ? fabs(got - want) <= tol : dev_same(got, want);
    if (!ok)
      return dev_fail(c, "%s: C(%zu,%zu) = %.17g, want %.17g (tolerance %.3g)", label,
                      idx % s->m + 1, idx / s->m + 1, got, want, tol);
  }
  return 1;
}

static void run_case(dev_check *c, ck_dtype t, int kernel, const shape *s, int flavour,
                     const void *A, const void *B, const double *ref, const double *mag) {
  const size_t es = ck_dtype_size(t), nc = s->m * s->n;
  void *dA = NULL, *dB = NULL, *dC = NULL, *C = dev_xmalloc(nc * es);
  char label[128];
  snprintf(label, sizeof label, "%zux%zux%zu %s", s->m, s->k, s->n, flavour_names[flavour]);
  ck_product p = {t, kernel, NULL, NULL, NULL, NULL, s->m, s->k, s->n, NULL, CK_SR_MIN_PLUS};
  ck_status st;
  c->cases++;
  if ((st = dev_put(&dA, A, s->m * s->k * es)) || (st = dev_put(&dB, B, s->k * s->n * es)) ||
      (st = ck_dev_alloc(&dC, nc * es)) || (st = dev_poison(dC, nc * es))) {
    dev_fail_status(c, label, st);
  } else {
    p.A = dA, p.B = dB, p.C = dC;
    if ((st = ck_matmul_device(&p)) || (st = ck_device_sync()) || (st = dev_fetch(C, dC, nc * es)))
      dev_fail_status(c, label, st);
    else compare(c, label, t, C, ref, mag, s);
  }
  ck_dev_free(dA);
  ck_dev_free(dB);
  ck_dev_free(dC);
  free(C);
}

static void check(dev_check *c, ck_dtype t, int kernel, uint64_t seed) {
  dev_rng r;
  dev_seed(&r, seed);
  dev_check_start(c);
  const size_t es = ck_dtype_size(t);
  for (size_t q = 0; q < NSHAPES; q++)
    for (int f = 0; f < NFLAVOURS; f++) {
      const shape *s = &shapes[q];
      void *A = dev_xmalloc(s->m * s->k * es), *B = dev_xmalloc(s->k * s->n * es);
      double *ref = dev_xmalloc(s->m * s->n * sizeof *ref);
      double *mag = dev_xmalloc(s->m * s->n * sizeof *mag);
      fill(t, &r, f, A, s->m * s->k);
      fill(t, &r, f, B, s->k * s->n);
      reference(t, A, B, ref, mag, s);
      run_case(c, t, kernel, s, f, A, B, ref, mag);
      free(A);
      free(B);
      free(ref);
      free(mag);
    }
}

/* The median time of an n^3 product in ms, or 0 (with the reason printed) if it failed. */
static double time_product(ck_dtype t, int kernel, const dev_opts *o) {
  double *times = dev_xmalloc((size_t)o->reps * sizeof *times), ms = 0;
  ck_product p = {t, kernel, NULL, NULL, NULL, NULL, o->n, o->n, o->n, NULL, CK_SR_MIN_PLUS};
  ck_timing tm = {1, o->reps, times, CK_DATA_INTS, 0};
  if (ck_matmul_time(&p, &tm) == CK_OK) ms = dev_median(times, o->reps);
  else printf("  timing failed: %s\n", ck_last_error());
  free(times);
  return ms;
}

static int usable(int kernel) { return kernel != CK_MATMUL_CUBLAS || ck_cublas_available(); }

int main(int argc, char **argv) {
  dev_opts o = {NULL, -1, 4096, 5, (uint64_t)time(NULL), 0};
  dev_parse(argc, argv, &o, usage, NULL);
  const int only = dev_pick_version(o.version, CK_MATMUL_NUM, ck_matmul_kernel_id,
                                    ck_matmul_kernel_name);
  if (o.cls >= 0 && o.cls != CK_SINGLE && o.cls != CK_DOUBLE) {
    fprintf(stderr, "matmul takes single and double\n%s", usage);
    return 2;
  }
  dev_init_or_exit("matmul");
  printf("seed %llu; checks against a double-precision triple loop; cuBLAS: %s\n",
         (unsigned long long)o.seed, ck_cublas_available() ? ck_cublas_library() : "not found");
  int bad = 0;
  for (int t = CK_DOUBLE; t <= CK_SINGLE; t++) {
    if (o.cls >= 0 && t != o.cls) continue;
    int passed[CK_MATMUL_NUM] = {0};
    for (int v = 0; v < CK_MATMUL_NUM; v++) {
      if (only >= 0 && v != only) continue;
      if (!usable(v)) {
        printf("v%d %-11s %-7s not found (no libcublas to load)\n", v, ck_matmul_kernel_name(v),
               ck_dtype_name((ck_dtype)t));
        continue;
      }
      dev_check c;
      check(&c, (ck_dtype)t, v, o.seed + 100u * (unsigned)v + (unsigned)t);
      dev_check_leaks(&c);
      printf("v%d %-11s %-7s", v, ck_matmul_kernel_name(v), ck_dtype_name((ck_dtype)t));
      if (c.failed) printf(" FAIL %d of %d: %s\n", c.failed, c.cases, c.first);
      else printf(" pass %3d\n", c.cases);
      bad |= c.failed > 0;
      passed[v] = !c.failed;
    }
    if (!o.n) continue;
    /* cuBLAS first, so that every row can show its share. */
    double ref = usable(CK_MATMUL_CUBLAS) ? time_product((ck_dtype)t, CK_MATMUL_CUBLAS, &o) : 0;
    const double flop = 2.0 * (double)o.n * (double)o.n * (double)o.n;
    for (int v = 0; v < CK_MATMUL_NUM; v++) {
      if (!passed[v]) continue;
      double ms = v == CK_MATMUL_CUBLAS ? ref : time_product((ck_dtype)t, v, &o);
      if (ms <= 0) continue;
      printf("v%d %-11s %-7s n=%zu", v, ck_matmul_kernel_name(v), ck_dtype_name((ck_dtype)t), o.n);
      dev_print_rate(ms, flop / (ms * 1e-3) / 1e12, "TFLOP/s",
                     ref > 0 ? flop / (ref * 1e-3) / 1e12 : 0);
    }
  }
  printf(bad ? "matmul: MISMATCHES (see FAIL lines)\n" : "matmul: all checks passed\n");
  return bad;
}
