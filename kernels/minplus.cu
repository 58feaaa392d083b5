/* Min-plus product kernels, a ladder of numbered versions (see doc/NOTES.md for what each measured).
 *
 * All matrices are column-major as Octave stores them: A is m-by-k, B is k-by-n, C is m-by-n and
 * C(i,j) = min_k A(i,k) + B(k,j). Accumulators start at NaN, not +Inf: fmin/fminf return the other
 * operand when one is NaN, so a NaN term is ignored and the result stays NaN only when every term
 * is NaN, which is exactly Octave's min. (k == 0 is handled by the caller: +Inf everywhere.) */
#include <math.h>
#include <limits.h>
#include <stdint.h>

#include "ck_internal.h"

#define THREADS 256

/* How each class accumulates (W), starts (init: the identity of the min, or NaN for floating
 * point as explained above), combines and is stored.
 * Integers: Octave adds with saturation, and saturation is monotone, so
 *   min_k sat(a_k + b_k) == sat(min_k (a_k + b_k))
 * with the sums exact in a wider type: the kernels take the exact minimum in W and saturate once
 * at the store. */
template <class T> struct mp_traits;
template <> struct mp_traits<float> {
  typedef float W;
  static __device__ __forceinline__ W init() { return __int_as_float(0x7fffffff); }
  static __device__ __forceinline__ W min(W v, W t) { return fminf(v, t); }
  static __device__ __forceinline__ W sat(W t) { return t; }
  static __device__ __forceinline__ bool less(W t, W v) { return t < v || (v != v && t == t); }
  static __device__ __forceinline__ float store(W v) { return v; }
  static __host__ __device__ __forceinline__ float empty() { return INFINITY; }
};
template <> struct mp_traits<double> {
  typedef double W;
  static __device__ __forceinline__ W init() { return __longlong_as_double(0x7fffffffffffffffLL); }
  static __device__ __forceinline__ W min(W v, W t) { return fmin(v, t); }
  static __device__ __forceinline__ W sat(W t) { return t; }
  static __device__ __forceinline__ bool less(W t, W v) { return t < v || (v != v && t == t); }
  static __device__ __forceinline__ double store(W v) { return v; }
  static __host__ __device__ __forceinline__ double empty() { return INFINITY; }
};
#define MP_INT_TRAITS(T, WIDE, LO, HI)                                                            \
  template <> struct mp_traits<T> {                                                               \
    typedef WIDE W;                                                                               \
    static __device__ __forceinline__ W init() { return (W)HI + (W)HI + 1; } /* above any sum */ \
    static __device__ __forceinline__ W min(W v, W t) { return t < v ? t : v; }                   \
    static __device__ __forceinline__ W sat(W t) { return t < (W)LO ? (W)LO : t > (W)HI ? (W)HI : t; } \
    static __device__ __forceinline__ bool less(W t, W v) { return t < v; }                       \
    static __device__ __forceinline__ T store(W v) { return (T)sat(v); }                          \
    static __host__ __device__ __forceinline__ T empty() { return HI; }                           \
  };
MP_INT_TRAITS(int8_t, int, INT8_MIN, INT8_MAX)
MP_INT_TRAITS(uint8_t, int, 0, UINT8_MAX)
MP_INT_TRAITS(int16_t, int, INT16_MIN, INT16_MAX)
MP_INT_TRAITS(uint16_t, int, 0, UINT16_MAX)
MP_INT_TRAITS(int32_t, long long, INT32_MIN, INT32_MAX)
MP_INT_TRAITS(uint32_t, long long, 0, UINT32_MAX)

/* One pair update. Without the witness: the class's minimum. With it, Octave's [m, i] = min: a
 * term replaces the minimum only when strictly smaller (ties keep the smallest k) or when the
 * minimum is still NaN (NaN terms never win); integers compare their saturated sums, since
 * Octave's ties are between saturated values. */
template <class T, bool ARG>
__device__ __forceinline__ void mp_update(typename mp_traits<T>::W &v, int &id,
                                          typename mp_traits<T>::W t, int p) {
  typedef mp_traits<T> tr;
  if (ARG) {
    t = tr::sat(t);
    if (tr::less(t, v)) {
      v = t;
      id = p;
    }
  } else {
    v = tr::min(v, t);
  }
}

static unsigned grid_for(size_t work, unsigned threads) {
  return (unsigned)((work + threads - 1) / threads);
}

/* ---- v0 naive: one thread per output, consecutive threads walk along a row of C, so each
 * thread of a warp reads a different column of B (stride k) and writes C with stride m. ---- */
template <class T, bool ARG>
__global__ void minplus_v0(const T *__restrict__ A, const T *__restrict__ B, T *__restrict__ C,
                           double *__restrict__ K, size_t m, size_t k, size_t n) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= m * n) return;
  typedef mp_traits<T> tr;
  typedef typename tr::W W;
  size_t j = idx % n, i = idx / n;
  W v = tr::init();
  int id = 0;
  for (size_t p = 0; p < k; p++) mp_update<T, ARG>(v, id, (W)A[i + p * m] + (W)B[p + j * k], (int)p);
  C[i + j * m] = tr::store(v);
  if (ARG) K[i + j * m] = id + 1;
}

/* ---- v1 coalesced: the same work with consecutive threads walking down a column of C, so a
 * warp reads 32 consecutive elements of A, one broadcast element of B, and writes contiguously. ---- */
template <class T, bool ARG>
__global__ void minplus_v1(const T *__restrict__ A, const T *__restrict__ B, T *__restrict__ C,
                           double *__restrict__ K, size_t m, size_t k, size_t n) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= m * n) return;
  typedef mp_traits<T> tr;
  typedef typename tr::W W;
  size_t i = idx % m, j = idx / m;
  W v = tr::init();
  int id = 0;
  const T *a = A + i, *b = B + j * k;
  for (size_t p = 0; p < k; p++) mp_update<T, ARG>(v, id, (W)a[p * m] + (W)b[p], (int)p);
  C[i + j * m] = tr::store(v);
  if (ARG) K[i + j * m] = id + 1;
}

/* ---- v2 register-blocked (the seed's design): each thread keeps an 8x8 block of C in registers
 * and per step of p loads 8 values of column p of A and 8 of row p of B, doing 64 pair updates per
 * 16 loads. A 8x8-thread block covers a 64x64 tile of C. The operands are first laid out so that
 * both loads are contiguous in p-major order and need no bounds checks: Ap is A with its rows
 * padded to a multiple of 64 (A itself when m already is one), Bt is B transposed (n-by-k) with its
 * rows padded likewise.
 * Addressing matters here (doc/NOTES.md): the row pointers are the same for the whole block, so
 * they live in uniform registers and each thread adds only a small offset; with per-thread 64-bit
 * pointers the compiler issued some loads mid-step and the kernel ran 25-40% slower. ---- */
#define RB 8            /* outputs per thread in each direction */
#define TILE (RB * RB)  /* outputs per block in each direction */
#define MAX_GRID_Y 65535u

/* dst (padded_rows-by-cols) = src (rows-by-cols) with zero rows appended. */
template <class T>
__global__ void pad_rows(const T *__restrict__ src, T *__restrict__ dst, size_t rows, size_t cols,
                         size_t padded_rows) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= padded_rows * cols) return;
  size_t r = idx % padded_rows, c = idx / padded_rows;
  dst[idx] = r < rows ? src[r + c * rows] : (T)0;
}

/* dst (padded_cols-by-rows, padded rows zero) = transpose of src (rows-by-cols), through a shared
 * tile so that both the reads and the writes are coalesced. */
template <class T>
__global__ void transpose_pad(const T *__restrict__ src, T *__restrict__ dst, size_t rows,
                              size_t cols, size_t padded_cols) {
  __shared__ T tile[32][33]; /* +1 column: no bank conflicts on the transposed read */
  const size_t row_tiles = (rows + 31) / 32; /* one flat grid: no 65535 limit on either side */
  size_t r0 = (blockIdx.x % row_tiles) * 32, c0 = (blockIdx.x / row_tiles) * 32;
  for (int y = threadIdx.y; y < 32; y += blockDim.y) {
    size_t r = r0 + threadIdx.x, c = c0 + y;
    tile[y][threadIdx.x] = (r < rows && c < cols) ? src[r + c * rows] : (T)0;
  }
  __syncthreads();
  for (int y = threadIdx.y; y < 32; y += blockDim.y) {
    size_t c = c0 + threadIdx.x, r = r0 + y; /* dst(c, r) = src(r, c) */
    if (c < padded_cols && r < rows) dst[c + r * padded_cols] = tile[threadIdx.x][y];
  }
}

/* Unrolling the step loop twice lets float overlap one step's loads with the previous step's
 * arithmetic (+6% at n = 4096); for double the second set of operands costs occupancy (-45%). */
template <class T> struct v2_unroll { enum { value = 1 }; };
template <> struct v2_unroll<float> { enum { value = 2 }; };

/* Block (x, y) computes tile (x, y0 + y) of C from Ap (mm-by-k) and Bt (nn-by-k), p-major. */
template <class T, bool ARG>
__global__ void __launch_bounds__(RB *RB)
    minplus_v2(const T *__restrict__ Ap, const T *__restrict__ Bt, T *__restrict__ C,
               double *__restrict__ K, size_t m, size_t k, size_t n, size_t mm, size_t nn,
               unsigned y0) {
  const int ia = threadIdx.x, ja = threadIdx.y;
  const size_t ic = blockIdx.x, jc = (size_t)blockIdx.y + y0;
  typedef mp_traits<T> tr;
  typedef typename tr::W W;
  const T *ap = Ap + ic * TILE, *bp = Bt + jc * TILE; /* uniform across the block */
  W v[RB][RB];
  int id[RB][RB];
#pragma unroll
  for (int ib = 0; ib < RB; ib++)
#pragma unroll
    for (int jb = 0; jb < RB; jb++) {
      v[ib][jb] = tr::init();
      id[ib][jb] = 0;
    }
#pragma unroll v2_unroll<T>::value
  for (size_t p = 0; p < k; p++) {
    W x[RB], y[RB];
#pragma unroll
    for (int ib = 0; ib < RB; ib++) x[ib] = (W)ap[ia + ib * RB];
#pragma unroll
    for (int jb = 0; jb < RB; jb++) y[jb] = (W)bp[ja + jb * RB];
#pragma unroll
    for (int ib = 0; ib < RB; ib++)
#pragma unroll
      for (int jb = 0; jb < RB; jb++) mp_update<T, ARG>(v[ib][jb], id[ib][jb], x[ib] + y[jb], (int)p);
    ap += mm;
    bp += nn;
  }
#pragma unroll
  for (int ib = 0; ib < RB; ib++)
#pragma unroll
    for (int jb = 0; jb < RB; jb++) {
      size_t i = ic * TILE + ib * RB + ia, j = jc * TILE + jb * RB + ja;
      if (i < m && j < n) {
        C[i + j * m] = tr::store(v[ib][jb]);
        if (ARG) K[i + j * m] = id[ib][jb] + 1;
      }
    }
}

template <class T> __global__ void fill_value(T *p, size_t count, T value) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < count) p[idx] = value;
}

static size_t round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }

template <class T, bool ARG>
static ck_status run_v2(const T *dA, const T *dB, T *dC, double *dK, size_t m, size_t k,
                        size_t n) {
  size_t mm = round_up(m, TILE), nn = round_up(n, TILE);
  T *Ap = NULL, *Bt = NULL;
  ck_status s = CK_OK;
  cudaError_t e;
  const T *a = dA;
  if (mm != m) { /* A already has the p-major layout; it only needs padding when m is ragged */
    if ((s = ck_dev_alloc((void **)&Ap, mm * k * sizeof(T))) != CK_OK) goto done;
    pad_rows<T><<<grid_for(mm * k, THREADS), THREADS>>>(dA, Ap, m, k, mm);
    a = Ap;
  }
  if ((s = ck_dev_alloc((void **)&Bt, nn * k * sizeof(T))) != CK_OK) goto done;
  transpose_pad<T><<<(unsigned)(((k + 31) / 32) * ((nn + 31) / 32)), dim3(32, 8)>>>(dB, Bt, k, n,
                                                                                   nn);
  for (size_t y0 = 0; y0 < nn / TILE; y0 += MAX_GRID_Y) {
    size_t rows = nn / TILE - y0 < MAX_GRID_Y ? nn / TILE - y0 : MAX_GRID_Y;
    minplus_v2<T, ARG><<<dim3((unsigned)(mm / TILE), (unsigned)rows), dim3(RB, RB)>>>(
        a, Bt, dC, dK, m, k, n, mm, nn, (unsigned)y0);
  }
  if ((e = cudaGetLastError()) != cudaSuccess)
    s = ck_cuda_status(e, "launching the regblock min-plus kernel");
done:
  /* Frees are stream-ordered: the scratch returns to the pool only after the kernels using it. */
  ck_dev_free(Ap);
  ck_dev_free(Bt);
  return s;
}

/* ARG: also K, the smallest k attaining each minimum (1-based, as a double; 0 when k == 0). */
template <class T, bool ARG>
static ck_status run_minplus(int kernel, const T *dA, const T *dB, T *dC, double *dK, size_t m,
                             size_t k, size_t n) {
  size_t outputs = m * n;
  if (outputs == 0) return CK_OK;
  if (k > (size_t)INT_MAX - 1) return ck_fail(CK_ERR_INVALID, "min-plus: k must be below 2^31");
  if (k == 0) {
    fill_value<T><<<grid_for(outputs, THREADS), THREADS>>>(dC, outputs, mp_traits<T>::empty());
    if (ARG) fill_value<double><<<grid_for(outputs, THREADS), THREADS>>>(dK, outputs, 0.0);
  } else if (kernel == CK_MINPLUS_NAIVE) {
    minplus_v0<T, ARG><<<grid_for(outputs, THREADS), THREADS>>>(dA, dB, dC, dK, m, k, n);
  } else if (kernel == CK_MINPLUS_COALESCED) {
    minplus_v1<T, ARG><<<grid_for(outputs, THREADS), THREADS>>>(dA, dB, dC, dK, m, k, n);
  } else if (kernel == CK_MINPLUS_REGBLOCK) {
    CK_TRY((run_v2<T, ARG>(dA, dB, dC, dK, m, k, n)));
  } else {
    return ck_fail(CK_ERR_INVALID, "kernel %d is not a GPU min-plus kernel", kernel);
  }
  CK_CUDA(cudaGetLastError(), "launching a min-plus kernel");
  return CK_OK;
}

template <bool ARG>
static ck_status dispatch(ck_dtype t, int kernel, const void *dA, const void *dB, void *dC,
                          double *dK, size_t m, size_t k, size_t n) {
#define MP_CASE(CK, T) \
  case CK: return run_minplus<T, ARG>(kernel, (const T *)dA, (const T *)dB, (T *)dC, dK, m, k, n);
  switch (t) {
    MP_CASE(CK_DOUBLE, double)
    MP_CASE(CK_SINGLE, float)
    MP_CASE(CK_INT8, int8_t)
    MP_CASE(CK_UINT8, uint8_t)
    MP_CASE(CK_INT16, int16_t)
    MP_CASE(CK_UINT16, uint16_t)
    MP_CASE(CK_INT32, int32_t)
    MP_CASE(CK_UINT32, uint32_t)
  default:
    return ck_fail(CK_ERR_INVALID, "min-plus does not support %s", ck_dtype_name(t));
  }
#undef MP_CASE
}

extern "C" ck_status ck_minplus_device(ck_dtype t, int kernel, const void *dA, const void *dB,
                                       void *dC, size_t m, size_t k, size_t n) {
  return dispatch<false>(t, kernel, dA, dB, dC, NULL, m, k, n);
}

extern "C" ck_status ck_minplus_arg_device(ck_dtype t, int kernel, const void *dA, const void *dB,
                                           void *dC, double *dK, size_t m, size_t k, size_t n) {
  return dispatch<true>(t, kernel, dA, dB, dC, dK, m, k, n);
}

/* ---- random device inputs for the benchmarks: integers 0..999 stored as T (wrapped for 8-bit
 * classes), from a hash of the index, so no host data or transfer is needed to time a kernel. ---- */
template <class T> __global__ void fill_random(T *p, size_t count, uint32_t seed) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= count) return;
  uint32_t h = (uint32_t)idx * 2654435761u ^ seed ^ (uint32_t)(idx >> 32);
  h ^= h >> 13;
  h *= 0x5bd1e995u;
  h ^= h >> 15;
  p[idx] = (T)(h % 1000u);
}

extern "C" ck_status ck_fill_random_device(ck_dtype t, void *p, size_t count, uint32_t seed) {
  if (count == 0) return CK_OK;
  unsigned g = grid_for(count, THREADS);
#define FILL_CASE(CK, T) \
  case CK: fill_random<T><<<g, THREADS>>>((T *)p, count, seed); break;
  switch (t) {
    FILL_CASE(CK_DOUBLE, double)
    FILL_CASE(CK_SINGLE, float)
    FILL_CASE(CK_INT8, int8_t)
    FILL_CASE(CK_UINT8, uint8_t)
    FILL_CASE(CK_INT16, int16_t)
    FILL_CASE(CK_UINT16, uint16_t)
    FILL_CASE(CK_INT32, int32_t)
    FILL_CASE(CK_UINT32, uint32_t)
    FILL_CASE(CK_INT64, long long)
    FILL_CASE(CK_UINT64, unsigned long long)
  default: return ck_fail(CK_ERR_INVALID, "cannot fill class %d", (int)t);
  }
#undef FILL_CASE
  CK_CUDA(cudaGetLastError(), "filling random inputs");
  return CK_OK;
}
