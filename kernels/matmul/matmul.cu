/* Matrix multiply: the launch and dispatch of the ladder of Kirk & Hwu's tiled multiply and of
 * S. Boehm's "How to Optimize a CUDA Matmul Kernel", as numbered versions, each selectable by
 * name; cuBLAS sits beside them (cublas_dl.c). Each version's kernel is in a header of its own,
 * which says what it adds over the one before: v0_naive.cuh, v1_tiled.cuh (tiled16, tiled32),
 * v2_texture.cuh, v3_regblock.cuh, v4_vectorized.cuh, v5_warptile.cuh (run with its split-K
 * by matmul_split.cuh). The shapes and other tuning are in matmul_policy.cuh; doc/NOTES.md
 * records what each measured.
 *
 * Octave stores matrices column-major. A column-major C = A*B has the same bytes as the row-major
 * product C' = B' * A', so every kernel here is written for row-major operands (the usual way to
 * read them) and called with the roles of A and B swapped: row-major M x N output with M = n,
 * N = m, K = k, "A" = Octave's B and "B" = Octave's A. Within the kernels, A is M x K (lda = K),
 * B is K x N (ldb = N), C is M x N (ldc = N), all row-major. */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "ck_internal.h"
#include "v0_naive.cuh"
#include "v1_tiled.cuh"
#include "v2_texture.cuh"
#include "v3_regblock.cuh"
#include "v4_vectorized.cuh"
#include "matmul_split.cuh"
#include "v5_warptile.cuh"

/* dst (rows_p x cols_p, row-major) = src (rows x cols) with zeros around it; over pages, page
 * `first` + blockIdx.y of each. */
template <class T>
__global__ void pad_copy(const T *__restrict__ src, T *__restrict__ dst, int rows, int cols,
                         int rows_p, int cols_p, size_t first) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x, page = first + blockIdx.y;
  if (idx >= (size_t)rows_p * cols_p) return;
  int r = (int)(idx / cols_p), c = (int)(idx % cols_p);
  dst[page * rows_p * cols_p + idx] = (r < rows && c < cols) ? src[(page * rows + r) * cols + c]
                                                             : (T)0;
}

static int round_up(int x, int to) { return (x + to - 1) / to * to; }

/* src itself when it already has the padded shape, else a padded copy of its `pages` pages in
 * *scratch. */
template <class T>
static ck_status padded(const T *src, int rows, int cols, int rows_p, int cols_p, size_t pages,
                        T **scratch, const T **out) {
  if (rows == rows_p && cols == cols_p) {
    *out = src;
    return CK_OK;
  }
  size_t count = (size_t)rows_p * cols_p;
  CK_TRY(ck_dev_alloc((void **)scratch, count * pages * sizeof(T)));
  for (size_t z = 0; z < pages; z += WARPTILE_PAGES_PER_LAUNCH)
    pad_copy<T><<<dim3((unsigned)((count + 255) / 256), warptile_pages_at(pages, z)), 256>>>(
        src, *scratch, rows, cols, rows_p, cols_p, z);
  *out = *scratch;
  return CK_OK;
}

template <class T>
static ck_status run_blocked(int kernel, int M, int N, int K, const T *A, const T *B, T *C) {
  typedef cfg<T> c;
  int Mp = round_up(M, PAD_MN), Np = round_up(N, PAD_MN), Kp = round_up(K, PAD_K);
  T *Ascr = NULL, *Bscr = NULL;
  const T *Ap = NULL, *Bp = NULL;
  ck_status s = padded<T>(A, M, K, Mp, Kp, 1, &Ascr, &Ap);
  if (s == CK_OK) s = padded<T>(B, K, N, Kp, Np, 1, &Bscr, &Bp);
  if (s == CK_OK) {
    if (kernel == CK_MATMUL_REGBLOCK) {
      dim3 grid(Np / c::RB_BN, Mp / c::RB_BM);
      mm_regblock<T, c::RB_BM, c::RB_BN, c::RB_BK, c::RB_TM, c::RB_TN, false>
          <<<grid, (c::RB_BM / c::RB_TM) * (c::RB_BN / c::RB_TN)>>>(Mp, Np, Kp, M, N, Ap, Bp, C);
    } else if (kernel == CK_MATMUL_VECTORIZED) {
      dim3 grid(Np / c::RB_BN, Mp / c::RB_BM);
      mm_regblock<T, c::RB_BM, c::RB_BN, c::RB_BK, c::RB_TM, c::RB_TN, true>
          <<<grid, (c::RB_BM / c::RB_TM) * (c::RB_BN / c::RB_TN)>>>(Mp, Np, Kp, M, N, Ap, Bp, C);
    } else {
      s = mm_run_warptile<T, typename c::warp>(Mp, Np, Kp, M, N, Ap, Bp, C);
    }
    cudaError_t e = cudaGetLastError();
    if (s == CK_OK && e != cudaSuccess) s = ck_cuda_status(e, "launching a matmul kernel");
  }
  ck_dev_free(Ascr); /* stream-ordered: after the kernel */
  ck_dev_free(Bscr);
  return s;
}

/* ---- split-K forced, for dev/matmul's sweep of the splits (matmul_split.cuh) ---- */

static int forced_split = 0; /* 0: the planner's */

int mm_forced_split(void) { return forced_split; }

extern "C" int ck_matmul_set_split(int slices) {
  const int old = forced_split;
  forced_split = slices > 0 ? slices : 0;
  return old;
}

/* ---- the texture version's objects, made and destroyed on every call ---- */

/* Tests lower the operands' limit (ck_matmul_set_texture_limit); 0: the device's own. */
static size_t texture_test_limit = 0;

extern "C" size_t ck_matmul_set_texture_limit(size_t elements) {
  size_t old = texture_test_limit;
  texture_test_limit = elements;
  return old;
}

typedef struct {
  cudaTextureObject_t tex;
  int offset; /* the operand's first element in the texture */
  int made;
} tex_operand;

/* A texture object over the `count` elements of T at p (v2_texture.cuh: over the aligned address
 * below p, with p's offset from it), or CK_ERR_INVALID beyond what a linear texture holds. */
template <class T> static ck_status make_texture(const T *p, size_t count, tex_operand *out) {
  const cudaChannelFormatDesc fmt = sizeof(T) == 8 ? cudaCreateChannelDesc<int2>()
                                                   : cudaCreateChannelDesc<float>();
  int dev, align;
  size_t limit;
  CK_CUDA(cudaGetDevice(&dev), "finding the current device");
  CK_CUDA(cudaDeviceGetAttribute(&align, cudaDevAttrTextureAlignment, dev),
          "asking for the texture alignment");
  CK_CUDA(cudaDeviceGetTexture1DLinearMaxWidth(&limit, &fmt, dev), "asking for the texture limit");
  if (texture_test_limit != 0 && texture_test_limit < limit) limit = texture_test_limit;
  if (limit > INT_MAX) limit = INT_MAX; /* the kernel's indices are int */
  const uintptr_t at = (uintptr_t)p, base = at / (uintptr_t)align * (uintptr_t)align;
  const size_t offset = (at - base) / sizeof(T);
  if (count > limit || offset > limit - count)
    return ck_fail(CK_ERR_INVALID,
                   "matmul kernel \"texture\": an operand of %zu elements exceeds the %zu that a "
                   "linear texture holds at its address on this device; \"tiled32\" is the same "
                   "kernel without textures",
                   count, offset < limit ? limit - offset : (size_t)0);
  cudaResourceDesc res;
  memset(&res, 0, sizeof res);
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = (void *)base;
  res.res.linear.desc = fmt;
  res.res.linear.sizeInBytes = (offset + count) * sizeof(T);
  cudaTextureDesc desc;
  memset(&desc, 0, sizeof desc);
  desc.readMode = cudaReadModeElementType;
  CK_CUDA(cudaCreateTextureObject(&out->tex, &res, &desc, NULL), "creating a texture object");
  out->offset = (int)offset;
  out->made = 1;
  return CK_OK;
}

static ck_status free_texture(const tex_operand *t, ck_status s) {
  if (!t->made) return s;
  cudaError_t e = cudaDestroyTextureObject(t->tex);
  return s == CK_OK ? ck_cuda_check(e, "destroying a texture object") : s;
}

template <class T> static ck_status run_texture(int M, int N, int K, const T *A, const T *B, T *C) {
  tex_operand ta = {0, 0, 0}, tb = {0, 0, 0};
  ck_status s = make_texture<T>(A, (size_t)M * K, &ta);
  if (s == CK_OK) s = make_texture<T>(B, (size_t)K * N, &tb);
  if (s == CK_OK) {
    mm_texture<T, 32><<<dim3((N + 31) / 32, (M + 31) / 32), dim3(32, 32)>>>(
        M, N, K, ta.tex, ta.offset, tb.tex, tb.offset, C);
    s = ck_cuda_check(cudaGetLastError(), "launching a matmul kernel");
    /* the objects may not be destroyed while the kernel reads through them */
    ck_status w = ck_cuda_check(cudaStreamSynchronize(0), "running the texture matmul kernel");
    if (s == CK_OK) s = w;
  }
  s = free_texture(&tb, s);
  return free_texture(&ta, s);
}

template <class T> __global__ void fill_zero_mm(T *p, size_t count) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) p[i] = (T)0;
}

/* Column-major m x k times k x n, as Octave stores them: the row-major kernels with A and B
 * swapped (see the top of this file). */
template <class T>
static ck_status run_matmul(int kernel, const T *A, const T *B, T *C, int m, int k, int n) {
  if (m == 0 || n == 0) return CK_OK;
  if (k == 0) {
    size_t count = (size_t)m * n;
    fill_zero_mm<T><<<(unsigned)((count + 255) / 256), 256>>>(C, count);
    CK_CUDA(cudaGetLastError(), "clearing the product");
    return CK_OK;
  }
  const int M = n, N = m, K = k;
  const T *rA = B, *rB = A;
  switch (kernel) {
  case CK_MATMUL_NAIVE: {
    dim3 block(32, 8), grid((M + 31) / 32, (N + 7) / 8);
    mm_naive<T><<<grid, block>>>(M, N, K, rA, rB, C);
    break;
  }
  case CK_MATMUL_TILED16:
    mm_tiled<T, 16><<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16)>>>(M, N, K, rA, rB, C);
    break;
  case CK_MATMUL_TILED32:
    mm_tiled<T, 32><<<dim3((N + 31) / 32, (M + 31) / 32), dim3(32, 32)>>>(M, N, K, rA, rB, C);
    break;
  case CK_MATMUL_TEXTURE: return run_texture<T>(M, N, K, rA, rB, C);
  case CK_MATMUL_REGBLOCK:
  case CK_MATMUL_VECTORIZED:
  case CK_MATMUL_WARPTILE: return run_blocked<T>(kernel, M, N, K, rA, rB, C);
  default: return ck_fail(CK_ERR_INVALID, "kernel %d is not a custom matmul kernel", kernel);
  }
  CK_CUDA(cudaGetLastError(), "launching a matmul kernel");
  return CK_OK;
}

extern "C" ck_status ck_matmul_custom_device(const ck_product *p) {
  const int m = (int)p->m, k = (int)p->k, n = (int)p->n;
  if (p->t == CK_SINGLE)
    return run_matmul<float>(p->kernel, (const float *)p->A, (const float *)p->B, (float *)p->C, m,
                             k, n);
  if (p->t == CK_DOUBLE)
    return run_matmul<double>(p->kernel, (const double *)p->A, (const double *)p->B, (double *)p->C,
                              m, k, n);
  return ck_fail(CK_ERR_INVALID, "matmul supports single and double, not %s", ck_dtype_name(p->t));
}

/* ---- paged products: a run of pages (ck_page_run) in one launch of the warptile kernel ---- */

template <class T> static ck_status run_pages(const ck_product *p, const ck_page_run *r) {
  typedef typename cfg<T>::page c;
  typedef warptile_paged<plus_times_page<T>> Op;
  const int M = (int)p->n, N = (int)p->m, K = (int)p->k; /* row-major, A and B swapped */
  const int Mp = round_up(M, c::BM), Np = round_up(N, c::BN), Kp = round_up(K, PAD_K);
  /* the row-major "A" is Octave's B, the row-major "B" Octave's A */
  const size_t pages_ra = (r->count - 1) * r->b_step + 1, pages_rb = (r->count - 1) * r->a_step + 1;
  T *Ascr = NULL, *Bscr = NULL;
  const T *Ap = NULL, *Bp = NULL;
  ck_status s = padded<T>((const T *)p->B, M, K, Mp, Kp, pages_ra, &Ascr, &Ap);
  if (s == CK_OK) s = padded<T>((const T *)p->A, K, N, Kp, Np, pages_rb, &Bscr, &Bp);
  if (s == CK_OK) {
    ck_plan_note_tiles(c::BM, c::BN, c::BK, 1, 1);
    const Op op = {{{(T *)p->C, M, N}}, r->b_step * (size_t)Mp * Kp, r->a_step * (size_t)Kp * Np};
    warptile_launch_pages<Op, c>(Mp, Np, Kp, r->count, Ap, Bp, op, [&](Op o, size_t z) {
      o.C += z * (size_t)M * N;
      return o;
    });
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) s = ck_cuda_status(e, "launching the paged matmul kernel");
  }
  ck_dev_free(Ascr);
  ck_dev_free(Bscr);
  return s;
}

/* Whether the run goes to one launch of the paged kernel rather than page by page through the
 * 2-D path and its split-K (matmul_policy.cuh says when). */
static bool pages_batch(const ck_product *p, const ck_page_run *r) {
  const size_t limit = (size_t)INT_MAX - 256;
  if (p->kernel != CK_MATMUL_WARPTILE || p->m > limit || p->n > limit || p->k > limit ||
      (p->n + 63) / 64 > 65535)
    return false;
  if (r->force) return true;
  const double tiles = (double)r->count * (double)((p->m + 63) / 64) * (double)((p->n + 63) / 64);
  return p->m * p->n < MM_PAGES_LOOP_OUTPUTS &&
         !(p->k >= MM_PAGES_DEEP_K && tiles < (double)ck_device_sms() * MM_PAGES_FILL_BLOCKS);
}

extern "C" ck_status ck_matmul_pages_custom(const ck_product *p, const ck_page_run *r, int *done) {
  *done = 0;
  if (!pages_batch(p, r)) return CK_OK;
  *done = 1;
  if (p->t == CK_SINGLE) return run_pages<float>(p, r);
  if (p->t == CK_DOUBLE) return run_pages<double>(p, r);
  *done = 0;
  return CK_OK;
}
