/* dev/semiring: every kernel version and class of a semiring product (min.+ unless --semiring
 * says otherwise), checked exactly against a plain triple loop on ragged shapes with NaN, +-Inf,
 * ties and saturating integers, then timed beside the semiring's compute ceiling for the class.
 * The reference is written here, apart from the package's CPU kernel, so that one mistake cannot
 * sit in both. Exit status: 0 all passed, 1 a mismatch, 2 no GPU/usage. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common.h"

static const char usage[] =
    "usage: dev/semiring [VERSION] [--class C] [--n N] [--reps R] [--seed S] [--narrow]\n"
    "                    [--semiring S]\n"
    "  VERSION  0..3 or naive, coalesced, regblock, warptile (default: all)\n"
    "  --semiring  min.+ (default), max.+, max.min, min.max or max.* (each with its classes)\n"
    "  --class  double, single, int8, uint8, int16, uint16, int32, uint32 (default: all)\n"
    "  --n      timed size, N x N times N x N (default 4096; 0: check only)\n"
    "  --reps   timed runs after one warm-up (default 5); --seed: the inputs' seed\n"
    "  --narrow time warptile's single/double on the integer paths (default: in their class)\n";

typedef struct {
  size_t m, k, n;
} shape;

/* Ragged against every tile size (1, 63, 65, 129, 257), k = 0, a deep k that the warptile kernel
 * splits, and outputs far from square. */
static const shape shapes[] = {{1, 1, 1}, {63, 65, 17}, {65, 63, 129},  {1000, 7, 300},
                               {5, 0, 7}, {17, 300, 3}, {33, 2500, 40}, {257, 129, 200},
                               {2, 3, 1}, {1, 1000, 64}};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

/* The inputs: small values with many ties; the special values (NaN, +-Inf; the class limits, so
 * that sums saturate); values over the whole range. */
enum { TIES, SPECIAL, WIDE, NFLAVOURS };
static const char *const flavour_names[] = {"ties", "special", "wide"};

static double float_value(dev_rng *r, int flavour) {
  if (flavour == TIES) return (double)dev_rand_int(r, 0, 30) + (dev_chance(r, 0.25) ? 0.5 : 0);
  if (flavour == WIDE) return (dev_uniform(r) * 2 - 1) * 1000;
  double u = dev_uniform(r);
  if (u < 0.10) return u < 0.04 ? NAN : u < 0.07 ? INFINITY : -INFINITY;
  return (double)dev_rand_int(r, -20, 20);
}

static int64_t int_value(dev_rng *r, ck_dtype t, int flavour) {
  int64_t lo, hi;
  dev_int_bounds(t, &lo, &hi);
  if (flavour == TIES) return lo < 0 ? dev_rand_int(r, -20, 20) : dev_rand_int(r, 0, 40);
  if (flavour == WIDE) return dev_rand_int(r, lo, hi);
  const int64_t pick[] = {lo, hi, lo + 1, hi - 1, 0};
  int64_t c = dev_rand_int(r, 0, 7);
  return c < 5 ? pick[c] : dev_rand_int(r, lo, hi);
}

/* X is rows x cols, column-major. With SPECIAL floats, A's row 0 is all NaN (every term NaN: C
 * NaN, K 1), A's row 1 all -Inf and B's column 0 all +Inf (-Inf + Inf is NaN, ignored). */
static void fill(ck_dtype t, dev_rng *r, int flavour, int is_a, void *X, size_t rows, size_t cols) {
  for (size_t j = 0; j < cols; j++)
    for (size_t i = 0; i < rows; i++) {
      size_t idx = i + j * rows;
      if (dev_is_int(t)) {
        dev_seti(t, X, idx, int_value(r, t, flavour));
        continue;
      }
      double v = float_value(r, flavour);
      if (flavour == SPECIAL && is_a && rows > 2 && i < 2) v = i == 0 ? NAN : -INFINITY;
      if (flavour == SPECIAL && !is_a && cols > 1 && j == 0) v = INFINITY;
      dev_setf(t, X, idx, v);
    }
}

/* ---- the reference: Octave's [C, K] = min (MUL (A(i,:), B(:,j)'), [], 2) (or max), one output
 * at a time ---- */

/* The semiring under test: its add (min or max) and multiply, as Octave's operators. */
enum { MUL_PLUS, MUL_MIN, MUL_MAX, MUL_TIMES };
static struct {
  ck_semiring id;
  int max_add, mul;
} sr = {CK_SR_MIN_PLUS, 0, MUL_PLUS};

/* One term in double, exact for every class (the float classes' terms are one rounding of it,
 * the class's own). min and max ignore a NaN operand, as Octave's min (a, b) does. */
static double term_of(double a, double b) {
  switch (sr.mul) {
  case MUL_PLUS: return a + b;
  case MUL_TIMES: return a * b;
  case MUL_MIN: return isnan(a) ? b : isnan(b) ? a : b < a ? b : a;
  default: return isnan(a) ? b : isnan(b) ? a : b > a ? b : a;
  }
}
static int better(double t, double best) { return sr.max_add ? t > best : t < best; }

/* Float classes: terms in the class; NaN terms never win (so Inf + -Inf, which is NaN, is
 * ignored); K is the first k with the best term, 1 where every term is NaN; k == 0 gives the
 * add's identity (+Inf or -Inf), 0. */
#define REF_FLOAT(NAME, T)                                                                       \
  static void NAME(const T *A, const T *B, double *C, double *K, size_t m, size_t k, size_t n) { \
    for (size_t j = 0; j < n; j++)                                                               \
      for (size_t i = 0; i < m; i++) {                                                           \
        T best = k ? (T)NAN : sr.max_add ? (T)-INFINITY : (T)INFINITY;                           \
        size_t at = 0;                                                                           \
        for (size_t p = 0; p < k; p++) {                                                         \
          T term = (T)term_of(A[i + p * m], B[p + j * k]);                                       \
          if (!isnan(term) && (isnan(best) || better(term, best))) best = term, at = p;          \
        }                                                                                        \
        C[i + j * m] = best;                                                                     \
        K[i + j * m] = k ? (double)(at + 1) : 0;                                                 \
      }                                                                                          \
  }
REF_FLOAT(ref_double, double)
REF_FLOAT(ref_single, float)

/* Integer classes: each term saturated to the class, then the best; k == 0 gives intmax (min)
 * or intmin (max), 0. */
static void ref_int(ck_dtype t, const void *A, const void *B, double *C, double *K, size_t m,
                    size_t k, size_t n) {
  int64_t lo, hi;
  dev_int_bounds(t, &lo, &hi);
  for (size_t j = 0; j < n; j++)
    for (size_t i = 0; i < m; i++) {
      int64_t best = sr.max_add ? lo : hi;
      size_t at = 0;
      for (size_t p = 0; p < k; p++) {
        int64_t term = (int64_t)term_of((double)dev_geti(t, A, i + p * m),
                                        (double)dev_geti(t, B, p + j * k));
        term = term < lo ? lo : term > hi ? hi : term;
        if (p == 0 || better((double)term, (double)best)) best = term, at = p;
      }
      C[i + j * m] = (double)best; /* exact: the classes go up to 32 bits */
      K[i + j * m] = k ? (double)(at + 1) : 0;
    }
}

static void reference(ck_dtype t, const void *A, const void *B, double *C, double *K,
                      const shape *s) {
  if (t == CK_DOUBLE) ref_double(A, B, C, K, s->m, s->k, s->n);
  else if (t == CK_SINGLE) ref_single(A, B, C, K, s->m, s->k, s->n);
  else ref_int(t, A, B, C, K, s->m, s->k, s->n);
}

/* ---- one case on the GPU ---- */

static int compare(dev_check *c, const char *label, ck_dtype t, const void *C, const double *K,
                   const double *refC, const double *refK, size_t m, size_t n) {
  for (size_t idx = 0; idx < m * n; idx++) {
    size_t i = idx % m + 1, j = idx / m + 1;
    if (!dev_same(dev_getf(t, C, idx), refC[idx])) {
      char got[64];
      dev_format(t, C, idx, got, sizeof got);
      return dev_fail(c, "%s: C(%zu,%zu) = %s, want %.17g", label, i, j, got, refC[idx]);
    }
    if (K && K[idx] != refK[idx])
      return dev_fail(c, "%s: K(%zu,%zu) = %.17g, want %.17g (C %.17g)", label, i, j, K[idx],
                      refK[idx], refC[idx]);
  }
  return 1;
}

/* The product through ck_minplus_device, without and then with the witness, into outputs
 * poisoned first so that an element the kernel skips shows. */
static void run_case(dev_check *c, ck_dtype t, int kernel, const shape *s, int flavour,
                     const void *A, const void *B, const double *refC, const double *refK) {
  const size_t es = ck_dtype_size(t), nc = s->m * s->n;
  void *dA = NULL, *dB = NULL, *dC = NULL, *dK = NULL;
  void *C = dev_xmalloc(nc * es);
  double *K = dev_xmalloc(nc * sizeof *K);
  char label[128];
  snprintf(label, sizeof label, "%zux%zux%zu %s", s->m, s->k, s->n, flavour_names[flavour]);
  ck_status st;
  int ok = 1;
  if ((st = dev_put(&dA, A, s->m * s->k * es)) || (st = dev_put(&dB, B, s->k * s->n * es)) ||
      (st = ck_dev_alloc(&dC, nc * es)) || (st = ck_dev_alloc(&dK, nc * sizeof *K)))
    ok = dev_fail_status(c, label, st);
  for (int with_k = 0; ok && with_k < 2; with_k++) {
    if (with_k) strcat(label, ", with K");
    ck_product p = {t, kernel, dA, dB, dC, with_k ? dK : NULL, s->m, s->k, s->n, NULL, sr.id};
    c->cases++;
    if ((st = dev_poison(dC, nc * es)) || (with_k && (st = dev_poison(dK, nc * sizeof *K))) ||
        (st = ck_minplus_device(&p)) || (st = ck_device_sync()) ||
        (st = dev_fetch(C, dC, nc * es)) || (with_k && (st = dev_fetch(K, dK, nc * sizeof *K))))
      ok = dev_fail_status(c, label, st);
    else ok = compare(c, label, t, C, with_k ? K : NULL, refC, refK, s->m, s->n);
  }
  ck_dev_free(dA);
  ck_dev_free(dB);
  ck_dev_free(dC);
  ck_dev_free(dK);
  free(C);
  free(K);
}

/* Every shape and flavour on fresh inputs; narrow: the float classes' integer paths as well. */
static void check(dev_check *c, ck_dtype t, int kernel, uint64_t seed) {
  dev_rng r;
  dev_seed(&r, seed);
  dev_check_start(c);
  const size_t es = ck_dtype_size(t);
  for (size_t q = 0; q < NSHAPES; q++)
    for (int f = 0; f < NFLAVOURS; f++) {
      const shape *s = &shapes[q];
      void *A = dev_xmalloc(s->m * s->k * es), *B = dev_xmalloc(s->k * s->n * es);
      double *refC = dev_xmalloc(s->m * s->n * sizeof *refC);
      double *refK = dev_xmalloc(s->m * s->n * sizeof *refK);
      fill(t, &r, f, 1, A, s->m, s->k);
      fill(t, &r, f, 0, B, s->k, s->n);
      reference(t, A, B, refC, refK, s);
      run_case(c, t, kernel, s, f, A, B, refC, refK);
      free(A);
      free(B);
      free(refC);
      free(refK);
    }
}

/* ---- timing ---- */

static double ceiling_of(ck_dtype t) {
  static double known[CK_NUM_DTYPES];
  if (known[t] == 0 && ck_semiring_ceiling(sr.id, t, 0, &known[t]) != CK_OK) known[t] = -1;
  return known[t] > 0 ? known[t] / 1e12 : 0;
}

static void time_product(ck_dtype t, int kernel, const dev_opts *o) {
  const size_t n = o->n;
  double *times = dev_xmalloc((size_t)o->reps * sizeof *times);
  ck_product p = {t, kernel, NULL, NULL, NULL, NULL, n, n, n, NULL, sr.id};
  ck_timing tm = {1, o->reps, times, CK_DATA_INTS, 0};
  int before = ck_minplus_set_narrow(o->flag ? CK_NARROW_ALWAYS : CK_NARROW_OFF);
  ck_status st = ck_minplus_time(&p, 0, &tm);
  ck_minplus_set_narrow(before);
  ck_plan plan;
  ck_last_plan(&plan);
  const ck_dtype path = plan.work; /* the class it ran in */
  if (st != CK_OK) {
    printf("  timing failed: %s\n", ck_last_error());
  } else {
    double ms = dev_median(times, o->reps);
    printf("  n=%zu%s%s", n, path != t ? " on " : "", path != t ? ck_dtype_name(path) : "");
    dev_print_rate(ms, (double)n * n * n / (ms * 1e-3) / 1e12, "Tpair/s", ceiling_of(t));
  }
  free(times);
}

/* One line per version x class (and warptile's float classes once more, narrowing forced). */
static int run_line(ck_dtype t, int kernel, int narrow, const dev_opts *o) {
  char name[32];
  snprintf(name, sizeof name, "v%d %s%s", kernel, ck_minplus_kernel_name(kernel),
           narrow ? "/narrow" : "");
  printf("%-19s %-7s", name, ck_dtype_name(t));
  fflush(stdout);
  dev_check c;
  int before = ck_minplus_set_narrow(narrow ? CK_NARROW_ALWAYS : CK_NARROW_OFF);
  check(&c, t, kernel, o->seed + 1000u * (unsigned)kernel + 10u * (unsigned)t + (unsigned)narrow);
  ck_minplus_set_narrow(before);
  dev_check_leaks(&c);
  if (c.failed) {
    printf(" FAIL %d of %d: %s\n", c.failed, c.cases, c.first);
    return 1;
  }
  printf(" pass %3d", c.cases);
  if (o->n && !narrow) time_product(t, kernel, o);
  else printf("\n");
  return 0;
}

/* --semiring S, taken out of argv before dev_parse sees it; exits 2 on a name it does not know. */
#define ADD_MIN 0
#define ADD_MAX 1
#define SR_ROW_(a, E, TYPE, NAME, ALIAS, CLASSES, ADD, MUL) {E, ADD_##ADD, MUL_##MUL},
static void pick_semiring(int *argc, char **argv) {
  static const int rows[][3] = {CK_SEMIRING_TABLE(SR_ROW_, _)}; /* its id, add and multiply */
  for (int a = 1; a + 1 < *argc; a++) {
    if (strcmp(argv[a], "--semiring")) continue;
    const int id = ck_semiring_from_name(argv[a + 1]);
    int found = 0;
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
      if (rows[r][0] == id && id != CK_SR_OR_AND) {
        sr.id = (ck_semiring)id;
        sr.max_add = rows[r][1];
        sr.mul = rows[r][2];
        found = 1;
      }
    if (!found) {
      fprintf(stderr, "dev/semiring: no semiring \"%s\" here (or.and: dev/boolean)\n%s",
              argv[a + 1], usage);
      exit(2);
    }
    for (int b = a; b + 2 <= *argc; b++) argv[b] = argv[b + 2];
    *argc -= 2;
    return;
  }
}

int main(int argc, char **argv) {
  dev_opts o = {NULL, -1, 4096, 5, (uint64_t)time(NULL), 0, 0};
  pick_semiring(&argc, argv);
  dev_parse(argc, argv, &o, usage, "--narrow");
  const int only = dev_pick_version(o.version, CK_MINPLUS_NUM_GPU, ck_minplus_kernel_id,
                                    ck_minplus_kernel_name);
  if (o.cls >= 0 && ck_semiring_check(sr.id, (ck_dtype)o.cls) != CK_OK) {
    fprintf(stderr, "%s\n%s", ck_last_error(), usage);
    return 2;
  }
  dev_init_or_exit("semiring");
  printf("%s, seed %llu; checks exact against a triple loop; times: median of %d, events\n",
         ck_semiring_name(sr.id), (unsigned long long)o.seed, o.reps);
  int bad = 0;
  for (int v = 0; v < CK_MINPLUS_NUM_GPU; v++) {
    if (only >= 0 && v != only) continue;
    for (int t = 0; t < CK_INT64; t++) {
      if ((o.cls >= 0 && t != o.cls) || ck_semiring_check(sr.id, (ck_dtype)t) != CK_OK) continue;
      bad |= run_line((ck_dtype)t, v, 0, &o);
      if (v == CK_MINPLUS_WARPTILE && !dev_is_int((ck_dtype)t) && sr.id == CK_SR_MIN_PLUS)
        bad |= run_line((ck_dtype)t, v, 1, &o);
    }
  }
  printf(bad ? "semiring: MISMATCHES (see FAIL lines)\n" : "semiring: all checks passed\n");
  return bad;
}
