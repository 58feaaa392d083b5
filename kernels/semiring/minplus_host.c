/* Host side of the semiring products: kernel names, and the executor for host arrays. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ck_internal.h"

static const char *const kernel_names[] = {"naive", "coalesced", "regblock", "warptile", "cpu"};
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

/* ---- host arrays in and out, as the plan moves them (plan.c decides) ----
 *
 * Panels: A is uploaded, then panel j's kernel runs on the default stream while B's next panel is
 * uploaded and the previous panel of C is downloaded on the copy stream, and copied into the host
 * array by the host: only the first upload and the last download are not hidden behind compute.
 * Slices (A, B and C do not fit): the product is cut into slices of rows of A, columns of B and,
 * last, of k, each small enough for the free memory, and the slices of k are merged. */

typedef struct {
  size_t mb, kb, nb; /* slice sizes */
} mp_slices;

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

/* Everything fits: A and B whole on the device, C in pipelined panels of nb columns (see above).
 * A's look for the integer paths, where the plan narrows, is made once for all panels. */
static ck_status pipelined(const ck_product *p, size_t nb) {
  const size_t m = p->m, k = p->k, n = p->n, es = ck_dtype_size(p->t);
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
  if ((s = alloc_buffers(&b, m, k, n, 1)) != CK_OK ||
      (s = ck_upload(b.dA, p->A, m * k * es)) != CK_OK || (s = ck_copies_after_kernels()) != CK_OK)
    goto done;
  ck_narrow_a_begin(p->plan, b.dA);
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
  ck_narrow_a_end(p->plan);
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
      CK_TRY(ck_minplus_merge_device(p->semiring, p->t, b->dC[0], K ? b->dK[0] : NULL, b->dC[1],
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

/* Host arrays, as p->plan says: the CPU kernel, pipelined panels or slices. With no plan (a direct
 * call of the C API), planned and run as a call of its own. */
ck_status ck_minplus(const ck_product *p) {
  CK_TRY(ck_semiring_check(p->semiring, p->t));
  const ck_plan *pl = p->plan;
  if (!pl) {
    const ck_call c = {(int)p->semiring, CK_ON_HOST, *p, NULL, NULL, 0};
    ck_plan own;
    return ck_product_call(&c, &own);
  }
  if (pl->move == CK_MOVE_CPU) return ck_semiring_cpu((ck_semiring)pl->semiring, p);
  if (!is_gpu_kernel(p->kernel))
    return ck_fail(CK_ERR_INVALID, "unknown min-plus kernel %d", p->kernel);
  CK_TRY(ck_device_init());
  if (p->m == 0 || p->n == 0) return CK_OK;
  if (pl->move == CK_MOVE_PANELS) return pipelined(p, pl->panel);
  if (pl->move == CK_MOVE_SLICES) {
    const mp_slices sl = {pl->slice[0], pl->slice[1], pl->slice[2]};
    return sliced(p, &sl);
  }
  return ck_fail(CK_ERR_INVALID, "min-plus on host arrays: the plan moves them by %s",
                 ck_move_name(pl->move));
}
