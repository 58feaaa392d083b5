/* All-pairs paths on the GPU: the driver of blocked Floyd-Warshall (apsp.cuh has the algorithm
 * and the work types). What it does around the rounds (apsp_rounds.cu): survey the weights (the
 * refused ones, an unbounded diagonal, the integer range), pick the work type, convert W into the
 * padded work matrix, run the rounds, and convert back, on each device's share of the rows (one
 * share on one device).
 *
 * Every path problem runs on the rounds of one of three semirings (ap_problem): min.+ and max.+
 * on min.+, min.max and max.min on min.max, max.* on itself. The problems that maximize by an
 * add of their own run on the reversed order (REV):
 *   max.+   as min.+ on -W: max (a + b) = -min (-a + -b) and negation is exact, so D = -D' and
 *           P = P' (the same strict improvements in the same order); a positive cycle is a
 *           negative cycle of -W, and max.+'s "no edge" (-Inf, intmin) is min.+'s once negated.
 *           A zero length comes back +0: sums of -W's zeros can give -0 where W's give +0.
 *           Integer classes run on the integer words where W has no weight above 0, else in
 *           double (ap_pick).
 *   max.min as min.max on -W (single, double) or on reversed keys (integers, below).
 * max.min and min.max only compare, so integer classes run on unsigned keys, W's values mapped
 * one to one and in order (reversed for max.min) onto 0 .. intmax - intmin: 32-bit words for
 * int32 and uint32, two 16-bit keys a word for the narrower classes, where the rounds compare
 * with two VIMNMX or two SIMD instructions a pair and every value is exact. max.* takes single
 * and double (its product's classes), "no edge" 0, and weights of 0 .. 1 or above (a cycle whose
 * product exceeds 1 is unbounded). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <type_traits>

#include "apsp_problem.cuh"
#include "apsp_survey.cuh"
#include "dispatch.cuh"

/* ---- conversions ----
 * In: a share's rows of X (rows x np, X's row r0 first) from W's columns r0 .. as they lie in
 * memory (so X is W transposed, apsp.cuh): the diagonal the empty path, no edge `inf`, the
 * padding isolated vertices; N the next hop of each edge (its column). X may be W itself (same
 * element size, np == n): each element is read, then written, by the same thread. Whole pages:
 * page blockIdx.y of W (n x n each) into X and N (rows x np each). */
template <class Tc, class T, int S>
__global__ void ap_convert_in(const Tc *W, size_t n, T *X, int *N, size_t np, size_t r0,
                              size_t rows, T inf) {
  typedef typename ap_problem<S>::SR SR;
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= rows * np) return;
  W += blockIdx.y * n * n, X += blockIdx.y * rows * np;
  if (N) N += blockIdx.y * rows * np;
  size_t lr, c;
  split_index(idx, np, lr, c);
  const size_t r = r0 + lr;
  bool edge = false;
  T x = r == c ? SR::mul::template one<T>() : inf;
  if (r < n && c < n && r != c) x = ap_in_value<Tc, T, S>(W[lr * n + c], inf, edge);
  X[idx] = x;
  if (N) N[idx] = edge ? (int)c + 1 : 0;
}

/* Out: a share's columns of D (cols of them) in the class of W, and of P; whole pages: page
 * blockIdx.y of X and N (np x np each) into D and P (n x n). */
template <class T, class Tc, int S>
__global__ void ap_convert_out(const T *X, const int *N, size_t np, Tc *D, int32_t *P, size_t n,
                               size_t cols) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= cols * n) return;
  X += blockIdx.y * np * np, D += blockIdx.y * cols * n;
  if (N) N += blockIdx.y * np * np;
  if (P) P += blockIdx.y * cols * n;
  size_t r, c;
  split_index(idx, n, r, c);
  int nx = N ? N[r * np + c] : 0;
  const Tc d = ap_out_element<T, Tc, S>(X[r * np + c], nx);
  D[idx] = d;
  if (P) P[idx] = nx;
}

/* The work type of an integer class's sums and its range (apsp.cuh). */
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
 * paths, or a plan that does not narrow: narrowing off) they work in their own class. */
static ap_form ap_pick_float(ck_dtype t, const ap_facts &f, size_t n, bool narrow) {
  if (f.fraction || f.lo < 0 || !narrow) return AP_CLASS;
  const double longest = f.lo <= f.hi ? (double)(n - 1) * (double)f.hi : 0.0;
  if (t == CK_SINGLE && longest > 16777216.0) return AP_CLASS;
  return longest < INT16_MAX ? AP_U16 : longest < INT32_MAX ? AP_U32 : AP_CLASS;
}

/* The work type of problem S on class Tc, given the survey. Pages keep single and double in
 * their class: on the batched kernel the integer words would need a converted copy of every
 * page, which cost more than their arithmetic saved (16 x 65536 single pages: 0.334 ms on
 * 16-bit words, 0.225 in the class). */
template <class Tc, int S>
static ap_form ap_pick(const ck_apsp_args *a, const ap_facts &f, bool pages) {
  typedef ap_problem<S> Pb;
  if constexpr (mp_traits<Tc>::is_float)
    return Pb::SUMS ? ap_pick_float(a->t, f, a->n, a->plan->narrow && !pages) : AP_CLASS;
  else if constexpr (!Pb::SUMS) /* keys */ return sizeof(Tc) == 4 ? AP_U32 : AP_U16;
  else if constexpr (!Pb::REV) return ap_pick_form(a->t, f);
  else { /* max.+: -W's sums on words where -W has no negative weight (W none above 0); the
          * words' "no path" is -intmin (ap_no_path) where the sums cannot wrap: int8 on 16-bit
          * halves (at most 128 + 128), int16 on 32-bit words; int32 keeps intmax, exact where
          * no path of -W reaches it, as for single and double */
    if (f.lo < 0) return AP_DOUBLE;
    if (sizeof(Tc) < 4) return sizeof(Tc) == 1 ? AP_U16 : AP_U32;
    const double longest = f.lo <= f.hi ? (double)(a->n - 1) * (double)f.hi : 0.0;
    return longest < INT32_MAX ? AP_U32 : AP_DOUBLE;
  }
}

/* The scratch of a guessed run of pages and of a graph's survey that hands its facts over itself
 * (ap_class, ap_class_unwaited), kept in the lane across calls: a run whose kernels noted nothing
 * leaves it cleared, so the call neither allocates nor clears a scratch, and reads it back into
 * pinned words (ap_findings): about 6 of a paged call's 27 us before (doc/NOTES.md). *cleared,
 * the host word beside it, is 1 while it is known to be cleared. */
struct ap_kept {
  ap_scratch *sc;
  long long *cleared;
};

/* The current device's kept scratch, cleared; false where the lane has none (the call then
 * allocates its own). */
static bool ap_kept_take(ap_kept &k) {
  void *p;
  if (ck_device_scratch(CK_SCRATCH_APSP, &p, &k.cleared) != CK_OK) return false;
  k.sc = (ap_scratch *)p;
  if (*k.cleared != 1) {
    const ap_scratch init = ap_cleared();
    if (cudaMemcpyAsync(k.sc, &init, sizeof init, cudaMemcpyHostToDevice, 0) != cudaSuccess) {
      (void)cudaGetLastError();
      return false;
    }
    *k.cleared = 1;
  }
  return true;
}

/* After the run: the scratch stays known cleared where the run's kernels noted nothing (found:
 * what they noted) and the call ended well (an error may leave notes unread). */
static void ap_kept_give(ap_kept &k, ck_status st, const ap_scratch &found) {
  const ap_scratch none = ap_cleared();
  if (st != CK_OK || found.page_neg != none.page_neg || found.refused != none.refused ||
      found.page_self != none.page_self)
    *k.cleared = 0;
}

/* The weights of part p into its slab m of the work matrix, padded (ap_load, and again where a
 * graph's tiled run found an unbounded cycle for the rounds to name). */
template <class Tc, class T, int S>
static ck_status ap_fill(const ck_apsp_args *a, const ck_apsp_part &p,
                         const ap_matrix<T, typename ap_problem<S>::SR> &m) {
  CK_TRY(ck_device_use(p.dev));
  ap_convert_in<Tc, T, S><<<grid_for(p.rows * m.np, MP_THREADS), MP_THREADS>>>(
      (const Tc *)p.W, a->n, m.X, m.N, m.np, p.r0, p.rows, ap_no_path<Tc, T, S>());
  CK_CUDA(cudaGetLastError(), "converting the weights");
  return CK_OK;
}

/* Whether the work values of n vertices in work type T are W's as they lie, unpadded: the
 * rounds then work in D and P. */
template <class Tc, class T, int S> static bool ap_in_place(size_t n) {
  typedef ap_problem<S> Pb;
  return !Pb::REV && round_up(n, AP_BLOCK) == n && sizeof(T) == sizeof(Tc) &&
         (bool)mp_traits<T>::is_float == (bool)mp_traits<Tc>::is_float &&
         (Pb::SUMS || mp_traits<Tc>::is_float);
}

/* The rounds' slabs in work type T for class Tc: each share's X and N in its D and P where the
 * work values are W's as they lie, else allocated; W converted into them, unless the survey
 * wrote them in place (filled: ap_fill_in). */
template <class Tc, class T, int S>
static ck_status ap_load(ck_apsp_args *a, const ck_apsp_part *parts, int count, ap_scratch **sc,
                         ap_matrix<T, typename ap_problem<S>::SR> *slabs, bool &in_place,
                         bool filled) {
  typedef ap_problem<S> Pb;
  const size_t np = round_up(a->n, AP_BLOCK);
  in_place = ap_in_place<Tc, T, S>(a->n);
  for (int i = 0; i < count; i++) {
    const ck_apsp_part &p = parts[i];
    ap_matrix<T, typename Pb::SR> &m = slabs[i];
    m = {in_place ? (T *)p.D : NULL, in_place ? p.P : NULL, np, p.r0, p.rows, &sc[i]->neg, p.dev};
    CK_TRY(ck_device_use(p.dev));
    if (!m.X) CK_TRY(ck_dev_alloc((void **)&m.X, p.rows * np * sizeof(T)));
    if (a->P && !m.N) CK_TRY(ck_dev_alloc((void **)&m.N, p.rows * np * sizeof(int)));
    if (!(filled && in_place)) CK_TRY((ap_fill<Tc, T, S>(a, p, m)));
  }
  return CK_OK;
}

/* The smallest vertex on an unbounded cycle that any share saw (INT_MAX: none). */
static ck_status ap_cycle(const ck_apsp_part *parts, int count, ap_scratch **sc, int &found) {
  found = INT_MAX;
  for (int i = 0; i < count; i++) {
    int v = INT_MAX;
    CK_TRY(ck_device_use(parts[i].dev));
    CK_CUDA(cudaMemcpy(&v, &sc[i]->neg, sizeof(int), cudaMemcpyDeviceToHost),
            "reading the unbounded-cycle flag");
    if (v < found) found = v;
  }
  return CK_OK;
}

/* The graph by tiles in one launch (apsp_graph_tiled.cu; with P apsp_graph_paths.cu) where the
 * plan says so and its work values allow, else the rounds; the plan notes the tiles where they
 * ran. Where the tiles met an unbounded cycle the rounds run again and name the vertex as
 * before, from the weights, or where they lie in D's buffer (a host array's upload, converted in
 * place, which a second conversion leaves as it is) from a copy taken first: not where the
 * survey found no weight that could close one (cycles false). Out of memory for that copy, the
 * tiles' board or (with P) their histories, the rounds run. rounds: whether they ran (their
 * cycle flag is to be read). */
template <class Tc, class T, int S>
static ck_status ap_graph_or_rounds(ck_apsp_args *a, const ck_apsp_part *parts, int count,
                                    ap_matrix<T, typename ap_problem<S>::SR> *slabs, bool in_place,
                                    bool cycles, bool &rounds, const ap_gate *gate) {
  typedef typename ap_problem<S>::SR SR;
  rounds = true;
  if (!a->plan->graph_tiles || count != 1 || !ap_graph_tiles<T, SR>(slabs[0])) {
    CK_TRY(ap_gate_wait(gate, cycles));
    return ap_rounds<T, SR>(slabs, count, a);
  }
  ck_apsp_part p = parts[0];
  void *kept = NULL;
  ck_status st = CK_OK;
  if (ap_graph_cycles<T, SR>() && cycles && in_place && p.W == p.D) {
    const size_t bytes = p.cols * a->n * sizeof(Tc);
    st = ck_dev_alloc(&kept, bytes);
    if (st == CK_OK)
      st = ck_cuda_check(cudaMemcpyAsync(kept, p.W, bytes, cudaMemcpyDeviceToDevice, 0),
                         "keeping the weights");
    p.W = kept;
  }
  /* Ctrl-C is heard before the launch (a few ms at most) as between the rounds */
  if (st == CK_OK && a->cancelled && a->cancelled(a->ctx))
    st = ck_fail(CK_ERR_INTERRUPTED, "shortest paths: interrupted");
  bool cycle = false, tiled = false;
  if (st == CK_OK) {
    st = ap_graph_tiled<T, SR>(slabs[0], cycles, cycle, gate);
    tiled = st == CK_OK;
  }
  if (st == CK_ERR_OUTOFMEMORY && !tiled) { /* nothing ran: the rounds, which need less */
    (void)cudaGetLastError();
    st = CK_OK;
    ck_dev_free(kept); /* stream-ordered after its copy */
    kept = NULL;
  }
  if (st == CK_OK && tiled && !cycle)
    a->plan->tile[0] = a->plan->tile[1] = a->plan->tile[2] = AP_TILE;
  if (st == CK_OK && cycle) st = ap_fill<Tc, T, S>(a, p, slabs[0]);
  rounds = cycle || !tiled;
  if (st == CK_OK && rounds) st = ap_gate_wait(gate, cycles);
  if (st == CK_OK && rounds) st = ap_rounds<T, SR>(slabs, count, a);
  if (kept) {
    if (st != CK_OK) (void)cudaDeviceSynchronize();
    ck_dev_free(kept);
  }
  return st;
}

/* One graph on the rounds, its rows shared by the devices of parts (cycles: ap_may_cycle; gate:
 * where the survey's facts are still to be read, ap_class_unwaited). */
template <class Tc, class T, int S>
static ck_status ap_run_rounds(ck_apsp_args *a, const ck_apsp_part *parts, int count,
                               ap_scratch **sc, bool cycles = true, const ap_gate *gate = nullptr) {
  typedef typename ap_problem<S>::SR SR;
  ap_matrix<T, SR> slabs[CK_SPREAD_WORKERS] = {};
  bool in_place = false;
  ck_status st = ap_load<Tc, T, S>(a, parts, count, sc, slabs, in_place, gate && gate->filled);
  bool rounds = true;
  if (st == CK_OK)
    st = ap_graph_or_rounds<Tc, T, S>(a, parts, count, slabs, in_place, cycles, rounds, gate);
  /* the rounds' cycle flag where they ran: the tiles read their own word, and where the work
   * type has no cycles the call leaves their launch queued, as a product does (the flag's read
   * took about 12 us a call) */
  int found = INT_MAX;
  if (st == CK_OK && rounds) st = ap_cycle(parts, count, sc, found);
  if (st == CK_OK && found != INT_MAX) st = ck_apsp_unbounded(a, (size_t)found, 0);
  for (int i = 0; st == CK_OK && !in_place && i < count; i++) {
    const size_t cols = parts[i].cols;
    st = ck_device_use(parts[i].dev);
    if (st != CK_OK) break;
    ap_convert_out<T, Tc, S><<<grid_for(cols * a->n, MP_THREADS), MP_THREADS>>>(
        slabs[i].X, slabs[i].N, slabs[i].np, (Tc *)parts[i].D, parts[i].P, a->n, cols);
    st = ck_cuda_check(cudaDeviceSynchronize(), "converting the paths");
  }
  for (int i = 0; !in_place && i < count; i++) { /* after a failure too: the rounds waited */
    if (ck_device_use(parts[i].dev) != CK_OK) continue;
    if (st != CK_OK) (void)cudaDeviceSynchronize();
    ck_dev_free(slabs[i].X);
    ck_dev_free(slabs[i].N);
  }
  return st;
}

#include "apsp_pages_run.cuh"

/* The whole device call for class Tc in work type T. Pages past the batched kernels that the
 * tiled kernel does not take run as graphs by tiles, many a launch, and where those do not take
 * T (8-byte values) one by one; a guess (missed) is left for the survey's run, which runs them
 * so. cycles: whether the weights may close an unbounded cycle (ap_may_cycle; a guess: true). */
template <class Tc, class T, int S>
static ck_status ap_run(ck_apsp_args *a, const ck_apsp_part *parts, int count, ap_scratch **sc,
                        bool cycles, bool *missed = nullptr, ap_scratch *noted = nullptr) {
  if (ap_batched<T, typename ap_problem<S>::SR>(a, count)) {
    const bool tiles = ap_tiles<T>(a, parts[0].P);
    if (a->n <= ck_apsp_batch_n() || tiles)
      return ap_run_pages<Tc, T, S>(a, parts[0], sc[0], tiles, missed, noted);
  }
  if (!a->pages || count != 1) return ap_run_rounds<Tc, T, S>(a, parts, count, sc, cycles);
  if (missed) return *missed = true, CK_OK;
  if (ap_graphs_by_tiles<T, typename ap_problem<S>::SR>(a, count))
    return ap_run_graph_pages<Tc, T, S>(a, parts[0], sc[0]);
  return ap_run_page_by_page<Tc, T, S>(a, parts[0], sc[0]);
}

static ck_status ap_refused(ck_apsp_args *a) {
  return ck_fail(CK_ERR_INVALID, "edge weights must not be %s", ck_apsp_refused(a->semiring));
}

/* Whether one graph's work type is its class whatever its survey finds (single and double,
 * narrowing off or a problem that is not a sum: ap_pick), on the rounds or by tiles (not a
 * batched kernel's page), on one device, D apart from W: then its run need not wait for the
 * survey's facts before it is queued (ap_class_unwaited). */
template <class Tc, int S>
static bool ap_unwaited(const ck_apsp_args *a, const ck_apsp_part *parts, int count) {
  typedef ap_problem<S> Pb;
  return mp_traits<Tc>::is_float && (!Pb::SUMS || !a->plan->narrow) && !a->pages && count == 1 &&
         parts[0].W != parts[0].D && !ap_batched<Tc, typename Pb::SR>(a, count);
}

/* The survey's facts as its last block leaves them in the lane's host words (ap_survey_out), read
 * once (ap_gate): its errors, a refused weight first, then an unbounded weight to itself; and
 * whether an unbounded cycle may be. */
struct ap_landing {
  ck_apsp_args *a;
  const ap_facts *facts;
  bool marked, waited, cycles;
  ck_status st;
};

static ck_status ap_facts_landed(void *ctx, bool &cycles) {
  ap_landing &l = *(ap_landing *)ctx;
  if (!l.waited) {
    l.waited = true;
    l.st = l.marked ? ck_note_wait()
                    : ck_cuda_check(cudaStreamSynchronize(0), "surveying the weights");
    if (l.st == CK_OK) {
      ap_facts f;
      memcpy(&f, l.facts, sizeof f);
      l.cycles = ap_may_cycle(f);
      if (f.refused) l.st = ap_refused(l.a);
      else if (f.negdiag != LLONG_MAX) l.st = ap_unbounded(l.a, (unsigned long long)f.negdiag, 1);
    }
  }
  cycles = l.cycles;
  return l.st;
}

/* One graph's run queued behind its survey, whose facts the host waits for only once the graph
 * by tiles is queued (ap_gate), so that the GPU goes on from the survey to the run: the call
 * waited for them between the two (doc/NOTES.md). The survey works in the lane's kept scratch and
 * hands its facts over itself (ap_survey_out: no scratch to clear, no copy back), and where the
 * work values lie in place it writes them too (ap_fill_in: no conversion). The tiles' cycle word
 * is cleared whatever the facts say; it is read only where they say an unbounded cycle may be.
 * host, dev: the lane's host words for the facts, on the host and on the device. */
template <class Tc, int S>
static ck_status ap_class_unwaited(ck_apsp_args *a, const ck_apsp_part *parts, ap_scratch *sc,
                                   const ap_facts *host, ap_facts *dev) {
  const ck_apsp_part &p = parts[0];
  const size_t n = a->n;
  const bool filled = ap_in_place<Tc, Tc, S>(n);
  const unsigned blocks = ap_survey_blocks(n * n);
  const ap_survey_out out = {&sc->arrived, dev};
  const Tc *W = (const Tc *)p.W;
  if (filled)
    ap_survey<Tc, S, ap_fill_in<Tc, Tc, S>><<<blocks, MP_THREADS>>>(
        W, n, 0, n, 1, &sc->f, out, {(Tc *)p.D, p.P, ap_no_path<Tc, Tc, S>()});
  else ap_survey<Tc, S><<<blocks, MP_THREADS>>>(W, n, 0, n, 1, &sc->f, out);
  CK_CUDA(cudaGetLastError(), "surveying the weights");
  ap_landing l = {a, host, ck_note_mark() == CK_OK, false, true, CK_OK};
  const ap_gate gate = {ap_facts_landed, &l, filled};
  a->plan->work = a->t;
  ck_status st = ap_run_rounds<Tc, Tc, S>(a, parts, 1, &sc, true, &gate);
  bool cycles;
  if (st == CK_OK) st = ap_gate_wait(&gate, cycles); /* every path waited: this one returns */
  return st;
}

/* The lane's kept scratch and host words for ap_class_unwaited; false where it has none (the
 * call then waits for its survey). */
template <class Tc, int S>
static bool ap_try_unwaited(ck_apsp_args *a, const ck_apsp_part *parts, ck_status &st) {
  static_assert(sizeof(ap_facts) <= (CK_FLAG_WORDS - CK_FLAGS_SURVEY) * sizeof(int),
                "the facts fit the survey's host words");
  volatile int *host;
  int *dev;
  ap_kept k;
  if (ck_device_flags(&host, &dev) != CK_OK || !ap_kept_take(k)) return false;
  st = ap_class_unwaited<Tc, S>(a, parts, k.sc, (const ap_facts *)(host + CK_FLAGS_SURVEY),
                                (ap_facts *)(dev + CK_FLAGS_SURVEY));
  ap_kept_give(k, st, ap_cleared()); /* the survey leaves its facts cleared; the rest as before */
  return true;
}

/* The work types each problem and class may take: integer words for the sums (ap_pick) and as
 * keys, single and double's own class for all but their sums on words. */
template <class Tc, int S>
static ck_status ap_class(ck_apsp_args *a, const ck_apsp_part *parts, int count, ap_scratch **sc) {
  typedef ap_problem<S> Pb;
  constexpr bool is_float = mp_traits<Tc>::is_float;
  ap_facts f;
  typedef typename ap_guess<Tc, S>::T Tg;
  if constexpr (!std::is_void<Tg>::value) {
    /* not where D is W (a C caller's): the guessed run writes D, whose weights a miss's second
     * run would need */
    if (ap_checks_itself<Tc, S>(a, count) && parts[0].W != parts[0].D) {
      a->plan->work = std::is_same<Tg, uint16_t>::value   ? CK_UINT16
                      : std::is_same<Tg, uint32_t>::value ? CK_UINT32
                                                          : a->t;
      bool missed = false;
      ap_kept k;
      ck_status st;
      CK_TRY(ck_device_use(parts[0].dev));
      if (ap_kept_take(k)) {
        ap_scratch found = ap_cleared();
        st = ap_run<Tc, Tg, S>(a, parts, count, &k.sc, true, &missed, &found);
        ap_kept_give(k, st, found);
      } else {
        CK_TRY(ap_scratch_init(parts, count, sc, f));
        st = ap_run<Tc, Tg, S>(a, parts, count, sc, true, &missed);
      }
      if (st != CK_OK || !missed) return st;
    }
  }
  if (ap_unwaited<Tc, S>(a, parts, count)) {
    CK_TRY(ck_device_use(parts[0].dev));
    ck_status st;
    if (ap_try_unwaited<Tc, S>(a, parts, st)) return st;
  }
  CK_TRY((ap_survey_all<Tc, S>(a, parts, count, sc, f)));
  if (f.refused) return ap_refused(a);
  if (f.negdiag != LLONG_MAX) {
    if (!(a->pages && count == 1)) return ap_unbounded(a, (unsigned long long)f.negdiag, 1);
    /* pages: their run names the first page with an unbounded path (ap_run_pages,
     * ap_run_page_by_page) */
    const unsigned long long self = (unsigned long long)f.negdiag;
    CK_CUDA(cudaMemcpy(&sc[0]->page_self, &self, sizeof self, cudaMemcpyHostToDevice),
            "noting a weight to itself");
  }
  const ap_form form = ap_pick<Tc, S>(a, f, a->pages > 0);
  const bool cycles = ap_may_cycle(f);
  a->plan->work /* found: the work type */ = form == AP_U32      ? CK_UINT32
                                             : form == AP_U16    ? CK_UINT16
                                             : form == AP_DOUBLE ? CK_DOUBLE
                                                                 : a->t;
  if constexpr (!Pb::TIMES && (!is_float || Pb::SUMS)) {
    if (form == AP_U32) return ap_run<Tc, uint32_t, S>(a, parts, count, sc, cycles);
    if (form == AP_U16) return ap_run<Tc, uint16_t, S>(a, parts, count, sc, cycles);
  }
  if constexpr (is_float) return ap_run<Tc, Tc, S>(a, parts, count, sc, cycles);
  else if constexpr (Pb::SUMS) return ap_run<Tc, double, S>(a, parts, count, sc, cycles);
  else return ck_fail(CK_ERR_INVALID, "no work type for %s", ck_dtype_name(a->t));
}

template <class Tc, int S>
static ck_status ap_class_parts(ck_apsp_args *a, const ck_apsp_part *parts, int count) {
  ap_scratch *sc[CK_SPREAD_WORKERS] = {};
  const int back = ck_device_current();
  const ck_status st = ap_class<Tc, S>(a, parts, count, sc);
  for (int i = 0; i < count; i++) ck_dev_free(sc[i]);
  if (back >= 0) ck_device_use(back);
  return st;
}

/* Class Tc's call for the problem the call asks: max.* takes single and double alone (the
 * planner refuses the rest first). */
template <class Tc>
static ck_status ap_problem_parts(ck_apsp_args *a, const ck_apsp_part *parts, int count) {
  switch (a->semiring) {
  case CK_SR_MIN_PLUS: return ap_class_parts<Tc, CK_SR_MIN_PLUS>(a, parts, count);
  case CK_SR_MAX_PLUS: return ap_class_parts<Tc, CK_SR_MAX_PLUS>(a, parts, count);
  case CK_SR_MIN_MAX:
  case CK_SR_MAX_MIN:
    if constexpr (mp_traits<Tc>::is_float) {
      int done = 0;
      CK_TRY(ap_try_ranks(a, parts, count, &done));
      if (done) return CK_OK;
    }
    return a->semiring == CK_SR_MIN_MAX ? ap_class_parts<Tc, CK_SR_MIN_MAX>(a, parts, count)
                                        : ap_class_parts<Tc, CK_SR_MAX_MIN>(a, parts, count);
  case CK_SR_MAX_TIMES:
    if constexpr (mp_traits<Tc>::is_float)
      return ap_class_parts<Tc, CK_SR_MAX_TIMES>(a, parts, count);
    /* fall through */
  default:
    return ck_fail(CK_ERR_INVALID, "the GPU's path rounds do not take %s on %s",
                   ck_plan_semiring_name((int)a->semiring), ck_dtype_name(a->t));
  }
}

extern "C" size_t ck_apsp_block(void) { return AP_BLOCK; }

extern "C" size_t ck_apsp_tiles_n(void) { return AT_MAX_N; }

extern "C" size_t ck_apsp_batch_n(void) {
  return ap_batch_clusters_ok() ? AP_BATCH_MAX_N : AP_BATCH_BLOCK_N;
}

extern "C" ck_status ck_apsp_parts(ck_apsp_args *a, const ck_apsp_part *parts, int count) {
  CK_TRY(ck_device_init());
  CK_TRY(ck_apsp_check(a->semiring, a->t)); /* the planner's rules: a direct call meets them too */
  if (a->n == 0) return CK_OK;
  if (a->n > (size_t)INT_MAX - AP_BLOCK)
    return ck_fail(CK_ERR_INVALID, "%s paths: n = %zu is too large", ck_apsp_paths(a->semiring),
                   a->n);
  if (count < 1 || count > CK_SPREAD_WORKERS)
    return ck_fail(CK_ERR_INVALID, "paths run on 1 to %d devices", CK_SPREAD_WORKERS);
  return ck_with_class<CK_PRODUCT_CLASSES>(a->t, CK_ERR_INVALID, [&](auto c) {
    return ap_problem_parts<typename decltype(c)::type>(a, parts, count);
  });
}
