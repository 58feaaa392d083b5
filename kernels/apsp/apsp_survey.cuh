/* The survey of a call's weights (apsp.cu, ap_class): what the problem refuses, an unbounded
 * diagonal entry, the edges' range and whether any is a fraction, which pick the work type and
 * the errors; the scratch each device keeps for it and for the run's notes, and the lane's
 * pinned words that clear it and read it back. Part of apsp.cu's translation unit. */
#pragma once
#include <limits.h>
#include <string.h>

#include "apsp_problem.cuh"
#include "index.cuh"

struct ap_facts {
  int refused;       /* a weight the problem refuses (ap_problem::refused) */
  long long negdiag; /* the smallest page * n + vertex with an unbounded diagonal entry;
                        LLONG_MAX: none */
  int fraction;      /* sums of single or double: an edge that is not an integer of at most 2^31,
                       or -0 */
  long long lo, hi;  /* sums: the extremes of the edges (not "no edge", off the diagonal) as the
                       shortest-path problem sees them (-W for max.+) */
  int below;         /* an edge that would be unbounded as a loop on its own (min.+: negative);
                        without one no cycle is (a cycle's length is its edges' sum, or product) */
};

/* The facts of no weight: a survey's start. */
__host__ __device__ static inline ap_facts ap_no_facts(void) {
  return {0, LLONG_MAX, 0, LLONG_MAX, LLONG_MIN, 0};
}

/* Where a survey that hands its facts over itself (ap_class_unwaited) leaves them: its last block
 * (arrived counts the blocks done) copies them into host words (host: the device's address of
 * the lane's mapped words) and leaves the facts and arrived cleared for the next call, so that
 * the call neither clears a scratch nor copies the facts back. arrived NULL: the facts stay where
 * the blocks put them. */
struct ap_survey_out {
  unsigned *arrived;
  ap_facts *host;
};

/* Thread 0 of each block, once the block's facts are in f. */
__device__ __forceinline__ void ap_survey_hand_over(ap_facts *f, const ap_survey_out &out) {
  __threadfence(); /* this block's atomics before its arrival */
  if (atomicAdd(out.arrived, 1u) != gridDim.x - 1) return;
  __threadfence(); /* every block's atomics before the reads */
  volatile ap_facts *v = f;
  const ap_facts none = ap_no_facts();
  out.host->refused = v->refused, out.host->negdiag = v->negdiag;
  out.host->fraction = v->fraction, out.host->lo = v->lo, out.host->hi = v->hi;
  out.host->below = v->below;
  v->refused = none.refused, v->negdiag = none.negdiag, v->fraction = none.fraction;
  v->lo = none.lo, v->hi = none.hi, v->below = none.below;
  *out.arrived = 0;
  __threadfence_system();
}

/* A survey that only reads W. */
struct ap_no_fill {
  template <class Tc> __device__ void operator()(size_t, Tc, size_t, bool) const {}
};

/* A survey that also writes W into the work matrix where it lies in place (np == n, one share,
 * one page: ap_in_place), as ap_convert_in writes it (W(r, c) at idx; diagonal: r == c), so that
 * the call reads W once and launches one kernel fewer (ap_class_unwaited). */
template <class Tc, class T, int S> struct ap_fill_in {
  T *X;
  int *N;
  T inf;
  __device__ void operator()(size_t idx, Tc w, size_t r, bool diagonal) const {
    bool edge = false;
    X[idx] = diagonal ? ap_problem<S>::SR::mul::template one<T>()
                      : ap_in_value<Tc, T, S>(w, inf, edge);
    if (N) N[idx] = edge ? (int)r + 1 : 0;
  }
};

/* W's columns c0 .. c0 + cols - 1 (W points at column c0) of each of its pages (one page: a
 * share of a 2-D call; several: whole graphs, c0 0 and cols n). */
template <class Tc, int S, class F = ap_no_fill>
__global__ void ap_survey(const Tc *__restrict__ W, size_t n, size_t c0, size_t cols, size_t pages,
                          ap_facts *f, ap_survey_out out = {}, F fill = {}) {
  typedef ap_problem<S> Pb;
  long long lo = LLONG_MAX, hi = LLONG_MIN, negdiag = LLONG_MAX;
  int refused = 0, fraction = 0, below = 0;
  const size_t page = cols * n, count = page * pages, stride = (size_t)gridDim.x * blockDim.x;
  for (size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x; idx < count; idx += stride) {
    const Tc v = W[idx];
    size_t q, c, r; /* W(r, c) of page q */
    split_index(idx, page, q, c);
    split_index(c, n, c, r);
    c += c0;
    fill(idx, v, r, r == c);
    if (Pb::refused(v)) {
      refused = 1;
      continue;
    }
    if (r == c) {
      if (Pb::unbounded_self(v)) negdiag = min(negdiag, (long long)(q * n + r));
      continue;
    }
    below |= Pb::unbounded_self(v);
    if (!Pb::SUMS || Pb::template no_edge<Tc>(v)) continue;
    if constexpr (mp_traits<Tc>::is_float) {
      if (mp_not_whole(v, (Tc)2147483648.0)) { /* v, not -v: the integer work types give +0 for
                                                  -W's zeros too */
        fraction = 1;
        continue;
      }
    }
    const long long w = Pb::REV ? -(long long)v : (long long)v;
    lo = min(lo, w);
    hi = max(hi, w);
  }
  /* the block's facts, then one atomic each a block: a warp's each, on the same few words from
   * every warp of 1056 blocks, took some 35 us whatever n (H100, doc/NOTES.md) */
  auto warp_facts = [&]() {
    for (int o = 16; o > 0; o /= 2) {
      lo = min(lo, __shfl_xor_sync(0xffffffffu, lo, o));
      hi = max(hi, __shfl_xor_sync(0xffffffffu, hi, o));
      refused |= __shfl_xor_sync(0xffffffffu, refused, o);
      fraction |= __shfl_xor_sync(0xffffffffu, fraction, o);
      below |= __shfl_xor_sync(0xffffffffu, below, o);
      negdiag = min(negdiag, __shfl_xor_sync(0xffffffffu, negdiag, o));
    }
  };
  __shared__ long long los[32], his[32], negs[32];
  __shared__ int flags[32];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
  warp_facts();
  if (lane == 0) {
    los[warp] = lo, his[warp] = hi, negs[warp] = negdiag;
    flags[warp] = refused | 2 * fraction | 4 * below;
  }
  __syncthreads();
  if (warp) return;
  lo = lane < warps ? los[lane] : LLONG_MAX;
  hi = lane < warps ? his[lane] : LLONG_MIN;
  negdiag = lane < warps ? negs[lane] : LLONG_MAX;
  refused = lane < warps ? flags[lane] & 1 : 0;
  fraction = lane < warps ? flags[lane] >> 1 & 1 : 0;
  below = lane < warps ? flags[lane] >> 2 : 0;
  warp_facts();
  if (lane) return;
  if (refused) atomicOr(&f->refused, 1);
  if (fraction) atomicOr(&f->fraction, 1);
  if (below) atomicOr(&f->below, 1);
  if (negdiag != LLONG_MAX) atomicMin(&f->negdiag, negdiag);
  if (lo != LLONG_MAX) {
    atomicMin(&f->lo, lo);
    atomicMax(&f->hi, hi);
  }
  if (out.arrived) ap_survey_hand_over(f, out);
}

/* The pages of a call (a 2-D call: one). */
static size_t ap_pages(const ck_apsp_args *a) { return a->pages ? a->pages : 1; }

/* Whether a cycle may be unbounded, from the survey: an edge that would be as a loop on its own,
 * or a weight to itself that is (pages: their run names the page). Where none can, a graph by tiles
 * neither keeps a host graph's weights for a second run nor waits to read its cycle word, and
 * leaves its launch queued as the integer work types do (the read took about 12 us a call). */
static bool ap_may_cycle(const ap_facts &f) { return f.below || f.negdiag != LLONG_MAX; }

/* What each share's device keeps beside its rows: the survey's facts and the unbounded-cycle
 * flags (the rounds': a vertex; the batch's: page * n + vertex). */
struct ap_scratch {
  ap_facts f;
  unsigned arrived; /* a survey that hands its facts over itself: its blocks done (ap_survey_out) */
  int neg;
  unsigned long long page_neg;
  int refused;                  /* the batched kernel's own survey (ap_checks_itself) */
  unsigned long long page_self; /* ... an unbounded diagonal entry, page * n + vertex */
};
static_assert(sizeof(ap_scratch) <= CK_SCRATCH_BYTES, "ap_kept keeps it in a lane's slot");
/* ap_scratch in whole words, as the lane's pinned words hold it (ap_survey_words, ap_findings) */
constexpr size_t AP_SCRATCH_WORDS = (sizeof(ap_scratch) + sizeof(int) - 1) / sizeof(int);
static_assert(AP_SCRATCH_WORDS * sizeof(int) % alignof(ap_facts) == 0,
              "the facts after a scratch in the pinned words are aligned");

/* bytes at dev (on the current device) into host, through pinned words where the lane has them
 * (NULL: none; a copy into pageable memory took longer, doc/NOTES.md) */
static ck_status ap_read_back(void *host, const void *dev, size_t bytes, void *pinned,
                              const char *what) {
  if (!pinned) return ck_cuda_check(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost), what);
  CK_CUDA(cudaMemcpyAsync(pinned, dev, bytes, cudaMemcpyDeviceToHost, 0), what);
  CK_CUDA(cudaStreamSynchronize(0), what);
  memcpy(host, pinned, bytes);
  return CK_OK;
}

/* A scratch as a call starts it: no facts, no unbounded path, nothing refused. */
static ap_scratch ap_cleared(void) {
  return {ap_no_facts(), 0, INT_MAX, ULLONG_MAX, 0, ULLONG_MAX};
}

/* The lane's pinned words for a cleared scratch and, after it, a survey's facts (NULL where it
 * has none): copies from and to pageable memory wait on the host for the copy engine. */
static int *ap_survey_words(void) {
  int *words = NULL;
  if (ck_host_words(&words, 2 * AP_SCRATCH_WORDS) != CK_OK) return NULL;
  const ap_scratch init = ap_cleared();
  memcpy(words, &init, sizeof init);
  return words;
}

/* Each share's scratch, cleared; f, the facts of no weight. */
static ck_status ap_scratch_init(const ck_apsp_part *parts, int count, ap_scratch **sc, ap_facts &f,
                                 const int *words = NULL) {
  const ap_scratch init = ap_cleared();
  f = init.f;
  for (int i = 0; i < count; i++) {
    CK_TRY(ck_device_use(parts[i].dev));
    if (!sc[i]) CK_TRY(ck_dev_alloc((void **)&sc[i], sizeof(ap_scratch))); /* again: cleared */
    CK_CUDA(cudaMemcpyAsync(sc[i], words ? (const void *)words : &init, sizeof init,
                            cudaMemcpyHostToDevice, 0),
            "clearing the survey");
  }
  return CK_OK;
}

/* A survey's blocks for count weights: eight an SM at most, each thread then taking several. */
static unsigned ap_survey_blocks(size_t count) {
  const unsigned most = (unsigned)mp_sm_count() * 8, need = grid_for(count, MP_THREADS);
  return need < most ? need : most;
}

/* Each share's survey queued, into its scratch (cleared by ap_scratch_init). */
template <class Tc, int S>
static ck_status ap_survey_launch(const ck_apsp_args *a, const ck_apsp_part *parts, int count,
                                  ap_scratch **sc) {
  for (int i = 0; i < count; i++) {
    const size_t cols = parts[i].cols;
    CK_TRY(ck_device_use(parts[i].dev));
    const size_t pages = ap_pages(a);
    ap_survey<Tc, S><<<ap_survey_blocks(pages * cols * a->n), MP_THREADS>>>(
        (const Tc *)parts[i].W, a->n, parts[i].r0, cols, pages, &sc[i]->f);
    CK_CUDA(cudaGetLastError(), "surveying the weights");
  }
  return CK_OK;
}

/* Every share's survey, put together. */
template <class Tc, int S>
static ck_status ap_survey_all(const ck_apsp_args *a, const ck_apsp_part *parts, int count,
                               ap_scratch **sc, ap_facts &f) {
  CK_TRY(ck_device_use(parts[0].dev)); /* the words of the lane that the call's devices share */
  int *words = ap_survey_words();
  ap_facts *read = words ? (ap_facts *)(words + AP_SCRATCH_WORDS) : NULL;
  CK_TRY(ap_scratch_init(parts, count, sc, f, words));
  CK_TRY((ap_survey_launch<Tc, S>(a, parts, count, sc)));
  for (int i = 0; i < count; i++) {
    ap_facts g;
    CK_TRY(ck_device_use(parts[i].dev));
    CK_TRY(ap_read_back(&g, &sc[i]->f, sizeof g, read, "surveying the weights"));
    f.refused |= g.refused, f.fraction |= g.fraction, f.below |= g.below;
    f.negdiag = g.negdiag < f.negdiag ? g.negdiag : f.negdiag;
    f.lo = g.lo < f.lo ? g.lo : f.lo;
    f.hi = g.hi > f.hi ? g.hi : f.hi;
  }
  return CK_OK;
}
