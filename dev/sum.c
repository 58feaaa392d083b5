/* dev/sum: every sum kernel, class and mode against a plain loop (integers and "native" sums
 * exactly, floating point within the bound of double accumulation), on ragged shapes along every
 * dimension; then timed against the device-to-device copy rate. Exit status: 0 all passed, 1 a
 * mismatch, 2 no GPU/usage. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common.h"

static const char usage[] =
    "usage: dev/sum [VERSION] [--class C] [--n N] [--reps R] [--seed S]\n"
    "  VERSION  0..8 or atomic, pairwise, interleaved, strided, sequential, twoload,\n"
    "           warpunroll, shuffle, cub (default: all)\n"
    "  --class  any class (default: all checked; single and double timed)\n"
    "  --n      timed vector length (default 2^26; 0: check only)\n"
    "  --reps   timed runs after one warm-up (default 5); --seed: the inputs' seed\n";

typedef struct {
  size_t before, len, after;
} shape;

/* Vectors ragged against block and grid sizes, a long one, several segments (after > 1), sums
 * along a non-leading dimension (before > 1), and len = 0 (zeros). */
static const shape shapes[] = {{1, 1, 1},   {1, 63, 1},    {1, 65, 1},    {1, 1000003, 1},
                               {1, 65, 63}, {1, 1000, 37}, {63, 65, 17},  {7, 20001, 3},
                               {3, 0, 5},   {1, 4096, 1},  {1, 262147, 2}};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

/* WIDE: the whole integer range, or floats of mixed magnitude and sign (cancellation); SMALL:
 * small values, so "native" sums saturate slowly and float sums are exact; SPECIAL: the integer
 * limits, or NaN and +-Inf in about a third of the floating-point sums. */
enum { WIDE, SMALL, SPECIAL, NFLAVOURS };
static const char *const flavour_names[] = {"wide", "small", "special"};
static const char *const mode_names[] = {"default", "double", "native"};

/* 64-bit classes need the full unsigned range: values as __int128. */
typedef __int128 i128;

static void bounds128(ck_dtype t, i128 *lo, i128 *hi) {
  if (t == CK_UINT64) {
    *lo = 0, *hi = (i128)UINT64_MAX;
  } else {
    int64_t l, h;
    dev_int_bounds(t, &l, &h);
    *lo = l, *hi = h;
  }
}

static i128 get128(ck_dtype t, const void *p, size_t i) {
  return t == CK_UINT64 ? (i128)((const uint64_t *)p)[i] : (i128)dev_geti(t, p, i);
}

static const char *format128(i128 v, char *buf, size_t len) {
  if (v < 0) snprintf(buf, len, "%lld", (long long)v);
  else snprintf(buf, len, "%llu", (unsigned long long)v);
  return buf;
}

static void fill(ck_dtype t, dev_rng *r, int flavour, void *X, size_t count, size_t len) {
  i128 lo = 0, hi = 0;
  if (dev_is_int(t)) bounds128(t, &lo, &hi);
  for (size_t i = 0; i < count; i++) {
    if (!dev_is_int(t)) {
      double scale = pow(10, (double)dev_rand_int(r, -6, 6));
      double v = (dev_uniform(r) * 2 - 1) * scale;
      if (flavour == SMALL) v = (double)dev_rand_int(r, -3, 5);
      double u = dev_uniform(r) * (double)len; /* about 0.4 specials per sum */
      if (flavour == SPECIAL && u < 0.4) v = u < 0.1 ? NAN : u < 0.25 ? INFINITY : -INFINITY;
      dev_setf(t, X, i, v);
    } else if (t == CK_UINT64 || t == CK_INT64) {
      uint64_t v = flavour == SMALL     ? (uint64_t)dev_rand_int(r, t == CK_INT64 ? -3 : 0, 5)
                   : flavour == SPECIAL ? (dev_chance(r, 0.5) ? (uint64_t)lo : (uint64_t)hi)
                                        : dev_rand(r);
      memcpy((char *)X + 8 * i, &v, 8);
    } else {
      int64_t v = flavour == SMALL     ? dev_rand_int(r, lo < 0 ? -3 : 0, 5)
                  : flavour == SPECIAL ? (dev_chance(r, 0.5) ? (int64_t)lo : (int64_t)hi)
                                       : dev_rand_int(r, (int64_t)lo, (int64_t)hi);
      dev_seti(t, X, i, v);
    }
  }
}

/* y(b, a) and, for floating point, sum |x| beside it (for the rounding bound); "native"
 * integers saturate after every addition, in order; the rest is summed exactly (long double
 * for the floating-point and 64-bit classes, whose GPU sums round in double). */
static void reference(ck_dtype t, ck_sum_mode mode, const void *x, const shape *s, i128 *yi,
                      long double *yf, double *mag) {
  const int native = mode == CK_SUM_MODE_NATIVE && dev_is_int(t);
  i128 lo = 0, hi = 0;
  if (dev_is_int(t)) bounds128(t, &lo, &hi);
  for (size_t a = 0; a < s->after; a++)
    for (size_t b = 0; b < s->before; b++) {
      i128 si = 0;
      long double sf = 0;
      double m = 0;
      for (size_t l = 0; l < s->len; l++) {
        size_t idx = b + l * s->before + a * s->before * s->len;
        if (!dev_is_int(t)) {
          sf += dev_getf(t, x, idx);
          m += fabs(dev_getf(t, x, idx));
        } else {
          i128 v = get128(t, x, idx);
          si += v;
          if (native) si = si < lo ? lo : si > hi ? hi : si;
          m += fabs((double)v);
        }
      }
      size_t o = b + a * s->before;
      yi[o] = si;
      yf[o] = dev_is_int(t) ? (long double)si : sf;
      mag[o] = m;
    }
}

/* Exact where the GPU is exact (integers up to 32 bits, "native"); otherwise within n u sum |x|
 * for the double accumulation (u = 2^-53), plus a unit in the last place of a single result. */
static int compare(dev_check *c, const char *label, ck_dtype t, ck_sum_mode mode, const void *y,
                   const i128 *yi, const long double *yf, const double *mag, const shape *s) {
  const ck_dtype out = ck_sum_out_dtype(t, mode);
  const int exact_int = dev_is_int(t) && t != CK_INT64 && t != CK_UINT64;
  for (size_t o = 0; o < s->before * s->after; o++) {
    char got[64], want_int[64];
    dev_format(out, y, o, got, sizeof got);
    if (dev_is_int(out)) {
      if (get128(out, y, o) != yi[o])
        return dev_fail(c, "%s: y(%zu) = %s, want %s (saturated)", label, o + 1, got,
                        format128(yi[o], want_int, sizeof want_int));
      continue;
    }
    double g = dev_getf(out, y, o), want = (double)yf[o];
    double tol = exact_int ? 0 : (double)(s->len + 1) * 0x1p-53 * mag[o];
    if (out == CK_SINGLE) tol += 0x1p-23 * fabs(want);
    int ok = isfinite(want) ? fabs(g - want) <= tol : dev_same(g, want);
    if (!ok)
      return dev_fail(c, "%s: y(%zu) = %s, want %.17g (tolerance %.3g)", label, o + 1, got, want,
                      tol);
  }
  return 1;
}

/* One kernel on one input in one mode, through ck_sum_device; "native" integer sums have one
 * kernel, the default, and the others must refuse them. */
static void run_case(dev_check *c, const char *label, const ck_sum_args *a, const void *dx,
                     const i128 *yi, const long double *yf, const double *mag, const shape *s) {
  const ck_dtype out = ck_sum_out_dtype(a->t, a->mode);
  const size_t ny = s->before * s->after, bytes = ny * ck_dtype_size(out);
  void *dy = NULL, *y = dev_xmalloc(bytes);
  ck_sum_args d = *a;
  ck_status st;
  c->cases++;
  if ((st = ck_dev_alloc(&dy, bytes)) || (st = dev_poison(dy, bytes))) {
    dev_fail_status(c, label, st);
  } else {
    d.x = dx, d.y = dy;
    st = ck_sum_device(&d);
    int refused = a->mode == CK_SUM_MODE_NATIVE && dev_is_int(a->t) && a->kernel != CK_SUM_DEFAULT;
    if (refused) {
      if (st != CK_ERR_INVALID) dev_fail(c, "%s: status %d, want CK_ERR_INVALID", label, (int)st);
    } else if (st || (st = ck_device_sync()) || (st = dev_fetch(y, dy, bytes))) {
      dev_fail_status(c, label, st);
    } else {
      compare(c, label, a->t, a->mode, y, yi, yf, mag, s);
    }
  }
  ck_dev_free(dy);
  free(y);
}

/* One class: each input once, its references per mode, then every kernel on it. */
static void check_class(dev_check *c, ck_dtype t, int only, uint64_t seed) {
  dev_rng r;
  dev_seed(&r, seed);
  for (int v = 0; v < CK_SUM_NUM_GPU; v++) dev_check_start(&c[v]);
  const size_t es = ck_dtype_size(t);
  for (size_t q = 0; q < NSHAPES; q++)
    for (int f = 0; f < NFLAVOURS; f++) {
      const shape *s = &shapes[q];
      const size_t nx = s->before * s->len * s->after, ny = s->before * s->after;
      void *x = dev_xmalloc(nx * es), *dx = NULL;
      i128 *yi = dev_xmalloc(ny * sizeof *yi);
      long double *yf = dev_xmalloc(ny * sizeof *yf);
      double *mag = dev_xmalloc(ny * sizeof *mag);
      fill(t, &r, f, x, nx, s->len);
      ck_status st = dev_put(&dx, x, nx * es);
      for (int mode = 0; mode <= CK_SUM_MODE_NATIVE; mode++) {
        reference(t, (ck_sum_mode)mode, x, s, yi, yf, mag);
        for (int v = 0; v < CK_SUM_NUM_GPU; v++) {
          if (only >= 0 && v != only) continue;
          char label[128];
          snprintf(label, sizeof label, "%zux%zux%zu %s %s", s->before, s->len, s->after,
                   flavour_names[f], mode_names[mode]);
          ck_sum_args a = {t, (ck_sum_mode)mode, v, NULL, NULL, s->before, s->len, s->after};
          if (st != CK_OK) dev_fail_status(&c[v], label, st);
          else run_case(&c[v], label, &a, dx, yi, yf, mag, s);
        }
      }
      ck_dev_free(dx);
      free(x);
      free(yi);
      free(yf);
      free(mag);
    }
}

/* Kernel-only time of a sum over n elements, against the copy rate (bytes read and written per
 * second) of a buffer of the same size: a reduction reads its input once. */
static void time_class(ck_dtype t, const int *passed, int only, const dev_opts *o) {
  const size_t n = o->n, es = ck_dtype_size(t);
  void *x = dev_xmalloc(n * es);
  double y[1], copy = 0, *times = dev_xmalloc((size_t)o->reps * sizeof *times);
  for (size_t i = 0; i < n; i++) dev_seti(t, x, i, (int64_t)(i % 1000)); /* never all zeros */
  if (ck_copy_bandwidth(n * es, 20, &copy) != CK_OK) copy = 0;
  printf("%-22s %-7s copy rate %.1f GB/s (read + written)\n", "copy", ck_dtype_name(t), copy / 1e9);
  for (int v = 0; v < CK_SUM_NUM_GPU; v++) {
    if ((only >= 0 && v != only) || !passed[v]) continue;
    ck_sum_args a = {t, CK_SUM_MODE_DOUBLE, v, x, y, 1, n, 1};
    ck_timing tm = {1, o->reps, times, CK_DATA_INTS, 0};
    printf("v%d %-19s %-7s n=%zu", v, ck_sum_kernel_name(v), ck_dtype_name(t), n);
    if (ck_sum_time(&a, &tm) != CK_OK) {
      printf("  timing failed: %s\n", ck_last_error());
      continue;
    }
    double ms = dev_median(times, o->reps);
    dev_print_rate(ms, (double)(n * es) / (ms * 1e-3) / 1e9, "GB/s", copy / 1e9);
  }
  free(x);
  free(times);
}

int main(int argc, char **argv) {
  dev_opts o = {NULL, -1, (size_t)1 << 26, 5, (uint64_t)time(NULL), 0, 0};
  dev_parse(argc, argv, &o, usage, NULL);
  const int only = dev_pick_version(o.version, CK_SUM_NUM_GPU, ck_sum_kernel_id,
                                    ck_sum_kernel_name);
  dev_init_or_exit("sum");
  printf("seed %llu; integers and native sums exact, floats within double rounding\n",
         (unsigned long long)o.seed);
  int bad = 0;
  for (int t = 0; t < CK_NUM_DTYPES; t++) {
    if (o.cls >= 0 && t != o.cls) continue;
    dev_check c[CK_SUM_NUM_GPU];
    int passed[CK_SUM_NUM_GPU];
    check_class(c, (ck_dtype)t, only, o.seed + (unsigned)t);
    for (int v = 0; v < CK_SUM_NUM_GPU; v++) dev_check_leaks(&c[v]);
    for (int v = 0; v < CK_SUM_NUM_GPU; v++) {
      passed[v] = !c[v].failed;
      if (only >= 0 && v != only) continue;
      printf("v%d %-19s %-7s", v, ck_sum_kernel_name(v), ck_dtype_name((ck_dtype)t));
      if (c[v].failed) printf(" FAIL %d of %d: %s\n", c[v].failed, c[v].cases, c[v].first);
      else printf(" pass %3d\n", c[v].cases);
      bad |= c[v].failed > 0;
    }
    if (o.n && (o.cls >= 0 || t == CK_DOUBLE || t == CK_SINGLE))
      time_class((ck_dtype)t, passed, only, &o);
  }
  printf(bad ? "sum: MISMATCHES (see FAIL lines)\n" : "sum: all checks passed\n");
  return bad;
}
