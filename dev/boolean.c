/* dev/boolean: the or.and product's paths (simple, LOP3, tensor), each checked with and without
 * the witness K against a plain loop over the bytes, on ragged shapes at densities from empty to
 * full (any nonzero byte counts as true), plus k = 0, an empty C and the out-of-memory path; then
 * timed on random half-full operands beside the path's compute ceiling, after a check of sampled
 * outputs. The tensor path's kernel variants (ck_orand_set_variant): --variant V runs the paths
 * with variant V; --variants checks and times every variant, each in a process of its own (a
 * variant that faults or hangs cannot take the others with it). Exit status: 0 all passed, 1 a
 * mismatch (or a variant's process failing), 2 no GPU/usage. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "orand.h"

static const char usage[] =
    "usage: dev/boolean [PATH] [--n N] [--reps R] [--seed S] [--big] [--variant V | --variants]\n"
    "  PATH   0..3 or auto, tensor, lop3, simple (default: simple, lop3, tensor)\n"
    "  --n    one timed size, N x N times N x N (default 4096 and 8192; 0: check only)\n"
    "  --big  time 16384 and 32768 as well (about 3 GiB of device memory at 32768)\n"
    "  --reps timed runs after one warm-up (default 5); --seed: the inputs' seed\n"
    "  --variant V  the tensor path's kernel variant (default: the fastest that runs here)\n"
    "  --variants   the tensor path only, every variant: its checks, then timed at 8192, 16384\n"
    "               and 32768 (--n N: at N only), one process a variant\n";

static const char *const path_names[] = {"auto", "tensor", "lop3", "simple"};

static int path_id(const char *name) {
  for (int p = 0; p < CK_ORAND_NUM_PATHS; p++)
    if (!strcmp(name, path_names[p])) return p;
  return -1;
}
static const char *path_name(int id) {
  return id >= 0 && id < CK_ORAND_NUM_PATHS ? path_names[id] : "?";
}

typedef struct {
  size_t m, k, n;
} shape;

/* The brief's shapes, then: k = 0 and an empty C; rows and k multiples of 4 and 16 (the packing's
 * wide loads) with k off the tensor path's 512; a deep k, so that the witness's warp search
 * takes many steps; ragged against every tile. */
static const shape shapes[] = {{1, 1, 1},        {3, 5, 2},          {31, 33, 65},    {63, 257, 65},
                               {1000, 300, 700}, {1024, 1024, 1024}, {5, 0, 7},       {0, 3, 4},
                               {36, 528, 20},    {40, 5000, 24},     {257, 129, 131}, {300, 64, 1}};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

/* Densities of true elements: none, sparse, half, all; 1/sqrt(k) (about one pair per output,
 * so C holds both values) and 1/k (mostly false, the witness deep in k). Negative: of k. */
static const double densities[] = {0, 0.01, 0.5, 1, -1, -2};
#define NDENS (sizeof densities / sizeof densities[0])

static double density_of(double d, size_t k) {
  if (d >= 0) return d;
  return k == 0 ? 0.5 : d == -1 ? 1 / sqrt((double)k) : 1 / (double)k;
}

/* True elements are any nonzero byte, not only 1. */
static void fill(dev_rng *r, double density, uint8_t *X, size_t count) {
  for (size_t i = 0; i < count; i++)
    X[i] = dev_chance(r, density) ? (uint8_t)dev_rand_int(r, 1, 255) : 0;
}

/* A product of device arrays; every other field (class, kernel, plan, ...) zero, unread. */
static ck_product product_of(const void *A, const void *B, void *C, double *K, size_t m, size_t k,
                             size_t n) {
  ck_product p;
  memset(&p, 0, sizeof p);
  p.A = A, p.B = B, p.C = C, p.K = K;
  p.m = m, p.k = k, p.n = n;
  return p;
}

/* ---- the reference: the first k with A(i,k) && B(k,j), over the bytes ---- */
static void reference(const uint8_t *A, const uint8_t *B, uint8_t *C, double *K, const shape *s) {
  const size_t m = s->m, k = s->k, n = s->n;
  uint8_t *At = dev_xmalloc(m * k); /* A by rows, so that the inner loop reads contiguously */
  for (size_t p = 0; p < k; p++)
    for (size_t i = 0; i < m; i++) At[i * k + p] = A[i + p * m];
  for (size_t j = 0; j < n; j++)
    for (size_t i = 0; i < m; i++) {
      const uint8_t *a = At + i * k, *b = B + j * k;
      size_t first = 0;
      for (size_t p = 0; p < k; p++)
        if (a[p] && b[p]) {
          first = p + 1;
          break;
        }
      C[i + j * m] = first != 0;
      K[i + j * m] = (double)first;
    }
  free(At);
}

static int compare(dev_check *c, const char *label, const uint8_t *C, const double *K,
                   const uint8_t *refC, const double *refK, size_t m, size_t n) {
  for (size_t idx = 0; idx < m * n; idx++) {
    size_t i = idx % m + 1, j = idx / m + 1;
    if (C[idx] != refC[idx])
      return dev_fail(c, "%s: C(%zu,%zu) = %d, want %d", label, i, j, C[idx], refC[idx]);
    if (K && K[idx] != refK[idx])
      return dev_fail(c, "%s: K(%zu,%zu) = %.17g, want %.17g", label, i, j, K[idx], refK[idx]);
  }
  return 1;
}

/* One product through ck_orand_device, without and with K, into poisoned outputs. */
static void run_case(dev_check *c, int path, int expect, const shape *s, double density,
                     const uint8_t *A, const uint8_t *B, const uint8_t *refC, const double *refK) {
  const size_t nc = s->m * s->n;
  void *dA = NULL, *dB = NULL, *dC = NULL, *dK = NULL;
  uint8_t *C = dev_xmalloc(nc);
  double *K = dev_xmalloc(nc * sizeof *K);
  char label[160];
  snprintf(label, sizeof label, "%zux%zux%zu density %.4g", s->m, s->k, s->n, density);
  ck_status st;
  int ok = 1;
  if ((st = dev_put(&dA, A, s->m * s->k)) || (st = dev_put(&dB, B, s->k * s->n)) ||
      (st = ck_dev_alloc(&dC, nc)) || (st = ck_dev_alloc(&dK, nc * sizeof *K)))
    ok = dev_fail_status(c, label, st);
  for (int with_k = 0; ok && with_k < 2; with_k++) {
    if (with_k) strcat(label, ", with K");
    ck_product p = product_of(dA, dB, dC, with_k ? (double *)dK : NULL, s->m, s->k, s->n);
    c->cases++;
    if ((st = dev_poison(dC, nc)) || (with_k && (st = dev_poison(dK, nc * sizeof *K))) ||
        (st = ck_orand_device(&p, path)) || (st = ck_device_sync()) ||
        (st = dev_fetch(C, dC, nc)) || (with_k && (st = dev_fetch(K, dK, nc * sizeof *K))))
      ok = dev_fail_status(c, label, st);
    else if (nc && s->k && ck_orand_last_path() != expect)
      ok = dev_fail(c, "%s: ran the %s path, not %s", label, path_name(ck_orand_last_path()),
                    path_name(expect));
    else ok = compare(c, label, C, with_k ? K : NULL, refC, refK, s->m, s->n);
  }
  ck_dev_free(dA);
  ck_dev_free(dB);
  ck_dev_free(dC);
  ck_dev_free(dK);
  free(C);
  free(K);
}

/* A device allocation limit just above what is in use, then a little more: the packing's first
 * and then its second allocation fails. The call must say so and leave nothing behind. */
static void check_out_of_memory(dev_check *c, int path) {
  const shape s = {1000, 300, 700};
  void *dA = NULL, *dB = NULL, *dC = NULL;
  ck_status st;
  if ((st = ck_dev_alloc(&dA, s.m * s.k)) || (st = ck_dev_alloc(&dB, s.k * s.n)) ||
      (st = ck_dev_alloc(&dC, s.m * s.n))) {
    dev_fail_status(c, "out of memory: allocating the operands", st);
  } else {
    const size_t extra[] = {1024, 80 * 1024};
    for (int q = 0; q < 2; q++) {
      size_t before = ck_dev_live_allocations();
      ck_product p = product_of(dA, dB, dC, NULL, s.m, s.k, s.n);
      c->cases++;
      ck_dev_set_limit(ck_dev_bytes_in_use() + extra[q]);
      st = ck_orand_device(&p, path);
      ck_dev_set_limit(0);
      if (st != CK_ERR_OUTOFMEMORY)
        dev_fail(c, "out of memory (limit +%zu bytes): status %d, want %d (out of memory)",
                 extra[q], (int)st, (int)CK_ERR_OUTOFMEMORY);
      else if (ck_dev_live_allocations() != before)
        dev_fail(c, "out of memory: %zu allocations left behind",
                 ck_dev_live_allocations() - before);
    }
  }
  ck_dev_free(dA);
  ck_dev_free(dB);
  ck_dev_free(dC);
}

/* Larger products, too slow for the loop over the bytes at their density (about one pair per
 * output), against the GPU's SIMPLE path, K included: the fast paths' tiles and layouts checked
 * by a kernel that has neither. Ragged (byte packing) and aligned (wide packing) shapes. */
static void check_against_simple(dev_check *c, int path, int expect, dev_rng *r) {
  static const shape big[] = {{4000, 4096, 3000}, {2501, 4100, 1999}};
  for (size_t q = 0; q < sizeof big / sizeof big[0]; q++) {
    const shape *s = &big[q];
    const size_t nc = s->m * s->n;
    uint8_t *A = dev_xmalloc(s->m * s->k), *B = dev_xmalloc(s->k * s->n);
    uint8_t *C = dev_xmalloc(nc), *refC = dev_xmalloc(nc);
    double *K = dev_xmalloc(nc * sizeof *K), *refK = dev_xmalloc(nc * sizeof *K);
    const double density = density_of(-1, s->k);
    fill(r, density, A, s->m * s->k);
    fill(r, density, B, s->k * s->n);
    void *dA = NULL, *dB = NULL, *dC = NULL, *dK = NULL;
    char label[160];
    snprintf(label, sizeof label, "%zux%zux%zu density %.4g with K, against simple", s->m, s->k,
             s->n, density);
    ck_status st;
    c->cases++;
    if ((st = dev_put(&dA, A, s->m * s->k)) || (st = dev_put(&dB, B, s->k * s->n)) ||
        (st = ck_dev_alloc(&dC, nc)) || (st = ck_dev_alloc(&dK, nc * sizeof *K))) {
      dev_fail_status(c, label, st);
    } else {
      ck_product p = product_of(dA, dB, dC, dK, s->m, s->k, s->n);
      if ((st = ck_orand_device(&p, CK_ORAND_SIMPLE)) || (st = dev_fetch(refC, dC, nc)) ||
          (st = dev_fetch(refK, dK, nc * sizeof *K)) || (st = dev_poison(dC, nc)) ||
          (st = dev_poison(dK, nc * sizeof *K)) || (st = ck_orand_device(&p, path)) ||
          (st = dev_fetch(C, dC, nc)) || (st = dev_fetch(K, dK, nc * sizeof *K)))
        dev_fail_status(c, label, st);
      else if (ck_orand_last_path() != expect)
        dev_fail(c, "%s: ran the %s path, not %s", label, path_name(ck_orand_last_path()),
                 path_name(expect));
      else compare(c, label, C, K, refC, refK, s->m, s->n);
    }
    ck_dev_free(dA);
    ck_dev_free(dB);
    ck_dev_free(dC);
    ck_dev_free(dK);
    free(A);
    free(B);
    free(C);
    free(refC);
    free(K);
    free(refK);
  }
}

/* Every shape and density on fresh inputs, through `path`, expecting `expect` to run. */
static void check(dev_check *c, int path, int expect, uint64_t seed) {
  dev_rng r;
  dev_seed(&r, seed);
  dev_check_start(c);
  for (size_t q = 0; q < NSHAPES; q++)
    for (size_t d = 0; d < NDENS; d++) {
      const shape *s = &shapes[q];
      const double density = density_of(densities[d], s->k);
      uint8_t *A = dev_xmalloc(s->m * s->k), *B = dev_xmalloc(s->k * s->n);
      uint8_t *refC = dev_xmalloc(s->m * s->n);
      double *refK = dev_xmalloc(s->m * s->n * sizeof *refK);
      fill(&r, density, A, s->m * s->k);
      fill(&r, density, B, s->k * s->n);
      reference(A, B, refC, refK, s);
      run_case(c, path, expect, s, density, A, B, refC, refK);
      free(A);
      free(B);
      free(refC);
      free(refK);
    }
  if (expect != CK_ORAND_SIMPLE) check_against_simple(c, path, expect, &r);
  check_out_of_memory(c, path);
  dev_check_leaks(c);
}

/* ---- timing ---- */

static double ceiling_of(int path) {
  static double known[CK_ORAND_NUM_PATHS];
  if (path != CK_ORAND_TENSOR && path != CK_ORAND_LOP3) return 0;
  if (known[path] == 0 && ck_orand_ceiling(path, &known[path]) != CK_OK) known[path] = -1;
  return known[path] > 0 ? known[path] / 1e12 : 0;
}

/* Half of the bytes true, 1 to 255 (eight bytes from each random word). */
static void fill_half(dev_rng *r, uint8_t *X, size_t count) {
  for (size_t i = 0; i < count; i += 8) {
    uint64_t v = dev_rand(r);
    for (size_t b = 0; b < 8 && i + b < count; b++) {
      uint8_t x = (uint8_t)(v >> (8 * b));
      X[i + b] = (x & 1) ? (uint8_t)(x | 2) : 0;
    }
  }
}

/* Sampled outputs of the product just run against the bytes (C only; the checks above cover K). */
static int check_samples(dev_rng *r, const uint8_t *A, const uint8_t *B, const uint8_t *dC,
                         size_t n, char *why, size_t len) {
  for (int q = 0; q < 1000; q++) {
    const size_t i = (size_t)dev_rand_int(r, 0, (int64_t)n - 1);
    const size_t j = (size_t)dev_rand_int(r, 0, (int64_t)n - 1);
    uint8_t want = 0, got = 0xff;
    for (size_t p = 0; p < n && !want; p++) want = A[i + p * n] && B[p + j * n];
    ck_status st = ck_download(&got, dC + i + j * n, 1);
    if (st != CK_OK || got != want) {
      snprintf(why, len, "C(%zu,%zu) = %d, want %d%s%s", i + 1, j + 1, got, want,
               st != CK_OK ? ": " : "", st != CK_OK ? ck_last_error() : "");
      return 0;
    }
  }
  return 1;
}

/* One timing line, `label` first: the whole call and the product kernel alone, beside the
 * ceiling of the path that ran. */
static int time_size(const char *label, int path, int runs_as, size_t n, const dev_opts *o) {
  dev_rng r;
  dev_seed(&r, o->seed + n);
  uint8_t *A = dev_xmalloc(n * n), *B = dev_xmalloc(n * n);
  fill_half(&r, A, n * n);
  fill_half(&r, B, n * n);
  void *dA = NULL, *dB = NULL, *dC = NULL;
  double *times = dev_xmalloc((size_t)o->reps * sizeof *times);
  double *product = dev_xmalloc((size_t)o->reps * sizeof *product);
  char why[256] = "";
  int ok = 1;
  ck_status st;
  if ((st = dev_put(&dA, A, n * n)) || (st = dev_put(&dB, B, n * n)) ||
      (st = ck_dev_alloc(&dC, n * n))) {
    snprintf(why, sizeof why, "%s", ck_last_error());
    ok = 0;
  }
  ck_product p = product_of(dA, dB, dC, NULL, n, n, n);
  if (ok && ((st = ck_orand_device(&p, path)) || (st = ck_device_sync()))) {
    snprintf(why, sizeof why, "%s", ck_last_error());
    ok = 0;
  }
  if (ok) ok = check_samples(&r, A, B, dC, n, why, sizeof why);
  ck_timing tm = {1, o->reps, times, 0, 0};
  if (ok && (st = ck_orand_time(&p, path, &tm, product)) != CK_OK) {
    snprintf(why, sizeof why, "%s", ck_last_error());
    ok = 0;
  }
  if (ok) {
    const double pairs = (double)n * n * n, ms = dev_median(times, o->reps);
    const double pms = dev_median(product, o->reps), top = ceiling_of(runs_as);
    const double call_rate = pairs / (ms * 1e-3) / 1e12, rate = pairs / (pms * 1e-3) / 1e12;
    printf("%s  n=%-6zu call %9.3f ms %9.3f Tpair/s", label, n, ms, call_rate);
    if (top > 0) printf(" %5.1f%%", 100 * call_rate / top);
    printf(" | product %9.3f ms %9.3f Tpair/s", pms, rate);
    if (top > 0) printf(" %5.1f%% of %.1f", 100 * rate / top, top);
    printf("%s\n", path == CK_ORAND_SIMPLE ? "  (stops at the first pair)" : "");
  } else {
    printf("%s  n=%-6zu FAIL: %s%s\n", label, n, why,
           ck_orand_variant_fault() ? " (the variant's watchdog fired)" : "");
  }
  fflush(stdout);
  ck_dev_free(dA);
  ck_dev_free(dB);
  ck_dev_free(dC);
  free(A);
  free(B);
  free(times);
  free(product);
  return !ok;
}

/* One line per path: its checks, then its timings. */
static int run_path(int path, int tensor_runs, const dev_opts *o, const size_t *sizes, int nsizes) {
  const int expect = path != CK_ORAND_TENSOR && path != CK_ORAND_AUTO ? path
                     : tensor_runs                                    ? CK_ORAND_TENSOR
                                                                      : CK_ORAND_LOP3;
  printf("%-7s", path_name(path));
  if (expect != path) printf(" (runs as %s)", path_name(expect));
  fflush(stdout);
  dev_check c;
  check(&c, path, expect, o->seed + 1000u * (unsigned)path);
  if (c.failed) {
    printf(" FAIL %d of %d: %s\n", c.failed, c.cases, c.first);
    return 1;
  }
  printf(" PASS %d cases\n", c.cases);
  int bad = 0;
  for (int q = 0; q < nsizes; q++) bad |= time_size("", path, expect, sizes[q], o);
  return bad;
}

/* ---- the tensor path's variants ---- */

#define VARIANT_ALARM_S 150 /* a variant's process is killed after this (a hang) */

/* Whether the tensor path runs on this device and build: what AUTO picks on a small product
 * (its 1 x 1 x 1 of true and true must give true: *bad otherwise). */
static int tensor_runs_here(int *bad) {
  uint8_t one = 1, out = 0;
  void *d1 = NULL, *d2 = NULL;
  int tensor_runs = 0;
  if (dev_put(&d1, &one, 1) == CK_OK && ck_dev_alloc(&d2, 1) == CK_OK) {
    ck_product p1 = product_of(d1, d1, d2, NULL, 1, 1, 1);
    if (ck_orand_device(&p1, CK_ORAND_AUTO) == CK_OK && dev_fetch(&out, d2, 1) == CK_OK)
      tensor_runs = ck_orand_last_path() == CK_ORAND_TENSOR;
  }
  ck_dev_free(d1);
  ck_dev_free(d2);
  *bad = out != 1;
  return tensor_runs;
}

/* In a process of its own: variant v's checks (the tensor path's, on the seed every variant
 * gets), then its timings. Returns the exit status. */
static int variant_child(int v, const dev_opts *o, const size_t *sizes, int nsizes) {
  alarm(VARIANT_ALARM_S);
  dev_init_or_exit("boolean");
  ck_orand_set_variant(v);
  int bad = 0;
  const int tensor_runs = tensor_runs_here(&bad);
  char label[32];
  snprintf(label, sizeof label, "v%d", v);
  printf("%s [%s]", label, ck_orand_variant_name(v));
  if (bad || !tensor_runs) {
    printf(": %s\n", bad ? "FAIL: 1 x 1 x 1 of true and true" : "no tensor path here");
    return bad;
  }
  fflush(stdout);
  dev_check c;
  check(&c, CK_ORAND_TENSOR, CK_ORAND_TENSOR, o->seed + 1000u * CK_ORAND_TENSOR);
  const int ran = ck_orand_last_variant();
  if (c.failed) {
    printf(" FAIL %d of %d: %s%s\n", c.failed, c.cases, c.first,
           ck_orand_variant_fault() ? " (the variant's watchdog fired)" : "");
    return 1;
  }
  if (ran != v) {
    printf(" PASS %d cases, but ran as v%d here (device or build without it): not timed\n", c.cases,
           ran);
    return 0;
  }
  printf(" PASS %d cases\n", c.cases);
  fflush(stdout);
  for (int q = 0; q < nsizes; q++)
    bad |= time_size(label, CK_ORAND_TENSOR, CK_ORAND_TENSOR, sizes[q], o);
  return bad;
}

/* Every variant in turn, each in a child process started before this one touches the GPU. */
static int run_variants(const dev_opts *o, const size_t *sizes, int nsizes) {
  int nv = 0;
  while (ck_orand_variant_name(nv)) nv++;
  printf("seed %llu; the tensor path's %d variants, each checked exact against a loop over the "
         "bytes, then timed: median of %d, events (call: packing, product, frees; product: the "
         "product kernel alone; %% of the mma.sync register-only ceiling)\n",
         (unsigned long long)o->seed, nv, o->reps);
  int failed = 0, nodev = 0;
  for (int v = 0; v < nv; v++) {
    fflush(stdout);
    const pid_t pid = fork();
    if (pid < 0) {
      perror("boolean: fork");
      return 1;
    }
    if (pid == 0) {
      const int rc = variant_child(v, o, sizes, nsizes);
      fflush(stdout);
      exit(rc);
    }
    int st = 0;
    if (waitpid(pid, &st, 0) < 0) {
      perror("boolean: waitpid");
      return 1;
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) == 2) {
      if (++nodev == 1 && v == 0) return 2; /* no GPU (or usage): the others would say the same */
    } else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
      failed++;
      if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)
        printf("v%d: FAIL: still running after %d s (a hang?), killed\n", v, VARIANT_ALARM_S);
      else if (WIFSIGNALED(st)) printf("v%d: FAIL: killed by signal %d\n", v, WTERMSIG(st));
      else printf("v%d: FAIL (exit status %d)\n", v, WEXITSTATUS(st));
    }
  }
  if (nodev == nv) return 2;
  if (failed) printf("boolean: %d variant(s) FAILED (see FAIL lines)\n", failed);
  else printf("boolean: all variants passed\n");
  return failed ? 1 : 0;
}

/* Takes --variant V and --variants out of argv (dev_parse knows neither). */
static void take_variant_options(int *argc, char **argv, int *variant, int *all) {
  int w = 1;
  for (int i = 1; i < *argc; i++) {
    if (!strcmp(argv[i], "--variants")) {
      *all = 1;
    } else if (!strcmp(argv[i], "--variant")) {
      char *end = NULL;
      const long v = i + 1 < *argc ? strtol(argv[i + 1], &end, 10) : -1;
      if (i + 1 >= *argc || *end || v < 0 || !ck_orand_variant_name((int)v)) {
        fprintf(stderr, "unknown variant %s; the variants are:\n",
                i + 1 < *argc ? argv[i + 1] : "");
        for (int q = 0; ck_orand_variant_name(q); q++)
          fprintf(stderr, "  %d %s\n", q, ck_orand_variant_name(q));
        exit(2);
      }
      *variant = (int)v;
      i++;
    } else {
      argv[w++] = argv[i];
    }
  }
  *argc = w;
  argv[w] = NULL;
}

int main(int argc, char **argv) {
  dev_opts o = {NULL, -1, (size_t)-1, 5, (uint64_t)time(NULL), 0, 0};
  int variant = CK_ORAND_VARIANT_AUTO, all_variants = 0;
  take_variant_options(&argc, argv, &variant, &all_variants);
  dev_parse(argc, argv, &o, usage, "--big");
  if (all_variants) {
    size_t vsizes[3] = {8192, 16384, 32768};
    int nv = 3;
    if (o.n != (size_t)-1) {
      vsizes[0] = o.n;
      nv = o.n ? 1 : 0;
    }
    return run_variants(&o, vsizes, nv);
  }
  const int only = dev_pick_version(o.version, CK_ORAND_NUM_PATHS, path_id, path_name);
  dev_init_or_exit("boolean");
  ck_orand_set_variant(variant);
  size_t sizes[4] = {4096, 8192, 16384, 32768};
  int nsizes = o.flag ? 4 : 2;
  if (o.n != (size_t)-1) {
    sizes[0] = o.n;
    nsizes = o.n ? 1 : 0;
  }
  int bad = 0;
  const int tensor_runs = tensor_runs_here(&bad);
  printf("seed %llu; checks exact against a loop over the bytes; auto runs %s; tensor variant %d "
         "(%s); times: median of %d, events (call: packing, product, frees; product: the product "
         "kernel alone)\n",
         (unsigned long long)o.seed, tensor_runs ? "tensor" : "lop3", ck_orand_last_variant(),
         ck_orand_variant_name(ck_orand_last_variant()), o.reps);
  if (tensor_runs && variant >= 0 && ck_orand_last_variant() != variant)
    printf("(variant %d cannot run here: the tensor path runs variant %d)\n", variant,
           ck_orand_last_variant());
  if (bad) printf("auto: FAIL: 1 x 1 x 1 of true and true was not true\n");
  const int order[] = {CK_ORAND_SIMPLE, CK_ORAND_LOP3, CK_ORAND_TENSOR};
  if (only == CK_ORAND_AUTO) bad |= run_path(CK_ORAND_AUTO, tensor_runs, &o, sizes, nsizes);
  for (int q = 0; q < 3; q++)
    if (only < 0 || only == order[q]) bad |= run_path(order[q], tensor_runs, &o, sizes, nsizes);
  printf(bad ? "boolean: FAILURES (see FAIL lines)\n" : "boolean: all checks passed\n");
  return bad;
}
