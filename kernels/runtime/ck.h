/* cudakernels: the plain C host API shared by the kernels and the Octave gateway.
 * No Octave headers here: everything in kernels/ builds and links without Octave. */
#ifndef CK_H
#define CK_H

#include <stddef.h>
#include <stdint.h>

#include "ck_tables.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ck_plan ck_plan; /* ck_plan.h */

/* Every entry point returns one of these; the gateway maps them onto error identifiers. */
typedef enum {
  CK_OK = 0,
  CK_ERR_NODEVICE,    /* no GPU, no driver, or the driver is too old for this build */
  CK_ERR_OUTOFMEMORY, /* a device (or pinned host) allocation failed */
  CK_ERR_INVALID,     /* bad arguments: unknown kernel name, unsupported class, sizes */
  CK_ERR_CUDA,        /* any other CUDA failure (launch, copy, sticky error) */
  CK_ERR_STALE,       /* a device array that no longer exists (freed, or the device was reset) */
  CK_ERR_NEGCYCLE,    /* shortest paths: the graph has a negative cycle */
  CK_ERR_POSCYCLE,    /* longest (max.+) or most reliable (max.*) paths: an unbounded cycle */
  CK_ERR_INTERRUPTED  /* the caller asked to stop (Ctrl-C) */
} ck_status;

/* Element classes, named as Octave names them (ck_tables.h). */
#define CK_CLASS_ENUM_(a, E, T, N, B, F, P, L, MX) E,
typedef enum { CK_CLASS_TABLE(CK_CLASS_ENUM_, _) CK_NUM_DTYPES } ck_dtype;
#undef CK_CLASS_ENUM_

size_t ck_dtype_size(ck_dtype t);
const char *ck_dtype_name(ck_dtype t);    /* "double", "single", "int8", ...; "?" if out of range */
int ck_dtype_from_name(const char *name); /* -1 if unknown */
int ck_dtype_is_float(ck_dtype t);

/* Semirings (ck_tables.h; their arithmetic in engine/semiring.cuh). */
#define CK_SEMIRING_ENUM_(a, E, TYPE, NAME, ALIAS, CLASSES, ADD, MUL) E,
typedef enum { CK_SEMIRING_TABLE(CK_SEMIRING_ENUM_, _) CK_NUM_SEMIRINGS } ck_semiring;
#undef CK_SEMIRING_ENUM_
const char *ck_semiring_name(ck_semiring s); /* "min.+", ...; "?" if out of range */
int ck_semiring_from_name(const char *name); /* its name or alias; -1 if unknown */
/* Whether semiring s takes class t; if not, CK_ERR_INVALID with a message naming both. */
ck_status ck_semiring_check(ck_semiring s, ck_dtype t);

/* The detail of the last failure (CUDA's own words where there are some); never NULL. */
const char *ck_last_error(void);
/* Record a failure's detail and hand the status back, so callers can `return ck_fail(...)`. */
ck_status ck_fail(ck_status s, const char *fmt, ...);

/* ---- device (ck_device.c) ---- */
typedef struct {
  char name[256];
  int device;
  int major, minor;
  int multiprocessors;
  int clock_mhz;
  size_t l2_bytes;
  size_t total_bytes, free_bytes;
  int driver_version, runtime_version; /* e.g. 13000 for 13.0 */
} ck_device_info;

/* Devices are numbered from 0 as CUDA numbers them (the .m layer adds 1). Work runs on the calling
 * thread's current device: ck_device_init makes sure its context exists (cheap after the first
 * call). The selected ("home") device is where the gateway starts each command. */
#define CK_MAX_DEVICES 16
ck_status ck_device_init(void);
int ck_device_available(void);
int ck_device_count(void);           /* visible devices (at most CK_MAX_DEVICES); 0 if none */
ck_status ck_device_select(int dev); /* the home device, made current */
int ck_device_selected(void);
ck_status ck_device_use(int dev); /* make dev this thread's current device */
int ck_device_current(void);
/* The gateway's commands: ck_call_begin at the start of each (back to the home device, no arrays
 * seen yet); ck_call_device for each gpu_array it takes (ck_array_lookup calls it): the first
 * one's device becomes current, an array on another device is CK_ERR_INVALID. */
void ck_call_begin(void);
ck_status ck_call_device(int dev);
/* The current device's facts, or device dev's (the current device stays as it was). */
ck_status ck_device_query(ck_device_info *info);
ck_status ck_device_query_at(int dev, ck_device_info *info);
/* Wait for all device work; reports an error a kernel left behind. */
ck_status ck_device_sync(void);

/* A list of devices for work spread over several (spread.c, apsp_host.c): 0-based; a device may
 * be listed twice, which runs two workers on it (for tests). */
#define CK_SPREAD_WORKERS 8
typedef struct {
  int count;
  int devices[CK_SPREAD_WORKERS];
  int copy_always; /* device operands: copied to every worker's device, its own too (tests) */
} ck_devices;
/* CK_ERR_INVALID unless 1 to CK_SPREAD_WORKERS devices, each one that exists. */
ck_status ck_devices_check(const ck_devices *d);

/* Device allocations go through these so the package can count what it holds (leak tests) and
 * tests can impose an artificial limit to exercise the out-of-memory path without 80 GB inputs. */
ck_status ck_dev_alloc(void **p, size_t bytes);
void ck_dev_free(void *p);
size_t ck_dev_bytes_in_use(void);
size_t ck_dev_bytes_on(int dev); /* of those, on device dev */
size_t ck_dev_live_allocations(void);
void ck_dev_set_limit(size_t bytes); /* 0: no limit */
/* Return the blocks the allocator keeps for reuse to the device (waits for the device first). */
void ck_dev_trim(void);

/* ---- semiring products (minplus*.cu, minplus_host.c, minplus_cpu.c; or.and: kernels/boolean)
 * C(i,j) = ADD_k MUL(A(i,k), B(k,j)) of the product's semiring (min.+: min_k A(i,k) + B(k,j));
 * all matrices column-major, A m-by-k, B k-by-n, C m-by-n. NaN terms are ignored unless every
 * term is NaN (Octave's min and max); k == 0 gives ADD's identity (+Inf for min, -Inf for max,
 * intmax or intmin for integers, false for or.and). */
typedef enum {
  CK_MINPLUS_NAIVE = 0, /* v0: one thread per output, threads along columns (uncoalesced) */
  CK_MINPLUS_COALESCED, /* v1: one thread per output, threads along rows (coalesced) */
  CK_MINPLUS_REGBLOCK,  /* v2: 8x8 outputs per thread from registers, padded/transposed operands */
  CK_MINPLUS_WARPTILE,  /* v3: shared-memory warp tiles; integers through DPX where exact */
  CK_MINPLUS_NUM_GPU,
  CK_MINPLUS_CPU = CK_MINPLUS_NUM_GPU /* OpenMP reference, no GPU needed */
} ck_minplus_kernel;

#define CK_MINPLUS_DEFAULT CK_MINPLUS_REGBLOCK

/* Name <-> id; names are "naive", "coalesced", "regblock", "warptile", "cpu" (and "v0".."v3"); -1 if unknown. */
int ck_minplus_kernel_id(const char *name);
const char *ck_minplus_kernel_name(int id);

/* One product: class, kernel, operands and sizes. Column-major: A m-by-k, B k-by-n, C m-by-n.
 * K: the witness (Octave's [C, K] = min (..., [], 2), or max), K(i,j) the smallest k attaining
 * C(i,j), 1-based, as a double; 1 where every term is NaN; 0 everywhere when k == 0; for or.and
 * the first k with A(i,k) & B(k,j), 0 where there is none. NULL: none.
 * Host or device pointers, as the function it is handed to says. */
typedef struct {
  ck_dtype t;
  int kernel;
  const void *A, *B;
  void *C;
  double *K;
  size_t m, k, n;
  /* The call's plan (ck_plan.h), which executors read and note into; NULL: each entry point
   * plans for itself (the C drivers in dev/ call them so). */
  ck_plan *plan;
  /* The semiring of a semiring product (0: min.+); the call sets it from its own (ck_call). */
  ck_semiring semiring;
} ck_product;

/* How a kernel is timed: `warmup` untimed runs, then `reps` runs each timed with events into
 * times_ms (reps entries), on inputs of kind `data` where the timing makes its own. */
enum { CK_DATA_INTS = 0, CK_DATA_FRACTIONS = 1, CK_DATA_WIDE = 2, CK_DATA_BITS = 3 };
typedef struct {
  int warmup, reps;
  double *times_ms;
  int data;  /* the random inputs of a product's timing: CK_DATA_* */
  int calls; /* products: calls back to back within each timed run (0: 1), times per call */
} ck_timing;

/* Host arrays in, host arrays out; does its own allocation, transfers and cleanup. The CPU kernel
 * runs here without a GPU. */
ck_status ck_minplus(const ck_product *p);

/* Device arrays in and out (the building block for device-resident arrays): the whole product on
 * the device, including any padding pre-pass. Allocates and frees its own scratch. */
ck_status ck_minplus_device(const ck_product *p);

/* The CPU reference of semiring s (minplus_cpu.c): cache-blocked, OpenMP over columns of C;
 * p->kernel is not read; CK_ERR_INVALID for a class s does not take. ck_minplus_cpu: of min.+. */
ck_status ck_semiring_cpu(ck_semiring s, const ck_product *p);
void ck_minplus_cpu(const ck_product *p);

/* Integer-valued single and double operands (minplus_narrow.cu): the "warptile" kernel computes
 * them on the integer paths when the answer cannot differ. CK_NARROW_AUTO (the default) looks at
 * products large enough for the look to pay, CK_NARROW_ALWAYS at every one (for tests),
 * CK_NARROW_OFF at none (for comparisons). Process-wide; returns the previous mode. */
enum { CK_NARROW_AUTO = 0, CK_NARROW_OFF = 1, CK_NARROW_ALWAYS = 2 };
int ck_minplus_set_narrow(int mode); /* any other mode: read it, change nothing */

/* Kernel-only timing for benchmarks of p's semiring, on random device inputs of p's class and
 * sizes (tm->data:
 * CK_DATA_INTS, integers 0..999; CK_DATA_FRACTIONS, the same plus 0.5, for the float classes;
 * CK_DATA_WIDE, integers 0..2^20 - 1; logical: 0 and 1; p's pointers are not read), with the witness when
 * `witness`: whole product, pre-pass and kernel. */
ck_status ck_minplus_time(const ck_product *p, int witness, const ck_timing *tm);

/* ---- all-pairs shortest paths (apsp*.cu, apsp_host.c, apsp_cpu.c) ----
 * W is an n-by-n matrix of edge weights, column-major: W(i,j) is the edge from i to j; +Inf (the
 * floating-point classes) or intmax (the integer classes) is no edge; the diagonal counts as 0
 * (a negative diagonal entry is a negative cycle). D(i,j) is the length of a shortest path from i
 * to j, in W's class; P(i,j) (optional) the vertex before j on one such path, 1-based, 0 where j
 * is unreachable from i and on the diagonal. Integer lengths are exact and saturate to the class
 * at the end: a path of length intmax or more counts as none. NaN and -Inf weights are refused
 * (CK_ERR_INVALID); a negative cycle gives CK_ERR_NEGCYCLE with one of its vertices.
 * Floating-point lengths are sums in W's class along the path, in the order each method adds
 * them. With P the GPU follows plain Floyd-Warshall's order, and D and P equal the CPU
 * reference's bit for bit; D alone may differ from it in the last bits where sums round.
 * Other semirings (a->semiring): the same with ADD and MUL in place of min and +. No edge is
 * ADD's identity (-Inf or intmin for max; 0 or -Inf for max.*, whose weights must not be
 * negative), the diagonal MUL's identity combined with W(i,i) by ADD, and a cycle better than
 * the empty path is CK_ERR_POSCYCLE (max.+: positive; max.*: a product above 1). max.+ refuses
 * +Inf and the unsigned classes, max.* the integer classes. The GPU takes min.+ and max.+ (the
 * latter as min.+ on -W: apsp.cu); the CPU reference takes every one but or.and. */
typedef enum { CK_APSP_GPU = 0, CK_APSP_CPU } ck_apsp_kernel;

typedef struct {
  ck_dtype t;
  int kernel;    /* ck_apsp_kernel */
  const void *W; /* n*n of class t */
  void *D;       /* n*n of class t; may be W itself */
  int32_t *P;    /* n*n, or NULL: no paths */
  size_t n;
  /* Polled between rounds (about every few ms of GPU time): nonzero stops the call with
   * CK_ERR_INTERRUPTED, everything freed. NULL: never. */
  int (*cancelled)(void *ctx);
  /* Called about once a second: rounds done of total. NULL: silent. */
  void (*progress)(void *ctx, size_t done, size_t total);
  void *ctx;
  /* The GPU part: the devices that share the rows of the work (NULL or count 0: the planner's
   * default, every device from 8192 vertices on). */
  const ck_devices *devices;
  size_t cycle_vertex;  /* out: with CK_ERR_NEGCYCLE or _POSCYCLE, a vertex (1-based) on it */
  ck_plan *plan;        /* the call's plan (ck_apsp_call); NULL: the entry point plans itself */
  ck_semiring semiring; /* 0: min.+ */
  /* Pages: W, D and P hold `pages` graphs of n vertices, n*n each, one after the other (0: one
   * graph, a 2-D call). Each page is its own call: D and P are what each would give alone. */
  size_t pages;
  size_t page;  /* out: with an error about one page (an unbounded cycle), its number, 1-based */
  size_t page0; /* the number of the first page in the caller's call (a run of its pages), or 0 */
} ck_apsp_args;

/* CK_ERR_INVALID unless the paths of semiring s take class t (the rules above); the planner's
 * check, the CPU reference's where it is called directly, and the gateway's for pages of no
 * graph. */
ck_status ck_apsp_check(ck_semiring s, ck_dtype t);
/* Host arrays in and out; the CPU kernel runs here without a GPU. */
ck_status ck_apsp(ck_apsp_args *a);
/* Device arrays in and out, on the current device (the other devices work on copies of their
 * rows); allocates and frees its own scratch. */
ck_status ck_apsp_device(ck_apsp_args *a);
/* The CPU reference (plain Floyd-Warshall, OpenMP over columns); a->kernel is not read. */
ck_status ck_apsp_cpu(ck_apsp_args *a);
/* Timing of the device call on random complete graphs of shape's class, semiring, n and pages
 * (weights 0..999; its pointers are not read), with the paths when `paths`. */
ck_status ck_apsp_time(const ck_apsp_args *shape, int paths, const ck_timing *tm);
/* Paths walked back through a device P (n*n, as ck_apsp_device leaves it) for `count` pairs
 * (s[q], t[q]), 1-based: the vertices of each path, first to last, one after the other into
 * `vertices` (host, at most count*n of them; NULL: only count), and each path's length (number
 * of vertices, 0 if t is unreachable from s) into `lengths` (host). */
ck_status ck_path_device(const int32_t *P, size_t n, const double *s, const double *t, size_t count,
                         double *lengths, double *vertices);

/* ---- paged products (pages.c) ----
 * count pages: C(:, :, q) = A(:, :, ia[q]) (x) B(:, :, ib[q]), the pages of A m x k, of B k x n,
 * of C (and K) m x n, one after the other; ia, ib 0-based, below pages_a and pages_b. A list may
 * be NULL: page q of C then takes page q of that operand, or its only page (pages_a or pages_b
 * is count, or 1), as 3-D operands map, with no list to build or read. */
typedef struct {
  size_t count, pages_a, pages_b;
  const size_t *ia, *ib;
} ck_pages;
/* A run of pages that step evenly through A and B: page z < count of C (and K) is the product
 * of page z * a_step of A and page z * b_step of B, counted from the product's pointers (a step
 * of 0: one page broadcast). force: one launch whenever the kernel can (tests), not only where
 * it gains. */
typedef struct {
  size_t count, a_step, b_step;
  int force;
} ck_page_run;
typedef ck_status ck_product_fn(const ck_product *p);
/* A run in one launch (or a few): *done = 1; else *done = 0, nothing run, and the caller runs
 * the run's pages one by one. */
typedef ck_status ck_batch_fn(const ck_product *p, const ck_page_run *r, int *done);
ck_status ck_minplus_pages_device(const ck_product *p, const ck_page_run *r, int *done);
ck_status ck_matmul_pages_device(const ck_product *p, const ck_page_run *r, int *done);
/* How pages run: CK_PAGES_AUTO (batched where it gains), CK_PAGES_LOOP (page by page),
 * CK_PAGES_BATCHED (batched wherever the kernel can); returns the mode before. */
enum { CK_PAGES_AUTO = 0, CK_PAGES_LOOP, CK_PAGES_BATCHED };
int ck_pages_set_mode(int mode);
/* How a graph's distances alone run (D of one graph on one device, apsp_graph_tiled.cu):
 * CK_APSP_GRAPH_AUTO by tiles in one launch where that is faster, CK_APSP_GRAPH_ROUNDS on the
 * rounds; returns the mode before. */
enum { CK_APSP_GRAPH_AUTO = 0, CK_APSP_GRAPH_ROUNDS };
int ck_apsp_set_graph_mode(int mode);
/* Device arrays: each run of pages through `batch`, or where it declines page by page through
 * `fn` (a 2-D device product, ck_minplus_device or ck_matmul_device). */
ck_status ck_pages_device(ck_product_fn *fn, ck_batch_fn *batch, const ck_product *p,
                          const ck_pages *pg);
/* Host arrays: the same with all pages on the device where they fit, else host_fn (the 2-D host
 * product) page by page; on_host: the CPU kernel, host_fn page by page. */
ck_status ck_pages_host(ck_product_fn *device_fn, ck_batch_fn *batch, ck_product_fn *host_fn,
                        int on_host, const ck_product *p, const ck_pages *pg);

/* ---- products over several devices (spread.c) ----
 * C's columns cut into one panel per entry of `devices` (ck_devices), each computed on its device
 * by the one-device code, with the same result. */
/* Host arrays: host_fn (ck_minplus or ck_matmul) on each panel. */
ck_status ck_spread_host(ck_product_fn *host_fn, const ck_product *p, const ck_devices *d);
/* Device arrays on the current device (C and K too): device_fn (ck_minplus_device or
 * ck_matmul_device) on each panel, the other devices working on copies. */
ck_status ck_spread_device(ck_product_fn *device_fn, const ck_product *p, const ck_devices *d);

/* ---- calls and their plans (plan.c, call.c; the plan is ck_plan.h) ----
 * A call is planned once, before anything runs (ck_plan_product, ck_plan_apsp); the executors
 * carry the plan out and note what they found into it; the gateway thread's last plan is kept
 * (ck_last_plan). */
#include "ck_plan.h"

/* One product call: the semiring (or CK_PLUS_TIMES, the arithmetic product), where the operands
 * live, class, kernel, operands and sizes in p (C and K where the operands are; K NULL: no
 * witness), the pages (NULL: one 2-D product), the devices asked for (NULL or count 0: the
 * default, with copy_always as given). CK_ON_RANDOM (timings): p's pointers are not read, pages
 * counts the 3-D pages, witness asks for K. */
typedef struct {
  int semiring;
  ck_where where;
  ck_product p;
  const ck_pages *pages;
  const ck_devices *devices;
  int witness;
} ck_call;

/* The plan of a call, nothing run; CK_ERR_INVALID for what the call cannot be. */
ck_status ck_plan_product(const ck_call *c, ck_plan *pl);
ck_status ck_plan_apsp(const ck_apsp_args *a, ck_where where, ck_plan *pl);
/* A call: planned into *pl, run, *pl kept as the last plan (also when it fails). */
ck_status ck_product_call(const ck_call *c, ck_plan *pl);
ck_status ck_apsp_call(ck_apsp_args *a, ck_where where, ck_plan *pl);
/* A product's timing (c->where CK_ON_RANDOM; random device operands of kind tm->data): planned
 * once, then tm's runs between CUDA events; kept as the last plan. */
ck_status ck_product_time(const ck_call *c, const ck_timing *tm, ck_plan *pl);
/* The last kept plan (zeros, op CK_OP_NONE: none since the process began or the last reset). */
void ck_last_plan(ck_plan *out);
void ck_plan_forget(void);
/* Names of a plan's values, for the gateway ("?" out of range). */
const char *ck_op_name(ck_op op);
const char *ck_where_name(ck_where w);
const char *ck_move_name(ck_move m);
const char *ck_words_name(ck_words w);
const char *ck_shifts_name(ck_shifts s);
const char *ck_pages_mode_name(int mode);
const char *ck_plan_semiring_name(int semiring); /* a semiring's, or "+.*" */

/* ---- transfers and device-resident arrays (array.c, transfer.c, convert.cu) ----
 * Host<->device copies go through two pinned staging buffers that live as long as the process:
 * the CPU fills one while the DMA engine drains the other, so a copy runs at pinned speed without
 * pinning the caller's memory. */
ck_status ck_upload(void *dst_dev, const void *src_host, size_t bytes);
ck_status ck_download(void *dst_host, const void *src_dev, size_t bytes);

/* A registry of device arrays named by ids that are never reused, so an id that outlived its
 * array (freed, or dropped by ck_reset) is reported as CK_ERR_STALE, never mistaken for another. */
typedef uint64_t ck_array_id;
/* An array lives on the device current when it was made; ck_array_lookup makes that device
 * current (ck_call_device). */
ck_status ck_array_create(ck_dtype t, size_t numel, ck_array_id *id, void **ptr);
ck_status ck_array_lookup(ck_array_id id, ck_dtype *t, size_t *numel, void **ptr);
void ck_array_free(ck_array_id id); /* unknown ids are ignored: freeing twice is harmless */
size_t ck_array_count(void);
size_t ck_array_count_on(int dev);
/* A new array holding src converted to class `to` (single <-> double). */
ck_status ck_array_convert(ck_array_id src, ck_dtype to, ck_array_id *out);

/* Free every device array and the staging buffers, release cuBLAS and reset every device used.
 * Every existing array id becomes stale; the home device stays selected. */
ck_status ck_reset(void);

/* ---- sum (sum.cu, sum_host.c, sum_cpu.c) ----
 * The array is seen as before-by-len-by-after (column-major) and summed over the middle index:
 * y(b, a) = sum_l x(b, l, a), y has before*after elements. Octave's sum along any dimension of an
 * N-D array is this with before = prod(size(1:dim-1)), len = size(dim), after = the rest. */
typedef enum {
  CK_SUM_ATOMIC = 0,  /* one atomicAdd per element (order, and so rounding, varies run to run) */
  CK_SUM_PAIRWISE,    /* multi-pass in global memory: x(i) += x(i + half) until one is left */
  CK_SUM_INTERLEAVED, /* Harris #1: shared memory, interleaved addressing, divergent branches */
  CK_SUM_STRIDED,     /* Harris #2: interleaved addressing with a strided index, bank conflicts */
  CK_SUM_SEQUENTIAL,  /* Harris #3: sequential addressing */
  CK_SUM_TWOLOAD,     /* Harris #4: first add during the load, half the blocks */
  CK_SUM_WARPUNROLL,  /* Harris #5-#6: last warp unrolled, loop fully unrolled for the block size */
  CK_SUM_SHUFFLE,     /* grid-stride, 16-byte loads, warp shuffles, one launch (last block ends) */
  CK_SUM_CUB,         /* cub::DeviceReduce, for comparison */
  CK_SUM_NUM_GPU,
  CK_SUM_CPU = CK_SUM_NUM_GPU /* sequential CPU reference (OpenMP over outputs) */
} ck_sum_kernel;

#define CK_SUM_DEFAULT CK_SUM_SHUFFLE

/* What the sum is computed in and returned as (Octave's sum options):
 *   CK_SUM_MODE_DEFAULT  single -> single, double -> double, integers -> double
 *   CK_SUM_MODE_DOUBLE   everything -> double ("double")
 *   CK_SUM_MODE_NATIVE   integers -> their own class, each addition saturating in order, as
 *                        Octave's "native" does; floating point as DEFAULT ("native")
 * Floating-point values are accumulated in double whatever the output; integers up to 32 bits
 * exactly in 64-bit integers; 64-bit integers in double, as Octave does. */
typedef enum { CK_SUM_MODE_DEFAULT = 0, CK_SUM_MODE_DOUBLE, CK_SUM_MODE_NATIVE } ck_sum_mode;

int ck_sum_kernel_id(const char *name);
const char *ck_sum_kernel_name(int id);
ck_dtype ck_sum_out_dtype(ck_dtype in, ck_sum_mode mode);

/* One sum: class, mode, kernel, input x (before*len*after elements) and output y (before*after
 * elements of class ck_sum_out_dtype(t, mode)); host or device pointers, as the function it is
 * handed to says. */
typedef struct {
  ck_dtype t;
  ck_sum_mode mode;
  int kernel;
  const void *x;
  void *y;
  size_t before, len, after;
} ck_sum_args;

/* Host arrays in and out. */
ck_status ck_sum(const ck_sum_args *a);
/* Device arrays in and out; allocates and frees its own scratch. */
ck_status ck_sum_device(const ck_sum_args *a);
/* The CPU reference; a->kernel is not read. */
ck_status ck_sum_cpu(const ck_sum_args *a);
/* Kernel-only timing over the user's data (host arrays): uploads x once, then times device sums
 * (tm); y receives the result of the last run. */
ck_status ck_sum_time(const ck_sum_args *a, const ck_timing *tm);
/* The device-to-device copy rate the reductions are measured against, in bytes moved (read plus
 * written) per second: the median of `reps` cudaMemcpy of `bytes` after a warm-up. */
ck_status ck_copy_bandwidth(size_t bytes, int reps, double *bytes_per_second);

/* ---- matrix multiply (matmul.cu, matmul_host.c, cublas_dl.c) ----
 * C = A * B, column-major, A m-by-k, B k-by-n; single or double. k == 0 gives zeros. */
typedef enum {
  CK_MATMUL_NAIVE = 0,  /* one thread per output, uncoalesced */
  CK_MATMUL_TILED16,    /* shared-memory tiles, TILE_WIDTH 16, boundary checks */
  CK_MATMUL_TILED32,    /* the same with TILE_WIDTH 32 */
  CK_MATMUL_TEXTURE,    /* tiled32 reading its operands through texture objects */
  CK_MATMUL_REGBLOCK,   /* 2-D register blocking (TM x TN outputs per thread) */
  CK_MATMUL_VECTORIZED, /* + 16-byte loads, transposed A tile */
  CK_MATMUL_WARPTILE,   /* + warp tiling, double-buffered tiles */
  CK_MATMUL_CUBLAS,     /* cublasSgemm / cublasDgemm, loaded at run time */
  CK_MATMUL_NUM
} ck_matmul_kernel;

int ck_matmul_kernel_id(const char *name);
const char *ck_matmul_kernel_name(int id);

/* Host arrays in and out; p->K is not read. */
ck_status ck_matmul(const ck_product *p);
/* Device arrays in and out. */
ck_status ck_matmul_device(const ck_product *p);
/* Kernel-only timing on random device inputs, as ck_minplus_time. */
ck_status ck_matmul_time(const ck_product *p, const ck_timing *tm);
/* For tests: the "texture" kernel refuses operands beyond `elements` (below the device's own
 * limit on a linear texture; 0: that limit alone). Returns the value before. */
size_t ck_matmul_set_texture_limit(size_t elements);
/* For dev/matmul's sweep: the warptile kernel splits k into `slices` (fewer where k has fewer
 * tiles of depth 8, or slices would be empty; at most 1024) whatever the planner would say; 0:
 * the planner's split. Returns the value before. */
int ck_matmul_set_split(int slices);

/* cuBLAS is not linked: it is found with dlopen on first use (libcublas.so.13, .12, or the file
 * named by $CUDAKERNELS_CUBLAS), so the package loads and its other functions work without it. */
int ck_cublas_available(void);
const char *ck_cublas_library(void); /* the file loaded, or "" */
void ck_cublas_release(void);        /* destroy the handle; the next use creates a new one */

/* ---- ceilings (ceiling.cu) ----
 * Rate, in pair updates per second, of a register-only inner loop of semiring s on class t with
 * no memory traffic: the compute ceiling a kernel of s is measured against on this GPU. or.and
 * (any t) has two, by path: the 1-bit tensor cores (CK_ORAND_TENSOR, also for path 0) and 32-bit
 * word operations (CK_ORAND_LOP3; kernels/boolean/orand.h). ck_minplus_ceiling: of min.+. */
ck_status ck_semiring_ceiling(ck_semiring s, ck_dtype t, int path, double *pairs_per_second);
ck_status ck_minplus_ceiling(ck_dtype t, double *pairs_per_second);

#ifdef __cplusplus
}
#endif
#endif
