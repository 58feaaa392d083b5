/* Walking paths back through a device P, as gpu_apsp leaves it (apsp.cuh). */
#include <stdlib.h>

#include "apsp.cuh"

/* ---- walking paths back through P ----
 * One thread per pair: from t, P(s, v) is the vertex before v, until s. A walk longer than n
 * vertices cannot be a path (a P not made by gpu_apsp): it is reported as length -1. */
__global__ void ap_walk(const int32_t *__restrict__ P, size_t n, const double *__restrict__ s,
                        const double *__restrict__ t, size_t count, const size_t *__restrict__ at,
                        double *__restrict__ len, double *__restrict__ out) {
  size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= count) return;
  const size_t src = (size_t)s[q], dst = (size_t)t[q];
  size_t steps = 1, v = dst;
  while (v != src && steps <= n) {
    const int32_t u = P[(v - 1) * n + (src - 1)];
    if (u < 1 || (size_t)u > n) {
      steps = 0;
      break;
    }
    v = (size_t)u;
    steps++;
  }
  if (steps > n) steps = (size_t)-1;
  if (!out) {
    len[q] = steps == (size_t)-1 ? -1.0 : (double)steps;
    return;
  }
  if (steps == 0 || steps == (size_t)-1) return;
  v = dst;
  for (size_t i = steps; i-- > 0;) {
    out[at[q] + i] = (double)v;
    if (i) v = (size_t)P[(v - 1) * n + (src - 1)];
  }
}

extern "C" ck_status ck_path_device(const int32_t *P, size_t n, const double *s, const double *t,
                                    size_t count, double *lengths, double *vertices) {
  CK_TRY(ck_device_init());
  if (count == 0) return CK_OK;
  double *ds = NULL, *dt = NULL, *dlen = NULL, *dout = NULL;
  size_t *dat = NULL, *at = NULL, total = 0;
  ck_status st = ck_dev_alloc((void **)&ds, 3 * count * sizeof(double));
  if (st == CK_OK) {
    dt = ds + count;
    dlen = dt + count;
    st = ck_upload(ds, s, count * sizeof(double));
  }
  if (st == CK_OK) st = ck_upload(dt, t, count * sizeof(double));
  if (st == CK_OK) {
    ap_walk<<<grid_for(count, MP_THREADS), MP_THREADS>>>(P, n, ds, dt, count, NULL, dlen, NULL);
    st = ck_cuda_check(cudaGetLastError(), "walking paths");
  }
  if (st == CK_OK) st = ck_download(lengths, dlen, count * sizeof(double));
  if (st == CK_OK && vertices) {
    at = (size_t *)malloc(count * sizeof(size_t));
    if (!at) st = ck_fail(CK_ERR_OUTOFMEMORY, "walking paths: no host memory");
    for (size_t q = 0; st == CK_OK && q < count; q++) {
      at[q] = total;
      total += lengths[q] > 0 ? (size_t)lengths[q] : 0;
    }
    if (st == CK_OK && total) st = ck_dev_alloc((void **)&dat, count * sizeof(size_t));
    if (st == CK_OK && total) st = ck_dev_alloc((void **)&dout, total * sizeof(double));
    if (st == CK_OK && total) st = ck_upload(dat, at, count * sizeof(size_t));
    if (st == CK_OK && total) {
      ap_walk<<<grid_for(count, MP_THREADS), MP_THREADS>>>(P, n, ds, dt, count, dat, dlen, dout);
      st = ck_cuda_check(cudaGetLastError(), "walking paths");
    }
    if (st == CK_OK && total) st = ck_download(vertices, dout, total * sizeof(double));
  }
  free(at);
  ck_dev_free(ds);
  ck_dev_free(dat);
  ck_dev_free(dout);
  return st;
}
