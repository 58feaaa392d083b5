/* All-pairs shortest paths on the GPU: the driver of blocked Floyd-Warshall (apsp.cuh has the
 * algorithm and the work types). What it does around the rounds: survey the weights (NaN, -Inf,
 * a negative diagonal, the integer range), pick the work type, convert W into the padded work
 * matrix, run the rounds a couple at a time so that Ctrl-C and a negative cycle stop them
 * within a round or two, and convert back. Also the path walk over a device P. */
#include <limits.h>
#include <stdlib.h>
#include <time.h>
#include <type_traits>

#include "apsp.cuh"

/* ---- the survey ---- */

struct ap_facts {
  int nan, neginf;   /* floating point: any NaN, any -Inf off the diagonal */
  int negdiag;       /* the smallest vertex with a negative diagonal entry; INT_MAX: none */
  int fraction;      /* floating point: an edge that is not an integer of at most 2^31, or -0 */
  long long lo, hi;  /* the extremes of the edges (not "no edge", off the diagonal) */
};

/* An edge of single or double data that the integer work types cannot take as it is. */
template <class Tc> __device__ __forceinline__ bool ap_fraction(Tc v) {
  return mp_not_whole(v, (Tc)2147483648.0);
}

template <class Tc> __device__ __forceinline__ bool ap_no_edge(Tc v) {
  if constexpr (mp_traits<Tc>::is_float) return v == (Tc)INFINITY;
  else return v == mp_traits<Tc>::empty();
}

template <class Tc>
__global__ void ap_survey(const Tc *__restrict__ W, size_t n, ap_facts *f) {
  long long lo = LLONG_MAX, hi = LLONG_MIN;
  int nan = 0, neginf = 0, negdiag = INT_MAX, fraction = 0;
  const size_t count = n * n, stride = (size_t)gridDim.x * blockDim.x;
  for (size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x; idx < count; idx += stride) {
    const Tc v = W[idx];
    size_t c, r; /* W(r, c) */
    split_index(idx, n, c, r);
    if (r == c) {
      if (std::is_signed<Tc>::value && v < (Tc)0) negdiag = min(negdiag, (int)r);
      continue;
    }
    if constexpr (mp_traits<Tc>::is_float) {
      nan |= v != v;
      neginf |= v == -(Tc)INFINITY;
      if (ap_no_edge(v) || v != v || v == -(Tc)INFINITY) continue;
      if (ap_fraction(v)) {
        fraction = 1;
        continue;
      }
    }
    if (!ap_no_edge(v)) {
      lo = min(lo, (long long)v);
      hi = max(hi, (long long)v);
    }
  }
  for (int o = 16; o > 0; o /= 2) {
    lo = min(lo, __shfl_xor_sync(0xffffffffu, lo, o));
    hi = max(hi, __shfl_xor_sync(0xffffffffu, hi, o));
    nan |= __shfl_xor_sync(0xffffffffu, nan, o);
    neginf |= __shfl_xor_sync(0xffffffffu, neginf, o);
    fraction |= __shfl_xor_sync(0xffffffffu, fraction, o);
    negdiag = min(negdiag, __shfl_xor_sync(0xffffffffu, negdiag, o));
  }
  if (threadIdx.x % 32) return;
  if (nan) atomicOr(&f->nan, 1);
  if (neginf) atomicOr(&f->neginf, 1);
  if (fraction) atomicOr(&f->fraction, 1);
  if (negdiag != INT_MAX) atomicMin(&f->negdiag, negdiag);
  if (lo != LLONG_MAX) {
    atomicMin(&f->lo, lo);
    atomicMax(&f->hi, hi);
  }
}

/* "No edge" in work type T for data of class Tc: the class's intmax for integers (apsp.cuh),
 * for single and double data in an integer work type the largest value whose sum with another
 * cannot wrap. */
template <class Tc, class T> __host__ __device__ __forceinline__ T ap_no_path() {
  if constexpr (mp_traits<T>::is_float) return (T)INFINITY;
  else if constexpr (mp_traits<Tc>::is_float) return sizeof(T) == 2 ? (T)INT16_MAX : (T)INT32_MAX;
  else return (T)mp_traits<Tc>::empty();
}

/* ---- conversions ----
 * In: X (np x np) from W as it lies in memory (so X is W transposed, apsp.cuh): the diagonal 0,
 * no edge `inf`, the padding isolated vertices; N the next hop of each edge (its column).
 * X may be W itself (same element size, np == n): each element is read, then written, by the
 * same thread. */
template <class Tc, class T>
__global__ void ap_convert_in(const Tc *W, size_t n, T *X, int *N, size_t np, T inf) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= np * np) return;
  size_t r, c;
  split_index(idx, np, r, c);
  bool edge = false;
  T x = r == c ? (T)0 : inf;
  if (r < n && c < n && r != c) {
    const Tc v = W[r * n + c];
    edge = !ap_no_edge(v);
    if (edge) x = (T)v;
  }
  X[idx] = x;
  if (N) N[idx] = edge ? (int)c + 1 : 0;
}

/* Out: D in the class of W, P cropped. Integers run in double saturate to the class, and a
 * length of intmax or more is no path (P 0), as in the integer work types. Single and double
 * data run in an integer work type (ap_pick_float) have no path at its "no edge" (ap_no_path)
 * and above, +Inf. */
template <class T, class Tc>
__global__ void ap_convert_out(const T *X, const int *N, size_t np, Tc *D, int32_t *P, size_t n) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= n * n) return;
  size_t r, c;
  split_index(idx, n, r, c);
  const T x = X[r * np + c];
  int nx = N ? N[r * np + c] : 0;
  Tc d;
  if constexpr (mp_traits<Tc>::is_float && !mp_traits<T>::is_float) {
    d = x >= ap_no_path<Tc, T>() ? (Tc)INFINITY : (Tc)x;
  } else if constexpr (mp_traits<Tc>::is_float || !mp_traits<T>::is_float) {
    d = (Tc)x;
  } else {
    typedef mp_traits<Tc> tr;
    if (x >= (double)tr::empty()) d = tr::empty(), nx = 0;
    else if (x <= (double)tr::lowest()) d = tr::lowest();
    else d = (Tc)x;
  }
  D[idx] = d;
  if (P) P[idx] = nx;
}

/* ---- the rounds ---- */

static double ap_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Snapshot buffers of one level, B deep over `size` vertices; `words`: the warptile level of
 * 16-bit work, whose A operands are 32-bit words. */
/* Consecutive 16-byte-aligned pieces of one device block. */
struct ap_carve {
  char *p;
  void *take(size_t bytes) {
    char *q = p;
    p += (bytes + 15) / 16 * 16;
    return q;
  }
};

template <class T, class TW> struct ap_snap_mem {
  ap_snap<T, TW> s;
  void *block;
  ck_status alloc(size_t size, size_t B) {
    const bool words = sizeof(TW) != sizeof(T);
    const size_t pv = B * B, strip = B * size;
    size_t bytes = sizeof(T) * (pv + 3 * strip) + (words ? sizeof(TW) * (pv + 2 * strip) : 0) +
                   16 * 16;
    block = NULL;
    CK_TRY(ck_dev_alloc(&block, bytes));
    ap_carve c = {(char *)block};
    auto take = [&](size_t b) { return c.take(b); };
    s.pv = (T *)take(sizeof(T) * pv);
    s.rs = (T *)take(sizeof(T) * strip);
    s.cs = (T *)take(sizeof(T) * strip);
    s.cs2 = (T *)take(sizeof(T) * strip);
    s.pva = words ? (TW *)take(sizeof(TW) * pv) : (TW *)s.pv;
    s.csa = words ? (TW *)take(sizeof(TW) * strip) : (TW *)s.cs;
    s.cs2a = words ? (TW *)take(sizeof(TW) * strip) : (TW *)s.cs2;
    return CK_OK;
  }
};

/* The histories of a round with paths (apsp.cuh), over np vertices. */
template <class T, class TW> struct ap_hist_mem {
  ap_hist<T, TW> h;
  void *block;
  ck_status alloc(size_t np) {
    const size_t B = AP_BLOCK, pv = B * B, strip = B * np;
    const bool words = sizeof(TW) != sizeof(T);
    const size_t bytes = sizeof(T) * (2 * pv + 2 * strip) + sizeof(int) * (pv + strip) +
                         (words ? sizeof(TW) * strip : 0) + 8 * 16;
    block = NULL;
    CK_TRY(ck_dev_alloc(&block, bytes));
    ap_carve c = {(char *)block};
    auto take = [&](size_t b) { return c.take(b); };
    h.pr = (T *)take(sizeof(T) * pv);
    h.pc = (T *)take(sizeof(T) * pv);
    h.rs = (T *)take(sizeof(T) * strip);
    h.cs = (T *)take(sizeof(T) * strip);
    h.npc = (int *)take(sizeof(int) * pv);
    h.ncs = (int *)take(sizeof(int) * strip);
    h.csa = words ? (TW *)take(sizeof(TW) * strip) : (TW *)h.cs;
    return CK_OK;
  }
};

/* At most this many rounds are queued ahead of the one the host waits for: enough to keep the GPU
 * busy between them, few enough that Ctrl-C and a negative cycle end the call within a round or
 * two. */
#define AP_IN_FLIGHT 2

struct ap_watch {
  cudaEvent_t done[AP_IN_FLIGHT];
  int *neg_host; /* pinned: the negative-cycle flag of the round each event follows */
};

/* Before queueing round r: wait for round r - AP_IN_FLIGHT, then look at what it found (*stop: a
 * negative cycle, which the caller reads from the device), and at Ctrl-C and the clock. */
static ck_status ap_pace(ap_watch &w, ck_apsp_args *a, size_t r, size_t rounds, double &last,
                         bool &stop) {
  stop = false;
  if (r < AP_IN_FLIGHT) return CK_OK;
  const int slot = (int)(r % AP_IN_FLIGHT);
  CK_TRY(ck_cuda_check(cudaEventSynchronize(w.done[slot]), "running shortest paths"));
  if (w.neg_host[slot] != INT_MAX) {
    stop = true;
    return CK_OK;
  }
  if (a->cancelled && a->cancelled(a->ctx))
    return ck_fail(CK_ERR_INTERRUPTED, "shortest paths: interrupted after %zu of %zu rounds",
                   r - AP_IN_FLIGHT + 1, rounds);
  if (a->progress && ap_now() - last >= 1.0) {
    a->progress(a->ctx, r - AP_IN_FLIGHT + 1, rounds);
    last = ap_now();
  }
  return CK_OK;
}

/* After queueing round r: its launches' errors, then the flag and the event ap_pace waits for. */
static ck_status ap_mark(ap_watch &w, const int *neg, size_t r) {
  const int slot = (int)(r % AP_IN_FLIGHT);
  CK_TRY(ck_cuda_check(cudaGetLastError(), "launching a round of shortest paths"));
  CK_TRY(ck_cuda_check(cudaMemcpyAsync(&w.neg_host[slot], neg, sizeof(int),
                                       cudaMemcpyDeviceToHost, 0),
                       "reading the negative-cycle flag"));
  return ck_cuda_check(cudaEventRecord(w.done[slot], 0), "recording a round");
}

template <class T, bool ARG> static ck_status ap_rounds(const ap_matrix<T> &m, ck_apsp_args *a,
                                                        ap_watch &w) {
  typedef typename ap_work<T>::S TW;
  ap_snap_mem<T, TW> big = {};
  ap_snap_mem<T, T> tile = {};
  ap_hist_mem<T, TW> hist = {};
  ck_status st = ARG ? hist.alloc(m.np) : big.alloc(m.np, AP_BLOCK);
  if (st == CK_OK && !ARG) st = tile.alloc(AP_BLOCK, AP_TILE);
  const size_t rounds = m.np / AP_BLOCK;
  double last = ap_now();
  bool stop = false;
  for (size_t r = 0; st == CK_OK && r < rounds; r++) {
    st = ap_pace(w, a, r, rounds, last, stop);
    if (st != CK_OK || stop) break;
    if (ARG) {
      ap_round_hist<T>(m, r * AP_BLOCK, hist.h);
    } else {
      ap_close_block<T>(m, r * AP_BLOCK, AP_BLOCK, tile.s);
      ap_round_rest<T>(m, r * AP_BLOCK, big.s);
    }
    st = ap_mark(w, m.neg, r);
  }
  cudaError_t e = cudaDeviceSynchronize(); /* nothing of this call runs after its buffers go */
  if (st == CK_OK) st = ck_cuda_check(e, "running shortest paths");
  ck_dev_free(big.block);
  ck_dev_free(tile.block);
  ck_dev_free(hist.block);
  return st;
}

/* The work type of an integer class and its range (apsp.cuh). */
enum ap_form { AP_DOUBLE, AP_U32, AP_U16, AP_CLASS };

static ap_form ap_pick_form(ck_dtype t, const ap_facts &f) {
  if (t == CK_UINT32 || f.lo < 0) return AP_DOUBLE;
  return t == CK_INT32 || t == CK_UINT16 ? AP_U32 : AP_U16;
}

/* Single and double data whose edges are all nonnegative integers run in an integer work type
 * when nothing can differ (issue 17, as gpu_minplus does): every shortest path's length, at most
 * (n - 1) times the longest edge, is below the work type's "no edge" (ap_no_path), so no sum that
 * can win reaches it, and, for single, at most 2^24, so that the float path's sums are exact too.
 * Then D and P are the float path's bit for bit. Otherwise (fractions, -0, negative edges, longer
 * paths, or narrowing off: ck_minplus_set_narrow) they work in their own class. */
static ap_form ap_pick_float(ck_dtype t, const ap_facts &f, size_t n) {
  if (f.fraction || f.lo < 0 || ck_minplus_set_narrow(-1) == CK_NARROW_OFF) return AP_CLASS;
  const double longest = f.lo <= f.hi ? (double)(n - 1) * (double)f.hi : 0.0;
  if (t == CK_SINGLE && longest > 16777216.0) return AP_CLASS;
  return longest < INT16_MAX ? AP_U16 : longest < INT32_MAX ? AP_U32 : AP_CLASS;
}

static ck_dtype ap_last = CK_DOUBLE;
extern "C" ck_dtype ck_apsp_last_path(void) { return ap_last; }

/* The whole device call for class Tc in work type T. */
template <class Tc, class T>
static ck_status ap_run(ck_apsp_args *a, int *neg, ap_watch &w) {
  const size_t n = a->n, np = round_up(n, AP_BLOCK), count = np * np;
  /* X in D, N in P, where the work type's values are the class's as they lie */
  const bool in_place = np == n && sizeof(T) == sizeof(Tc) &&
                        (bool)mp_traits<T>::is_float == (bool)mp_traits<Tc>::is_float;
  T *X = in_place ? (T *)a->D : NULL;
  int *N = in_place ? a->P : NULL;
  const T inf = ap_no_path<Tc, T>();
  ck_status st = CK_OK;
  if (!X) st = ck_dev_alloc((void **)&X, count * sizeof(T));
  if (st == CK_OK && a->P && !N) st = ck_dev_alloc((void **)&N, count * sizeof(int));
  ap_matrix<T> m = {X, N, np, neg};
  if (st == CK_OK) {
    ap_convert_in<Tc, T><<<grid_for(count, MP_THREADS), MP_THREADS>>>((const Tc *)a->W, n, X, N,
                                                                    np, inf);
    st = a->P ? ap_rounds<T, true>(m, a, w) : ap_rounds<T, false>(m, a, w);
  }
  int found = INT_MAX;
  if (st == CK_OK)
    st = ck_cuda_check(cudaMemcpy(&found, neg, sizeof(int), cudaMemcpyDeviceToHost),
                        "reading the negative-cycle flag");
  if (st == CK_OK && found != INT_MAX) {
    a->cycle_vertex = (size_t)found + 1;
    st = ck_fail(CK_ERR_NEGCYCLE, "the graph has a negative cycle through vertex %zu",
                 a->cycle_vertex);
  }
  if (st == CK_OK && !in_place) {
    ap_convert_out<T, Tc><<<grid_for(n * n, MP_THREADS), MP_THREADS>>>(X, N, np, (Tc *)a->D,
                                                                      a->P, n);
    st = ck_cuda_check(cudaDeviceSynchronize(), "converting shortest paths");
  }
  if (!in_place) {
    ck_dev_free(X);
    ck_dev_free(N);
  }
  return st;
}

template <class Tc> static ck_status ap_class(ck_apsp_args *a) {
  struct scratch {
    ap_facts f;
    int neg;
  } *dev = NULL;
  ap_watch w = {{NULL, NULL}, NULL};
  CK_TRY(ck_dev_alloc((void **)&dev, sizeof(scratch)));
  scratch init = {{0, 0, INT_MAX, 0, LLONG_MAX, LLONG_MIN}, INT_MAX};
  ck_status st = ck_cuda_check(cudaMemcpy(dev, &init, sizeof init, cudaMemcpyHostToDevice),
                                "clearing the survey");
  if (st == CK_OK) {
    const unsigned blocks = (unsigned)mp_sm_count() * 8, need = grid_for(a->n * a->n, MP_THREADS);
    ap_survey<Tc><<<need < blocks ? need : blocks, MP_THREADS>>>((const Tc *)a->W, a->n, &dev->f);
    st = ck_cuda_check(cudaMemcpy(&init, dev, sizeof init, cudaMemcpyDeviceToHost),
                        "surveying the weights");
  }
  const ap_facts &f = init.f;
  if (st == CK_OK && (f.nan || f.neginf))
    st = ck_fail(CK_ERR_INVALID, "edge weights must not be NaN or -Inf (no edge is +Inf)");
  if (st == CK_OK && f.negdiag != INT_MAX) {
    a->cycle_vertex = (size_t)f.negdiag + 1;
    st = ck_fail(CK_ERR_NEGCYCLE,
                 "the graph has a negative cycle: vertex %zu has a negative weight to itself",
                 a->cycle_vertex);
  }
  for (int i = 0; st == CK_OK && i < AP_IN_FLIGHT; i++)
    st = ck_cuda_check(cudaEventCreateWithFlags(&w.done[i], cudaEventDisableTiming),
                        "creating events");
  if (st == CK_OK)
    st = ck_cuda_check(cudaMallocHost((void **)&w.neg_host, AP_IN_FLIGHT * sizeof(int)),
                        "allocating pinned memory");
  if (st == CK_OK) {
    for (int i = 0; i < AP_IN_FLIGHT; i++) w.neg_host[i] = INT_MAX;
    const ap_form form = mp_traits<Tc>::is_float ? ap_pick_float(a->t, f, a->n)
                                                 : ap_pick_form(a->t, f);
    ap_last = form == AP_U32 ? CK_UINT32 : form == AP_U16 ? CK_UINT16
            : form == AP_DOUBLE ? CK_DOUBLE : a->t;
    if (form == AP_U32) st = ap_run<Tc, uint32_t>(a, &dev->neg, w);
    else if (form == AP_U16) st = ap_run<Tc, uint16_t>(a, &dev->neg, w);
    else if constexpr (mp_traits<Tc>::is_float) st = ap_run<Tc, Tc>(a, &dev->neg, w);
    else st = ap_run<Tc, double>(a, &dev->neg, w);
  }
  for (int i = 0; i < AP_IN_FLIGHT; i++)
    if (w.done[i]) cudaEventDestroy(w.done[i]);
  if (w.neg_host) cudaFreeHost(w.neg_host);
  ck_dev_free(dev);
  return st;
}

extern "C" ck_status ck_apsp_device(ck_apsp_args *a) {
  CK_TRY(ck_device_init());
  if (a->n == 0) return CK_OK;
  if (a->n > (size_t)INT_MAX - AP_BLOCK)
    return ck_fail(CK_ERR_INVALID, "shortest paths: n = %zu is too large", a->n);
  switch (a->t) {
  case CK_DOUBLE: return ap_class<double>(a);
  case CK_SINGLE: return ap_class<float>(a);
  case CK_INT8: return ap_class<int8_t>(a);
  case CK_UINT8: return ap_class<uint8_t>(a);
  case CK_INT16: return ap_class<int16_t>(a);
  case CK_UINT16: return ap_class<uint16_t>(a);
  case CK_INT32: return ap_class<int32_t>(a);
  case CK_UINT32: return ap_class<uint32_t>(a);
  default:
    return ck_fail(CK_ERR_INVALID,
                   "shortest paths take double, single and integers up to 32 bits, not %s",
                   ck_dtype_name(a->t));
  }
}

/* ---- walking paths back through P ----
 * One thread per pair: from t, P(s, v) is the vertex before v, until s. A walk longer than n
 * vertices cannot be a path (a P not made by gpu_apsp): it is reported as length -1. */
__global__ void ap_walk(const int32_t *__restrict__ P, size_t n, const double *__restrict__ s,
                        const double *__restrict__ t, size_t count, const size_t *__restrict__ at,
                        double *__restrict__ len, double *__restrict__ out) {
  size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= count) return;
  const size_t src = (size_t)s[q], dst = (size_t)t[q];
  size_t steps = 1, v = dst;
  while (v != src && steps <= n) {
    const int32_t u = P[(v - 1) * n + (src - 1)];
    if (u < 1 || (size_t)u > n) {
      steps = 0;
      break;
    }
    v = (size_t)u;
    steps++;
  }
  if (steps > n) steps = (size_t)-1;
  if (!out) {
    len[q] = steps == (size_t)-1 ? -1.0 : (double)steps;
    return;
  }
  if (steps == 0 || steps == (size_t)-1) return;
  v = dst;
  for (size_t i = steps; i-- > 0;) {
    out[at[q] + i] = (double)v;
    if (i) v = (size_t)P[(v - 1) * n + (src - 1)];
  }
}

extern "C" ck_status ck_path_device(const int32_t *P, size_t n, const double *s, const double *t,
                                    size_t count, double *lengths, double *vertices) {
  CK_TRY(ck_device_init());
  if (count == 0) return CK_OK;
  double *ds = NULL, *dt = NULL, *dlen = NULL, *dout = NULL;
  size_t *dat = NULL, *at = NULL, total = 0;
  ck_status st = ck_dev_alloc((void **)&ds, 3 * count * sizeof(double));
  if (st == CK_OK) {
    dt = ds + count;
    dlen = dt + count;
    st = ck_upload(ds, s, count * sizeof(double));
  }
  if (st == CK_OK) st = ck_upload(dt, t, count * sizeof(double));
  if (st == CK_OK) {
    ap_walk<<<grid_for(count, MP_THREADS), MP_THREADS>>>(P, n, ds, dt, count, NULL, dlen, NULL);
    st = ck_cuda_check(cudaGetLastError(), "walking paths");
  }
  if (st == CK_OK) st = ck_download(lengths, dlen, count * sizeof(double));
  if (st == CK_OK && vertices) {
    at = (size_t *)malloc(count * sizeof(size_t));
    if (!at) st = ck_fail(CK_ERR_OUTOFMEMORY, "walking paths: no host memory");
    for (size_t q = 0; st == CK_OK && q < count; q++) {
      at[q] = total;
      total += lengths[q] > 0 ? (size_t)lengths[q] : 0;
    }
    if (st == CK_OK && total) st = ck_dev_alloc((void **)&dat, count * sizeof(size_t));
    if (st == CK_OK && total) st = ck_dev_alloc((void **)&dout, total * sizeof(double));
    if (st == CK_OK && total) st = ck_upload(dat, at, count * sizeof(size_t));
    if (st == CK_OK && total) {
      ap_walk<<<grid_for(count, MP_THREADS), MP_THREADS>>>(P, n, ds, dt, count, dat, dlen, dout);
      st = ck_cuda_check(cudaGetLastError(), "walking paths");
    }
    if (st == CK_OK && total) st = ck_download(vertices, dout, total * sizeof(double));
  }
  free(at);
  ck_dev_free(ds);
  ck_dev_free(dat);
  ck_dev_free(dout);
  return st;
}
