/* The integer path's value ranges (minplus_dpx_run.cuh): the minimum and maximum of each operand,
 * found on the device by a pass of their own or by the packing as it goes, kept in a small
 * record on the device and read back behind the work that fills it.
 *
 * Why a record with epochs rather than a buffer allocated and cleared per product: every integer
 * product needs its ranges, and an allocation, a memset and a free were three host calls and a
 * GPU pass before the first kernel; with the packing and the range pass latency-bound too, the
 * small products ran 1.04-1.18x slower (doc/NOTES.md, "what the small integer products spend
 * outside the kernel"). */
#ifndef CK_MINPLUS_RANGES_CUH
#define CK_MINPLUS_RANGES_CUH

#include <string.h>

#include "minplus.cuh"

/* The range record on the device: [0..1] the minima of A and B, [2..3] their maxima, each as a
 * key that only grows (atomicMax): the product's epoch in the high bits, then the value biased by
 * 2^32 (int32 to uint32 values span [2^31, 2^33)), complemented within the field for the minima.
 * The record stays on the device (ck_device_scratch) and each product's epoch is above every
 * earlier one, so the first key a product publishes replaces what the last left: no product
 * allocates or clears a record (a memset and two allocation calls on the path of every integer
 * product before its first kernel). */
#define MP_RECORD 4
#define MP_EPOCH_SHIFT 34 /* the field below the epoch */
#define MP_FIELD ((1LL << MP_EPOCH_SHIFT) - 1)
#define MP_BIAS (1LL << 32)
#define MP_EPOCHS (1LL << 29) /* keys stay below 2^63 */

__host__ __device__ __forceinline__ long long mp_key_min(long long v, long long tag) {
  return tag | (MP_FIELD - (v + MP_BIAS));
}
__host__ __device__ __forceinline__ long long mp_key_max(long long v, long long tag) {
  return tag | (v + MP_BIAS);
}
__host__ __device__ __forceinline__ long long mp_min_of(long long key) {
  return MP_FIELD - (key & MP_FIELD) - MP_BIAS;
}
__host__ __device__ __forceinline__ long long mp_max_of(long long key) {
  return (key & MP_FIELD) - MP_BIAS;
}

/* One block's minimum and maximum (every thread's lo, hi) into range[which] and range[2 +
 * which]: a block reduction in registers and shared memory, then an atomic only where the block
 * improves on the bound as last seen. Atomics on one address serialize: one per warp took tens
 * of microseconds, one per block of the packing (thousands) 5-15 us; most blocks of the packing
 * hold nothing beyond the extremes already published. */
__device__ __forceinline__ void publish_range(long long lo, long long hi, long long *range,
                                              long long tag, int which) {
  __shared__ long long part[2][MP_THREADS / 32];
  for (int o = 16; o > 0; o /= 2) {
    long long l2 = __shfl_down_sync(0xffffffffu, lo, o), h2 = __shfl_down_sync(0xffffffffu, hi, o);
    lo = l2 < lo ? l2 : lo;
    hi = h2 > hi ? h2 : hi;
  }
  if (threadIdx.x % 32 == 0) {
    part[0][threadIdx.x / 32] = lo;
    part[1][threadIdx.x / 32] = hi;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < (int)blockDim.x / 32; w++) {
      lo = part[0][w] < lo ? part[0][w] : lo;
      hi = part[1][w] > hi ? part[1][w] : hi;
    }
    if (lo <= hi) { /* else this block had no elements */
      const volatile long long *seen = range;
      const long long klo = mp_key_min(lo, tag), khi = mp_key_max(hi, tag);
      if (klo > seen[which]) atomicMax(&range[which], klo);
      if (khi > seen[2 + which]) atomicMax(&range[2 + which], khi);
    }
  }
}

template <class T> __device__ __forceinline__ void widen_range(T v, T &lo, T &hi) {
  lo = v < lo ? v : lo;
  hi = v > hi ? v : hi;
}

/* The passes below over operands and words are latency-bound, not bandwidth-bound: a thread that
 * loads, then stores, one element per trip waits a memory round trip each time, and thousands of
 * short blocks queue in waves (at 256 x 8192 x 256 the packing took 16 us for 12 MB). So each
 * thread issues several loads before using any, and the grid is about one wave (three blocks of
 * 256 threads per SM and operand), striding over the rest. */
static unsigned pass_blocks(size_t work_per_operand, size_t per_block) {
  size_t most = (size_t)mp_sm_count() * MP_PASS_BLOCKS_PER_SM,
         g = (work_per_operand + per_block - 1) / per_block;
  return (unsigned)(g < 1 ? 1 : g < most ? g : most);
}

/* The ranges of A (blockIdx.y 0) and B (1): 16-byte loads, four in flight per thread (elements
 * one by one where the operand is not 16-byte aligned, and for the tail). */
template <class T>
__global__ void value_ranges(const T *__restrict__ A, size_t count_a, const T *__restrict__ B,
                             size_t count_b, long long *range, long long tag) {
  typedef mp_traits<T> tr;
  constexpr int E = 16 / sizeof(T), U = 4;
  const T *x = blockIdx.y ? B : A;
  const size_t count = blockIdx.y ? count_b : count_a;
  const size_t stride = (size_t)gridDim.x * blockDim.x,
               first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  T lo = tr::empty(), hi = tr::lowest();
  size_t done = 0;
  if (((uintptr_t)x & 15) == 0) {
    const size_t vecs = count / E;
    size_t i = first;
    for (; i + (U - 1) * stride < vecs; i += U * stride) {
      vec16<T> v[U];
#pragma unroll
      for (int u = 0; u < U; u++) v[u] = load16(x + (i + u * stride) * E);
#pragma unroll
      for (int u = 0; u < U; u++)
#pragma unroll
        for (int e = 0; e < E; e++) widen_range(v[u].e[e], lo, hi);
    }
    for (; i < vecs; i += stride) {
      vec16<T> v = load16(x + i * E);
#pragma unroll
      for (int e = 0; e < E; e++) widen_range(v.e[e], lo, hi);
    }
    done = vecs * E;
  }
  for (size_t i = done + first; i < count; i += stride) widen_range(x[i], lo, hi);
  publish_range((long long)lo, (long long)hi, range, tag, (int)blockIdx.y);
}

/* The range record on its way to the host: a copy into pinned memory queued behind the work that
 * fills it (mark_read, just after that work), so that more work can be queued before the host
 * waits for it. */
struct mp_record_read {
  const long long *d;
  long long tag; /* the epoch its keys carry */
  bool marked;
  long long *pinned; /* NULL: read synchronously at the end */
  cudaEvent_t ready;
};

static void mark_read(long long *d, long long tag, mp_record_read *rd) {
  rd->d = d;
  rd->tag = tag;
  rd->pinned = NULL;
  rd->marked = ck_note_mark() == CK_OK;
}

/* The copy itself, behind the mark: its API calls need not delay the work queued meanwhile. */
static void queue_read(mp_record_read *rd) {
  void *buf;
  /* without the note, finish_read copies synchronously */
  if (rd->marked && ck_read_note(rd->d, MP_RECORD * sizeof(long long), &buf, &rd->ready) == CK_OK)
    rd->pinned = (long long *)buf;
}

static void start_read(long long *d, long long tag, mp_record_read *rd) {
  mark_read(d, tag, rd);
  queue_read(rd);
}

/* h: min A, min B, max A, max B. */
static ck_status finish_read(const mp_record_read *rd, long long h[MP_RECORD]) {
  if (rd->pinned) {
    CK_CUDA(cudaEventSynchronize(rd->ready), "reading the operands' ranges");
    memcpy(h, rd->pinned, MP_RECORD * sizeof(long long));
  } else {
    CK_CUDA(cudaMemcpy(h, rd->d, MP_RECORD * sizeof(long long), cudaMemcpyDeviceToHost),
            "reading the operands' ranges");
  }
  for (int w = 0; w < MP_RECORD; w++) { /* every operand has elements: each key was published */
    if ((h[w] & ~MP_FIELD) != rd->tag)
      return ck_fail(CK_ERR_CUDA, "min-plus: the operands' ranges were not recorded");
    h[w] = w < 2 ? mp_min_of(h[w]) : mp_max_of(h[w]);
  }
  return CK_OK;
}

/* The record and the tag of a new epoch (see MP_RECORD). */
static ck_status next_record(long long **d, long long *tag) {
  long long *epoch; /* 0 with a new record, which is all zeros: below any key */
  CK_TRY(ck_device_scratch(CK_SCRATCH_RANGES, (void **)d, &epoch));
  if (++*epoch == MP_EPOCHS) {
    CK_CUDA(cudaMemsetAsync(*d, 0, MP_RECORD * sizeof(long long)), "clearing the range record");
    *epoch = 1;
  }
  *tag = *epoch << MP_EPOCH_SHIFT;
  return CK_OK;
}

/* The ranges of dA (count_a elements) and dB into the record d under tag. */
template <class T>
static ck_status find_ranges(const T *dA, size_t count_a, const T *dB, size_t count_b, long long *d,
                             long long tag) {
  size_t most = count_a > count_b ? count_a : count_b;
  value_ranges<T><<<dim3(pass_blocks(most, MP_THREADS * MP_RANGE_BYTES_PER_THREAD / sizeof(T)), 2),
                    MP_THREADS>>>(dA, count_a, dB, count_b, d, tag);
  CK_CUDA(cudaGetLastError(), "finding the operands' ranges");
  return CK_OK;
}

#endif
