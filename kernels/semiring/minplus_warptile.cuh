/* What the two warptile min-plus paths (minplus_float.cu, minplus_dpx_run.cuh) share around the
 * warp-tiled kernel of warptile.cuh: the min-plus Op over a representation of the sums, split-K
 * (the plan, its scratch planes and their merge in k order) and the witness fix-up that turns
 * each output's winning tile into Octave's index.
 *
 * The product is run as its row-major transpose (as the matmul ladder does): row-major "A" is
 * Octave's B (n x k, the same bytes), "B" is Octave's A (k x m), output (j, i) is C(i, j).
 *
 * The witness is tracked per tile, not per step: each accumulator keeps the minimum of the
 * current BK-deep tile (t) beside the running one (v) and, at the tile's end, the index of the
 * last tile that strictly improved v (id). A per-pair witness costs a compare and two selects on
 * every step; this costs them once per BK steps. witness_fixup then searches that one tile for
 * the smallest k attaining C(i, j), which is Octave's index. (Searching it in the kernel's
 * epilogue instead, with the operands still in L2, measured slower: the search's loads raised
 * the kernel's registers and cut its occupancy, doc/NOTES.md.) */
#ifndef CK_MINPLUS_WARPTILE_CUH
#define CK_MINPLUS_WARPTILE_CUH

#include "minplus.cuh"
#include "warptile.cuh"

/* A later slice's (t, idt) into an earlier one's (v, id) by Octave's rules: ties keep the earlier
 * (smaller k), NaN never wins. */
template <class T, bool ARG, class SR = mp_sr> struct merge_take {
  template <class I> __device__ __forceinline__ void operator()(T &v, I &id, T t, I idt) const {
    typedef mp_traits<T, SR> tr;
    if (!ARG) {
      v = tr::pick(v, t);
    } else if (tr::better(t, v)) {
      v = t;
      id = idt;
    }
  }
};

/* What a slice of k hands over for one output: its minimum, and with the witness its tile. */
template <class T, bool ARG> struct mp_part {
  T v;
  uint32_t id;
};
template <class T> struct mp_part<T, false> { T v; };

/* The min-plus Op of warptile_kernel, over a representation S of the sums:
 *   typedef T; identity(); addmin(a, b, c) = pick(c, term(a, b)); term(a, b);
 *   keep(v, id, t, tile): the running minimum v takes the tile minimum t where t wins (as Octave
 *   compares them), and id the tile;
 *   take<ARG>: the functor folding a later slice's (t, idt) into an earlier one's (v, id);
 *   store<ARG>(v, id, i, j, Mr, Nr, plane): output (i, j) of the Mr x Nr row-major product and
 *   its tile, into plane `plane` of partial results when k is split into planes, else into the
 *   result. */
template <class SUMS, bool ARG> struct mp_op {
  typedef SUMS S;
  typedef typename S::T T;
  struct Acc {
    T v, t;
    uint32_t id;
  };
  typedef mp_part<T, ARG> Part;
  int Mr, Nr;
  S sums;
  __device__ __forceinline__ void init(Acc &x) const {
    x.v = ARG ? sums.witness_start() : S::identity();
    x.id = 0;
  }
  static __device__ __forceinline__ void first(Acc &x, T a, T b) {
    if (ARG) x.t = S::term(a, b);
    else x.v = S::addmin(a, b, x.v);
  }
  static __device__ __forceinline__ void step(Acc &x, T a, T b) {
    if (ARG) x.t = S::addmin(a, b, x.t);
    else x.v = S::addmin(a, b, x.v);
  }
  __device__ __forceinline__ void tile_end(Acc &x, int t) const {
    if (ARG) sums.keep(x.v, x.id, x.t, (uint32_t)t);
  }
  static __device__ __forceinline__ Part handover(const Acc &x) {
    Part p;
    p.v = x.v;
    if constexpr (ARG) p.id = x.id;
    return p;
  }
  static __device__ __forceinline__ void fold(Part &p, const Part &later) {
    typename S::template take<ARG> take;
    if constexpr (ARG) take(p.v, p.id, later.v, later.id);
    else {
      uint32_t none = 0;
      take(p.v, none, later.v, none);
    }
  }
  __device__ __forceinline__ void store_part(const Part &p, int i, int j, int plane) const {
    uint32_t id = 0;
    if constexpr (ARG) id = p.id;
    if (i < Mr && j < Nr) sums.template store<ARG>(p.v, id, i, j, Mr, Nr, plane);
  }
  __device__ __forceinline__ void store(const Acc &x, int i, int j) const {
    if (i < Mr && j < Nr) sums.template store<ARG>(x.v, x.id, i, j, Mr, Nr, (int)blockIdx.z);
  }
};

/* Where output (i, j) of an Mr x Nr product goes in a plane (plane 0: the result). */
__device__ __forceinline__ size_t plane_at(int i, int j, int Mr, int Nr, int plane) {
  return (size_t)plane * Mr * Nr + (size_t)i * Nr + j;
}

/* Split-K: the planes of the slices of k, merged in order. Ties keep the earlier slice (smaller
 * k), NaN never wins; the tiles are already global. Floating point planes are the output's
 * layout; DPX words are merged as words (per half when packed, tiles likewise) and decoded into
 * the class as they are written.
 * Each output's planes are cut into blockDim.y runs of consecutive planes, one per thread, and
 * the runs folded in order in shared memory: a deep split over few outputs (256 x 8192 x 256
 * merges 32 to 64 planes of 65536 outputs) otherwise leaves each thread a long chain of loads
 * and the GPU mostly idle (14 us; doc/NOTES.md). */
__device__ __forceinline__ void merge_run(int splits, int &z0, int &z1) {
  z0 = splits * (int)threadIdx.y / (int)blockDim.y;
  z1 = splits * ((int)threadIdx.y + 1) / (int)blockDim.y;
}

/* One output's run of planes [z0, z1) (never empty: blockDim.y <= splits), then the runs of
 * the block's column folded in order by its first row; true in the thread that holds the
 * result. */
template <class V, class I, class Take>
__device__ __forceinline__ bool merge_runs(const V *__restrict__ P, const I *__restrict__ Pt,
                                           int splits, size_t count, size_t idx, V &v, I &id,
                                           Take take) {
  __shared__ V sv[MP_THREADS];
  __shared__ I si[MP_THREADS];
  int z0, z1;
  merge_run(splits, z0, z1);
  if (idx < count) {
    v = P[(size_t)z0 * count + idx];
    id = Pt ? Pt[(size_t)z0 * count + idx] : I(0);
#pragma unroll 8 /* several planes' loads in flight */
    for (int z = z0 + 1; z < z1; z++) {
      size_t at = (size_t)z * count + idx;
      take(v, id, P[at], Pt ? Pt[at] : I(0));
    }
  }
  int me = threadIdx.y * blockDim.x + threadIdx.x;
  sv[me] = v;
  si[me] = id;
  __syncthreads();
  if (threadIdx.y != 0 || idx >= count) return false;
  for (int y = 1; y < (int)blockDim.y; y++)
    take(v, id, sv[y * blockDim.x + threadIdx.x], si[y * blockDim.x + threadIdx.x]);
  return true;
}

/* The merge's block: runs of planes per output by outputs (when runs pay: minplus_policy.cuh). */
static dim3 merge_block(int splits, size_t count) {
  return warptile_merge_block(splits, count, MP_MERGE_MAX_RUNS, MP_MERGE_FILL_OUTPUTS, MP_THREADS);
}

/* How the Op's kernel runs over the padded Mp x Np x Kp product: split->slices of k, folded in
 * clusters of split->cs, with the scratch for the clusters' planes when there is more than one:
 * `count` elements of es bytes each (and, with the witness, their tiles of ts bytes). When the
 * scratch cannot be had the product runs unsplit. */
struct mp_split {
  int slices, cs;
  void *planes, *tiles; /* NULL: the kernel stores the result itself */
  int planes_n() const { return slices / cs; }
};

template <class Op, class CFG>
static mp_split plan_split(size_t Mp, size_t Np, size_t Kp, size_t count, size_t es, size_t ts) {
  mp_split p = {1, 1, NULL, NULL};
  p.slices = warptile_splits<Op, CFG>((int)Mp, (int)Np, (int)Kp, mp_sm_count(), mp_split_cost,
                                      &p.cs);
  if (p.planes_n() <= 1) return p;
  if (ck_dev_alloc(&p.planes, p.planes_n() * count * es) == CK_OK &&
      (!ts || ck_dev_alloc(&p.tiles, p.planes_n() * count * ts) == CK_OK))
    return p;
  ck_dev_free(p.planes);
  p.planes = NULL;
  p.slices = p.cs = 1; /* no room for the planes */
  return p;
}

static void free_split(mp_split *p) {
  ck_dev_free(p->planes);
  ck_dev_free(p->tiles);
  p->planes = p->tiles = NULL;
}

/* A batch of pages on CFG's tiles, or on its wide form (minplus_policy.cuh: v3_page_wide) where
 * the padded pages are whole tiles of it (same BM and BK, so the padding is the same). */
template <class Op, class CFG, class Advance>
static void mp_launch_pages(int Mp, int Np, int Kp, size_t pages, const warptile_a_t<Op> *A,
                            const warptile_b_t<Op> *B, const Op &op, Advance advance) {
  typedef typename v3_page_wide<CFG>::type W;
  if constexpr (!std::is_void<W>::value) {
    static_assert((int)W::BM == (int)CFG::BM && (int)W::BK == (int)CFG::BK,
                  "the wide form pads as CFG does");
    if (Np % W::BN == 0) {
      ck_plan_note_tiles(W::BM, W::BN, W::BK, 1, 1);
      return warptile_launch_pages<Op, W>(Mp, Np, Kp, pages, A, B, op, advance);
    }
  }
  ck_plan_note_tiles(CFG::BM, CFG::BN, CFG::BK, 1, 1);
  warptile_launch_pages<Op, CFG>(Mp, Np, Kp, pages, A, B, op, advance);
}

/* After a v3 kernel with the witness: K holds the tile of each witness; the smallest k within it
 * whose (saturated) sum equals C(i, j) is Octave's index. Nothing matches only when every term
 * was NaN, where Octave's index is 1. A(i, p) is at A[i * si + p * sp]: neighbouring threads
 * search different tiles, so A transposed (si = k, sp = 1) lets each read one contiguous run
 * instead of one cache line per term. Where both runs are whole 16-byte vectors (a full tile, k
 * a multiple of 16 bytes) each thread loads its whole tile at once and searches it in registers:
 * the term-by-term search waited on each load in turn (at 8192 x 256 x 8192 it took longer than
 * the product). */
template <class T, int BK, class SR>
__device__ __forceinline__ int search_tile_vec(const T *__restrict__ a, const T *__restrict__ b,
                                               typename mp_traits<T, SR>::W c) {
  typedef mp_traits<T, SR> tr;
  typedef typename tr::W W;
  constexpr int E = 16 / sizeof(T), V = (BK + E - 1) / E;
  vec16<T> va[V], vb[V];
#pragma unroll
  for (int v = 0; v < V; v++) {
    va[v] = load16(a + v * E);
    vb[v] = load16(b + v * E);
  }
  int at = -1; /* none: every term NaN */
#pragma unroll
  for (int p = BK - 1; p >= 0; p--) /* backwards: the last match written is the smallest p */
    if (tr::sat(tr::term((W)va[p / E].e[p % E], (W)vb[p / E].e[p % E])) == c) at = p;
  return at;
}

/* The fix-up of output idx of one product (A(i, p) at A[i * si + p * sp]). */
template <class T, int BK, class SR>
__device__ __forceinline__ void witness_at(const T *__restrict__ A, size_t si, size_t sp,
                                           const T *__restrict__ B, const T *__restrict__ C,
                                           double *__restrict__ K, size_t m, size_t k, size_t n,
                                           size_t idx) {
  typedef mp_traits<T, SR> tr;
  typedef typename tr::W W;
  size_t i, j;
  split_index(idx, m, j, i);
  size_t p0 = (size_t)K[idx] * BK, p1 = p0 + BK < k ? p0 + BK : k;
  W c = (W)C[idx];
  size_t at = 0;
  const bool whole = sp == 1 && p1 - p0 == BK && (k * sizeof(T)) % 16 == 0 && BK * sizeof(T) >= 16;
  if (whole) {
    int hit = search_tile_vec<T, BK, SR>(A + i * si + p0, B + p0 + j * k, c);
    if (hit >= 0) at = p0 + hit;
  } else {
    for (size_t p = p0; p < p1; p++)
      if (tr::sat(tr::term((W)A[i * si + p * sp], (W)B[p + j * k])) == c) {
        at = p;
        break;
      }
  }
  K[idx] = (double)(at + 1);
}

template <class T, int BK, class SR>
__global__ void witness_fixup(const T *__restrict__ A, size_t si, size_t sp,
                              const T *__restrict__ B, const T *__restrict__ C,
                              double *__restrict__ K, size_t m, size_t k, size_t n) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < m * n) witness_at<T, BK, SR>(A, si, sp, B, C, K, m, k, n, idx);
}

/* The same over pages (blockIdx.y, from page `first`): page z's A starts pa * z elements on, its
 * B pb * z, its C and K m * n * z. */
template <class T, int BK, class SR>
__global__ void witness_fixup_pages(const T *__restrict__ A, size_t si, size_t sp, size_t pa,
                                    const T *__restrict__ B, size_t pb, const T *__restrict__ C,
                                    double *__restrict__ K, size_t m, size_t k, size_t n,
                                    size_t first) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x, z = first + blockIdx.y;
  if (idx < m * n)
    witness_at<T, BK, SR>(A + z * pa, si, sp, B + z * pb, C + z * m * n, K + z * m * n, m, k, n,
                          idx);
}

/* After the kernel (and any merge): its launch checked, then with the witness the fix-up. Pages:
 * A's pages side by side transposed at once, (k * pages) x m, so page z's A(i, p) is at
 * z * sa * k + i * k * pages + p. */
template <class T, int BK, class SR> static ck_status v3_finish(const mp_problem<T, SR> &q) {
  CK_CUDA(cudaGetLastError(), "launching the warptile semiring kernel");
  if (!q.K) return CK_OK;
  const size_t m = q.m, k = q.k, n = q.n, pages = q.pg.pages_a(), kt = k * pages;
  const unsigned grid = grid_for(m * n, MP_THREADS);
  T *At = NULL;
  const bool transposed = m > 1 && ck_dev_alloc((void **)&At, m * kt * sizeof(T)) == CK_OK;
  if (transposed) transpose_pad<T><<<transpose_grid(m, kt), dim3(32, 8)>>>(q.A, At, m, kt, kt);
  /* else m == 1: A is one contiguous row; no room for the transposed copy: slower */
  const T *a = transposed ? At : q.A;
  const size_t si = transposed ? kt : 1, sp = transposed ? 1 : m;
  if (!q.pg.count) {
    witness_fixup<T, BK, SR><<<grid, MP_THREADS>>>(a, si, sp, q.B, q.C, q.K, m, k, n);
  } else {
    const size_t pa = q.pg.sa * (transposed ? k : m * k), pb = q.pg.sb * k * n;
    for (size_t z = 0; z < q.pg.count; z += WARPTILE_PAGES_PER_LAUNCH) {
      witness_fixup_pages<T, BK, SR><<<dim3(grid, warptile_pages_at(q.pg.count, z)), MP_THREADS>>>(
          a, si, sp, pa, q.B, pb, q.C, q.K, m, k, n, z);
    }
  }
  ck_dev_free(At);
  CK_CUDA(cudaGetLastError(), "launching the witness fix-up");
  return CK_OK;
}

#endif
