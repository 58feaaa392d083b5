/* cudakernels: the plain C host API shared by the kernels and the Octave gateway.
 * No Octave headers here: everything in kernels/ builds and links without Octave. */
#ifndef CK_H
#define CK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every entry point returns one of these; the gateway maps them onto error identifiers. */
typedef enum {
  CK_OK = 0,
  CK_ERR_NODEVICE,    /* no GPU, no driver, or the driver is too old for this build */
  CK_ERR_OUTOFMEMORY, /* a device (or pinned host) allocation failed */
  CK_ERR_INVALID,     /* bad arguments: unknown kernel name, unsupported class, sizes */
  CK_ERR_CUDA         /* any other CUDA failure (launch, copy, sticky error) */
} ck_status;

typedef enum { CK_DOUBLE = 0, CK_SINGLE = 1, CK_NUM_DTYPES = 2 } ck_dtype;

size_t ck_dtype_size(ck_dtype t);
const char *ck_dtype_name(ck_dtype t);

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

/* Selects device 0 once and creates its context. Cheap after the first call. */
ck_status ck_device_init(void);
int ck_device_available(void);
ck_status ck_device_query(ck_device_info *info);

/* Device allocations go through these so the package can count what it holds (leak tests) and
 * tests can impose an artificial limit to exercise the out-of-memory path without 80 GB inputs. */
ck_status ck_dev_alloc(void **p, size_t bytes);
void ck_dev_free(void *p);
size_t ck_dev_bytes_in_use(void);
size_t ck_dev_live_allocations(void);
void ck_dev_set_limit(size_t bytes); /* 0: no limit */

/* ---- min-plus product (minplus.cu, minplus_host.c, minplus_cpu.c) ----
 * C(i,j) = min_k A(i,k) + B(k,j); all matrices column-major, A m-by-k, B k-by-n, C m-by-n.
 * NaN terms are ignored unless every term is NaN (Octave's min); k == 0 gives +Inf. */
typedef enum {
  CK_MINPLUS_NAIVE = 0, /* v0: one thread per output, threads along columns (uncoalesced) */
  CK_MINPLUS_COALESCED, /* v1: one thread per output, threads along rows (coalesced) */
  CK_MINPLUS_REGBLOCK,  /* v2: 8x8 outputs per thread from registers, padded/transposed operands */
  CK_MINPLUS_NUM_GPU,
  CK_MINPLUS_CPU = CK_MINPLUS_NUM_GPU /* OpenMP reference, no GPU needed */
} ck_minplus_kernel;

#define CK_MINPLUS_DEFAULT CK_MINPLUS_REGBLOCK

/* Name <-> id; names are "naive", "coalesced", "regblock", "cpu" (and "v0".."v2"). -1 if unknown. */
int ck_minplus_kernel_id(const char *name);
const char *ck_minplus_kernel_name(int id);

/* Host arrays in, host array out; does its own allocation, transfers and cleanup. */
ck_status ck_minplus(ck_dtype t, int kernel, const void *A, const void *B, void *C,
                     size_t m, size_t k, size_t n);

/* Device arrays in and out (the building block for device-resident arrays): the whole product on
 * the device, including any padding pre-pass. Allocates and frees its own scratch. */
ck_status ck_minplus_device(ck_dtype t, int kernel, const void *dA, const void *dB, void *dC,
                            size_t m, size_t k, size_t n);

/* The CPU reference: cache-blocked, OpenMP over columns of C. */
void ck_minplus_cpu(ck_dtype t, const void *A, const void *B, void *C, size_t m, size_t k, size_t n);

/* Kernel-only timing for benchmarks: random device inputs, `warmup` untimed runs, then `reps`
 * runs each timed with events (whole product: pre-pass + kernel). times_ms has reps entries. */
ck_status ck_minplus_time(ck_dtype t, int kernel, size_t m, size_t k, size_t n, int warmup,
                          int reps, double *times_ms);

/* ---- ceilings (ceiling.cu) ----
 * Rate, in pair updates per second, of a register-only min-plus inner loop with no memory
 * traffic: the compute ceiling a min-plus kernel is measured against on this GPU. */
ck_status ck_minplus_ceiling(ck_dtype t, double *pairs_per_second);

#ifdef __cplusplus
}
#endif
#endif
