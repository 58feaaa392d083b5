/* Octave's "native" integer sums (sum (x, "native")): each addition in the integer class,
 * saturating at every step, in order; exact on the GPU through a composition of saturating maps
 * that keeps the order of its operands. */
#include "sum.cuh"

/* ---- "native" integer sums: Octave adds in the integer class, saturating at every step, in
 * order. Saturating addition is not associative, but the map s -> clamp(s + a, lo, hi) composes
 * into the same form, so a parallel reduction over (a, lo, hi) that keeps the order of its
 * operands reproduces the sequential result exactly. |a| beyond the class's width W means the
 * result is pinned at lo or hi whatever s is, so a is clamped to +-W to stay in range. ---- */
template <class W> struct satmap { W a, lo, hi; };

template <class In> struct sat_traits { typedef i64 wide; };
template <> struct sat_traits<i64> { typedef __int128 wide; };
template <> struct sat_traits<u64> { typedef __int128 wide; };

template <class W> __host__ __device__ __forceinline__ W clampw(W v, W lo, W hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

/* f then g */
template <class W> __device__ __forceinline__ satmap<W> compose(satmap<W> f, satmap<W> g, W width) {
  satmap<W> r;
  r.a = clampw<W>(f.a + g.a, -width, width);
  r.lo = clampw<W>(f.lo + g.a, g.lo, g.hi);
  r.hi = clampw<W>(f.hi + g.a, g.lo, g.hi);
  return r;
}

template <class In> struct int_limits;
#define CK_INT_LIMITS(T, LO, HI)                                     \
  template <> struct int_limits<T> {                                 \
    static __host__ __device__ __forceinline__ T lo() { return LO; } \
    static __host__ __device__ __forceinline__ T hi() { return HI; } \
  };
CK_INT_LIMITS(int8_t, INT8_MIN, INT8_MAX)
CK_INT_LIMITS(uint8_t, 0, UINT8_MAX)
CK_INT_LIMITS(int16_t, INT16_MIN, INT16_MAX)
CK_INT_LIMITS(uint16_t, 0, UINT16_MAX)
CK_INT_LIMITS(int32_t, INT32_MIN, INT32_MAX)
CK_INT_LIMITS(uint32_t, 0, UINT32_MAX)
CK_INT_LIMITS(i64, INT64_MIN, INT64_MAX)
CK_INT_LIMITS(u64, 0, UINT64_MAX)

template <class In> struct satops {
  typedef typename sat_traits<In>::wide W;
  static __device__ __forceinline__ W width() {
    return (W)int_limits<In>::hi() - (W)int_limits<In>::lo() + 1;
  }
  static __device__ __forceinline__ satmap<W> identity() {
    satmap<W> r = {0, (W)int_limits<In>::lo(), (W)int_limits<In>::hi()};
    return r;
  }
  static __device__ __forceinline__ satmap<W> of(In v) {
    satmap<W> r = {(W)v, (W)int_limits<In>::lo(), (W)int_limits<In>::hi()};
    return r;
  }
};

#define SAT_TILE SUM_THREADS
#define SAT_TILES_PER_BLOCK 16

/* Block (c, row) folds elements [c*CH, (c+1)*CH) of output `row`'s sequence, tile by tile, with an
 * order-keeping tree inside each tile; element l of output (b, a) is x[b + l*before + a*before*len]. */
template <class In>
__global__ void sum_native_chunks(const In *__restrict__ x, satmap<typename satops<In>::W> *part,
                                  size_t before, size_t len, size_t chunks, unsigned y0) {
  typedef typename satops<In>::W W;
  __shared__ satmap<W> t[SAT_TILE];
  size_t row = (size_t)blockIdx.y + y0, c = blockIdx.x; /* row = output index b + a*before */
  size_t b = row % before, a = row / before;
  const In *p = x + b + a * before * len;
  const size_t ch = (size_t)SAT_TILE * SAT_TILES_PER_BLOCK;
  satmap<W> acc = satops<In>::identity();
  for (size_t l0 = c * ch; l0 < len && l0 < (c + 1) * ch; l0 += SAT_TILE) {
    size_t l = l0 + threadIdx.x;
    t[threadIdx.x] = l < len ? satops<In>::of(p[l * before]) : satops<In>::identity();
    __syncthreads();
    for (unsigned s = 1; s < SAT_TILE; s *= 2) {
      if (threadIdx.x % (2 * s) == 0)
        t[threadIdx.x] = compose<W>(t[threadIdx.x], t[threadIdx.x + s], satops<In>::width());
      __syncthreads();
    }
    if (threadIdx.x == 0) acc = compose<W>(acc, t[0], satops<In>::width());
    __syncthreads();
  }
  if (threadIdx.x == 0) part[row * chunks + c] = acc;
}

template <class In>
__global__ void sum_native_finish(const satmap<typename satops<In>::W> *part, In *y, size_t outputs,
                                  size_t chunks) {
  typedef typename satops<In>::W W;
  size_t o = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= outputs) return;
  satmap<W> acc = satops<In>::identity();
  for (size_t c = 0; c < chunks; c++)
    acc = compose<W>(acc, part[o * chunks + c], satops<In>::width());
  y[o] = (In)clampw<W>(acc.a, acc.lo, acc.hi); /* the composed map applied to 0 */
}

template <class In>
ck_status sum_run_native(const In *x, In *y, size_t before, size_t len, size_t after) {
  typedef typename satops<In>::W W;
  size_t outputs = before * after;
  if (outputs == 0) return CK_OK;
  if (len == 0) {
    fill_zero<In><<<blocks_for(outputs, SUM_THREADS), SUM_THREADS>>>(y, outputs);
    CK_CUDA(cudaGetLastError(), "launching a sum kernel");
    return CK_OK;
  }
  size_t chunks = blocks_for(len, (size_t)SAT_TILE * SAT_TILES_PER_BLOCK);
  satmap<W> *part = NULL;
  CK_TRY(ck_dev_alloc((void **)&part, outputs * chunks * sizeof *part));
  over_segments(outputs, [&](unsigned y0, unsigned rows) {
    sum_native_chunks<In>
        <<<dim3((unsigned)chunks, rows), SAT_TILE>>>(x, part, before, len, chunks, y0);
  });
  sum_native_finish<In>
      <<<blocks_for(outputs, SUM_THREADS), SUM_THREADS>>>(part, y, outputs, chunks);
  cudaError_t e = cudaGetLastError();
  ck_dev_free(part);
  if (e != cudaSuccess) return ck_cuda_status(e, "launching a native sum kernel");
  return CK_OK;
}

template ck_status sum_run_native<int8_t>(const int8_t *, int8_t *, size_t, size_t, size_t);
template ck_status sum_run_native<uint8_t>(const uint8_t *, uint8_t *, size_t, size_t, size_t);
template ck_status sum_run_native<int16_t>(const int16_t *, int16_t *, size_t, size_t, size_t);
template ck_status sum_run_native<uint16_t>(const uint16_t *, uint16_t *, size_t, size_t, size_t);
template ck_status sum_run_native<int32_t>(const int32_t *, int32_t *, size_t, size_t, size_t);
template ck_status sum_run_native<uint32_t>(const uint32_t *, uint32_t *, size_t, size_t, size_t);
template ck_status sum_run_native<i64>(const i64 *, i64 *, size_t, size_t, size_t);
template ck_status sum_run_native<u64>(const u64 *, u64 *, size_t, size_t, size_t);
