/* Host side of the min-plus product: kernel names, host-to-host calls, kernel-only timing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ck_internal.h"

static const char *const kernel_names[] = {"naive", "coalesced", "regblock", "warptile",
                                                 "cpu"};
static const char *const kernel_aliases[] = {"v0", "v1", "v2", "v3", NULL};
#define NUM_KERNELS (int)(sizeof kernel_names / sizeof kernel_names[0])

int ck_minplus_kernel_id(const char *name) {
  for (int i = 0; i < NUM_KERNELS; i++)
    if (!strcmp(name, kernel_names[i]) || (kernel_aliases[i] && !strcmp(name, kernel_aliases[i])))
      return i;
  return -1;
}

const char *ck_minplus_kernel_name(int id) {
  return id >= 0 && id < NUM_KERNELS ? kernel_names[id] : NULL;
}

static int is_gpu_kernel(int kernel) { return kernel >= 0 && kernel < CK_MINPLUS_NUM_GPU; }

static ck_status check_class(ck_dtype t) {
  if ((int)t >= 0 && t < CK_INT64) return CK_OK;
  return ck_fail(CK_ERR_INVALID,
                 "min-plus supports double, single and integers up to 32 bits, not %s",
                 ck_dtype_name(t));
}

/* ---- host arrays in and out: sliced to fit the device, transfers overlapped with compute ----
 *
 * C is computed in panels of columns. When A, B and C fit on the device (the usual case), A is
 * uploaded, then panel j's kernel runs on the default stream while B's next panel is uploaded
 * and the previous panel of C is downloaded on the copy stream, and copied into the host array
 * by the host: only the first upload and the last download are not hidden behind compute.
 * When they do not fit, the product is cut into slices of rows of A, columns of B and, last, of
 * k, each small enough for the free memory, and the slices of k are merged. */

static size_t round_up_sz(size_t x, size_t to) { return (x + to - 1) / to * to; }

/* Device bytes one slice (mb x kb by kb x nb) needs: its operands, two output slices with their
 * witness (the pipeline's double buffer, or a slice of k and the running result), and the
 * kernels' padded or repacked copies (at most 4 bytes or the element size per padded element),
 * plus a little room for the allocator's rounding. */
static size_t slice_bytes(size_t es, int arg, size_t mb, size_t kb, size_t nb) {
  size_t w = es > 4 ? es : 4;
  size_t mp = round_up_sz(mb, 128), np = round_up_sz(nb, 128), kp = round_up_sz(kb, 16);
  return es * (mb * kb + kb * nb) + 2 * mb * nb * (es + (arg ? sizeof(double) : 0)) +
         w * (mp * kp + kp * np + mp * np) + ((size_t)64 << 10);
}

typedef struct {
  size_t mb, kb, nb; /* slice sizes */
} mp_slices;

static ck_status plan_slices(size_t es, int arg, size_t m, size_t k, size_t n, mp_slices *p) {
  size_t budget = ck_dev_budget();
  budget -= budget / 8; /* fragmentation, and other users of the device */
  size_t mb = m, kb = k, nb = n;
  while (slice_bytes(es, arg, mb, kb, nb) > budget) {
    /* columns of B first (contiguous), then rows of A, then k (which needs a merge) */
    size_t *d = nb > 256 ? &nb : mb > 256 ? &mb : kb > 256 ? &kb : nb > 1 ? &nb : mb > 1 ? &mb
              : kb > 1 ? &kb : NULL;
    if (!d)
      return ck_fail(CK_ERR_OUTOFMEMORY,
                     "min-plus: even a 1x1x1 slice needs more than the %zu bytes of device "
                     "memory free",
                     budget);
    *d = (*d + 1) / 2;
  }
  p->mb = mb;
  p->kb = kb;
  p->nb = nb;
  return CK_OK;
}

static ck_status product_on_device(ck_dtype t, int kernel, const void *dA, const void *dB,
                                   void *dC, double *dK, size_t m, size_t k, size_t n) {
  return dK ? ck_minplus_arg_device(t, kernel, dA, dB, dC, dK, m, k, n)
            : ck_minplus_device(t, kernel, dA, dB, dC, m, k, n);
}

/* Panels of about this many output bytes: small enough to overlap, large enough to fill the GPU. */
#define PANEL_BYTES ((size_t)32 << 20)

/* Everything fits: A and B whole on the device, C in pipelined panels (see above). */
static ck_status pipelined(ck_dtype t, int kernel, const void *A, const void *B, void *C,
                           double *K, size_t m, size_t k, size_t n) {
  size_t es = ck_dtype_size(t), per_col = m * (es + (K ? sizeof(double) : 0));
  size_t nb = per_col * n <= 2 * PANEL_BYTES ? n : (PANEL_BYTES + per_col - 1) / per_col;
  nb = round_up_sz(nb, 128); /* whole tiles of the kernels */
  if (nb > n) nb = n;
  size_t panels = (n + nb - 1) / nb;
  void *dA = NULL, *dB = NULL, *dC = NULL;
  double *dK = NULL;
  cudaEvent_t up[2] = {NULL, NULL}, ran[2] = {NULL, NULL};
  ck_status s;
  cudaError_t e = cudaSuccess;
  for (int b = 0; b < 2 && e == cudaSuccess; b++)
    if ((e = cudaEventCreateWithFlags(&up[b], cudaEventDisableTiming)) == cudaSuccess)
      e = cudaEventCreateWithFlags(&ran[b], cudaEventDisableTiming);
  if (e != cudaSuccess) {
    s = ck_cuda_status(e, "creating events");
    goto done;
  }
  if ((s = ck_dev_alloc(&dA, m * k * es)) != CK_OK || (s = ck_dev_alloc(&dB, k * n * es)) != CK_OK ||
      (s = ck_dev_alloc(&dC, m * n * es)) != CK_OK ||
      (K && (s = ck_dev_alloc((void **)&dK, m * n * sizeof(double))) != CK_OK) ||
      (s = ck_upload(dA, A, m * k * es)) != CK_OK)
    goto done;
  s = ck_upload_async(dB, B, k * nb * es, up[0]);
  for (size_t p = 0; p <= panels && s == CK_OK; p++) {
    if (p < panels) { /* panel p: its kernel, then the next panel's upload */
      size_t j0 = p * nb, cols = n - j0 < nb ? n - j0 : nb;
      if ((e = cudaStreamWaitEvent(0, up[p % 2], 0)) != cudaSuccess) break;
      s = product_on_device(t, kernel, dA, (const char *)dB + j0 * k * es, (char *)dC + j0 * m * es,
                            dK ? dK + j0 * m : NULL, m, k, cols);
      if (s != CK_OK || (e = cudaEventRecord(ran[p % 2], 0)) != cudaSuccess) break;
      if (p + 1 < panels) {
        size_t j1 = j0 + nb, next = n - j1 < nb ? n - j1 : nb;
        s = ck_upload_async((char *)dB + j1 * k * es, (const char *)B + j1 * k * es, k * next * es,
                            up[(p + 1) % 2]);
      }
    }
    if (p > 0 && s == CK_OK) { /* panel p - 1 comes back while panel p computes */
      size_t j0 = (p - 1) * nb, cols = n - j0 < nb ? n - j0 : nb;
      s = ck_download_after((char *)C + j0 * m * es, (const char *)dC + j0 * m * es, m * cols * es,
                            ran[(p - 1) % 2]);
      if (s == CK_OK && K)
        s = ck_download_after(K + j0 * m, dK + j0 * m, m * cols * sizeof(double), ran[(p - 1) % 2]);
    }
  }
  if (s == CK_OK && e != cudaSuccess) s = ck_cuda_status(e, "pipelining a min-plus product");
done:
  if (s != CK_OK) cudaDeviceSynchronize(); /* nothing may still use the buffers below */
  ck_dev_free(dA);
  ck_dev_free(dB);
  ck_dev_free(dC);
  ck_dev_free(dK);
  for (int b = 0; b < 2; b++) {
    if (up[b]) cudaEventDestroy(up[b]);
    if (ran[b]) cudaEventDestroy(ran[b]);
  }
  return s;
}

/* Copy a rows x cols block between a host matrix (leading dimension ld elements) and a dense
 * device one. */
static ck_status block_to_device(void *dst, const void *src, size_t ld, size_t rows, size_t cols,
                                 size_t es) {
  if (rows == 0 || cols == 0) return CK_OK;
  CK_CUDA(cudaMemcpy2D(dst, rows * es, src, ld * es, rows * es, cols, cudaMemcpyHostToDevice),
          "copying a slice to the device");
  return CK_OK;
}

static ck_status block_to_host(void *dst, size_t ld, const void *src, size_t rows, size_t cols,
                               size_t es) {
  if (rows == 0 || cols == 0) return CK_OK;
  CK_CUDA(cudaMemcpy2D(dst, ld * es, src, rows * es, rows * es, cols, cudaMemcpyDeviceToHost),
          "copying a slice from the device");
  return CK_OK;
}

/* One block of C (rows i0.., columns j0..), over the slices of k. */
static ck_status sliced_block(ck_dtype t, int kernel, const void *A, const void *B, void *C,
                              double *K, size_t m, size_t k, size_t i0, size_t mb,
                              size_t j0, size_t nb, size_t kb, void *dA, void *dB, void *dC[2],
                              double *dK[2]) {
  size_t es = ck_dtype_size(t);
  for (size_t p0 = 0; p0 == 0 || p0 < k; p0 += kb) {
    size_t kk = k - p0 < kb ? k - p0 : kb;
    int first = p0 == 0;
    CK_TRY(block_to_device(dA, (const char *)A + (i0 + p0 * m) * es, m, mb, kk, es));
    CK_TRY(block_to_device(dB, (const char *)B + (p0 + j0 * k) * es, k, kk, nb, es));
    CK_TRY(product_on_device(t, kernel, dA, dB, dC[!first], K ? dK[!first] : NULL, mb, kk, nb));
    if (!first)
      CK_TRY(ck_minplus_merge_device(t, dC[0], K ? dK[0] : NULL, dC[1], K ? dK[1] : NULL, mb * nb,
                                     p0));
    if (kk == 0) break;
  }
  CK_TRY(block_to_host((char *)C + (i0 + j0 * m) * es, m, dC[0], mb, nb, es));
  if (K) CK_TRY(block_to_host(K + i0 + j0 * m, m, dK[0], mb, nb, sizeof(double)));
  return CK_OK;
}

static ck_status sliced(ck_dtype t, int kernel, const void *A, const void *B, void *C, double *K,
                        size_t m, size_t k, size_t n, const mp_slices *sl) {
  size_t es = ck_dtype_size(t);
  void *dA = NULL, *dB = NULL, *dC[2] = {NULL, NULL};
  double *dK[2] = {NULL, NULL};
  ck_status s = CK_OK;
  if ((s = ck_dev_alloc(&dA, sl->mb * sl->kb * es)) != CK_OK ||
      (s = ck_dev_alloc(&dB, sl->kb * sl->nb * es)) != CK_OK)
    goto done;
  for (int b = 0; b < 2 && s == CK_OK; b++) {
    if ((s = ck_dev_alloc(&dC[b], sl->mb * sl->nb * es)) == CK_OK && K)
      s = ck_dev_alloc((void **)&dK[b], sl->mb * sl->nb * sizeof(double));
  }
  for (size_t j0 = 0; j0 < n && s == CK_OK; j0 += sl->nb)
    for (size_t i0 = 0; i0 < m && s == CK_OK; i0 += sl->mb)
      s = sliced_block(t, kernel, A, B, C, K, m, k, i0, m - i0 < sl->mb ? m - i0 : sl->mb, j0,
                       n - j0 < sl->nb ? n - j0 : sl->nb, sl->kb, dA, dB, dC, dK);
done:
  if (s != CK_OK) cudaDeviceSynchronize();
  ck_dev_free(dA);
  ck_dev_free(dB);
  for (int b = 0; b < 2; b++) {
    ck_dev_free(dC[b]);
    ck_dev_free(dK[b]);
  }
  return s;
}

static ck_status host_product(ck_dtype t, int kernel, const void *A, const void *B, void *C,
                              double *K, size_t m, size_t k, size_t n) {
  CK_TRY(check_class(t));
  if (kernel == CK_MINPLUS_CPU) {
    if (K) ck_minplus_arg_cpu(t, A, B, C, K, m, k, n);
    else ck_minplus_cpu(t, A, B, C, m, k, n);
    return CK_OK;
  }
  if (!is_gpu_kernel(kernel)) return ck_fail(CK_ERR_INVALID, "unknown min-plus kernel %d", kernel);
  CK_TRY(ck_device_init());
  if (m == 0 || n == 0) return CK_OK;
  mp_slices sl = {0, 0, 0};
  CK_TRY(plan_slices(ck_dtype_size(t), K != NULL, m, k, n, &sl));
  if (sl.mb == m && sl.kb == k && sl.nb == n) return pipelined(t, kernel, A, B, C, K, m, k, n);
  return sliced(t, kernel, A, B, C, K, m, k, n, &sl);
}

ck_status ck_minplus(ck_dtype t, int kernel, const void *A, const void *B, void *C, size_t m,
                     size_t k, size_t n) {
  return host_product(t, kernel, A, B, C, NULL, m, k, n);
}

ck_status ck_minplus_arg(ck_dtype t, int kernel, const void *A, const void *B, void *C, double *K,
                         size_t m, size_t k, size_t n) {
  return host_product(t, kernel, A, B, C, K, m, k, n);
}

/* The product with its witness, the witness in scratch: what ck_minplus_arg_time times. */
static ck_status arg_with_scratch(ck_dtype t, int kernel, const void *dA, const void *dB, void *dC,
                                  size_t m, size_t k, size_t n) {
  void *dK = NULL;
  CK_TRY(ck_dev_alloc(&dK, (m * n > 0 ? m * n : 1) * sizeof(double)));
  ck_status s = ck_minplus_arg_device(t, kernel, dA, dB, dC, dK, m, k, n);
  ck_dev_free(dK);
  return s;
}

ck_status ck_minplus_arg_time(ck_dtype t, int kernel, size_t m, size_t k, size_t n, int warmup,
                              int reps, double *times_ms) {
  CK_TRY(check_class(t));
  if (!is_gpu_kernel(kernel)) return ck_fail(CK_ERR_INVALID, "only GPU kernels can be timed");
  return ck_time_product(arg_with_scratch, t, kernel, m, k, n, warmup, reps, times_ms);
}

ck_status ck_minplus_time(ck_dtype t, int kernel, size_t m, size_t k, size_t n, int warmup,
                          int reps, double *times_ms) {
  CK_TRY(check_class(t));
  if (!is_gpu_kernel(kernel)) return ck_fail(CK_ERR_INVALID, "only GPU kernels can be timed");
  return ck_time_product(ck_minplus_device, t, kernel, m, k, n, warmup, reps, times_ms);
}
