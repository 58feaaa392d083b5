/* Part of apsp.cu's translation unit, included there after the rounds' driver (ap_run_rounds,
 * ap_scratch, ap_load): pages, many small graphs in one call. The batched kernels take graphs of
 * up to 256 vertices, the tiled kernel D alone of many graphs of up to 1024 (apsp_batch*.cu), in
 * launches of a few ms with Ctrl-C polled between; the pages they do not take run one by one on
 * the rounds. An error about one page names it. */
#ifndef CK_APSP_PAGES_RUN_CUH
#define CK_APSP_PAGES_RUN_CUH

/* The pages the kernel's choice counts: the whole call's (its plan's), so that its runs (a
 * device's share, or host pages in runs that fit) close their pages as one run would: the tiled
 * kernel's distances may differ from the plain order's in the last bits of rounded sums. */
static size_t ap_choice_pages(const ck_apsp_args *a) {
  const size_t call = a->plan ? a->plan->pages : 0;
  return a->pages && call > a->pages ? call : ap_pages(a);
}

/* Whether the call's pages run many in a launch as graphs by tiles (with P in plain order): where
 * the planner allows a graph by tiles (on one device; past the batched kernels, with P from
 * CK_APSP_PAGES_PATHS_TILES_MIN_N) and a page's slab would take it (ap_graph_tiles: work values
 * of up to 4 bytes). Each page is then its 2-D call's graph by tiles, bit for bit. D alone takes
 * the tiled kernel first (ap_batched). */
template <class T, class SR> static bool ap_graphs_by_tiles(const ck_apsp_args *a, int count) {
  if (!a->pages || count != 1 || !a->plan || !a->plan->graph_tiles) return false;
  const size_t np = round_up(a->n, AP_TILE);
  ap_matrix<T, SR> page = {};
  page.N = a->P, page.np = page.rows = np; /* a page's slab, with or without next hops */
  return ap_graph_tiles<T, SR>(page);
}

/* Small graphs on one device run on the batched kernels, one page or many, but for pages with P
 * as graphs by tiles (above); pages of up to AT_MAX_N vertices, D alone, many of them, may run on
 * the tiled kernel (its other conditions, on the work type, in ap_run). Pages the plan has no
 * graphs by tiles for run one by one as 2-D calls before they get here (apsp_pages.c). */
template <class T, class SR> static bool ap_batched(const ck_apsp_args *a, int count) {
  if (count != 1 || (a->P && ap_graphs_by_tiles<T, SR>(a, count))) return false;
  if (a->n <= ck_apsp_batch_n()) return true;
  return a->pages && !a->P && a->n <= ck_apsp_tiles_n() &&
         ap_batch_tiles_enough(ap_choice_pages(a), (int)a->n);
}

/* The unbounded path found at flat = page * n + vertex, 0-based; the page named where the call
 * has pages (a 2-D call keeps the page its caller set, apsp_pages.c). */
static ck_status ap_unbounded(ck_apsp_args *a, unsigned long long flat, int self) {
  if (a->pages) a->page = a->page0 + (size_t)(flat / a->n) + 1;
  return ck_apsp_unbounded(a, (size_t)(flat % a->n), self);
}

/* Where the batch's work values are W's bits as they lie (as the rounds' in place, apsp.cu's
 * ap_load), the kernel reads W and writes D; else they go through a copy in the work type. */
template <class Tc, class T, int S> static constexpr bool ap_as_they_lie() {
  typedef ap_problem<S> Pb;
  if constexpr (std::is_void<T>::value) return false;
  else
    return !Pb::REV && !Pb::TIMES && sizeof(T) == sizeof(Tc) &&
           (bool)mp_traits<T>::is_float == (bool)mp_traits<Tc>::is_float &&
           (Pb::SUMS || mp_traits<Tc>::is_float);
}

/* Pages whose work values are W's as they lie skip the survey (a read of every weight less, and
 * a wait): the batched kernel looks at each weight as it loads its graph. Single and double
 * min.+ and min.max (pages stay in their class): the survey would tell only of refused weights
 * and unbounded diagonals, which the kernel reports. int16 and int32 min.+: the work type
 * (16-bit halves, 32-bit words) is guessed, good wherever no weight is negative, which the
 * kernel checks; where one is, the call runs again after the survey (ap_class). The work type
 * of the guess, or void where the survey comes first: */
template <class Tc, int S> struct ap_guess {
  typedef typename std::conditional<
      mp_traits<Tc>::is_float, Tc,
      typename std::conditional<std::is_same<Tc, int16_t>::value, uint16_t,
                                typename std::conditional<std::is_same<Tc, int32_t>::value,
                                                          uint32_t, void>::type>::type>::type T0;
  typedef typename std::conditional<!std::is_void<T0>::value &&
                                        (mp_traits<Tc>::is_float || S == CK_SR_MIN_PLUS),
                                    T0, void>::type T1;
  typedef typename std::conditional<ap_as_they_lie<Tc, T1, S>(), T1, void>::type T;
};
template <class Tc, int S> static bool ap_checks_itself(const ck_apsp_args *a, int count) {
  typedef typename ap_guess<Tc, S>::T Tg;
  if constexpr (std::is_void<Tg>::value) return false;
  else return a->pages && ap_batched<Tg, typename ap_problem<S>::SR>(a, count);
}

template <class Tc, class T, int S>
__global__ void ap_stage_in(const Tc *W, T *X, size_t count, T inf) {
  const size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  bool edge;
  if (idx < count) X[idx] = ap_in_value<Tc, T, S>(W[idx], inf, edge);
}

template <class T, class Tc, int S>
__global__ void ap_stage_out(const T *X, Tc *D, int32_t *P, size_t count) {
  const size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= count) return;
  int nx = P ? P[idx] : 0;
  D[idx] = ap_out_element<T, Tc, S>(X[idx], nx);
  if (P) P[idx] = nx;
}

/* Whether the call's pages run on the tiled kernel in work type T (ap_batch_tiles), for all
 * its launches but the plain-order second run's. */
template <class T> static bool ap_tiles(const ck_apsp_args *a, int32_t *P) {
  ap_batch<T> all = {};
  all.pages = ap_choice_pages(a), all.n = (int)a->n, all.P = P;
  return ap_batch_tiles(all);
}

template <class Tc, class T, int S>
static ck_status ap_run_pages(ck_apsp_args *a, const ck_apsp_part &p, ap_scratch *sc, bool tiles,
                              bool *missed, ap_scratch *noted);

/* Page q of the call alone, as a 2-D call of it runs (in the work type the survey of every page
 * chose); an unbounded cycle's error names the page. naming: the page is known to hold one, so
 * it goes straight to the kernels that name its vertex: the batched ones up to their size, else
 * the rounds. */
template <class Tc, class T, int S>
static ck_status ap_run_page(ck_apsp_args *a, const ck_apsp_part &p, ap_scratch *sc, size_t q,
                             bool naming = false) {
  const size_t nn = a->n * a->n;
  ck_apsp_args b = *a;
  ck_plan rounds;
  if (naming) {
    rounds = *a->plan;
    rounds.graph_tiles = 0;
    b.plan = &rounds;
  }
  b.pages = 0;
  b.page = a->page0 + q + 1; /* the page its error names */
  ck_apsp_part one = p;
  one.W = (const Tc *)p.W + q * nn, one.D = (Tc *)p.D + q * nn, one.P = p.P ? p.P + q * nn : NULL;
  one.r0 = 0, one.rows = round_up(a->n, AP_BLOCK), one.cols = a->n;
  /* a page the batched kernels take is named as its 2-D call names it there: the first step's
   * smallest vertex, as the "cpu" kernel does */
  const bool batched = naming && a->n <= ck_apsp_batch_n();
  const int none = INT_MAX;
  const unsigned long long nowhere = ULLONG_MAX;
  if (batched)
    CK_CUDA(cudaMemcpy(&sc->page_neg, &nowhere, sizeof nowhere, cudaMemcpyHostToDevice),
            "clearing the unbounded-cycle flag");
  else
    CK_CUDA(cudaMemcpy(&sc->neg, &none, sizeof none, cudaMemcpyHostToDevice),
            "clearing the unbounded-cycle flag");
  const ck_status st = batched ? ap_run_pages<Tc, T, S>(&b, one, sc, false, nullptr, nullptr)
                               : ap_run_rounds<Tc, T, S>(&b, &one, 1, &sc);
  a->cycle_vertex = b.cycle_vertex;
  if (st == CK_ERR_NEGCYCLE || st == CK_ERR_POSCYCLE) a->page = b.page;
  return st;
}

/* Every page alone in turn, Ctrl-C polled between them; the first unbounded one ends
 * the call, named (a weight to itself, which the survey noted, at its page). */
template <class Tc, class T, int S>
static ck_status ap_run_page_by_page(ck_apsp_args *a, const ck_apsp_part &p, ap_scratch *sc) {
  unsigned long long self = ULLONG_MAX; /* page * n + vertex */
  CK_CUDA(cudaMemcpy(&self, &sc->page_self, sizeof self, cudaMemcpyDeviceToHost),
          "reading the survey");
  a->plan->batched_runs = 0, a->plan->single_pages = a->pages;
  for (size_t q = 0; q < a->pages; q++) {
    if (q && a->cancelled && a->cancelled(a->ctx))
      return ck_fail(CK_ERR_INTERRUPTED, "%s paths: interrupted after %zu pages",
                     ck_apsp_paths(a->semiring), a->page0 + q);
    if (self != ULLONG_MAX && self / a->n == q) return ap_unbounded(a, self, 1);
    CK_TRY((ap_run_page<Tc, T, S>(a, p, sc, q)));
  }
  return CK_OK;
}

/* Pages run as graphs by tiles in launches of about this many pair updates (np^3 a page), at
 * least a page: Ctrl-C is polled between them. About 10 ms at the rate with P (an H100 at 512
 * vertices: 264 pages a launch, as the tiled kernel's D alone). */
#define AP_GRAPH_PAGES_PAIRS ((double)(1ull << 35))

/* Pages of the run that one launch takes: memory for their work values (where not in D and P),
 * boards and histories within a share of the free memory, about AP_GRAPH_PAGES_PAIRS, and pages
 * * np below INT_MAX / 2 (the cycle word, whose "none" is 0x7f7f7f7f) and 65535 (the
 * conversions' grid). */
template <class T>
static size_t ap_graph_chunk(size_t pages, size_t np, bool paths, bool in_place) {
  const size_t per_page = ap_graph_pages_bytes<T>(np, paths) +
                          (in_place ? 0 : np * np * (sizeof(T) + (paths ? sizeof(int) : 0)));
  size_t chunk = ck_dev_budget() / 4 / per_page;
  const double work = AP_GRAPH_PAGES_PAIRS / ((double)np * np * np);
  if ((double)chunk > work) chunk = (size_t)work;
  if (chunk > (size_t)(INT_MAX / 2) / np) chunk = (size_t)(INT_MAX / 2) / np;
  if (chunk > 65535) chunk = 65535;
  if (chunk < 1) chunk = 1;
  return chunk < pages ? chunk : pages;
}

/* Every page as a graph by tiles (ap_graphs_by_tiles), many a launch, from the work values'
 * padded copy (or in D and P where they are W's as they lie and no padding is needed); pages from
 * the first with an unbounded weight to itself (the survey's) are not run. An unbounded cycle
 * ends the call: its page runs again alone and is named as its 2-D call names it (ap_run_page).
 * Out of device memory before a launch ran, the pages run one by one (their 2-D calls fall back
 * to the rounds, which need less). */
template <class Tc, class T, int S>
static ck_status ap_run_graph_pages(ck_apsp_args *a, const ck_apsp_part &p, ap_scratch *sc) {
  typedef ap_problem<S> Pb;
  const size_t n = a->n, np = round_up(n, AP_TILE), nn = n * n, npp = np * np;
  const bool in_place = ap_as_they_lie<Tc, T, S>() && np == n && p.W != p.D, paths = p.P;
  unsigned long long self = ULLONG_MAX; /* page * n + vertex */
  CK_CUDA(cudaMemcpy(&self, &sc->page_self, sizeof self, cudaMemcpyDeviceToHost),
          "reading the survey");
  const size_t pages = self == ULLONG_MAX ? a->pages : (size_t)(self / n);
  const size_t chunk = ap_graph_chunk<T>(pages, np, paths, in_place);
  T *X = NULL;
  int *N = NULL;
  ck_status st = CK_OK;
  if (!in_place && pages) {
    st = ck_dev_alloc((void **)&X, chunk * npp * sizeof(T));
    if (st == CK_OK && paths) st = ck_dev_alloc((void **)&N, chunk * npp * sizeof(int));
  }
  size_t launches = 0, cycle = SIZE_MAX; /* the first page with an unbounded cycle ... */
  int vertex = 0;                        /* ... and the smallest vertex the tiles saw there */
  for (size_t q0 = 0; st == CK_OK && q0 < pages && cycle == SIZE_MAX; q0 += chunk) {
    /* the launch before has run (where the work type has no cycle word, nothing waited) */
    if (q0) st = ck_cuda_check(cudaDeviceSynchronize(), "closing the graphs");
    if (st == CK_OK && a->cancelled && a->cancelled(a->ctx)) {
      st = ck_fail(CK_ERR_INTERRUPTED, "%s paths: interrupted after %zu pages",
                   ck_apsp_paths(a->semiring), a->page0 + q0);
      break;
    }
    const unsigned count = (unsigned)(pages - q0 < chunk ? pages - q0 : chunk);
    T *x = in_place ? (T *)p.D + q0 * nn : X;
    int *nx = in_place ? (paths ? p.P + q0 * nn : NULL) : N;
    const dim3 in(grid_for(npp, MP_THREADS), count), out(grid_for(nn, MP_THREADS), count);
    ap_convert_in<Tc, T, S><<<in, MP_THREADS>>>((const Tc *)p.W + q0 * nn, n, x, nx, np, 0, np,
                                                ap_no_path<Tc, T, S>());
    st = ck_cuda_check(cudaGetLastError(), "converting the weights");
    int first = INT_MAX;
    if (st == CK_OK) st = ap_graph_tiled_pages<T, typename Pb::SR>(x, nx, np, count, true, first);
    if (st == CK_OK) launches++;
    if (st == CK_OK && first != INT_MAX)
      cycle = q0 + (size_t)first / np, vertex = (int)((size_t)first % np);
    else if (st == CK_OK && !in_place) {
      ap_convert_out<T, Tc, S>
          <<<out, MP_THREADS>>>(X, N, np, (Tc *)p.D + q0 * nn, paths ? p.P + q0 * nn : NULL, n, n);
      st = ck_cuda_check(cudaGetLastError(), "converting the paths");
    }
  }
  if (st == CK_OK) st = ck_cuda_check(cudaDeviceSynchronize(), "closing the graphs");
  else (void)cudaDeviceSynchronize();
  ck_dev_free(X);
  ck_dev_free(N);
  if (st == CK_ERR_OUTOFMEMORY && launches == 0) { /* as 2-D calls, which need less */
    (void)cudaGetLastError();
    return ap_run_page_by_page<Tc, T, S>(a, p, sc);
  }
  a->plan->batched_runs = launches, a->plan->single_pages = 0;
  a->plan->tile[0] = a->plan->tile[1] = a->plan->tile[2] = AP_TILE;
  if (st != CK_OK) return st;
  if (cycle != SIZE_MAX) { /* named as its 2-D call names it; where that did not, the tiles' */
    CK_TRY((ap_run_page<Tc, T, S>(a, p, sc, cycle, true)));
    return ap_unbounded(a, (unsigned long long)cycle * n + (unsigned long long)vertex, 0);
  }
  if (self != ULLONG_MAX) return ap_unbounded(a, self, 1);
  return CK_OK;
}

/* What a run's kernels noted in sc, read back through the lane's pinned words where it has them
 * (a copy from pageable memory took longer). */
static ck_status ap_findings(const ap_scratch *sc, ap_scratch *found) {
  int *words = NULL;
  if (ck_host_words(&words, AP_SCRATCH_WORDS) != CK_OK) words = NULL;
  return ap_read_back(found, sc, sizeof *found, words, "reading the unbounded-cycle flag");
}

/* Every page on the batched kernels (tiles: the tiled kernel, ap_tiles), in launches of
 * ap_batch_chunk pages with Ctrl-C polled between them; an unbounded cycle in any page fails
 * the call, naming the first such page. noted: where set, what the kernels noted in sc (ap_kept
 * decides from it whether its scratch is still cleared). */
template <class Tc, class T, int S>
static ck_status ap_run_pages(ck_apsp_args *a, const ck_apsp_part &p, ap_scratch *sc, bool tiles,
                              bool *missed, ap_scratch *noted) {
  typedef typename ap_problem<S>::SR SR;
  constexpr bool direct = ap_as_they_lie<Tc, T, S>();
  const bool checks = missed != nullptr; /* the guess: the kernel surveys */
  const size_t n = a->n, nn = n * n, pages = ap_pages(a), count = pages * nn;
  const T nopath = ap_no_path<Tc, T, S>();
  /* a copy of the work values where they are not W's, or where W is D (a 2-D call of host
   * arrays): an unbounded path's second run reads W again */
  T *X = NULL;
  if (!direct || p.W == p.D) CK_TRY(ck_dev_alloc((void **)&X, count * sizeof(T)));
  ck_status st = CK_OK;
  if (direct && X)
    st = ck_cuda_check(cudaMemcpy(X, p.W, count * sizeof(T), cudaMemcpyDeviceToDevice),
                       "copying the weights");
  const T *in = X ? X : (const T *)p.W;
  T *out = direct ? (T *)p.D : X;
  size_t launches = 0;
  /* every page, from W, in launches of ap_batch_chunk pages, Ctrl-C polled between them */
  auto run = [&](int trace) -> ck_status {
    if (!direct)
      ap_stage_in<Tc, T, S>
          <<<grid_for(count, MP_THREADS), MP_THREADS>>>((const Tc *)p.W, X, count, nopath);
    CK_CUDA(cudaGetLastError(), "converting the weights");
    const bool tiled = tiles && !trace; /* the second run keeps the plain order */
    const size_t chunk = ap_batch_chunk((int)n, tiled);
    for (size_t q0 = 0; q0 < pages; q0 += chunk) {
      if (q0) CK_CUDA(cudaDeviceSynchronize(), "closing the graphs");
      if (a->cancelled && a->cancelled(a->ctx))
        return ck_fail(CK_ERR_INTERRUPTED, "%s paths: interrupted after %zu pages",
                       ck_apsp_paths(a->semiring), a->page0 + q0);
      ap_batch<T> b = {in + q0 * nn,
                       out + q0 * nn,
                       p.P ? p.P + q0 * nn : NULL,
                       pages - q0 < chunk ? pages - q0 : chunk,
                       q0,
                       (int)n,
                       nopath,
                       &sc->page_neg,
                       NULL,
                       NULL,
                       trace,
                       0,
                       0};
      if (checks) b.refused = &sc->refused, b.self = &sc->page_self;
      b.tiles = tiled;
      CK_TRY((ap_batch_close<T, SR>(b)));
      launches++;
    }
    return CK_OK;
  };
  if (st == CK_OK) st = run(0);
  ap_scratch found = ap_cleared();
  if (st == CK_OK) st = ap_findings(sc, &found);
  if (noted) *noted = found;
  unsigned long long cycle = ULLONG_MAX; /* page * n + vertex */
  if (st == CK_OK && found.page_neg != ULLONG_MAX && !found.refused && n > ck_apsp_batch_n()) {
    /* no plain-order kernel takes these pages (past 256 vertices, or past 128 without
     * clusters): the first with an unbounded diagonal runs again on the rounds, which name its
     * vertex as the call's 2-D calls of it would */
    const size_t q = (size_t)(found.page_neg / n);
    cycle = found.page_neg;
    if (found.page_self == ULLONG_MAX || found.page_self / n > q) {
      ck_apsp_part weights = p; /* W, or its copy where D overwrote it */
      if (direct) weights.W = in;
      st = ap_run_page<Tc, T, S>(a, weights, sc, q, true);
      if (st != CK_OK) cycle = ULLONG_MAX; /* named, or failed */
    }
  } else if (st == CK_OK && found.page_neg != ULLONG_MAX && !found.refused) {
    /* again, looking at the diagonal after every step: the first step's smallest vertex, which
     * the "cpu" kernel names (at the end other diagonals may be unbounded too, through it) */
    const unsigned long long none = ULLONG_MAX;
    st = ck_cuda_check(cudaMemcpy(&sc->page_neg, &none, sizeof none, cudaMemcpyHostToDevice),
                       "clearing the unbounded-cycle flag");
    if (st == CK_OK) st = run(1);
    unsigned long long at = ULLONG_MAX; /* (page * n + step) * n + vertex */
    if (st == CK_OK)
      st = ck_cuda_check(cudaMemcpy(&at, &sc->page_neg, sizeof at, cudaMemcpyDeviceToHost),
                         "reading the unbounded-cycle flag");
    if (st == CK_OK && at != ULLONG_MAX) cycle = at / (n * n) * n + at % n;
  }
  const unsigned long long self = st == CK_OK ? found.page_self : ULLONG_MAX;
  if (st == CK_OK && (found.refused & 2) && missed) *missed = true; /* the guess: ap_guess */
  else if (st == CK_OK && found.refused)
    st = ck_fail(CK_ERR_INVALID, "edge weights must not be %s", ck_apsp_refused(a->semiring));
  /* the first page with an unbounded path; a weight to itself before the rounds, as the cpu
   * kernel sees it */
  else if (self != ULLONG_MAX && (cycle == ULLONG_MAX || self / n <= cycle / n))
    st = ap_unbounded(a, self, 1);
  else if (st == CK_OK && cycle != ULLONG_MAX) st = ap_unbounded(a, cycle, 0);
  if (st == CK_OK && !direct && !(missed && *missed)) {
    ap_stage_out<T, Tc, S><<<grid_for(count, MP_THREADS), MP_THREADS>>>(X, (Tc *)p.D, p.P, count);
    st = ck_cuda_check(cudaDeviceSynchronize(), "converting the paths");
  }
  if (st != CK_OK) (void)cudaDeviceSynchronize();
  ck_dev_free(X);
  a->plan->batched_runs = launches, a->plan->single_pages = 0;
  /* the plan notes the tiled kernel's tile where a run of the call's pages took it (not a
   * guess that missed: the survey's run is the call's) */
  if (tiles && !(missed && *missed))
    a->plan->tile[0] = a->plan->tile[1] = a->plan->tile[2] = AP_TILE;
  return st;
}

#endif
