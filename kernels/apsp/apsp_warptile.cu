/* Blocked Floyd-Warshall, steps 2 to 4 of a round (apsp.cuh): the snapshot, then the pivot's row
 * and column strips and the rest of the matrix as min-plus products that keep only strict
 * improvements, on the warp-tiled kernel of warptile.cuh with gpu_minplus's tile shapes
 * (minplus_policy.cuh). Step 4 is nearly all of the algorithm's work.
 *
 * With next hops, the winner of each output is tracked per BK-deep tile, as gpu_minplus's
 * witness is (minplus_warptile.cuh), and searched within its tile only where the output improved,
 * by the lanes of a warp together (ap_op::store_tile); the next-hop matrix is written only
 * there. */
#include "apsp_words.cuh"
#include "warptile.cuh"

/* The Op of warptile_kernel (warptile.cuh) for one step's product: ap_job in words. Outputs are
 * (row i, word jw); element jw * E + h of row i is half h of the word. */
template <class TE, class SR, bool ARG, int BK, int NW> struct ap_op { /* NW: warps per block */
  typedef ap_words<TE, SR> Wd;
  typedef typename Wd::W T;
  enum { E = Wd::E };
  struct Acc {
    T v, t;
    uint32_t id;
  };
  ap_job<T, T> j;
  int skip_rows, skip_words; /* the pivot's rows and words left out of the grid: AP_BLOCK or 0 */

  __device__ __forceinline__ void place(int &brow, int &bcol) const {
    if (j.skip_r >= 0 && brow >= j.skip_r) brow += skip_rows;
    if (j.skip_c >= 0 && bcol >= j.skip_c) bcol += skip_words;
  }
  static __device__ __forceinline__ void init(Acc &x) {
    x.v = x.t = Wd::identity();
    x.id = 0;
  }
  static __device__ __forceinline__ void first(Acc &x, T a, T b) {
    if (ARG && !Wd::RUNS_ON) x.t = Wd::term(a, b);
    else step(x, a, b);
  }
  static __device__ __forceinline__ void step(Acc &x, T a, T b) {
    if (ARG) x.t = Wd::addmin(a, b, x.t);
    else x.v = Wd::addmin(a, b, x.v);
  }
  static __device__ __forceinline__ void tile_end(Acc &x, int t) {
    if (ARG) Wd::keep(x.v, x.id, x.t, (uint32_t)t);
  }

  /* Without next hops: the improved outputs, and the copy of every output. */
  __device__ __forceinline__ void store(const Acc &x, int i, int jw) const {
    const T old = j.old[(size_t)i * j.ldo + jw];
    if constexpr (E == 1) {
      const bool better = SR::add::beats(x.v, old);
      if (better) j.out[(size_t)i * j.ldout + jw] = x.v;
      if (j.copy) j.copy[(size_t)i * j.ldcopy + jw] = better ? x.v : old;
    } else {
      const uint32_t nv = SR::add::pick_u16x2(x.v, old);
      if (nv != old) j.out[(size_t)i * j.ldout + jw] = nv;
#pragma unroll
      for (int h = 0; h < 2; h++) {
        const uint32_t vh = half(nv, h);
        if (j.copy) j.copy[(size_t)i * j.ldcopy + 2 * jw + h] = vh | vh << 16;
      }
    }
  }

  /* Without next hops, K split in a cluster (warptile.cuh, cluster_fold): each slice's values,
   * folded by the add, then stored as one. */
  typedef T Part;
  __device__ __forceinline__ T handover(const Acc &x) const { return x.v; }
  __device__ __forceinline__ void fold(T &v, T w) const { v = Wd::pick(v, w); }
  __device__ __forceinline__ void store_part(T v, int i, int jw, int) const {
    Acc x;
    x.v = v;
    store(x, i, jw);
  }

  /* With next hops (ARG; such jobs have no copies): store_tile. An improved element's next hop
   * is its winner's in the column strip's history, and the winner is the first k of the element's
   * winning tile whose term is the tile's least (the new value: later tiles did not improve on
   * it). Searched where each output is, a warp ran the search of an accumulator whenever any of
   * its lanes had improved there, the others idle (in most rounds 10-50% of the outputs improve,
   * doc/NOTES.md); so the improved elements are first marked (their tile in shared memory), then
   * searched by the warp's lanes together, 32 at a time. */
  static constexpr bool stores_whole = ARG;

  /* Half h of a word (E == 2), or the word. */
  static __device__ __forceinline__ uint32_t half(T w, int h) {
    if constexpr (E == 1) return 0;
    else return (w >> 16 * h) & 0xffffu;
  }
  /* Store the distances and mark the improved elements: mine[h] bit q for half h of accumulator q
   * (row-major in acc), its tile in tiles[q * E + h][lane]. */
  template <int NA, int NB, class At>
  __device__ __forceinline__ void store_marks(const Acc (&acc)[NA][NB], At at, uint32_t (&mine)[E],
                                              uint8_t (*tiles)[32]) const {
    static_assert(NA * NB <= 32, "one mask per half holds a lane's accumulators");
    const int lane = threadIdx.x % 32;
#pragma unroll
    for (int h = 0; h < E; h++) mine[h] = 0;
#pragma unroll
    for (int a = 0; a < NA; a++)
#pragma unroll
      for (int b = 0; b < NB; b++) {
        const int2 p = at(a, b, lane);
        const Acc &x = acc[a][b];
        const T old = j.old[(size_t)p.x * j.ldo + p.y];
        const int q = a * NB + b;
        if constexpr (E == 1) {
          if (SR::add::beats(x.v, old)) {
            j.out[(size_t)p.x * j.ldout + p.y] = x.v;
            tiles[q][lane] = (uint8_t)x.id;
            mine[0] |= 1u << q;
          }
        } else {
          const T nv = SR::add::pick_u16x2(x.v, old);
          if (nv != old) j.out[(size_t)p.x * j.ldout + p.y] = nv;
#pragma unroll
          for (int h = 0; h < E; h++)
            if (SR::add::beats(half(nv, h), half(old, h))) {
              tiles[q * E + h][lane] = (uint8_t)half(x.id, h);
              mine[h] |= 1u << q;
            }
        }
      }
  }

  /* The winner of element (i, col) in tile `tile`: every term of the tile loaded at once in
   * 16-byte pieces (the row of A, and the column of B from its transposed copy bt: read from B
   * itself, a load of one element per term went to as many sectors; both in elements, not words,
   * for fewer loads of 16-bit work), the first least one taken.
   * (Tracking over two or four tiles, for fewer instructions per word, made the searches cost
   * more than it saved: doc/NOTES.md.) */
  __device__ __forceinline__ int winner(int i, int col, int tile) const {
    constexpr int P = 16 / sizeof(TE);
    static_assert(BK % P == 0, "whole 16-byte pieces");
    const int k0 = tile * BK;
    const TE *ae = (const TE *)j.ae + (size_t)i * j.lda_e + k0;
    const TE *bt = (const TE *)j.bt + (size_t)col * j.ldbt + k0;
    vec16<TE> a[BK / P], b[BK / P];
#pragma unroll
    for (int l = 0; l < BK / P; l++) a[l] = load16(ae + l * P), b[l] = load16(bt + l * P);
    auto term = [&](int k) { return ap_work<TE, SR>::sum(a[k / P].e[k % P], b[k / P].e[k % P]); };
    typename ap_word<TE>::S least = term(0);
    int w = k0;
#pragma unroll
    for (int k = 1; k < BK; k++) {
      const auto t = term(k);
      if (SR::add::beats(t, least)) least = t, w = k0 + k;
    }
    return w;
  }

  /* Search the marked elements of half h, the warp's lanes sharing them out in the order of
   * their masks; at gives each element's place in its lane, tiles its tile. */
  template <int NB, class At>
  __device__ __forceinline__ void search_marks(uint32_t mine, int h, At at,
                                               const uint8_t (*tiles)[32]) const {
    const unsigned FULL = 0xffffffffu;
    const int lane = threadIdx.x % 32, count = __popc(mine);
    int upto = count; /* inclusive prefix sum of the counts over the warp's lanes */
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      const int y = __shfl_up_sync(FULL, upto, d);
      if (lane >= d) upto += y;
    }
    const int total = __shfl_sync(FULL, upto, 31), before = upto - count;
    for (int base = 0; base < total; base += 32) {
      const int s = base + lane; /* the element this lane searches: the owner's (s - first)th */
      int owner = 0;
#pragma unroll
      for (int st = 16; st > 0; st /= 2)
        if (__shfl_sync(FULL, before, owner + st) <= s) owner += st;
      const uint32_t theirs = __shfl_sync(FULL, mine, owner);
      const int first = __shfl_sync(FULL, before, owner);
      if (s < total) {
        const int q = (int)__fns(theirs, 0, s - first + 1);
        const int2 p = at(q / NB, q % NB, owner);
        const int col = p.y * E + h;
        const int w = winner(p.x, col, tiles[q * E + h][owner]);
        j.nout[(size_t)p.x * j.ldnout + col] = j.na[(size_t)p.x * j.ldna + w];
      }
    }
  }

  template <int NA, int NB, class At>
  __device__ __forceinline__ void store_tile(const Acc (&acc)[NA][NB], At at) const {
    /* the marks: through the next-hop matrix, int16 n = 16384 took 262 ms with P against 250 */
    __shared__ uint8_t tiles[NW][NA * NB * E][32];
    uint8_t(*mine_tiles)[32] = tiles[threadIdx.x / 32];
    uint32_t mine[E];
    store_marks(acc, at, mine, mine_tiles);
    __syncwarp(); /* the marks, to the lanes that search them */
#pragma unroll
    for (int h = 0; h < E; h++) search_marks<NB>(mine[h], h, at, mine_tiles);
  }
};

/* Thin products split their depth. A round's products are AP_BLOCK deep, and at small n some
 * have few outputs (the strips, a round's next rows and columns, the rest itself at n = 1024:
 * 16 to 24 blocks of 64 x 128): each took 34-38 us whatever its block count (H100, n = 1024),
 * the 256 steps of one block in a row on an SM of its own. Where a grid has at most one block
 * for every two SMs, its depth is split over the blocks of a cluster (Hopper): AP_SPLIT_MAX
 * slices where it has at most one for every four, else 2. They fold their values through
 * distributed shared memory (warptile.cuh, cluster_fold) before the one store. Distances only:
 * the next hops' winners are tracked along the whole depth. */
#define AP_SPLIT_MAX 4

/* The launch of a split product: CS slices of the depth in a cluster along z, placed by the
 * hardware's load balancing as warptile's own split products are. */
template <class Op, class C, int CS, class W>
static void ap_launch_split(dim3 grid, const ap_job<W, W> &job, const Op &op, cudaStream_t st) {
  (void)warptile_launch_cluster_grid<Op, C, CS>(dim3(grid.x, grid.y, CS), (int)job.ldb, job.depth,
                                                job.depth / CS, job.A, job.B, op,
                                                cudaClusterSchedulingPolicyLoadBalancing, st);
}

/* The slices a product of `blocks` blocks takes (1: not split). */
template <class Op, class C> static int ap_splits(long long blocks) {
  const long long sms = ck_device_sms();
  if (blocks * 2 > sms) return 1;
  if (!warptile_clusters_ok<Op, C, AP_SPLIT_MAX>()) return 1;
  return blocks * 4 <= sms ? AP_SPLIT_MAX : 2;
}

/* One step's product on stream st: job.rows x job.cols words, job.depth deep, less the pivot's
 * tiles (and the next pivot's, job.skip_next). */
template <class TE, class SR, bool ARG, class C>
static void
ap_product_cfg(const ap_job<typename ap_words<TE, SR>::W, typename ap_words<TE, SR>::W> &job,
               cudaStream_t st) {
  typedef ap_op<TE, SR, ARG, C::BK, C::NT / 32> Op;
  const int E = ap_words<TE, SR>::E, skip = AP_BLOCK * (job.skip_next ? 2 : 1);
  Op op = {job, job.skip_r >= 0 ? skip : 0, job.skip_c >= 0 ? skip / E : 0};
  const int rows = job.rows - op.skip_rows, cols = job.cols - op.skip_words;
  if (rows <= 0 || cols <= 0) return;
  const dim3 grid(cols / C::BN, rows / C::BM);
  if constexpr (!ARG) {
    static_assert(AP_BLOCK % (AP_SPLIT_MAX * C::BK) == 0, "whole tiles a slice");
    const int splits = job.depth == AP_BLOCK ? ap_splits<Op, C>((long long)grid.x * grid.y) : 1;
    if (splits == AP_SPLIT_MAX) return ap_launch_split<Op, C, AP_SPLIT_MAX>(grid, job, op, st);
    if (splits == 2) return ap_launch_split<Op, C, 2>(grid, job, op, st);
  }
  warptile_kernel<Op, C::BM, C::BN, C::BK, C::WM, C::WN, C::WNITER, C::TM, C::TN, C::NT, false>
      <<<grid, C::NT, 0, st>>>((int)job.ldb, job.depth, job.depth, job.A, job.B, op);
}
template <class TE, class SR, bool ARG>
static void
ap_product(const ap_job<typename ap_words<TE, SR>::W, typename ap_words<TE, SR>::W> &job,
           cudaStream_t st) {
  ap_product_cfg<TE, SR, ARG, typename v3_cfg<typename ap_words<TE, SR>::W, ARG>::type>(job, st);
}

/* The rest of a slab (step 4, or step 3 with paths), in place: A, the slab's column strip (its
 * copy or history, as words, AP_BLOCK deep) (x) rs, the strip's row strip. */
template <class T, class SR>
static ap_job<typename ap_words<T, SR>::W, typename ap_words<T, SR>::W>
ap_rest_job(const ap_matrix<T, SR> &m, size_t k0, const typename ap_words<T, SR>::W *A,
            const T *rs) {
  typedef typename ap_words<T, SR>::W W;
  const int E = ap_words<T, SR>::E, B = AP_BLOCK;
  const size_t ldw = m.np / E;
  ap_job<W, W> rest = {};
  rest.A = A, rest.lda = B, rest.B = (const W *)rs, rest.ldb = ldw;
  rest.old = (const W *)m.X, rest.ldo = ldw, rest.out = (W *)m.X, rest.ldout = ldw;
  rest.rows = (int)m.rows, rest.cols = (int)ldw, rest.depth = B;
  rest.skip_r = m.pivot_rows(k0), rest.skip_c = (int)(k0 / E);
  return rest;
}

template <class T, class SR>
void ap_row_strip(const ap_matrix<T, SR> &m, size_t k0,
                  const ap_snap<T, typename ap_word<T>::S> &s) {
  typedef typename ap_words<T, SR>::W W;
  const int E = ap_words<T, SR>::E, B = AP_BLOCK;
  const size_t ldw = m.np / E, pr = k0 - m.r0;
  /* pivot (x) row strip, from the copies */
  ap_job<W, W> row = {};
  row.A = s.pva, row.lda = B, row.B = (const W *)s.rs, row.ldb = ldw, row.old = (const W *)s.rs;
  row.ldo = ldw, row.out = (W *)m.X + pr * ldw, row.ldout = ldw;
  row.rows = B, row.cols = (int)ldw, row.depth = B, row.skip_r = -1, row.skip_c = (int)(k0 / E);
  ap_product<T, SR, false>(row, m.st);
}

template <class T, class SR>
void ap_col_strip(const ap_matrix<T, SR> &m, size_t k0, const T *strip,
                  const ap_snap<T, typename ap_word<T>::S> &s) {
  typedef typename ap_words<T, SR>::W W;
  const int E = ap_words<T, SR>::E, B = AP_BLOCK;
  const size_t ldw = m.np / E;
  /* column strip (x) pivot (the strip's columns k0 ..), into X and the copy step 4 reads; the
   * owner's pivot rows are final and are read as the pivot */
  ap_job<W, W> col = {};
  col.A = s.csa, col.lda = B, col.B = (const W *)strip + k0 / E, col.ldb = ldw;
  col.old = (const W *)s.cs, col.ldo = B / E, col.out = (W *)m.X + k0 / E, col.ldout = ldw;
  col.copy = s.cs2a, col.ldcopy = B;
  col.rows = (int)m.rows, col.cols = B / E, col.depth = B, col.skip_r = m.pivot_rows(k0);
  col.skip_c = -1;
  ap_product<T, SR, false>(col, m.st);
}

template <class T, class SR>
void ap_round_pivot(const ap_matrix<T, SR> &m, size_t k0, T *scratch,
                    const ap_snap<T, typename ap_word<T>::S> &s) {
  typedef typename ap_words<T, SR>::W W;
  ap_close_block<T, SR>(m, k0, scratch);
  ap_take_snapshot<T, W>(m.X, ap_snap_at{m.np, k0 - m.r0, k0, m.np, 0, AP_BLOCK, AP_PV | AP_RS}, s,
                         m.st);
  ap_row_strip<T, SR>(m, k0, s);
}

template <class T, class SR>
void ap_round_cols(const ap_matrix<T, SR> &m, size_t k0, const T *strip,
                   const ap_snap<T, typename ap_word<T>::S> &s) {
  typedef typename ap_words<T, SR>::W W;
  ap_take_snapshot<T, W>(m.X, ap_snap_at{m.np, 0, k0, 0, m.rows, AP_BLOCK, AP_CS}, s, m.st);
  ap_col_strip<T, SR>(m, k0, strip, s);
}

/* The rest (step 4, or step 3 with paths) whole or in parts (ap_rest_part). The next pivot's
 * rows are its block rows k1 .. k1 + B - 1 over every column but the pivot's, its columns those
 * columns over every row but the pivot's and the next pivot's; the others leave out both. */
template <class T, class SR, bool ARG>
static void
ap_rest_parts(const ap_matrix<T, SR> &m, size_t k0,
              const ap_job<typename ap_words<T, SR>::W, typename ap_words<T, SR>::W> &rest,
              ap_rest_part part) {
  const int E = ap_words<T, SR>::E, B = AP_BLOCK;
  const size_t k1 = k0 + B, r1 = k1 - m.r0; /* one slab: the next pivot's rows are here */
  auto job = rest;
  if (part == AP_REST_NEXT_ROWS) {
    job.A += r1 * job.lda, job.old += r1 * job.ldo, job.out += r1 * job.ldout;
    if (ARG) {
      job.na += r1 * job.ldna, job.nout += r1 * job.ldnout;
      job.ae = (const T *)job.ae + r1 * job.lda_e;
    }
    job.rows = B, job.skip_r = -1;
  } else if (part == AP_REST_NEXT_COLS) {
    job.B += k1 / E, job.old += k1 / E, job.out += k1 / E;
    if (ARG) job.nout += k1, job.bt = (const T *)job.bt + k1 * job.ldbt;
    job.cols = B / E, job.skip_c = -1, job.skip_next = true;
  } else {
    job.skip_next = part == AP_REST_OTHERS;
  }
  ap_product<T, SR, ARG>(job, m.st);
}

template <class T, class SR>
void ap_rest(const ap_matrix<T, SR> &m, size_t k0, const T *strip,
             const ap_snap<T, typename ap_word<T>::S> &s, ap_rest_part part) {
  ap_rest_parts<T, SR, false>(m, k0, ap_rest_job<T, SR>(m, k0, s.cs2a, strip), part);
}

/* Step 3 of a round with paths (apsp.cuh): the rest from the column strip's history (as words)
 * and the row strip's, in place. */
template <class T, class SR>
void ap_rest_hist(const ap_matrix<T, SR> &m, size_t k0, const T *rs,
                  const ap_hist<T, typename ap_word<T>::S> &h, ap_rest_part part) {
  const int B = AP_BLOCK;
  auto rest = ap_rest_job<T, SR>(m, k0, h.csa, rs);
  rest.na = h.ncs, rest.ldna = B, rest.nout = m.N, rest.ldnout = m.np;
  rest.ae = h.cs, rest.lda_e = B, rest.bt = h.rst, rest.ldbt = B;
  ap_rest_parts<T, SR, true>(m, k0, rest, part);
}

#define AP_WARPTILE_INSTANCE(T, SR)                                                       \
  template void ap_round_pivot<T, SR>(const ap_matrix<T, SR> &, size_t, T *,              \
                                      const ap_snap<T, typename ap_word<T>::S> &);        \
  template void ap_round_cols<T, SR>(const ap_matrix<T, SR> &, size_t, const T *,         \
                                     const ap_snap<T, typename ap_word<T>::S> &);         \
  template void ap_row_strip<T, SR>(const ap_matrix<T, SR> &, size_t,                     \
                                    const ap_snap<T, typename ap_word<T>::S> &);          \
  template void ap_col_strip<T, SR>(const ap_matrix<T, SR> &, size_t, const T *,          \
                                    const ap_snap<T, typename ap_word<T>::S> &);          \
  template void ap_rest<T, SR>(const ap_matrix<T, SR> &, size_t, const T *,               \
                               const ap_snap<T, typename ap_word<T>::S> &, ap_rest_part); \
  template void ap_rest_hist<T, SR>(const ap_matrix<T, SR> &, size_t, const T *,          \
                                    const ap_hist<T, typename ap_word<T>::S> &, ap_rest_part);
AP_INSTANTIATE_SR(AP_WARPTILE_INSTANCE)
