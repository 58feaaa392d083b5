/* Host side of all-pairs shortest paths: the devices' shares of the rows (the devices are the
 * plan's, plan.c), host arrays and device arrays through them.
 *
 * Share i of the work matrix's rows holds W's columns r0 .. (apsp.cuh: the work matrix is W
 * transposed), which lie one after the other in memory; so a share's W, D and P are contiguous
 * pieces of the caller's arrays. Host arrays: each device uploads its piece of W and downloads
 * its pieces of D and P. Device arrays (on the current device, the source): a share on the source
 * works on its pieces in place; a share on another device copies its piece of W from the source
 * and its pieces of D and P back (peer to peer where the GPUs allow it, through the host
 * otherwise, both by the driver). */
#include <stdlib.h>
#include <string.h>

#include "ck_internal.h"

/* The shares: whole pivot blocks, as even as they come, in the list's order; with fewer blocks
 * than devices the last devices get none. Returns how many there are. */
static int plan_shares(size_t n, const ck_devices *d, ck_apsp_part *parts) {
  const size_t B = ck_apsp_block(), blocks = (n + B - 1) / B;
  const int count = blocks < (size_t)d->count ? (int)blocks : d->count;
  size_t r0 = 0;
  for (int i = 0; i < count; i++) {
    const size_t nb = blocks / (size_t)count + ((size_t)i < blocks % (size_t)count);
    memset(&parts[i], 0, sizeof parts[i]);
    parts[i].dev = d->devices[i];
    parts[i].r0 = r0;
    parts[i].rows = nb * B;
    parts[i].cols = r0 + nb * B < n ? nb * B : n - r0; /* the padding is less than a block */
    r0 += nb * B;
  }
  return count;
}

/* A share's own D (and P) on its device, W in D. */
static ck_status own_pieces(const ck_apsp_args *a, ck_apsp_part *p) {
  const size_t count = p->cols * a->n;
  CK_TRY(ck_device_use(p->dev));
  CK_TRY(ck_dev_alloc(&p->D, count * ck_dtype_size(a->t)));
  p->W = p->D;
  if (a->P) CK_TRY(ck_dev_alloc((void **)&p->P, count * sizeof(int32_t)));
  return CK_OK;
}

static void free_pieces(ck_apsp_part *parts, int count, const int *own) {
  for (int i = 0; i < count; i++) {
    if (!own[i]) continue;
    ck_dev_free(parts[i].D);
    ck_dev_free(parts[i].P);
  }
}

/* The plan's devices. */
static ck_status shares_for(const ck_apsp_args *a, ck_apsp_part *parts, int *count) {
  CK_TRY(ck_devices_check(&a->plan->devices));
  *count = plan_shares(a->n, &a->plan->devices, parts);
  return CK_OK;
}

/* Runs the shares; the caller's current device is current again afterwards. */
static ck_status run_shares(ck_apsp_args *a, const ck_apsp_part *parts, int count, int back) {
  ck_apsp_args b = *a;
  ck_status s = ck_apsp_parts(&b, parts, count);
  a->cycle_vertex = b.cycle_vertex;
  ck_status u = ck_device_use(back);
  return s != CK_OK ? s : u;
}

/* With no plan (a direct call of the C API), each entry point runs as a call of its own, which
 * checks the class; below, a->plan is always there. */
static ck_status as_call(ck_apsp_args *a, ck_where where) {
  ck_plan own;
  return ck_apsp_call(a, where, &own);
}

ck_status ck_apsp(ck_apsp_args *a) {
  if (!a->plan) return as_call(a, CK_ON_HOST);
  if (a->pages) return ck_apsp_pages(a, CK_ON_HOST);
  if (a->kernel == CK_APSP_CPU) return ck_apsp_cpu(a);
  if (a->kernel != CK_APSP_GPU)
    return ck_fail(CK_ERR_INVALID, "unknown shortest-path kernel %d", a->kernel);
  CK_TRY(ck_device_init());
  if (a->n == 0) return CK_OK;
  ck_apsp_part parts[CK_SPREAD_WORKERS];
  int count = 0, own[CK_SPREAD_WORKERS] = {0};
  CK_TRY(shares_for(a, parts, &count));
  const int back = ck_device_current();
  const size_t n = a->n, es = ck_dtype_size(a->t);
  ck_status s = CK_OK;
  for (int i = 0; s == CK_OK && i < count; i++) {
    own[i] = 1;
    s = own_pieces(a, &parts[i]);
    const size_t at = parts[i].r0 * n * es, bytes = parts[i].cols * n * es;
    if (s == CK_OK) s = ck_upload(parts[i].D, (const char *)a->W + at, bytes);
  }
  if (s == CK_OK) s = run_shares(a, parts, count, back);
  for (int i = 0; s == CK_OK && i < count; i++) {
    const size_t at = parts[i].r0 * n, elems = parts[i].cols * n;
    s = ck_device_use(parts[i].dev);
    if (s == CK_OK) s = ck_download((char *)a->D + at * es, parts[i].D, elems * es);
    if (s == CK_OK && a->P) s = ck_download(a->P + at, parts[i].P, elems * sizeof(int32_t));
  }
  free_pieces(parts, count, own);
  ck_status u = ck_device_use(back);
  return s != CK_OK ? s : u;
}

/* A share on another device than the source: its own pieces, W's copied in. */
static ck_status copy_in(const ck_apsp_args *a, ck_apsp_part *p, int source) {
  const size_t n = a->n, es = ck_dtype_size(a->t), elems = p->cols * n;
  CK_TRY(own_pieces(a, p));
  ck_device_peer(source);
  CK_CUDA(cudaMemcpyPeerAsync(p->D, p->dev, (const char *)a->W + p->r0 * n * es, source, elems * es,
                              0),
          "copying weights between devices");
  return CK_OK;
}

static ck_status copy_out(const ck_apsp_args *a, const ck_apsp_part *p, int source) {
  const size_t n = a->n, es = ck_dtype_size(a->t), at = p->r0 * n, elems = p->cols * n;
  CK_TRY(ck_device_use(p->dev));
  CK_CUDA(cudaMemcpyPeerAsync((char *)a->D + at * es, source, p->D, p->dev, elems * es, 0),
          "copying distances between devices");
  if (a->P)
    CK_CUDA(cudaMemcpyPeerAsync(a->P + at, source, p->P, p->dev, elems * sizeof(int32_t), 0),
            "copying paths between devices");
  CK_CUDA(cudaStreamSynchronize(0), "copying between devices");
  return CK_OK;
}

ck_status ck_apsp_device(ck_apsp_args *a) {
  if (!a->plan) return as_call(a, CK_ON_DEVICE);
  if (a->pages) return ck_apsp_pages(a, CK_ON_DEVICE);
  CK_TRY(ck_device_init());
  if (a->n == 0) return CK_OK;
  ck_apsp_part parts[CK_SPREAD_WORKERS];
  int count = 0, own[CK_SPREAD_WORKERS] = {0};
  CK_TRY(shares_for(a, parts, &count));
  const int source = ck_device_current(), copies = a->devices && a->devices->copy_always;
  const size_t n = a->n, es = ck_dtype_size(a->t);
  ck_status s = CK_OK;
  int any = 0;
  for (int i = 0; i < count; i++) any |= own[i] = copies || parts[i].dev != source;
  if (any) s = ck_device_sync(); /* W is complete before other devices' streams read it */
  for (int i = 0; s == CK_OK && i < count; i++) {
    if (own[i]) {
      s = copy_in(a, &parts[i], source);
      continue;
    }
    parts[i].W = (const char *)a->W + parts[i].r0 * n * es;
    parts[i].D = (char *)a->D + parts[i].r0 * n * es;
    parts[i].P = a->P ? a->P + parts[i].r0 * n : NULL;
  }
  if (s == CK_OK) s = run_shares(a, parts, count, source);
  for (int i = 0; s == CK_OK && i < count; i++)
    if (own[i]) s = copy_out(a, &parts[i], source);
  for (int i = 0; s != CK_OK && i < count; i++) /* nothing may still use the pieces */
    if (own[i] && ck_device_use(parts[i].dev) == CK_OK) (void)cudaDeviceSynchronize();
  free_pieces(parts, count, own);
  ck_status u = ck_device_use(source);
  return s != CK_OK ? s : u;
}
