/* Integer-valued single and double operands on the integer paths (gpu_minplus's "warptile").
 *
 * Most shortest-path data held in double are integers, and the DPX integer paths run several times
 * faster than the FP64 or FP32 min-add (on an H100, 16-bit pairs at about 30 Tpair/s, 32-bit at
 * 15, single at 13, double at 3). When every value of A and B is an integer or +Inf, the product
 * is computed exactly on shifted integers and converted back:
 *   a' = a - a0 and b' = b - b0 (a0, b0: the smallest finite values), +Inf -> M;
 *   C = C' + a0 + b0, or +Inf where C' = M.
 * The answer is the float path's, element for element, because
 *   - every finite sum a + b is exact in the class (|a|, |b| <= 2^23 for single, 2^52 for double),
 *     so the float path's minimum is the exact one and so is the integer path's;
 *   - the spreads satisfy (max a' + max b') < M, so a finite sum never reaches M, and every term
 *     with an Inf reaches it: C' = M exactly where the float path's terms are all +Inf;
 *   - K: the integer path keeps the first k of the exact minimum, as the float path does; where
 *     every term is +Inf the float path's K is 1 (all tie), and the integer path's, which ranks
 *     M + b' by b', is set to 1 on the way back.
 * Anything else falls back to the float path for the call: NaN, -Inf (Inf + -Inf is NaN and is
 * ignored there), a non-integer, a value too large, spreads too wide for 32 bits, and -0 (a -0
 * result is visible to a sign test; the integers have no -0).
 *
 * The look is one pass over A and B, a block stopping at the first value that rules narrowing
 * out (random non-integer data stop at once), then a round trip to the host for the verdict. */
#include <stdlib.h>

#include "minplus.cuh"

/* Whether a call looks at all is its plan's (plan.c; the costs behind it in plan_policy.h). A
 * host-array call looks at A once for all its panels (ck_narrow_a): a panel then looks at its
 * columns of B alone, and takes A's narrowed copy made by the first panel that narrowed. */
#define MP_NARROW_BLOCKS_PER_SM 8

/* The verdict of the look: `bad` once anything rules narrowing out; the finite extremes of A
 * ([0]) and B ([1]) as integers (lo > hi: none finite). */
typedef struct {
  int bad;
  long long lo[2], hi[2];
} mp_look;

/* A host-array call's A, looked at once: its half of the verdict (taken only from a verdict that
 * was not bad, so A is not bad), and A narrowed to int16 ([0]) and int32 ([1]), shifted by its
 * minimum, as far as panels have needed them. */
struct ck_narrow_a {
  const void *A;
  bool looked;
  long long lo, hi;
  void *copy[2];
};

extern "C" void ck_narrow_a_begin(ck_plan *pl, const void *dA) {
  if (!pl || !pl->narrow) return;
  ck_narrow_a *c = (ck_narrow_a *)calloc(1, sizeof *c); /* none: each panel looks at A */
  if (c) c->A = dA;
  pl->narrow_a = c;
}

static void drop_copies(ck_narrow_a *c) {
  for (void *&p : c->copy) {
    ck_dev_free(p); /* stream-ordered: after the kernels queued on it */
    p = NULL;
  }
}

extern "C" void ck_narrow_a_end(ck_plan *pl) {
  if (!pl || !pl->narrow_a) return;
  drop_copies(pl->narrow_a);
  free(pl->narrow_a);
  pl->narrow_a = NULL;
}

/* The call's A cache where p's A is the one it holds. */
static ck_narrow_a *cache_for(const ck_product *p) {
  ck_narrow_a *c = p->plan ? p->plan->narrow_a : NULL;
  return c && c->A == p->A ? c : NULL;
}

__global__ void mp_look_init(mp_look *v, long long lo_a, long long hi_a) {
  v->bad = 0;
  v->lo[0] = lo_a, v->hi[0] = hi_a;
  v->lo[1] = LLONG_MAX, v->hi[1] = LLONG_MIN;
}

/* Whether v rules narrowing out: NaN, -Inf, beyond the exact range (2^23, 2^52), a fraction, -0. */
template <class T> __device__ __forceinline__ bool mp_unnarrowable(T v) {
  return mp_not_whole(v, sizeof(T) == 4 ? (T)8388608.0 : (T)4503599627370496.0);
}

template <class T>
__global__ void __launch_bounds__(MP_THREADS)
    mp_look_kernel(const T *__restrict__ X, size_t count, int which, mp_look *v) {
  __shared__ long long slo[MP_THREADS / 32], shi[MP_THREADS / 32];
  long long lo = LLONG_MAX, hi = LLONG_MIN;
  bool bad = false;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count && !bad;
       i += 4 * stride) {
    if (*(volatile int *)&v->bad) break; /* someone has already ruled it out */
    T x[4];
#pragma unroll
    for (int u = 0; u < 4; u++) x[u] = i + u * stride < count ? X[i + u * stride] : (T)INFINITY;
#pragma unroll
    for (int u = 0; u < 4; u++) {
      if (x[u] == (T)INFINITY) continue;
      if (mp_unnarrowable(x[u])) bad = true;
      const long long w = (long long)x[u];
      lo = w < lo ? w : lo;
      hi = w > hi ? w : hi;
    }
  }
  if (bad) v->bad = 1;
  for (int o = 16; o; o /= 2) {
    lo = min(lo, __shfl_xor_sync(0xffffffffu, lo, o));
    hi = max(hi, __shfl_xor_sync(0xffffffffu, hi, o));
  }
  if (threadIdx.x % 32 == 0) slo[threadIdx.x / 32] = lo, shi[threadIdx.x / 32] = hi;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < MP_THREADS / 32; w++) lo = min(lo, slo[w]), hi = max(hi, shi[w]);
    if (lo <= hi) atomicMin(&v->lo[which], lo), atomicMax(&v->hi[which], hi);
  }
}

template <class T, class IT>
__global__ void mp_narrow_in(const T *__restrict__ X, IT *__restrict__ Y, size_t count, double base,
                             IT M) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) Y[i] = X[i] == (T)INFINITY ? M : (IT)((double)X[i] - base);
}

template <class T, class IT>
__global__ void mp_widen_out(const IT *__restrict__ Y, T *__restrict__ C, double *__restrict__ K,
                             size_t count, double base, IT M) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const IT c = Y[i];
  C[i] = c == M ? (T)INFINITY : (T)((double)c + base);
  if (K && c == M) K[i] = 1.0;
}

template <class T> static unsigned mp_look_grid(size_t count) {
  const size_t want = (count + 4 * MP_THREADS - 1) / (4 * MP_THREADS);
  const size_t most = (size_t)mp_sm_count() * MP_NARROW_BLOCKS_PER_SM;
  return (unsigned)(want < 1 ? 1 : want < most ? want : most);
}

/* Look at A and B (B only if it is not A; A not at all where the call's cache holds its verdict)
 * and bring the verdict to the host. */
template <class T> static ck_status mp_take_look(const ck_product *p, mp_look *out) {
  mp_look *dv = NULL;
  ck_narrow_a *const cache = cache_for(p);
  const bool cached = cache && cache->looked;
  CK_TRY(ck_dev_alloc((void **)&dv, sizeof *dv));
  mp_look_init<<<1, 1>>>(dv, cached ? cache->lo : LLONG_MAX, cached ? cache->hi : LLONG_MIN);
  const size_t na = p->m * p->k, nb = p->k * p->n;
  if (!cached) mp_look_kernel<T><<<mp_look_grid<T>(na), MP_THREADS>>>((const T *)p->A, na, 0, dv);
  const bool same = p->A == p->B && na == nb;
  if (!same) mp_look_kernel<T><<<mp_look_grid<T>(nb), MP_THREADS>>>((const T *)p->B, nb, 1, dv);
  ck_status s = ck_cuda_check(cudaGetLastError(), "looking at min-plus operands");
  if (s == CK_OK)
    s = ck_cuda_check(cudaMemcpy(out, dv, sizeof *out, cudaMemcpyDeviceToHost),
                      "reading the look at min-plus operands");
  ck_dev_free(dv);
  if (same) out->lo[1] = out->lo[0], out->hi[1] = out->hi[0];
  if (s == CK_OK && cache && !cached && !out->bad) {
    cache->looked = true;
    cache->lo = out->lo[0];
    cache->hi = out->hi[0];
  }
  return s;
}

/* The integer class to run in, and its M, for the verdict; CK_DOUBLE: none. */
static ck_dtype mp_pick(const mp_look &v, double base[2], long long *M) {
  if (v.bad) return CK_DOUBLE;
  long long spread = 0;
  for (int i = 0; i < 2; i++) {
    base[i] = v.lo[i] <= v.hi[i] ? (double)v.lo[i] : 0.0;
    spread += v.lo[i] <= v.hi[i] ? v.hi[i] - v.lo[i] : 0;
  }
  if (spread < INT16_MAX) return *M = INT16_MAX, CK_INT16;
  if (spread < INT32_MAX) return *M = INT32_MAX, CK_INT32;
  return CK_DOUBLE;
}

/* The product on integer copies of A and B (A's kept in the call's cache, where there is one,
 * for the panels after this one), widened back into C. */
template <class T, class IT>
static ck_status mp_run_narrowed(const ck_product *p, const double base[2], IT M, int *done) {
  const size_t na = p->m * p->k, nb = p->k * p->n, nc = p->m * p->n;
  ck_narrow_a *const cache = cache_for(p);
  void **const kept = cache ? &cache->copy[sizeof(IT) == 4] : NULL;
  IT *dA = kept ? (IT *)*kept : NULL, *dB = NULL, *dC = NULL;
  const bool fresh = !dA;
  if ((fresh && ck_dev_alloc((void **)&dA, na * sizeof(IT)) != CK_OK) ||
      ck_dev_alloc((void **)&dB, nb * sizeof(IT)) != CK_OK ||
      ck_dev_alloc((void **)&dC, nc * sizeof(IT)) != CK_OK) {
    if (fresh) ck_dev_free(dA);
    ck_dev_free(dB), ck_dev_free(dC);
    return CK_OK; /* no room for the integer copies: the float path, which needs none */
  }
  if (fresh)
    mp_narrow_in<T, IT>
        <<<grid_for(na, MP_THREADS), MP_THREADS>>>((const T *)p->A, dA, na, base[0], M);
  mp_narrow_in<T, IT>
      <<<grid_for(nb, MP_THREADS), MP_THREADS>>>((const T *)p->B, dB, nb, base[1], M);
  ck_product q = *p;
  q.t = sizeof(IT) == 2 ? CK_INT16 : CK_INT32;
  q.A = dA, q.B = dB, q.C = dC;
  ck_status s = ck_cuda_check(cudaGetLastError(), "narrowing min-plus operands");
  if (s == CK_OK) s = ck_minplus_device(&q);
  if (s == CK_OK) {
    mp_widen_out<T, IT>
        <<<grid_for(nc, MP_THREADS), MP_THREADS>>>(dC, (T *)p->C, p->K, nc, base[0] + base[1], M);
    s = ck_cuda_check(cudaGetLastError(), "widening a min-plus result");
  }
  if (s != CK_OK) cudaDeviceSynchronize(); /* nothing may still use the copies */
  if (fresh && kept && s == CK_OK) *kept = dA;
  else if (fresh) ck_dev_free(dA);
  ck_dev_free(dB), ck_dev_free(dC);
  if (s == CK_OK) *done = 1;
  return s;
}

template <class T> static ck_status mp_narrow_typed(const ck_product *p, int *done) {
  if (!(p->plan ? p->plan->narrow : ck_plan_narrow_default(p))) return CK_OK;
  mp_look v;
  CK_TRY(mp_take_look<T>(p, &v));
  double base[2];
  long long M = 0;
  switch (mp_pick(v, base, &M)) {
  case CK_INT16: return mp_run_narrowed<T, int16_t>(p, base, (int16_t)M, done);
  case CK_INT32: return mp_run_narrowed<T, int32_t>(p, base, (int32_t)M, done);
  default:
    if (ck_narrow_a *c = cache_for(p)) drop_copies(c); /* room for the float path's copies */
    return CK_OK;
  }
}

ck_status mp_try_narrow(const ck_product *p, int *done) {
  *done = 0;
  if (p->kernel != CK_MINPLUS_WARPTILE || p->m == 0 || p->n == 0 || p->k == 0) return CK_OK;
  if (p->t == CK_DOUBLE) return mp_narrow_typed<double>(p, done);
  if (p->t == CK_SINGLE) return mp_narrow_typed<float>(p, done);
  return CK_OK;
}
