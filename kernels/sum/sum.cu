/* Sum kernels: the reduction ladder of Harris, "Optimizing Parallel Reduction in CUDA", as
 * numbered versions, a modern one-launch version, and CUB for comparison (doc/NOTES.md records
 * what each measured).
 *
 * The input is before-by-len-by-after, column-major, summed over len. Every ladder version works
 * on contiguous segments (before == 1): segment s is x[s*len .. s*len + len), and blockIdx.y picks
 * the segment, so a vector is one segment and the column sums of a matrix are many. Sums over
 * a non-leading dimension (before > 1) use one strided kernel.
 *
 * Accumulators (Acc) are double for floating-point inputs and for 64-bit integers, and 64-bit
 * integers for the smaller integer classes (exact). Only the final value is converted to the
 * output class, so single sums are rounded once. Every version except `atomic` combines in a
 * fixed order, so its result is the same bit for bit on every run. */
#include <cub/cub.cuh>

#include "sum.cuh"

/* ---- v0 atomic: every element is one atomicAdd into its segment's accumulator. ---- */
__device__ __forceinline__ void atomic_add(double *p, double v) { atomicAdd(p, v); }
__device__ __forceinline__ void atomic_add(i64 *p, i64 v) { atomicAdd((u64 *)p, (u64)v); }

template <class In, class Acc>
__global__ void sum_atomic(const In *__restrict__ x, Acc *acc, size_t len, unsigned y0) {
  size_t seg = (size_t)blockIdx.y + y0, i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < len) atomic_add(&acc[seg], (Acc)x[seg * len + i]);
}

/* ---- v1 pairwise: each pass adds the upper half of a segment onto its lower half, in global
 * memory, until one element is left. In place is safe: no thread writes what another reads. ---- */
template <class In, class Acc>
__global__ void sum_pairwise_first(const In *__restrict__ x, Acc *__restrict__ s, size_t len,
                                   size_t half, unsigned y0) {
  size_t seg = (size_t)blockIdx.y + y0, i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= half) return;
  const In *xs = x + seg * len;
  Acc v = (Acc)xs[i];
  if (i + half < len) v += (Acc)xs[i + half];
  s[seg * half + i] = v;
}

template <class Acc>
__global__ void sum_pairwise_pass(Acc *s, size_t stride, size_t len, size_t half, unsigned y0) {
  size_t seg = (size_t)blockIdx.y + y0, i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i + half < len) s[seg * stride + i] += s[seg * stride + i + half];
}

/* ---- v2..v6: shared-memory block reductions (Harris #1-#6). Each block writes one partial sum
 * per segment; the partials are then reduced by the same kernel until one is left. The versions
 * share the load and the store; what differs is the tree, below. ---- */
template <class In, class Acc>
__device__ __forceinline__ Acc load_or_zero(const In *xs, size_t i, size_t len) {
  return i < len ? (Acc)xs[i] : (Acc)0;
}

/* Harris #4 on: each thread adds two elements while loading, so no thread idles at the start. */
template <class In, class Acc> __device__ __forceinline__ Acc load_two(const In *xs, size_t len) {
  size_t i = (size_t)blockIdx.x * (2 * SUM_THREADS) + threadIdx.x;
  return load_or_zero<In, Acc>(xs, i, len) + load_or_zero<In, Acc>(xs, i + SUM_THREADS, len);
}

/* The last 64 -> 1 steps inside one warp, without __syncthreads. Harris relied on implicit
 * warp-synchronous execution; since Volta a warp's threads may diverge, so each step is fenced
 * by __syncwarp. */
template <class Acc> __device__ __forceinline__ void warp_tail(volatile Acc *sdata, unsigned tid) {
#pragma unroll
  for (unsigned s = 32; s > 0; s >>= 1) {
    Acc v = sdata[tid] + sdata[tid + s];
    __syncwarp();
    sdata[tid] = v;
    __syncwarp();
  }
}

template <class In, class Acc, int V>
__global__ void sum_block(const In *__restrict__ x, Acc *__restrict__ part, size_t len,
                          unsigned y0) {
  __shared__ Acc sdata[SUM_THREADS];
  size_t seg = (size_t)blockIdx.y + y0;
  unsigned tid = threadIdx.x;
  const In *xs = x + seg * len;
  sdata[tid] = V >= CK_SUM_TWOLOAD
                   ? load_two<In, Acc>(xs, len)
                   : load_or_zero<In, Acc>(xs, (size_t)blockIdx.x * SUM_THREADS + tid, len);
  __syncthreads();
  if (V == CK_SUM_INTERLEAVED) {
    /* thread t works at step s only when t is a multiple of 2s: most of each warp idles on a
     * divergent branch (and the % is slow) */
    for (unsigned s = 1; s < SUM_THREADS; s *= 2) {
      if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
      __syncthreads();
    }
  } else if (V == CK_SUM_STRIDED) {
    /* the active threads are contiguous (no divergence) but touch shared memory with a stride
     * of 2s, so they collide on banks */
    for (unsigned s = 1; s < SUM_THREADS; s *= 2) {
      unsigned index = 2 * s * tid;
      if (index < SUM_THREADS) sdata[index] += sdata[index + s];
      __syncthreads();
    }
  } else if (V == CK_SUM_SEQUENTIAL || V == CK_SUM_TWOLOAD) {
    /* sequential addressing: the lower half adds the upper half; contiguous, conflict-free */
    for (unsigned s = SUM_THREADS / 2; s > 0; s >>= 1) {
      if (tid < s) sdata[tid] += sdata[tid + s];
      __syncthreads();
    }
  } else { /* warp unrolling: loop unrolled for the compile-time block size, last warp alone */
#pragma unroll
    for (unsigned s = SUM_THREADS / 2; s > 32; s >>= 1) {
      if (tid < s) sdata[tid] += sdata[tid + s];
      __syncthreads();
    }
    if (tid < 32) warp_tail<Acc>(sdata, tid);
  }
  if (tid == 0) part[seg * gridDim.x + blockIdx.x] = sdata[0];
}

/* ---- v7 shuffle: what the ladder leads to on current GPUs. A grid sized to fill the GPU once
 * walks each segment with 16-byte loads (several in flight per thread), sums in registers, reduces
 * warps with shuffles, and the last block of a segment to finish adds the blocks' partials in
 * block order: one launch, no float atomics, the same result on every run. ---- */
template <class Acc> __device__ __forceinline__ Acc warp_sum(Acc v) {
#pragma unroll
  for (int o = WARP / 2; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

/* The block's sum, valid in thread 0. */
template <class Acc> __device__ Acc block_sum(Acc v) {
  __shared__ Acc warps[SUM_THREADS / WARP];
  unsigned lane = threadIdx.x % WARP, w = threadIdx.x / WARP;
  v = warp_sum(v);
  if (lane == 0) warps[w] = v;
  __syncthreads();
  v = threadIdx.x < SUM_THREADS / WARP ? warps[threadIdx.x] : (Acc)0;
  if (w == 0) v = warp_sum(v);
  __syncthreads(); /* warps[] may be reused by a following call */
  return v;
}

/* 16-byte loads in flight per thread and iteration: 64 bytes measured 99.5% of the copy rate for
 * double but 95% for single, whose conversions take more issue slots per byte; 128 bytes keep more
 * requests in flight for the narrower types (doc/NOTES.md). */
template <class In> struct shuffle_unroll {
  enum { value = sizeof(In) >= 8 ? 4 : 8 };
};

template <class In> union vec16 {
  uint4 raw;
  In e[16 / sizeof(In)];
};

/* Sum of xs[lo, hi) by the threads of this segment's blocks; 16-byte loads over the aligned
 * middle, scalar loads at the ragged ends. */
template <class In, class Acc> __device__ Acc thread_partial(const In *xs, size_t len) {
  const size_t per_vec = 16 / sizeof(In);
  size_t head = ((16 - ((uintptr_t)xs % 16)) % 16) / sizeof(In);
  if (head > len) head = len;
  size_t nvec = (len - head) / per_vec;
  const uint4 *v = (const uint4 *)(xs + head);
  size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x, nt = (size_t)gridDim.x * blockDim.x;
  Acc a = 0;
  size_t i = t;
  const int unroll = shuffle_unroll<In>::value;
  for (; i + (unroll - 1) * nt < nvec; i += unroll * nt) {
    vec16<In> r[unroll];
#pragma unroll
    for (int u = 0; u < unroll; u++) r[u].raw = __ldg(v + i + u * nt);
#pragma unroll
    for (int u = 0; u < unroll; u++)
#pragma unroll
      for (int e = 0; e < (int)per_vec; e++) a += (Acc)r[u].e[e];
  }
  for (; i < nvec; i += nt) {
    vec16<In> r;
    r.raw = __ldg(v + i);
#pragma unroll
    for (int e = 0; e < (int)per_vec; e++) a += (Acc)r.e[e];
  }
  /* head elements and the tail after the last whole vector */
  if (t < head) a += (Acc)xs[t];
  size_t tail = head + nvec * per_vec;
  if (tail + t < len) a += (Acc)xs[tail + t];
  return a;
}

template <class In, class Acc, class Out>
__global__ void __launch_bounds__(SUM_THREADS)
    sum_shuffle(const In *__restrict__ x, Acc *part, unsigned *done, Out *y, size_t len,
                unsigned y0) {
  __shared__ bool last;
  size_t seg = (size_t)blockIdx.y + y0;
  Acc a = block_sum(thread_partial<In, Acc>(x + seg * len, len));
  if (threadIdx.x == 0) {
    part[seg * gridDim.x + blockIdx.x] = a;
    __threadfence(); /* the partial is visible before the count says so */
    last = atomicAdd(&done[seg], 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  Acc v = 0;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += SUM_THREADS)
    v += ((volatile Acc *)part)[seg * gridDim.x + b];
  v = block_sum(v);
  if (threadIdx.x == 0) {
    y[seg] = (Out)v;
    done[seg] = 0; /* ready for the next launch */
  }
}

/* ---- sums over a non-leading dimension: consecutive threads take consecutive `before` rows, so
 * the loads coalesce; the len range is split into chunks (grid y) to fill the GPU when there are
 * few outputs, and the chunks' partials are added in order afterwards. ---- */
template <class In, class Acc>
__global__ void sum_strided_dim(const In *__restrict__ x, Acc *__restrict__ part, size_t before,
                                size_t len, size_t after, size_t chunk, unsigned y0) {
  size_t b = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t row = (size_t)blockIdx.y + y0; /* row = c * after + a */
  if (b >= before) return;
  size_t a = row % after, c = row / after;
  size_t l0 = c * chunk, l1 = l0 + chunk < len ? l0 + chunk : len;
  const In *p = x + b + a * before * len;
  Acc v = 0;
  for (size_t l = l0; l < l1; l++) v += (Acc)p[l * before];
  part[row * before + b] = v;
}

/* y(o) = sum over c of part(c, o), in c order; o runs over `outputs`. */
template <class Acc, class Out>
__global__ void sum_chunks(const Acc *__restrict__ part, Out *__restrict__ y, size_t outputs,
                           size_t chunks) {
  size_t o = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= outputs) return;
  Acc v = 0;
  for (size_t c = 0; c < chunks; c++) v += part[c * outputs + o];
  y[o] = (Out)v;
}

template <class Acc, class Out>
__global__ void convert(const Acc *__restrict__ a, Out *__restrict__ y, size_t count) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) y[i] = (Out)a[i];
}

/* ---- host-side drivers of the versions ---- */

/* Scratch allocations that are released however the driver returns. */
typedef struct {
  void *p[4];
  int n;
} scratch;

static ck_status scratch_alloc(scratch *s, void **p, size_t bytes) {
  CK_TRY(ck_dev_alloc(p, bytes));
  s->p[s->n++] = *p;
  return CK_OK;
}

static void scratch_free(scratch *s) {
  for (int i = 0; i < s->n; i++) ck_dev_free(s->p[i]);
  s->n = 0;
}

template <class Acc, class Out> static void launch_convert(const Acc *a, Out *y, size_t count) {
  convert<Acc, Out><<<blocks_for(count, SUM_THREADS), SUM_THREADS>>>(a, y, count);
}

template <class In, class Acc, class Out>
static ck_status run_atomic(const In *x, Out *y, size_t len, size_t segs, scratch *sc) {
  Acc *acc = NULL;
  CK_TRY(scratch_alloc(sc, (void **)&acc, segs * sizeof(Acc)));
  fill_zero<Acc><<<blocks_for(segs, SUM_THREADS), SUM_THREADS>>>(acc, segs);
  over_segments(segs, [&](unsigned y0, unsigned rows) {
    sum_atomic<In, Acc><<<dim3(blocks_for(len, SUM_THREADS), rows), SUM_THREADS>>>(x, acc, len, y0);
  });
  launch_convert<Acc, Out>(acc, y, segs);
  return CK_OK;
}

template <class In, class Acc, class Out>
static ck_status run_pairwise(const In *x, Out *y, size_t len, size_t segs, scratch *sc) {
  size_t half = (len + 1) / 2;
  Acc *s = NULL;
  CK_TRY(scratch_alloc(sc, (void **)&s, segs * half * sizeof(Acc)));
  over_segments(segs, [&](unsigned y0, unsigned rows) {
    sum_pairwise_first<In, Acc>
        <<<dim3(blocks_for(half, SUM_THREADS), rows), SUM_THREADS>>>(x, s, len, half, y0);
  });
  for (size_t n = half; n > 1;) {
    size_t h = (n + 1) / 2;
    over_segments(segs, [&](unsigned y0, unsigned rows) {
      sum_pairwise_pass<Acc>
          <<<dim3(blocks_for(n - h, SUM_THREADS), rows), SUM_THREADS>>>(s, half, n, h, y0);
    });
    n = h;
  }
  /* element 0 of each segment (stride half) is its sum */
  if (half == 1) {
    launch_convert<Acc, Out>(s, y, segs);
  } else {
    Acc *first = NULL;
    CK_TRY(scratch_alloc(sc, (void **)&first, segs * sizeof(Acc)));
    CK_CUDA(cudaMemcpy2D(first, sizeof(Acc), s, half * sizeof(Acc), sizeof(Acc), segs,
                         cudaMemcpyDeviceToDevice),
            "gathering the pairwise sums");
    launch_convert<Acc, Out>(first, y, segs);
  }
  return CK_OK;
}

/* One level of a shared-memory version: segs segments of len In -> segs x blocks partials. */
template <class In, class Acc>
static size_t block_level(int kernel, const In *x, Acc *part, size_t len, size_t segs) {
  size_t per_block = kernel >= CK_SUM_TWOLOAD ? 2 * SUM_THREADS : SUM_THREADS;
  unsigned nb = blocks_for(len, per_block);
  over_segments(segs, [&](unsigned y0, unsigned rows) {
    dim3 grid(nb, rows);
    switch (kernel) {
    case CK_SUM_INTERLEAVED:
      sum_block<In, Acc, CK_SUM_INTERLEAVED><<<grid, SUM_THREADS>>>(x, part, len, y0);
      break;
    case CK_SUM_STRIDED:
      sum_block<In, Acc, CK_SUM_STRIDED><<<grid, SUM_THREADS>>>(x, part, len, y0);
      break;
    case CK_SUM_SEQUENTIAL:
      sum_block<In, Acc, CK_SUM_SEQUENTIAL><<<grid, SUM_THREADS>>>(x, part, len, y0);
      break;
    case CK_SUM_TWOLOAD:
      sum_block<In, Acc, CK_SUM_TWOLOAD><<<grid, SUM_THREADS>>>(x, part, len, y0);
      break;
    default: sum_block<In, Acc, CK_SUM_WARPUNROLL><<<grid, SUM_THREADS>>>(x, part, len, y0); break;
    }
  });
  return nb;
}

/* Harris's recursion: apply the kernel to its own partials until each segment has one. */
template <class In, class Acc, class Out>
static ck_status run_block_ladder(int kernel, const In *x, Out *y, size_t len, size_t segs,
                                  scratch *sc) {
  size_t per_block = kernel >= CK_SUM_TWOLOAD ? 2 * SUM_THREADS : SUM_THREADS;
  size_t n1 = blocks_for(len, per_block), n2 = blocks_for(n1, per_block);
  Acc *buf[2] = {NULL, NULL};
  CK_TRY(scratch_alloc(sc, (void **)&buf[0], segs * n1 * sizeof(Acc)));
  CK_TRY(scratch_alloc(sc, (void **)&buf[1], segs * n2 * sizeof(Acc)));
  size_t n = block_level<In, Acc>(kernel, x, buf[0], len, segs);
  int cur = 0;
  while (n > 1) {
    n = block_level<Acc, Acc>(kernel, buf[cur], buf[1 - cur], n, segs);
    cur = 1 - cur;
  }
  launch_convert<Acc, Out>(buf[cur], y, segs);
  return CK_OK;
}

static size_t sm_count(void) { return (size_t)ck_device_sms(); }

/* Threads that fill the GPU once (2048 resident per SM on current GPUs). */
static size_t full_gpu_threads(void) { return sm_count() * 2048; }

/* Blocks per segment for the one-launch version: enough to fill the GPU once, no more than the
 * work needs. */
static unsigned shuffle_blocks(size_t len, size_t segs, size_t elem, size_t unroll) {
  size_t want = full_gpu_threads() / SUM_THREADS / (segs < MAX_GRID_Y ? segs : MAX_GRID_Y);
  size_t per_block = (size_t)SUM_THREADS * unroll * (16 / elem);
  size_t need = (len + per_block - 1) / per_block;
  if (want > need) want = need;
  return want ? (unsigned)want : 1u;
}

template <class In, class Acc, class Out>
static ck_status run_shuffle(const In *x, Out *y, size_t len, size_t segs, scratch *sc) {
  unsigned nb = shuffle_blocks(len, segs, sizeof(In), shuffle_unroll<In>::value);
  Acc *part = NULL;
  unsigned *done = NULL;
  CK_TRY(scratch_alloc(sc, (void **)&part, segs * nb * sizeof(Acc)));
  CK_TRY(scratch_alloc(sc, (void **)&done, segs * sizeof(unsigned)));
  CK_CUDA(cudaMemsetAsync(done, 0, segs * sizeof(unsigned)), "clearing the block counters");
  over_segments(segs, [&](unsigned y0, unsigned rows) {
    sum_shuffle<In, Acc, Out><<<dim3(nb, rows), SUM_THREADS>>>(x, part, done, y, len, y0);
  });
  return CK_OK;
}

template <class In, class Acc> struct to_acc {
  __host__ __device__ Acc operator()(In v) const { return (Acc)v; }
};

template <class In, class Acc, class Out>
static ck_status run_cub(const In *x, Out *y, size_t len, size_t segs, scratch *sc) {
  Acc *acc = NULL;
  void *tmp = NULL;
  size_t tmp_bytes = 0;
  CK_TRY(scratch_alloc(sc, (void **)&acc, segs * sizeof(Acc)));
  CK_CUDA(cub::DeviceReduce::TransformReduce(NULL, tmp_bytes, x, acc, len, cuda::std::plus<Acc>(),
                                             to_acc<In, Acc>(), (Acc)0),
          "sizing CUB's scratch");
  CK_TRY(scratch_alloc(sc, &tmp, tmp_bytes));
  for (size_t s = 0; s < segs; s++) /* CUB's device-wide reduce, once per segment */
    CK_CUDA(cub::DeviceReduce::TransformReduce(tmp, tmp_bytes, x + s * len, acc + s, len,
                                               cuda::std::plus<Acc>(), to_acc<In, Acc>(), (Acc)0),
            "running cub::DeviceReduce");
  launch_convert<Acc, Out>(acc, y, segs);
  return CK_OK;
}

/* Sum over a non-leading dimension (any kernel name: the ladder is for contiguous data). */
template <class In, class Acc, class Out>
static ck_status run_strided(const In *x, Out *y, size_t before, size_t len, size_t after,
                             scratch *sc) {
  size_t outputs = before * after;
  /* Split len so that about 4 waves of threads run, each thread adding at least 64 elements. */
  size_t target = full_gpu_threads() * 4, chunks = (target + outputs - 1) / outputs;
  size_t max_chunks = (len + 63) / 64;
  if (chunks > max_chunks) chunks = max_chunks;
  if (chunks < 1) chunks = 1;
  size_t chunk = (len + chunks - 1) / chunks;
  chunks = (len + chunk - 1) / chunk;
  Acc *part = NULL;
  CK_TRY(scratch_alloc(sc, (void **)&part, chunks * outputs * sizeof(Acc)));
  over_segments(chunks * after, [&](unsigned y0, unsigned rows) {
    sum_strided_dim<In, Acc><<<dim3(blocks_for(before, SUM_THREADS), rows), SUM_THREADS>>>(
        x, part, before, len, after, chunk, y0);
  });
  sum_chunks<Acc, Out><<<blocks_for(outputs, SUM_THREADS), SUM_THREADS>>>(part, y, outputs, chunks);
  return CK_OK;
}

template <class In, class Acc, class Out>
static ck_status run_sum(int kernel, const In *x, Out *y, size_t before, size_t len, size_t after) {
  scratch sc = {{NULL}, 0};
  ck_status s = CK_OK;
  size_t outputs = before * after;
  if (outputs == 0) return CK_OK;
  if (len == 0) {
    fill_zero<Out><<<blocks_for(outputs, SUM_THREADS), SUM_THREADS>>>(y, outputs);
  } else if (before > 1) {
    s = run_strided<In, Acc, Out>(x, y, before, len, after, &sc);
  } else {
    switch (kernel) {
    case CK_SUM_ATOMIC: s = run_atomic<In, Acc, Out>(x, y, len, after, &sc); break;
    case CK_SUM_PAIRWISE: s = run_pairwise<In, Acc, Out>(x, y, len, after, &sc); break;
    case CK_SUM_SHUFFLE: s = run_shuffle<In, Acc, Out>(x, y, len, after, &sc); break;
    case CK_SUM_CUB: s = run_cub<In, Acc, Out>(x, y, len, after, &sc); break;
    default: s = run_block_ladder<In, Acc, Out>(kernel, x, y, len, after, &sc); break;
    }
  }
  cudaError_t e = cudaGetLastError();
  if (s == CK_OK && e != cudaSuccess) s = ck_cuda_status(e, "launching a sum kernel");
  scratch_free(&sc); /* stream-ordered: after the kernels that use the scratch */
  return s;
}

/* ---- dispatch on class and mode ---- */
template <class In, class Acc> static ck_status sum_to(ck_dtype out, const ck_sum_args *a) {
  if (out == CK_SINGLE)
    return run_sum<In, Acc, float>(a->kernel, (const In *)a->x, (float *)a->y, a->before, a->len,
                                   a->after);
  return run_sum<In, Acc, double>(a->kernel, (const In *)a->x, (double *)a->y, a->before, a->len,
                                  a->after);
}

template <class In> static ck_status sum_int(const ck_sum_args *a) {
  if (a->mode == CK_SUM_MODE_NATIVE) {
    if (a->kernel != CK_SUM_DEFAULT)
      return ck_fail(CK_ERR_INVALID,
                     "\"native\" integer sums saturate in order and have one kernel, the default");
    return sum_run_native<In>((const In *)a->x, (In *)a->y, a->before, a->len, a->after);
  }
  return sum_to<In, i64>(CK_DOUBLE, a);
}

extern "C" ck_status ck_sum_device(const ck_sum_args *a) {
  if (a->kernel < 0 || a->kernel >= CK_SUM_NUM_GPU)
    return ck_fail(CK_ERR_INVALID, "kernel %d is not a GPU sum kernel", a->kernel);
  CK_TRY(ck_device_init());
  ck_dtype out = ck_sum_out_dtype(a->t, a->mode);
  switch (a->t) {
  case CK_DOUBLE: return sum_to<double, double>(out, a);
  case CK_SINGLE: return sum_to<float, double>(out, a);
  case CK_INT8: return sum_int<int8_t>(a);
  case CK_UINT8: return sum_int<uint8_t>(a);
  case CK_INT16: return sum_int<int16_t>(a);
  case CK_UINT16: return sum_int<uint16_t>(a);
  case CK_INT32: return sum_int<int32_t>(a);
  case CK_UINT32: return sum_int<uint32_t>(a);
  case CK_INT64:
  case CK_UINT64:
    if (a->mode == CK_SUM_MODE_NATIVE) return a->t == CK_INT64 ? sum_int<i64>(a) : sum_int<u64>(a);
    /* Octave converts 64-bit integers to double and sums in double; so do we. */
    return a->t == CK_INT64 ? sum_to<i64, double>(CK_DOUBLE, a) : sum_to<u64, double>(CK_DOUBLE, a);
  default: return ck_fail(CK_ERR_INVALID, "sum: unsupported class %d", (int)a->t);
  }
}
