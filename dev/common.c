/* The inner loop's shared helpers: see common.h. */
#include "common.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- random numbers ---- */
void dev_seed(dev_rng *r, uint64_t seed) { r->s = seed * 0x9E3779B97F4A7C15ull + 1; }

uint64_t dev_rand(dev_rng *r) {
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double dev_uniform(dev_rng *r) { return (double)(dev_rand(r) >> 11) * 0x1p-53; }

int64_t dev_rand_int(dev_rng *r, int64_t lo, int64_t hi) {
  uint64_t span = (uint64_t)(hi - lo) + 1;
  return span ? lo + (int64_t)(dev_rand(r) % span) : (int64_t)dev_rand(r);
}

int dev_chance(dev_rng *r, double p) { return dev_uniform(r) < p; }

/* ---- elements by class ---- */
int dev_is_int(ck_dtype t) { return t != CK_DOUBLE && t != CK_SINGLE; }

void dev_int_bounds(ck_dtype t, int64_t *lo, int64_t *hi) {
  switch (t) {
  case CK_INT8: *lo = INT8_MIN, *hi = INT8_MAX; break;
  case CK_UINT8: *lo = 0, *hi = UINT8_MAX; break;
  case CK_INT16: *lo = INT16_MIN, *hi = INT16_MAX; break;
  case CK_UINT16: *lo = 0, *hi = UINT16_MAX; break;
  case CK_INT32: *lo = INT32_MIN, *hi = INT32_MAX; break;
  case CK_UINT32: *lo = 0, *hi = UINT32_MAX; break;
  case CK_INT64: *lo = INT64_MIN, *hi = INT64_MAX; break;
  default: *lo = 0, *hi = INT64_MAX; break; /* uint64: the part an int64 holds */
  }
}

int64_t dev_geti(ck_dtype t, const void *p, size_t i) {
  switch (t) {
  case CK_INT8: return ((const int8_t *)p)[i];
  case CK_UINT8: return ((const uint8_t *)p)[i];
  case CK_INT16: return ((const int16_t *)p)[i];
  case CK_UINT16: return ((const uint16_t *)p)[i];
  case CK_INT32: return ((const int32_t *)p)[i];
  case CK_UINT32: return ((const uint32_t *)p)[i];
  case CK_INT64: return ((const int64_t *)p)[i];
  case CK_UINT64: return (int64_t)((const uint64_t *)p)[i];
  case CK_SINGLE: return (int64_t)((const float *)p)[i];
  default: return (int64_t)((const double *)p)[i];
  }
}

void dev_seti(ck_dtype t, void *p, size_t i, int64_t v) {
  switch (t) {
  case CK_INT8: ((int8_t *)p)[i] = (int8_t)v; break;
  case CK_UINT8: ((uint8_t *)p)[i] = (uint8_t)v; break;
  case CK_INT16: ((int16_t *)p)[i] = (int16_t)v; break;
  case CK_UINT16: ((uint16_t *)p)[i] = (uint16_t)v; break;
  case CK_INT32: ((int32_t *)p)[i] = (int32_t)v; break;
  case CK_UINT32: ((uint32_t *)p)[i] = (uint32_t)v; break;
  case CK_INT64: ((int64_t *)p)[i] = v; break;
  case CK_UINT64: ((uint64_t *)p)[i] = (uint64_t)v; break;
  case CK_SINGLE: ((float *)p)[i] = (float)v; break;
  default: ((double *)p)[i] = (double)v; break;
  }
}

double dev_getf(ck_dtype t, const void *p, size_t i) {
  if (t == CK_DOUBLE) return ((const double *)p)[i];
  if (t == CK_SINGLE) return ((const float *)p)[i];
  if (t == CK_UINT64) return (double)((const uint64_t *)p)[i];
  return (double)dev_geti(t, p, i);
}

void dev_setf(ck_dtype t, void *p, size_t i, double v) {
  if (t == CK_DOUBLE) ((double *)p)[i] = v;
  else if (t == CK_SINGLE) ((float *)p)[i] = (float)v;
  else dev_seti(t, p, i, (int64_t)v);
}

void dev_format(ck_dtype t, const void *p, size_t i, char *buf, size_t len) {
  if (t == CK_UINT64) snprintf(buf, len, "%llu", (unsigned long long)((const uint64_t *)p)[i]);
  else if (dev_is_int(t)) snprintf(buf, len, "%lld", (long long)dev_geti(t, p, i));
  else snprintf(buf, len, "%.17g", dev_getf(t, p, i));
}

int dev_same(double a, double b) { return a == b || (isnan(a) && isnan(b)); }

void *dev_xmalloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "out of host memory (%zu bytes)\n", bytes);
    exit(2);
  }
  return p;
}

/* ---- device ---- */
void dev_init_or_exit(const char *prog) {
  ck_status s = ck_device_init();
  if (s != CK_OK) {
    fprintf(stderr, "%s: %s: %s\n", prog, s == CK_ERR_NODEVICE ? "no GPU" : "no usable GPU",
            ck_last_error());
    exit(2);
  }
  ck_device_info d;
  if (ck_device_query(&d) == CK_OK)
    printf("%s on %s (sm_%d%d, %d SMs, %d MHz), driver %d, runtime %d\n", prog, d.name, d.major,
           d.minor, d.multiprocessors, d.clock_mhz, d.driver_version, d.runtime_version);
}

ck_status dev_put(void **dst, const void *src, size_t bytes) {
  ck_status s = ck_dev_alloc(dst, bytes);
  if (s == CK_OK && bytes) s = ck_upload(*dst, src, bytes);
  return s;
}

ck_status dev_fetch(void *dst, const void *src, size_t bytes) {
  return bytes ? ck_download(dst, src, bytes) : CK_OK;
}

ck_status dev_poison(void *dst, size_t bytes) {
  if (!bytes) return CK_OK;
  unsigned char *junk = dev_xmalloc(bytes);
  memset(junk, 0x5A, bytes); /* neither zero nor NaN nor a class limit */
  ck_status s = ck_upload(dst, junk, bytes);
  free(junk);
  return s;
}

/* ---- checks ---- */
void dev_check_start(dev_check *c) {
  c->cases = c->failed = 0;
  c->first[0] = 0;
}

int dev_fail(dev_check *c, const char *fmt, ...) {
  if (c->failed++ == 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->first, sizeof c->first, fmt, ap);
    va_end(ap);
  }
  return 0;
}

int dev_fail_status(dev_check *c, const char *what, ck_status s) {
  return dev_fail(c, "%s: status %d: %s", what, (int)s, ck_last_error());
}

void dev_check_leaks(dev_check *c) {
  if (ck_dev_live_allocations())
    dev_fail(c, "%zu device allocations (%zu bytes) left behind", ck_dev_live_allocations(),
             ck_dev_bytes_in_use());
}

/* ---- options ---- */
static void usage_exit(const char *usage, const char *bad) {
  if (bad) fprintf(stderr, "unknown or incomplete argument: %s\n", bad);
  fprintf(bad ? stderr : stdout, "%s", usage);
  exit(bad ? 2 : 0);
}

static size_t parse_size(const char *s, const char *usage) {
  char *end = NULL;
  unsigned long long v = strtoull(s, &end, 10);
  if (!*s || *end) usage_exit(usage, s);
  return (size_t)v;
}

void dev_parse(int argc, char **argv, dev_opts *o, const char *usage, const char *flag_name) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage_exit(usage, NULL);
    } else if (flag_name && !strcmp(a, flag_name)) {
      o->flag = 1;
    } else if (a[0] == '-' && a[1] == '-') {
      if (!next) usage_exit(usage, a);
      i++;
      if (!strcmp(a, "--class")) {
        o->cls = ck_dtype_from_name(next);
        if (o->cls < 0) usage_exit(usage, next);
      } else if (!strcmp(a, "--n")) {
        o->n = parse_size(next, usage);
      } else if (!strcmp(a, "--reps")) {
        o->reps = (int)parse_size(next, usage);
        if (o->reps < 1 || o->reps > 1000) usage_exit(usage, next);
      } else if (!strcmp(a, "--seed")) {
        o->seed = parse_size(next, usage);
      } else if (!strcmp(a, "--pages")) {
        o->pages = parse_size(next, usage);
      } else {
        usage_exit(usage, a);
      }
    } else if (!o->version) {
      o->version = a;
    } else {
      usage_exit(usage, a);
    }
  }
}

int dev_pick_version(const char *arg, int count, int (*name_to_id)(const char *),
                     const char *(*id_to_name)(int)) {
  if (!arg) return -1;
  int id = -1;
  if (isdigit((unsigned char)arg[0])) {
    char *end = NULL;
    long v = strtol(arg, &end, 10);
    if (!*end && v >= 0 && v < count) id = (int)v;
  } else {
    id = name_to_id(arg);
    if (id >= count) id = -1; /* e.g. "cpu": not a GPU kernel */
  }
  if (id >= 0) return id;
  fprintf(stderr, "unknown version %s; the versions are:", arg);
  for (int v = 0; v < count; v++)
    fprintf(stderr, " %d %s%s", v, id_to_name(v), v + 1 < count ? "," : "\n");
  exit(2);
}

/* ---- timing ---- */
static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double dev_median(const double *v, int n) {
  double *s = dev_xmalloc((size_t)n * sizeof *s);
  memcpy(s, v, (size_t)n * sizeof *s);
  qsort(s, (size_t)n, sizeof *s, cmp_double);
  double m = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  free(s);
  return m;
}

void dev_print_rate(double ms, double rate, const char *unit, double ref) {
  printf("  %10.3f ms  %9.3f %s", ms, rate, unit);
  if (ref > 0) printf("   of %.3f: %5.1f%%", ref, 100 * rate / ref);
  printf("\n");
  fflush(stdout);
}
