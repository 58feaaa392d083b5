/* dev/matmul: every matrix-multiply version (cuBLAS too, where it loads) against a plain triple
 * loop in double, within the bound of the kernel's rounding, on ragged shapes (among them few
 * outputs over a deep k, which warptile splits), and each custom version run twice for the same
 * bits; then timed, each rate as a share of cuBLAS's in the same run, with warptile's split.
 * Exit status: 0 all passed, 1 a mismatch, 2 no GPU/usage. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common.h"

static const char usage[] =
    "usage: dev/matmul [VERSION] [--class C] [--n N] [--shape M K N] [--split S] [--reps R]\n"
    "                  [--seed S]\n"
    "  VERSION  0..7 or naive, tiled16, tiled32, texture, regblock, vectorized, warptile, cublas\n"
    "  --class  single or double (default: both)\n"
    "  --n      timed size, N x N times N x N (default 4096; 0: check only)\n"
    "  --shape  timed size M x K times K x N instead (e.g. --shape 256 8192 256)\n"
    "  --split  warptile splits k into S slices, checks and timings (0: the planner's)\n"
    "  --reps   timed runs after one warm-up (default 5); --seed: the inputs' seed\n";

typedef struct {
  size_t m, k, n;
} shape;

/* The last six: few outputs over a deep k, where warptile splits k (ragged ones too). */
static const shape shapes[] = {{1, 1, 1},        {63, 65, 17},     {65, 63, 129},
                               {1000, 7, 300},   {5, 0, 7},        {17, 300, 3},
                               {33, 2500, 40},   {257, 129, 200},  {2, 3, 1},
                               {1, 1000, 64},    {256, 8192, 256}, {64, 16384, 64},
                               {1000, 5000, 30}, {65, 4099, 33},   {130, 9001, 7},
                               {129, 10001, 257}};
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

/* C = A * B in double, and beside it sum_p |A(i,p) B(p,j)|, which bounds the rounding error.
 * On A's rows and B's columns as contiguous doubles, so that the deep shapes take a second, not
 * a minute. */
static void reference(ck_dtype t, const void *A, const void *B, double *C, double *mag,
                      const shape *s) {
  const size_t m = s->m, k = s->k, n = s->n;
  double *At = dev_xmalloc(m * k * sizeof *At), *Bd = dev_xmalloc(k * n * sizeof *Bd);
  for (size_t p = 0; p < k; p++)
    for (size_t i = 0; i < m; i++) At[i * k + p] = dev_getf(t, A, i + p * m);
  for (size_t q = 0; q < k * n; q++) Bd[q] = dev_getf(t, B, q);
  for (size_t j = 0; j < n; j++)
    for (size_t i = 0; i < m; i++) {
      const double *a = At + i * k, *b = Bd + j * k;
      double sum = 0, abs_sum = 0;
      for (size_t p = 0; p < k; p++) {
        double term = a[p] * b[p];
        sum += term;
        abs_sum += fabs(term);
      }
      C[i + j * m] = sum;
      mag[i + j * m] = abs_sum;
    }
  free(At);
  free(Bd);
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

/* One product through the call path (planned, its plan kept: *split is the split it ran with),
 * into C on the host. */
static ck_status product(ck_dtype t, int kernel, const shape *s, const void *dA, const void *dB,
                         void *dC, void *C, int *split) {
  const size_t nc = s->m * s->n, es = ck_dtype_size(t);
  ck_status st = dev_poison(dC, nc * es);
  if (st) return st;
  const ck_product p = {t, kernel, dA, dB, dC, NULL, s->m, s->k, s->n, NULL, CK_SR_MIN_PLUS};
  const ck_call call = {CK_PLUS_TIMES, CK_ON_DEVICE, p, NULL, NULL, 0};
  ck_plan plan;
  if ((st = ck_product_call(&call, &plan)) || (st = ck_device_sync())) return st;
  *split = plan.split;
  return dev_fetch(C, dC, nc * es);
}

/* Checks one case, and for the custom versions that a second run gives the same bits (split-K
 * sums in a fixed order); *split: the split it ran with. */
static void run_case(dev_check *c, ck_dtype t, int kernel, const shape *s, int flavour,
                     const void *A, const void *B, const double *ref, const double *mag,
                     int *split) {
  const size_t es = ck_dtype_size(t), nc = s->m * s->n;
  void *dA = NULL, *dB = NULL, *dC = NULL, *C = dev_xmalloc(nc * es), *C2 = dev_xmalloc(nc * es);
  char label[128];
  snprintf(label, sizeof label, "%zux%zux%zu %s", s->m, s->k, s->n, flavour_names[flavour]);
  ck_status st;
  int again = 0;
  c->cases++;
  if ((st = dev_put(&dA, A, s->m * s->k * es)) || (st = dev_put(&dB, B, s->k * s->n * es)) ||
      (st = ck_dev_alloc(&dC, nc * es)) || (st = product(t, kernel, s, dA, dB, dC, C, split))) {
    dev_fail_status(c, label, st);
  } else if (compare(c, label, t, C, ref, mag, s) && kernel != CK_MATMUL_CUBLAS) {
    if ((st = product(t, kernel, s, dA, dB, dC, C2, &again))) dev_fail_status(c, label, st);
    else if (memcmp(C, C2, nc * es))
      dev_fail(c, "%s: a second run gave other bits (split %d, then %d)", label, *split, again);
  }
  ck_dev_free(dA);
  ck_dev_free(dB);
  ck_dev_free(dC);
  free(C);
  free(C2);
}

/* Every shape in every flavour; the deep ones (over 2^24 multiply-adds) uniform only: with 3%
 * specials over thousands of terms every output is NaN or infinite. splits[q]: shape q's split. */
static void check(dev_check *c, ck_dtype t, int kernel, uint64_t seed, int *splits) {
  dev_rng r;
  dev_seed(&r, seed);
  dev_check_start(c);
  const size_t es = ck_dtype_size(t);
  for (size_t q = 0; q < NSHAPES; q++)
    for (int f = 0; f < NFLAVOURS; f++) {
      const shape *s = &shapes[q];
      if (f == SPECIAL && (double)s->m * s->k * s->n > 0x1p24) continue;
      void *A = dev_xmalloc(s->m * s->k * es), *B = dev_xmalloc(s->k * s->n * es);
      double *ref = dev_xmalloc(s->m * s->n * sizeof *ref);
      double *mag = dev_xmalloc(s->m * s->n * sizeof *mag);
      fill(t, &r, f, A, s->m * s->k);
      fill(t, &r, f, B, s->k * s->n);
      reference(t, A, B, ref, mag, s);
      run_case(c, t, kernel, s, f, A, B, ref, mag, &splits[q]);
      free(A);
      free(B);
      free(ref);
      free(mag);
    }
}

/* The median time of the timed product in ms, or 0 (with the reason printed) if it failed;
 * *split: the split it ran with. */
static double time_product(ck_dtype t, int kernel, const shape *s, int reps, int *split) {
  double *times = dev_xmalloc((size_t)reps * sizeof *times), ms = 0;
  ck_product p = {t, kernel, NULL, NULL, NULL, NULL, s->m, s->k, s->n, NULL, CK_SR_MIN_PLUS};
  ck_timing tm = {1, reps, times, CK_DATA_INTS, 0};
  *split = 1;
  if (ck_matmul_time(&p, &tm) == CK_OK) {
    ck_plan plan;
    ck_last_plan(&plan);
    ms = dev_median(times, reps);
    *split = plan.split;
  } else {
    printf("  timing failed: %s\n", ck_last_error());
  }
  free(times);
  return ms;
}

/* --shape M K N and --split S, taken out of argv before dev_parse sees them; exits 2 on a bad
 * value. */
static void take_options(int *argc, char **argv, shape *timed, int *have_shape, int *split) {
  for (int a = 1; a < *argc;) {
    const int sh = !strcmp(argv[a], "--shape"), sp = !strcmp(argv[a], "--split");
    const int count = sh ? 3 : sp ? 1 : 0;
    if (!count) {
      a++;
      continue;
    }
    size_t v[3];
    for (int i = 0; i < count; i++) {
      char *end = NULL;
      if (a + 1 + i >= *argc) {
        fprintf(stderr, "%s needs %d value%s\n%s", argv[a], count, count > 1 ? "s" : "", usage);
        exit(2);
      }
      v[i] = (size_t)strtoull(argv[a + 1 + i], &end, 10);
      if (!*argv[a + 1 + i] || *end || (sp && v[i] > 65535)) {
        fprintf(stderr, "bad value for %s: %s\n%s", argv[a], argv[a + 1 + i], usage);
        exit(2);
      }
    }
    if (sh) *timed = (shape){v[0], v[1], v[2]}, *have_shape = 1;
    else *split = (int)v[0];
    for (int b = a; b + count + 1 <= *argc; b++) argv[b] = argv[b + count + 1];
    *argc -= count + 1;
  }
}

/* The shapes that warptile split, after its check line: "split 256x8192x256:32 ...". */
static void print_splits(const int *splits) {
  int any = 0;
  for (size_t q = 0; q < NSHAPES; q++)
    if (splits[q] > 1) {
      printf("%s %zux%zux%zu:%d", any ? "" : "      split", shapes[q].m, shapes[q].k, shapes[q].n,
             splits[q]);
      any = 1;
    }
  if (any) printf("\n");
}

static int usable(int kernel) { return kernel != CK_MATMUL_CUBLAS || ck_cublas_available(); }

int main(int argc, char **argv) {
  dev_opts o = {NULL, -1, 4096, 5, (uint64_t)time(NULL), 0, 0};
  shape timed = {0, 0, 0};
  int have_shape = 0, split = 0;
  take_options(&argc, argv, &timed, &have_shape, &split);
  dev_parse(argc, argv, &o, usage, NULL);
  if (!have_shape) timed = (shape){o.n, o.n, o.n};
  else if (!o.n) timed = (shape){0, 0, 0};
  (void)ck_matmul_set_split(split);
  const int only = dev_pick_version(o.version, CK_MATMUL_NUM, ck_matmul_kernel_id,
                                    ck_matmul_kernel_name);
  if (o.cls >= 0 && o.cls != CK_SINGLE && o.cls != CK_DOUBLE) {
    fprintf(stderr, "matmul takes single and double\n%s", usage);
    return 2;
  }
  dev_init_or_exit("matmul");
  printf("seed %llu; checks against a double-precision triple loop; cuBLAS: %s\n",
         (unsigned long long)o.seed, ck_cublas_available() ? ck_cublas_library() : "not found");
  if (split) printf("warptile's split forced to %d slices\n", split);
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
      int splits[NSHAPES] = {0};
      check(&c, (ck_dtype)t, v, o.seed + 100u * (unsigned)v + (unsigned)t, splits);
      dev_check_leaks(&c);
      printf("v%d %-11s %-7s", v, ck_matmul_kernel_name(v), ck_dtype_name((ck_dtype)t));
      if (c.failed) printf(" FAIL %d of %d: %s\n", c.failed, c.cases, c.first);
      else printf(" pass %3d\n", c.cases);
      if (v == CK_MATMUL_WARPTILE) print_splits(splits);
      bad |= c.failed > 0;
      passed[v] = !c.failed;
    }
    if (!timed.m || !timed.k || !timed.n) continue;
    /* cuBLAS first, so that every row can show its share. */
    int used = 1;
    double ref = usable(CK_MATMUL_CUBLAS)
                     ? time_product((ck_dtype)t, CK_MATMUL_CUBLAS, &timed, o.reps, &used)
                     : 0;
    const double flop = 2.0 * (double)timed.m * (double)timed.k * (double)timed.n;
    char size[64];
    if (timed.m == timed.k && timed.k == timed.n) snprintf(size, sizeof size, "n=%zu", timed.m);
    else snprintf(size, sizeof size, "%zux%zux%zu", timed.m, timed.k, timed.n);
    for (int v = 0; v < CK_MATMUL_NUM; v++) {
      if (!passed[v]) continue;
      double ms = v == CK_MATMUL_CUBLAS ? ref : time_product((ck_dtype)t, v, &timed, o.reps, &used);
      if (ms <= 0) continue;
      char split_note[24] = "";
      if (v == CK_MATMUL_WARPTILE) snprintf(split_note, sizeof split_note, " split %d", used);
      printf("v%d %-11s %-7s %s%s", v, ck_matmul_kernel_name(v), ck_dtype_name((ck_dtype)t), size,
             split_note);
      dev_print_rate(ms, flop / (ms * 1e-3) / 1e12, "TFLOP/s",
                     ref > 0 ? flop / (ref * 1e-3) / 1e12 : 0);
    }
  }
  printf(bad ? "matmul: MISMATCHES (see FAIL lines)\n" : "matmul: all checks passed\n");
  return bad;
}
