/* Products on host arrays and the random operands of timings, and the registry of device-resident
 * arrays. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ck_internal.h"

ck_status ck_host_product(ck_product_fn *fn, const ck_product *p) {
  CK_TRY(ck_device_init());
  const size_t m = p->m, k = p->k, n = p->n, es = ck_dtype_size(p->t);
  if (m == 0 || n == 0) return CK_OK;
  ck_product d = *p;
  void *dA = NULL, *dB = NULL, *dC = NULL;
  ck_status s;
  if ((s = ck_dev_alloc(&dA, m * k * es)) == CK_OK &&
      (s = ck_dev_alloc(&dB, k * n * es)) == CK_OK &&
      (s = ck_dev_alloc(&dC, m * n * es)) == CK_OK &&
      (s = ck_upload(dA, p->A, m * k * es)) == CK_OK &&
      (s = ck_upload(dB, p->B, k * n * es)) == CK_OK) {
    d.A = dA;
    d.B = dB;
    d.C = dC;
    d.K = NULL;
    if ((s = fn(&d)) == CK_OK) s = ck_download(p->C, dC, m * n * es);
  }
  ck_dev_free(dA);
  ck_dev_free(dB);
  ck_dev_free(dC);
  return s;
}

ck_status ck_random_operands(const ck_product *p, size_t pages, const ck_timing *tm,
                             ck_product *d) {
  *d = *p;
  d->A = d->B = d->C = NULL;
  d->K = NULL;
  if (tm->reps < 1 || tm->warmup < 0)
    return ck_fail(CK_ERR_INVALID, "reps must be >= 1, warmup >= 0");
  CK_TRY(ck_device_init());
  const size_t m = p->m, k = p->k, n = p->n, es = ck_dtype_size(p->t);
  void *dA = NULL, *dB = NULL;
  CK_TRY(ck_dev_alloc(&dA, m * k * pages * es));
  d->A = dA;
  CK_TRY(ck_dev_alloc(&dB, k * n * pages * es));
  d->B = dB;
  CK_TRY(ck_dev_alloc(&d->C, m * n * pages * es));
  CK_TRY(ck_fill_random_kind(p->t, dA, m * k * pages, 1, tm->data));
  return ck_fill_random_kind(p->t, dB, k * n * pages, 2, tm->data);
}

void ck_free_operands(ck_product *d) {
  ck_dev_free((void *)d->A);
  ck_dev_free((void *)d->B);
  ck_dev_free(d->C);
  d->A = d->B = d->C = NULL;
}

/* ---- device-resident arrays ---- */
typedef struct {
  ck_array_id id;
  void *ptr;
  ck_dtype t;
  size_t numel;
  int dev;
} entry;

static entry *table = NULL;
static size_t count = 0, cap = 0;
static ck_array_id next_id = 1;

static entry *find(ck_array_id id) {
  for (size_t i = 0; i < count; i++)
    if (table[i].id == id) return &table[i];
  return NULL;
}

ck_status ck_array_create(ck_dtype t, size_t numel, ck_array_id *id, void **ptr) {
  if (count == cap) {
    size_t ncap = cap ? 2 * cap : 64;
    entry *grown = realloc(table, ncap * sizeof *grown);
    if (!grown) return ck_fail(CK_ERR_OUTOFMEMORY, "out of host memory for the array registry");
    table = grown;
    cap = ncap;
  }
  CK_TRY(ck_dev_alloc(ptr, numel * ck_dtype_size(t)));
  entry e = {next_id++, *ptr, t, numel, ck_device_current()};
  table[count++] = e;
  *id = e.id;
  return CK_OK;
}

/* The array's device becomes current: what the caller does with it runs there. */
ck_status ck_array_lookup(ck_array_id id, ck_dtype *t, size_t *numel, void **ptr) {
  entry *e = find(id);
  if (!e)
    return ck_fail(CK_ERR_STALE,
                   "device array %llu no longer exists (it was freed, or the device was reset)",
                   (unsigned long long)id);
  CK_TRY(ck_call_device(e->dev));
  if (t) *t = e->t;
  if (numel) *numel = e->numel;
  if (ptr) *ptr = e->ptr;
  return CK_OK;
}

void ck_array_free(ck_array_id id) {
  entry *e = find(id);
  if (!e) return;
  ck_dev_free(e->ptr);
  *e = table[--count];
}

size_t ck_array_count(void) { return count; }

size_t ck_array_count_on(int dev) {
  size_t c = 0;
  for (size_t i = 0; i < count; i++) c += table[i].dev == dev;
  return c;
}

ck_status ck_array_convert(ck_array_id src, ck_dtype to, ck_array_id *out) {
  ck_dtype t;
  size_t numel;
  void *p, *q;
  CK_TRY(ck_array_lookup(src, &t, &numel, &p));
  CK_TRY(ck_array_create(to, numel, out, &q));
  ck_status s = ck_convert_device(t, p, to, q, numel);
  if (s != CK_OK) ck_array_free(*out);
  return s;
}

ck_status ck_reset(void) {
  for (size_t i = 0; i < count; i++) ck_dev_free(table[i].ptr);
  count = 0;
  ck_lanes_release(-1);
  ck_cublas_release();
  cudaError_t first = cudaSuccess;
  const int devices = ck_device_count();
  for (int d = 0; d < devices; d++) { /* each device that has a context */
    if (ck_device_used(d) &&
        (cudaSetDevice(d) != cudaSuccess || cudaDeviceReset() != cudaSuccess)) {
      cudaError_t e = cudaGetLastError();
      if (first == cudaSuccess) first = e;
    }
  }
  ck_dev_forget_all(); /* the reset freed whatever was still allocated */
  ck_device_forget();
  const int home = ck_device_selected();
  if (devices > 0 && cudaSetDevice(home) != cudaSuccess) (void)cudaGetLastError();
  if (first != cudaSuccess) return ck_cuda_status(first, "resetting the device");
  return CK_OK;
}
