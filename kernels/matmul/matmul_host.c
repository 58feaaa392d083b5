/* Host side of the matrix multiply: kernel names, host-to-host calls, the paged form. */
#include <limits.h>
#include <string.h>

#include "ck_internal.h"

static const char *const kernel_names[] = {"naive",    "tiled16",    "tiled32",  "texture",
                                           "regblock", "vectorized", "warptile", "cublas"};
_Static_assert(sizeof kernel_names / sizeof kernel_names[0] == CK_MATMUL_NUM,
               "one name per ck_matmul_kernel");

int ck_matmul_kernel_id(const char *name) {
  for (int i = 0; i < CK_MATMUL_NUM; i++)
    if (!strcmp(name, kernel_names[i])) return i;
  return -1;
}

const char *ck_matmul_kernel_name(int id) {
  return id >= 0 && id < CK_MATMUL_NUM ? kernel_names[id] : NULL;
}

static ck_status check_args(const ck_product *p) {
  if (!ck_dtype_is_float(p->t))
    return ck_fail(CK_ERR_INVALID, "matmul supports single and double, not %s",
                   ck_dtype_name(p->t));
  if (p->kernel < 0 || p->kernel >= CK_MATMUL_NUM)
    return ck_fail(CK_ERR_INVALID, "unknown matmul kernel %d", p->kernel);
  /* the kernels and cuBLAS index with int; padding adds up to 127 */
  if (p->m > INT_MAX - 256 || p->k > INT_MAX - 256 || p->n > INT_MAX - 256)
    return ck_fail(CK_ERR_INVALID, "matmul: dimensions must be below 2^31 - 256");
  return CK_OK;
}

static ck_status run_device(const ck_product *p) {
  CK_TRY(check_args(p));
  ck_plan_note_class(p->t); /* in its class; warptile notes its tiles and split */
  if (p->kernel == CK_MATMUL_CUBLAS) {
    if (p->m == 0 || p->n == 0) return CK_OK;
    if (p->k == 0) {
      CK_CUDA(cudaMemset(p->C, 0, p->m * p->n * ck_dtype_size(p->t)), "clearing the product");
      return CK_OK;
    }
    return ck_cublas_gemm(p->t, p->A, p->B, p->C, (int)p->m, (int)p->k, (int)p->n);
  }
  return ck_matmul_custom_device(p);
}

/* Device arrays; what the kernels' host code finds (the class, warptile's tiles and split) goes
 * into p's plan, bound for the product, from the call's first product (as ck_minplus_device). */
ck_status ck_matmul_device(const ck_product *p) { return ck_plan_run_bound(run_device, p); }

static ck_status run_pages(const ck_product *p, const ck_page_run *r, int *done) {
  ck_plan_note_class(p->t);
  if (p->kernel != CK_MATMUL_CUBLAS) return ck_matmul_pages_custom(p, r, done);
  *done = 1;
  return ck_cublas_gemm_pages(p->t, p->A, r->a_step * p->m * p->k, p->B, r->b_step * p->k * p->n,
                              p->C, (int)p->m, (int)p->k, (int)p->n, r->count);
}

/* A run of pages: cuBLAS's strided batched gemm for "cublas" (the comparison), the paged
 * warptile kernel for "warptile" (unless the pages gain from running one by one, with split-K:
 * matmul_policy.cuh); the other kernels, and empty products, page by page. */
ck_status ck_matmul_pages_device(const ck_product *p, const ck_page_run *r, int *done) {
  *done = 0;
  CK_TRY(check_args(p));
  if (r->count < 2 || p->m == 0 || p->n == 0 || p->k == 0) return CK_OK;
  ck_plan *const before = ck_plan_bind(p->plan ? p->plan : ck_plan_bound());
  const ck_status s = run_pages(p, r, done);
  if (*done && p->plan && before != p->plan) ck_plan_noted(p->plan);
  ck_plan_bind(before);
  return s;
}

ck_status ck_matmul(const ck_product *p) {
  CK_TRY(check_args(p));
  return ck_host_product(ck_matmul_device, p);
}
