/* Semiring v3 warptile for single and double, every semiring of the family (SR): for min.+ one
 * FADD and one FMNMX per pair update (max.min two FMNMX, max.* FMUL and FMNMX), on the
 * warp-tiled kernel of warptile.cuh through the shared Op of minplus_warptile.cuh. Ragged shapes
 * are padded with NaN, which the min ignores. */
#include "minplus_warptile.cuh"

/* Floating point: FADD + FMNMX per pair; NaN terms are ignored as in the other versions. The
 * row-major transposed product is Octave's column-major C, so results go straight to C and the
 * tiles to K (for witness_fixup), or both to the planes of a split. */
template <class TT, class SR> struct mp_float_sums {
  typedef TT T;
  typedef mp_traits<T, SR> tr;
  T *C;         /* C, or the planes */
  double *tile; /* with the witness: K, or the planes' tiles */
  static __device__ __forceinline__ T identity() { return tr::init(); }
  __device__ __forceinline__ T witness_start() const { return tr::init(); }
  /* the kernel's a is Octave's B and its b Octave's A (the transposed product): the term takes
   * them in Octave's order, which a select keeps on ties (double max.min and min.max) */
  static __device__ __forceinline__ T addmin(T a, T b, T c) { return tr::pick(c, tr::term(b, a)); }
  static __device__ __forceinline__ T term(T a, T b) { return tr::term(b, a); }
  __device__ __forceinline__ void keep(T &v, uint32_t &id, T t, uint32_t tile) const {
    if (tr::better(t, v)) {
      v = t;
      id = tile;
    }
  }
  template <bool ARG> using take = merge_take<T, ARG, SR>;
  template <bool ARG>
  __device__ __forceinline__ void store(T v, uint32_t id, int i, int j, int Mr, int Nr,
                                        int plane) const {
    size_t at = plane_at(i, j, Mr, Nr, plane);
    C[at] = v;
    if (ARG) tile[at] = id;
  }
};
template <class T, bool ARG, class SR> using mp_float_op = mp_op<mp_float_sums<T, SR>, ARG>;

template <class T, bool ARG, class SR>
__global__ void merge_planes(const T *__restrict__ P, const double *__restrict__ Pt, int splits,
                             size_t count, T *__restrict__ C, double *__restrict__ tile) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  T v = 0;
  double id = 0;
  if (merge_runs(P, ARG ? Pt : (const double *)NULL, splits, count, idx, v, id,
                 merge_take<T, ARG, SR>())) {
    C[idx] = v;
    if (ARG) tile[idx] = id;
  }
}

/* dst (rows_p x cols_p, row-major) = src (rows x cols, row-major) with `fill` around it; over
 * pages, page `first` + blockIdx.y of each. */
template <class T>
__global__ void pad_fill(const T *__restrict__ src, T *__restrict__ dst, size_t rows, size_t cols,
                         size_t rows_p, size_t cols_p, T fill, size_t first) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x, page = first + blockIdx.y;
  if (idx >= rows_p * cols_p) return;
  size_t r, c;
  split_index(idx, cols_p, r, c);
  dst[page * rows_p * cols_p + idx] = (r < rows && c < cols)
                                          ? src[page * rows * cols + r * cols + c]
                                          : fill;
}

/* src itself when its shape is already whole tiles, else a padded copy of its `pages` pages in
 * *scratch. */
template <class T>
static ck_status pad_operand(const T *src, size_t rows, size_t cols, size_t rows_p, size_t cols_p,
                             size_t pages, T fill, T **scratch, const T **out) {
  *out = src;
  if (rows == rows_p && cols == cols_p) return CK_OK;
  size_t count = rows_p * cols_p;
  CK_TRY(ck_dev_alloc((void **)scratch, count * pages * sizeof(T)));
  for (size_t z = 0; z < pages; z += WARPTILE_PAGES_PER_LAUNCH) {
    pad_fill<T><<<dim3(grid_for(count, MP_THREADS), warptile_pages_at(pages, z)), MP_THREADS>>>(
        src, *scratch, rows, cols, rows_p, cols_p, fill, z);
  }
  *out = *scratch;
  return CK_OK;
}

template <class T, bool ARG, class SR> ck_status mp_run_warptile_float(const mp_problem<T, SR> &q) {
  const size_t m = q.m, k = q.k, n = q.n;
  typedef typename v3_sr_cfg<T, ARG, SR>::type cfg;
  typedef mp_float_op<T, ARG, SR> Op;
  /* NaN terms are ignored, and a pad of k is NaN in both operands: every multiply of NaN and NaN
   * is NaN (min and max of two NaN too) */
  const T nan = mp_traits<T, SR>::empty() - mp_traits<T, SR>::empty();
  size_t Mp = round_up(n, cfg::BM), Np = round_up(m, cfg::BN), Kp = round_up(k, cfg::BK);
  T *sa = NULL, *sb = NULL;
  const T *ra, *rb;
  ck_status s = pad_operand<T>(q.B, n, k, Mp, Kp, 1, nan, &sa, &ra);
  if (s == CK_OK) s = pad_operand<T>(q.A, k, m, Kp, Np, 1, nan, &sb, &rb);
  mp_split sp = {1, 1, NULL, NULL};
  if (s == CK_OK) {
    sp = plan_split<Op, cfg>(Mp, Np, Kp, m * n, sizeof(T), ARG ? sizeof(double) : 0);
    ck_plan_note_tiles(cfg::BM, cfg::BN, cfg::BK, sp.slices, sp.cs);
    const int planes = sp.planes ? sp.planes_n() : 1;
    Op op = {
        (int)n, (int)m, {planes > 1 ? (T *)sp.planes : q.C, planes > 1 ? (double *)sp.tiles : q.K}};
    warptile_launch_split<Op, cfg>((int)Mp, (int)Np, (int)Kp, sp.slices, sp.cs, ra, rb, op);
    if (planes > 1) {
      dim3 mb = merge_block(planes, m * n);
      merge_planes<T, ARG, SR><<<grid_for(m * n, mb.x), mb>>>(
          (const T *)sp.planes, (const double *)sp.tiles, planes, m * n, q.C, q.K);
    }
    s = v3_finish<T, cfg::BK, SR>(q);
  }
  ck_dev_free(sa);
  ck_dev_free(sb);
  free_split(&sp);
  return s;
}

/* A batch (q.pg) in one launch on the paged tiles; no split. */
template <class T, bool ARG, class SR> ck_status mp_run_pages_float(const mp_problem<T, SR> &q) {
  const size_t m = q.m, k = q.k, n = q.n;
  typedef typename v3_page_cfg<T, ARG>::type cfg;
  typedef warptile_paged<mp_float_op<T, ARG, SR>> Op;
  const T nan = mp_traits<T, SR>::empty() - mp_traits<T, SR>::empty();
  size_t Mp = round_up(n, cfg::BM), Np = round_up(m, cfg::BN), Kp = round_up(k, cfg::BK);
  T *sa = NULL, *sb = NULL;
  const T *ra, *rb;
  ck_status s = pad_operand<T>(q.B, n, k, Mp, Kp, q.pg.pages_b(), nan, &sa, &ra);
  if (s == CK_OK) s = pad_operand<T>(q.A, k, m, Kp, Np, q.pg.pages_a(), nan, &sb, &rb);
  if (s == CK_OK) {
    const Op op = {{(int)n, (int)m, {q.C, q.K}}, q.pg.sb * Mp * Kp, q.pg.sa * Kp * Np};
    mp_launch_pages<Op, cfg>((int)Mp, (int)Np, (int)Kp, q.pg.count, ra, rb, op,
                             [&](Op o, size_t z) {
                               o.sums.C += z * m * n;
                               if (ARG) o.sums.tile += z * m * n;
                               return o;
                             });
    s = v3_finish<T, cfg::BK, SR>(q);
  }
  ck_dev_free(sa);
  ck_dev_free(sb);
  return s;
}

MP_INSTANTIATE_SEMIRINGS(mp_run_warptile_float, FLOATS)
MP_INSTANTIATE_SEMIRINGS(mp_run_pages_float, FLOATS)
