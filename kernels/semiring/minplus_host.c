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

static ck_status check_class(ck_dtype t) { return ck_semiring_check(CK_SR_MIN_PLUS, t); }

/* ---- host arrays in and out: sliced to fit the device, transfers overlapped with compute ----
 *
 * C is computed in panels of columns. When A, B and C fit on the device (the usual case), A is
 * uploaded, then panel j's kernel runs on the default stream while B's next panel is uploaded
 * and the previous panel of C is downloaded on the copy stream, and copied into the host array
 * by the host: only the first upload and the last download are not hidden behind compute.
 * When they do not fit, the product is cut into slices of rows of A, columns of B and, last, of
 * k, each small enough for the free memory, and the slices of k are merged. */

/* Panels of about this many output bytes: small enough to overlap, large enough to fill the GPU. */
#define PANEL_BYTES ((size_t)32 << 20)
/* Panels and slices are whole tiles of the warptile kernels (minplus_policy.cuh: BM, BN <= 128). */
#define PANEL_TILE 128

static size_t round_up_sz(size_t x, size_t to) { return (x + to - 1) / to * to; }

/* Device bytes one slice (mb x kb by kb x nb) needs: its operands, two output slices with their
 * witness (the pipeline's double buffer, or a slice of k and the running result), and the
 * kernels' padded or repacked copies (at most 4 bytes or the element size per padded element),
 * plus a little room for the allocator's rounding. */
static size_t slice_bytes(size_t es, int arg, size_t mb, size_t kb, size_t nb) {
  size_t w = es > 4 ? es : 4;
  size_t mp = round_up_sz(mb, PANEL_TILE), np = round_up_sz(nb, PANEL_TILE), kp = round_up_sz(kb, 16);
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

/* The device buffers of a product in flight, with the host product they serve. */
typedef struct {
  const ck_product *p; /* host arrays */
  size_t es;           /* element size */
  void *dA, *dB, *dC[2];
  double *dK[2];
} mp_buffers;

static void free_buffers(mp_buffers *b) {
  ck_dev_free(b->dA);
  ck_dev_free(b->dB);
  for (int i = 0; i < 2; i++) {
    ck_dev_free(b->dC[i]);
    ck_dev_free(b->dK[i]);
  }
}

/* The operands, `outputs` copies of C (and K) of rows x cols, and the operands rows x kb, kb x cols. */
static ck_status alloc_buffers(mp_buffers *b, size_t rows, size_t kb, size_t cols, int outputs) {
  const size_t es = b->es;
  CK_TRY(ck_dev_alloc(&b->dA, rows * kb * es));
  CK_TRY(ck_dev_alloc(&b->dB, kb * cols * es));
  for (int i = 0; i < outputs; i++) {
    CK_TRY(ck_dev_alloc(&b->dC[i], rows * cols * es));
    if (b->p->K) CK_TRY(ck_dev_alloc((void **)&b->dK[i], rows * cols * sizeof(double)));
  }
  return CK_OK;
}

/* The product of device operands dA (mb x kb) and dB (kb x nb) into output buffer `out`. */
static ck_status block_product(const mp_buffers *b, const void *dB, int out, size_t mb, size_t kb,
                               size_t nb, size_t c_offset) {
  ck_product d = *b->p;
  d.A = b->dA;
  d.B = dB;
  d.C = (char *)b->dC[out] + c_offset * b->es;
  d.K = b->p->K ? b->dK[out] + c_offset : NULL;
  d.m = mb;
  d.k = kb;
  d.n = nb;
  return ck_minplus_device(&d);
}

/* A worker of a product spread over several devices stops early when another one failed. */
static ck_status stopped(void) {
  return ck_fail(CK_ERR_INTERRUPTED, "stopped: another device failed");
}

/* Everything fits: A and B whole on the device, C in pipelined panels (see above). */
static ck_status pipelined(const ck_product *p) {
  const size_t m = p->m, k = p->k, n = p->n, es = ck_dtype_size(p->t);
  const size_t per_col = m * (es + (p->K ? sizeof(double) : 0));
  size_t nb = per_col * n <= 2 * PANEL_BYTES ? n : (PANEL_BYTES + per_col - 1) / per_col;
  nb = round_up_sz(nb, PANEL_TILE);
  if (nb > n) nb = n;
  size_t panels = (n + nb - 1) / nb;
  mp_buffers b = {p, es, NULL, NULL, {NULL, NULL}, {NULL, NULL}};
  cudaEvent_t up[2] = {NULL, NULL}, ran[2] = {NULL, NULL};
  ck_status s;
  cudaError_t e = cudaSuccess;
  for (int i = 0; i < 2 && e == cudaSuccess; i++)
    if ((e = cudaEventCreateWithFlags(&up[i], cudaEventDisableTiming)) == cudaSuccess)
      e = cudaEventCreateWithFlags(&ran[i], cudaEventDisableTiming);
  if (e != cudaSuccess) {
    s = ck_cuda_status(e, "creating events");
    goto done;
  }
  if ((s = alloc_buffers(&b, m, k, n, 1)) != CK_OK || (s = ck_upload(b.dA, p->A, m * k * es)) != CK_OK ||
      (s = ck_copies_after_kernels()) != CK_OK)
    goto done;
  s = ck_upload_async(b.dB, p->B, k * nb * es, up[0]);
  for (size_t q = 0; q <= panels && s == CK_OK; q++) {
    if (ck_lane_stopped()) {
      s = stopped();
      break;
    }
    if (q < panels) { /* panel q: its kernel, then the next panel's upload */
      size_t j0 = q * nb, cols = n - j0 < nb ? n - j0 : nb;
      if ((e = cudaStreamWaitEvent(0, up[q % 2], 0)) != cudaSuccess) break;
      s = block_product(&b, (const char *)b.dB + j0 * k * es, 0, m, k, cols, j0 * m);
      if (s != CK_OK || (e = cudaEventRecord(ran[q % 2], 0)) != cudaSuccess) break;
      if (q + 1 < panels) {
        size_t j1 = j0 + nb, next = n - j1 < nb ? n - j1 : nb;
        s = ck_upload_async((char *)b.dB + j1 * k * es, (const char *)p->B + j1 * k * es,
                            k * next * es, up[(q + 1) % 2]);
      }
    }
    if (q > 0 && s == CK_OK) { /* panel q - 1 comes back while panel q computes */
      size_t j0 = (q - 1) * nb, cols = n - j0 < nb ? n - j0 : nb;
      s = ck_download_after((char *)p->C + j0 * m * es, (const char *)b.dC[0] + j0 * m * es,
                            m * cols * es, ran[(q - 1) % 2]);
      if (s == CK_OK && p->K)
        s = ck_download_after(p->K + j0 * m, b.dK[0] + j0 * m, m * cols * sizeof(double),
                              ran[(q - 1) % 2]);
    }
  }
  if (s == CK_OK && e != cudaSuccess) s = ck_cuda_status(e, "pipelining a min-plus product");
done:
  if (s != CK_OK) cudaDeviceSynchronize(); /* nothing may still use the buffers below */
  free_buffers(&b);
  for (int i = 0; i < 2; i++) {
    if (up[i]) cudaEventDestroy(up[i]);
    if (ran[i]) cudaEventDestroy(ran[i]);
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

/* One block of C: rows i0 .. i0 + mb - 1 and columns j0 .. j0 + nb - 1. */
typedef struct {
  size_t i0, mb, j0, nb;
} mp_block;

/* One block of C over the slices of k, each kb deep, merged as they come. */
static ck_status sliced_block(const mp_buffers *b, const mp_block *c, size_t kb) {
  const ck_product *p = b->p;
  const size_t m = p->m, k = p->k, es = b->es;
  double *const K = p->K;
  for (size_t p0 = 0; p0 == 0 || p0 < k; p0 += kb) {
    size_t kk = k - p0 < kb ? k - p0 : kb;
    int first = p0 == 0;
    CK_TRY(block_to_device(b->dA, (const char *)p->A + (c->i0 + p0 * m) * es, m, c->mb, kk, es));
    CK_TRY(block_to_device(b->dB, (const char *)p->B + (p0 + c->j0 * k) * es, k, kk, c->nb, es));
    CK_TRY(block_product(b, b->dB, !first, c->mb, kk, c->nb, 0));
    if (!first)
      CK_TRY(ck_minplus_merge_device(p->t, b->dC[0], K ? b->dK[0] : NULL, b->dC[1],
                                     K ? b->dK[1] : NULL, c->mb * c->nb, p0));
    if (kk == 0) break;
  }
  CK_TRY(block_to_host((char *)p->C + (c->i0 + c->j0 * m) * es, m, b->dC[0], c->mb, c->nb, es));
  if (K) CK_TRY(block_to_host(K + c->i0 + c->j0 * m, m, b->dK[0], c->mb, c->nb, sizeof(double)));
  return CK_OK;
}

static ck_status sliced(const ck_product *p, const mp_slices *sl) {
  const size_t m = p->m, n = p->n;
  mp_buffers b = {p, ck_dtype_size(p->t), NULL, NULL, {NULL, NULL}, {NULL, NULL}};
  ck_status s = alloc_buffers(&b, sl->mb, sl->kb, sl->nb, 2);
  for (size_t j0 = 0; j0 < n && s == CK_OK; j0 += sl->nb)
    for (size_t i0 = 0; i0 < m && s == CK_OK; i0 += sl->mb) {
      if (ck_lane_stopped()) {
        s = stopped();
        break;
      }
      mp_block c = {i0, m - i0 < sl->mb ? m - i0 : sl->mb, j0, n - j0 < sl->nb ? n - j0 : sl->nb};
      s = sliced_block(&b, &c, sl->kb);
    }
  if (s != CK_OK) cudaDeviceSynchronize();
  free_buffers(&b);
  return s;
}

ck_status ck_minplus(const ck_product *p) {
  CK_TRY(check_class(p->t));
  if (p->kernel == CK_MINPLUS_CPU) {
    ck_minplus_cpu(p);
    return CK_OK;
  }
  if (!is_gpu_kernel(p->kernel))
    return ck_fail(CK_ERR_INVALID, "unknown min-plus kernel %d", p->kernel);
  CK_TRY(ck_device_init());
  if (p->m == 0 || p->n == 0) return CK_OK;
  mp_slices sl = {0, 0, 0};
  CK_TRY(plan_slices(ck_dtype_size(p->t), p->K != NULL, p->m, p->k, p->n, &sl));
  if (sl.mb == p->m && sl.kb == p->k && sl.nb == p->n) return pipelined(p);
  return sliced(p, &sl);
}

/* The product with its witness, the witness in scratch: what the witness's timing times. */
static ck_status arg_with_scratch(const ck_product *p) {
  ck_product d = *p;
  CK_TRY(ck_dev_alloc((void **)&d.K, (p->m * p->n > 0 ? p->m * p->n : 1) * sizeof(double)));
  ck_status s = ck_minplus_device(&d);
  ck_dev_free(d.K);
  return s;
}

static ck_status without_witness(const ck_product *p) {
  ck_product d = *p;
  d.K = NULL;
  return ck_minplus_device(&d);
}

ck_status ck_minplus_time(const ck_product *p, int witness, const ck_timing *tm) {
  CK_TRY(check_class(p->t));
  if (!is_gpu_kernel(p->kernel)) return ck_fail(CK_ERR_INVALID, "only GPU kernels can be timed");
  return ck_time_product(witness ? arg_with_scratch : without_witness, p, tm);
}
