/* The inner loop's shared helpers (for the drivers in dev/): random inputs, element access by
 * class, the first mismatch of a check, options, and the timing rows. The drivers link the
 * package's kernel objects and talk to them through kernels/runtime/ck.h only. */
#ifndef DEV_COMMON_H
#define DEV_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "ck.h"

/* ---- random numbers (splitmix64: tiny, and good enough for test inputs) ---- */
typedef struct {
  uint64_t s;
} dev_rng;
void dev_seed(dev_rng *r, uint64_t seed);
uint64_t dev_rand(dev_rng *r);
double dev_uniform(dev_rng *r);                           /* [0, 1) */
int64_t dev_rand_int(dev_rng *r, int64_t lo, int64_t hi); /* lo..hi, both included */
int dev_chance(dev_rng *r, double p);                     /* 1 with probability p */

/* ---- elements by class ---- */
int dev_is_int(ck_dtype t);
void dev_int_bounds(ck_dtype t, int64_t *lo, int64_t *hi); /* up to 32-bit classes */
int64_t dev_geti(ck_dtype t, const void *p, size_t i);
void dev_seti(ck_dtype t, void *p, size_t i, int64_t v);
double dev_getf(ck_dtype t, const void *p, size_t i); /* any class, as a double */
void dev_setf(ck_dtype t, void *p, size_t i, double v);
void dev_format(ck_dtype t, const void *p, size_t i, char *buf, size_t len);
/* Equal, with NaN equal to NaN (min-plus results are compared exactly). */
int dev_same(double a, double b);
void *dev_xmalloc(size_t bytes); /* exits on failure; at least one byte */

/* ---- device ---- */
/* Starts the CUDA context and prints the device line; without a GPU prints "PROG: no GPU: ..."
 * and exits with status 2. */
void dev_init_or_exit(const char *prog);
/* Device copies of host arrays (a fresh allocation each), and back; the status of the first
 * failure, with ck_last_error () saying what. */
ck_status dev_put(void **dst, const void *src, size_t bytes);
ck_status dev_fetch(void *dst, const void *src, size_t bytes);
/* Fills device memory with a byte pattern, so that an output a kernel forgot shows. */
ck_status dev_poison(void *dst, size_t bytes);

/* ---- checks ---- */
typedef struct {
  int cases, failed;
  char first[512]; /* the first mismatch or error, in words */
} dev_check;
void dev_check_start(dev_check *c);
/* Records a failure (only the first is kept in words); returns 0 so a compare can return it. */
int dev_fail(dev_check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A ck call that failed during a check: a failure with the API's own words. */
int dev_fail_status(dev_check *c, const char *what, ck_status s);
/* A failure if device allocations outlive the check (the drivers free all of theirs, and every
 * ck call must free its scratch, after errors too). */
void dev_check_leaks(dev_check *c);

/* ---- options: [VERSION] [--class C] [--n N] [--reps R] [--seed S] [--pages P] [FLAG] ---- */
typedef struct {
  const char *version; /* NULL: every version */
  int cls;             /* -1: every class the driver takes */
  size_t n;            /* timing size; 0: no timing */
  int reps;            /* timed runs after one warm-up */
  uint64_t seed;
  int flag;     /* the driver's own switch (flag_name), 0 or 1 */
  size_t pages; /* --pages: graphs a timed call holds (apsp), 0: one */
} dev_opts;
/* Parses the command line into o (whose fields hold the defaults); prints usage and exits 2 on
 * anything unknown. flag_name: the driver's one extra switch, or NULL. */
void dev_parse(int argc, char **argv, dev_opts *o, const char *usage, const char *flag_name);
/* The version the user asked for: -1 for all; a number below count, or a name that name_to_id
 * knows; exits 2 with the list otherwise. */
int dev_pick_version(const char *arg, int count, int (*name_to_id)(const char *),
                     const char *(*id_to_name)(int));

/* ---- timing ---- */
double dev_median(const double *v, int n);
/* One timing row's tail: "  1.234 ms   55.70 Tpair/s   of 60.10: 92.7%"; ref <= 0 leaves out
 * the share. */
void dev_print_rate(double ms, double rate, const char *unit, double ref);

#endif
