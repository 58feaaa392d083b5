/* The warp-tiled block kernel shared by the matmul (plus-times) and the min-plus ladders.
 *
 * Row-major operands: A is M x K (lda = K), B is K x N (ldb = N), both padded to whole tiles (M a
 * multiple of BM, N of BN, K of BK) and 16-byte aligned, so the loops carry no bounds checks. The
 * semiring and the output are the Op's business:
 *   typedef ... T;                  the element type of A and B
 *   struct Acc;                     one accumulator (an output, or with a witness a few registers)
 *   init(Acc &)                     before the first tile
 *   first(Acc &, T a, T b)          the first step of a tile (may restart a per-tile value)
 *   step(Acc &, T a, T b)           every other step
 *   tile_end(Acc &, int t)          after tile t (BK steps)
 *   store(const Acc &, int i, int j)  output (i, j) of the padded M x N; the Op bounds-checks.
 * Ops whose K is split inside thread-block clusters (CS > 1, below) also give
 *   typedef ... Part;               what a slice hands over for one output
 *   Part handover(const Acc &)
 *   fold(Part &, const Part &later) a later slice's result into an earlier one's
 *   store_part(const Part &, int i, int j, int plane)  the folded output, into plane `plane`.
 * (Each is called on the Op passed to the kernel, so it may be static or read the Op's fields.)
 * Ops that do not track tiles make first == step and tile_end empty; the compiler then produces
 * the same code as a kernel written for the one semiring. */
#ifndef CK_WARPTILE_CUH
#define CK_WARPTILE_CUH

#include <stdint.h>
#include <type_traits>
#include <cooperative_groups.h>

#include "ck_internal.h"

/* 16 bytes of T: the widest load a thread can issue. */
template <class T> union vec16 {
  uint4 raw;
  T e[16 / sizeof(T)];
};

template <class T> __device__ __forceinline__ vec16<T> load16(const T *p) {
  vec16<T> v;
  v.raw = *(const uint4 *)p;
  return v;
}

/* Where the kernel's 16-byte vectors of T come from: by default E elements of T in memory, as they
 * are. An Op may read its operands in another layout and convert them in registers (the 8- and
 * 16-bit min-plus classes read Octave's arrays instead of a packed copy): it then gives typedefs
 * SrcA and SrcB, each with
 *   typedef ... Elem;                     what one element of T is made from, in memory
 *   typedef ... Raw;                      what E of them load into
 *   static Raw load(const Elem *p)        p[0 .. E - 1]
 *   static vec16<T> widen(Raw)            the E elements of T made from them (by value or as a
 *                                         const reference)
 * Offsets into the operands stay in elements of T (and so of Elem). The kernel widens a tile only
 * when it stores it into shared memory, after the step that hid the load: converted as it was
 * loaded, the data was waited for in the middle of the step (int8, 1024^3: 11% slower for 0.7%
 * more instructions). */
template <class T> struct warptile_src_same {
  typedef T Elem;
  typedef vec16<T> Raw;
  static __device__ __forceinline__ Raw load(const T *p) { return load16(p); }
  /* a reference: a copy of the union changed the float kernels' code (1-4% slower) */
  static __device__ __forceinline__ const vec16<T> &widen(const Raw &r) { return r; }
};
template <class Op, class = void> struct warptile_srcs {
  typedef warptile_src_same<typename Op::T> A, B;
};
template <class Op> struct warptile_srcs<Op, std::void_t<typename Op::SrcA>> {
  typedef typename Op::SrcA A;
  typedef typename Op::SrcB B;
};
template <class Op> using warptile_a_t = typename warptile_srcs<Op>::A::Elem;

/* Where block (bx, by) of the grid computes: by default tile (by, bx) of the output. An Op may
 * place the blocks itself, with
 *   __device__ void place(int &brow, int &bcol) const   (the first row and column, in elements)
 * Blocked Floyd-Warshall leaves out the pivot's row and column of tiles this way, so that no
 * block of the grid writes what the others read. */
template <class Op, class = void> struct warptile_place {
  static __device__ __forceinline__ void at(const Op &, int &, int &) {}
};
template <class Op> struct warptile_place<Op, std::void_t<decltype(&Op::place)>> {
  static __device__ __forceinline__ void at(const Op &op, int &brow, int &bcol) {
    op.place(brow, bcol);
  }
};
template <class Op> using warptile_b_t = typename warptile_srcs<Op>::B::Elem;

/* Where a block's operands start: by default at A and B. An Op that runs a batch of products in
 * one launch (paged products, pages.cuh: blockIdx.z is the page) gives
 *   __device__ void page_offsets(size_t &a, size_t &b) const  (elements of A and B before the
 *                                                              block's page)
 * Ops without it compile as before (the offsets are the constant 0). */
template <class Op, class = void> struct warptile_page {
  static __device__ __forceinline__ void at(const Op &, size_t &, size_t &) {}
};
template <class Op> struct warptile_page<Op, std::void_t<decltype(&Op::page_offsets)>> {
  static __device__ __forceinline__ void at(const Op &op, size_t &a, size_t &b) {
    op.page_offsets(a, b);
  }
};

/* How the outputs are stored: by default op.store on each accumulator. An Op whose stores share
 * work across a warp (blocked Floyd-Warshall's next-hop search) gives
 *   static constexpr bool stores_whole = true;
 *   template <int NA, int NB, class At> void store_tile(const Acc (&)[NA][NB], At at) const
 * where at(a, b, lane) is the (row, column) of accumulator (a, b) of lane `lane` of the calling
 * warp (an int2); every lane of the warp calls it. */
template <class Op, class = void> struct warptile_stores_whole : std::false_type {};
template <class Op>
struct warptile_stores_whole<Op, std::void_t<decltype(Op::stores_whole)>>
    : std::bool_constant<Op::stores_whole> {};

/* What the loads tell the Op: by default nothing. An Op that checks the operands as the kernel
 * reads them (the paged 16-bit products' check of their guessed shift, mp_dpx_raw_page_op)
 * gives
 *   typedef ... Watch;                             each thread's, from watch_start()
 *   void watch_a(Watch &, const SrcA::Raw &)       every raw load of A once it has arrived, and
 *   void watch_b(Watch &, const SrcB::Raw &)       of B
 *   void watch_end(Watch &)                        after the block's last tile, in every thread,
 *                                                  before the stores
 * and its store_tile (it stores whole) takes the Watch as a third argument: a block can then
 * judge its own outputs from what it loaded. Ops without it compile as before. */
template <class Op, class = void> struct warptile_watch {
  static constexpr bool on = false;
  struct Watch {};
  static __device__ __forceinline__ Watch start(const Op &) { return Watch(); }
  template <class R> static __device__ __forceinline__ void a(const Op &, Watch &, const R &) {}
  template <class R> static __device__ __forceinline__ void b(const Op &, Watch &, const R &) {}
  static __device__ __forceinline__ void end(const Op &, Watch &) {}
};
template <class Op> struct warptile_watch<Op, std::void_t<typename Op::Watch>> {
  static constexpr bool on = true;
  typedef typename Op::Watch Watch;
  static __device__ __forceinline__ Watch start(const Op &op) { return op.watch_start(); }
  template <class R> static __device__ __forceinline__ void a(const Op &op, Watch &w, const R &r) {
    op.watch_a(w, r);
  }
  template <class R> static __device__ __forceinline__ void b(const Op &op, Watch &w, const R &r) {
    op.watch_b(w, r);
  }
  static __device__ __forceinline__ void end(const Op &op, Watch &w) { op.watch_end(w); }
};

/* The largest power of two that divides n and is at most room (at least 1). */
__host__ __device__ constexpr int pow2_share(int n, int room) {
  return (n % 2 == 0 && room >= 2) ? 2 * pow2_share(n / 2, room / 2) : 1;
}

/* Static shared memory a block may have. */
#define WARPTILE_SMEM (48 * 1024)

/* How many of its NA accumulators per thread a block of NT threads hands over per round in
 * cluster_fold: as many as fit (a power of two) beside `staging` bytes of tiles. */
__host__ __device__ constexpr int warptile_fold_per(int NA, int NT, int staging, int part) {
  return pow2_share(NA, (WARPTILE_SMEM - staging) / (part * NT));
}

/* Split-K inside a thread-block cluster (Hopper): the CS blocks of a cluster (along z) computed
 * consecutive slices of K for the same output tile. Each block hands its NA accumulators per
 * thread over through its own shared memory, then folds a CS-th of them across the cluster's
 * blocks in slice order (distributed shared memory) and stores them, so the slices never go
 * through global memory and no merge pass is needed. When the handovers do not fit beside the
 * staging tiles they go in rounds of PER accumulators. xs is indexed [accumulator][thread]: each
 * thread of every block reads back what the same thread of the other blocks wrote, so neither
 * side has bank conflicts. out(a, b, part): the store of accumulator (a, b). */
template <class Op, int CS, int NA, int NB, int NT, int PER, class Acc, class Out>
__device__ __forceinline__ void cluster_fold(const Op &op, Acc (&acc)[NA / NB][NB], Out out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  typedef typename Op::Part P;
  __shared__ P xs[PER * NT];
  cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
  const int rank = (int)cluster.block_rank(); /* = the slice's place in the cluster */
#pragma unroll
  for (int r = 0; r < NA / PER; r++) {
#pragma unroll
    for (int e = 0; e < PER; e++)
      xs[e * NT + threadIdx.x] = op.handover(acc[(r * PER + e) / NB][(r * PER + e) % NB]);
    cluster.sync();
    for (int e = rank; e < PER; e += CS) {
      P *mine = &xs[e * NT + threadIdx.x];
      P v = *cluster.map_shared_rank(mine, 0);
#pragma unroll
      for (int q = 1; q < CS; q++) op.fold(v, *cluster.map_shared_rank(mine, q));
      out((r * PER + e) / NB, (r * PER + e) % NB, v);
    }
    cluster.sync(); /* nobody leaves, or refills xs, while another block may still read it */
  }
#endif
}

/* A block tile split into warp tiles, each warp's tile into WMITER x WNITER sub-tiles and each
 * thread owning TM x TN of every sub-tile, so a warp's shared-memory reads stay within a few rows
 * (fewer bank conflicts, better register reuse); double-buffered: the next tiles are loaded from
 * global memory into registers while the current ones are used, then stored into the other
 * shared buffer, with one barrier per step. SPLIT: blockIdx.z takes a slice of K; CS > 1: the
 * slices are folded in clusters of CS (cluster_fold). */
template <class Op, int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, int NT,
          bool SPLIT, int CS = 1, int MINB = 0>
__global__ void __launch_bounds__(NT, MINB)
    warptile_kernel(int N, int K, int Kz, const warptile_a_t<Op> *__restrict__ A,
                    const warptile_b_t<Op> *__restrict__ B, Op op) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  /* Clusters exist from Hopper on, and are launched only there (warptile_clusters_ok): before it
   * the cluster kernels are left empty, which spares the build their code for those GPUs. */
  if (CS > 1) return;
#endif
  typedef typename Op::T T;
  const int E = 16 / sizeof(T);
  const int WMITER = (WM * WN) / (32 * TM * TN * WNITER);
  const int WSUBM = WM / WMITER, WSUBN = WN / WNITER;
  const int LA = BM * BK / E / NT, LB = BK * BN / E / NT; /* 16-byte loads per thread and tile */
  static_assert((WSUBN / TN) * (WSUBM / TM) == 32, "a sub-tile must take exactly one warp");
  static_assert(LA * E * NT == BM * BK && LB * E * NT == BK * BN, "tiles split evenly");
  __shared__ __align__(16) T As[2][BK * BM];
  __shared__ __align__(16) T Bs[2][BK * BN];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int wrow = warp / (BN / WN), wcol = warp % (BN / WN);
  const int trow = lane / (WSUBN / TN), tcol = lane % (WSUBN / TN);
  int brow = blockIdx.y * BM, bcol = blockIdx.x * BN;
  warptile_place<Op>::at(op, brow, bcol);
  /* This block's slice of K. Unsplit kernels are compiled without it: with a loop bound that is
   * not a parameter, the register-heavy ones (matmul, double) measured 4-6% slower. */
  const int k0 = SPLIT ? blockIdx.z * Kz : 0, klen = SPLIT ? min(Kz, K - k0) : K;
  size_t page_a = 0, page_b = 0;
  warptile_page<Op>::at(op, page_a, page_b);
  A += page_a + (size_t)brow * K + k0;
  B += page_b + bcol + (size_t)k0 * N;
  typedef typename warptile_srcs<Op>::A SrcA;
  typedef typename warptile_srcs<Op>::B SrcB;
  typename SrcA::Raw ra[LA];
  typename SrcB::Raw rb[LB];
  typedef warptile_watch<Op> Watching;
  typename Watching::Watch watch = Watching::start(op);
  auto fetch = [&](const warptile_a_t<Op> *a, const warptile_b_t<Op> *b) {
#pragma unroll
    for (int l = 0; l < LA; l++) {
      int idx = threadIdx.x + l * NT, r = idx / (BK / E), c = (idx % (BK / E)) * E;
      ra[l] = SrcA::load(a + (size_t)r * K + c);
    }
#pragma unroll
    for (int l = 0; l < LB; l++) {
      int idx = threadIdx.x + l * NT, r = idx / (BN / E), c = (idx % (BN / E)) * E;
      rb[l] = SrcB::load(b + (size_t)r * N + c);
    }
  };
  auto store = [&](int buf) {
#pragma unroll
    for (int l = 0; l < LA; l++) {
      int idx = threadIdx.x + l * NT, r = idx / (BK / E), c = (idx % (BK / E)) * E;
      Watching::a(op, watch, ra[l]);
      const vec16<T> &v = SrcA::widen(ra[l]);
#pragma unroll
      for (int e = 0; e < E; e++) As[buf][(c + e) * BM + r] = v.e[e];
    }
#pragma unroll
    for (int l = 0; l < LB; l++) {
      int idx = threadIdx.x + l * NT, r = idx / (BN / E), c = (idx % (BN / E)) * E;
      Watching::b(op, watch, rb[l]);
      *(uint4 *)&Bs[buf][r * BN + c] = SrcB::widen(rb[l]).raw;
    }
  };
  typename Op::Acc acc[WMITER * TM][WNITER * TN];
  T rm[WMITER * TM], rn[WNITER * TN];
#pragma unroll
  for (int a = 0; a < WMITER * TM; a++)
#pragma unroll
    for (int b = 0; b < WNITER * TN; b++) op.init(acc[a][b]);
  fetch(A, B);
  store(0);
  __syncthreads();
  int buf = 0;
  for (int bk = 0; bk < klen; bk += BK) {
    const bool more = bk + BK < klen;
    if (more) fetch(A + BK, B + (size_t)BK * N); /* in flight while this tile is used */
#pragma unroll
    for (int p = 0; p < BK; p++) {
#pragma unroll
      for (int wm = 0; wm < WMITER; wm++)
#pragma unroll
        for (int a = 0; a < TM; a++)
          rm[wm * TM + a] = As[buf][p * BM + wrow * WM + wm * WSUBM + trow * TM + a];
#pragma unroll
      for (int wn = 0; wn < WNITER; wn++)
#pragma unroll
        for (int b = 0; b < TN; b++)
          rn[wn * TN + b] = Bs[buf][p * BN + wcol * WN + wn * WSUBN + tcol * TN + b];
#pragma unroll
      for (int a = 0; a < WMITER * TM; a++)
#pragma unroll
        for (int b = 0; b < WNITER * TN; b++) {
          if (p == 0) op.first(acc[a][b], rm[a], rn[b]);
          else op.step(acc[a][b], rm[a], rn[b]);
        }
    }
#pragma unroll
    for (int a = 0; a < WMITER * TM; a++)
#pragma unroll
      for (int b = 0; b < WNITER * TN; b++) op.tile_end(acc[a][b], (k0 + bk) / BK);
    if (more) store(1 - buf); /* the other buffer: nobody reads it during this step */
    __syncthreads();
    buf = 1 - buf;
    A += BK;
    B += (size_t)BK * N;
  }
  /* the row of accumulator row a and column of accumulator column b of lane ln of this warp */
  auto row_of = [&](int a, int ln) {
    return brow + wrow * WM + (a / TM) * WSUBM + ln / (WSUBN / TN) * TM + a % TM;
  };
  auto col_of = [&](int b, int ln) {
    return bcol + wcol * WN + (b / TN) * WSUBN + ln % (WSUBN / TN) * TN + b % TN;
  };
  auto row = [&](int a) { return row_of(a, lane); };
  auto col = [&](int b) { return col_of(b, lane); };
  Watching::end(op, watch);
  if constexpr (CS > 1) {
    const int NA = WMITER * TM * WNITER * TN;
    cluster_fold<Op, CS, NA, WNITER * TN, NT,
                 warptile_fold_per(NA, NT, (int)(sizeof(As) + sizeof(Bs)),
                                   (int)sizeof(typename Op::Part))>(
        op, acc, [&](int a, int b, const typename Op::Part &v) {
          op.store_part(v, row(a), col(b), blockIdx.z / CS);
        });
  } else if constexpr (warptile_stores_whole<Op>::value) {
    auto at = [&](int a, int b, int ln) { return make_int2(row_of(a, ln), col_of(b, ln)); };
    if constexpr (Watching::on) op.store_tile(acc, at, watch);
    else op.store_tile(acc, at);
  } else {
#pragma unroll
    for (int a = 0; a < WMITER * TM; a++)
#pragma unroll
      for (int b = 0; b < WNITER * TN; b++) op.store(acc[a][b], row(a), col(b));
  }
}

/* Pages per launch of a paged Op: the grid's z (or y) dimension; the launch of pages from z on
 * holds warptile_pages_at(pages, z) of them. */
#define WARPTILE_PAGES_PER_LAUNCH 65535u
static inline unsigned warptile_pages_at(size_t pages, size_t z) {
  return (unsigned)(pages - z < WARPTILE_PAGES_PER_LAUNCH ? pages - z : WARPTILE_PAGES_PER_LAUNCH);
}

/* An Op over a batch of products (paged products): block (x, y, z) computes tile (y, x) of page
 * z, whose row-major "A" (Octave's B) starts step_a elements after the previous page's, and its
 * "B" (Octave's A) step_b; a step of 0 broadcasts one page. The stores are the Op's, with z as
 * the page (min-plus: the plane, and a plane of the result's size is a page of C). */
template <class Op> struct warptile_paged : Op {
  size_t step_a, step_b;
  __device__ __forceinline__ void page_offsets(size_t &a, size_t &b) const {
    a = blockIdx.z * step_a;
    b = blockIdx.z * step_b;
  }
};

/* The blocks per SM a paged configuration asks the compiler to leave registers for: CFG::MINB
 * where it has one, else 0 (no bound, as the 2-D launches). */
template <class CFG, class = void> struct warptile_min_blocks : std::integral_constant<int, 0> {};
template <class CFG>
struct warptile_min_blocks<CFG, std::void_t<decltype(CFG::MINB)>>
    : std::integral_constant<int, (int)CFG::MINB> {};

/* The paged kernel over the padded Mp x Np x Kp pages, `pages` at a time (the grid's z is at most
 * WARPTILE_PAGES_PER_LAUNCH): advance(op, z) is the Op for the pages from z on. */
template <class Op, class CFG, class Advance>
static void warptile_launch_pages(int Mp, int Np, int Kp, size_t pages, const warptile_a_t<Op> *A,
                                  const warptile_b_t<Op> *B, const Op &op, Advance advance) {
  for (size_t z = 0; z < pages; z += WARPTILE_PAGES_PER_LAUNCH) {
    warptile_kernel<Op, CFG::BM, CFG::BN, CFG::BK, CFG::WM, CFG::WN, CFG::WNITER, CFG::TM, CFG::TN,
                    CFG::NT, false, 1, warptile_min_blocks<CFG>::value>
        <<<dim3(Np / CFG::BN, Mp / CFG::BM, warptile_pages_at(pages, z)), CFG::NT>>>(
            Np, Kp, Kp, A + z * op.step_a, B + z * op.step_b, advance(op, z));
  }
}

/* The block of a merge of split-K's planes (min-plus's merge, matmul's reduce): `threads`
 * threads as runs of consecutive planes per output by outputs, the runs doubled up to max_runs
 * while the outputs times the runs stay below `fill` (the threads that fill the GPU) and every
 * run keeps a plane. A function of the shape alone, so the order of the merge is too. */
static inline dim3 warptile_merge_block(int planes, size_t count, unsigned max_runs, size_t fill,
                                        unsigned threads) {
  unsigned runs = 1;
  while (runs < max_runs && 2 * runs <= (unsigned)planes && count * runs < fill) runs *= 2;
  return dim3(threads / runs, runs);
}

/* Launch warptile_kernel over the padded Mp x Np output with a configuration CFG, a struct of
 * enums BM, BN, BK, WM, WN, WNITER, TM, TN, NT. With splits > 1 ("split-K"), blockIdx.z takes
 * slice z of K, Kz = Kp / splits long (a multiple of BK): the Op then writes partial results
 * for a later merge, and tile indices stay global. */
/* The depth of each of `splits` slices of Kp: whole tiles. */
template <class CFG> static int warptile_slice_depth(int Kp, int splits) {
  return (Kp / CFG::BK + splits - 1) / splits * CFG::BK;
}

template <class Op, class CFG, bool SPLIT>
static void warptile_launch_as(int Mp, int Np, int Kp, int splits, const warptile_a_t<Op> *A,
                               const warptile_b_t<Op> *B, const Op &op) {
  int Kz = warptile_slice_depth<CFG>(Kp, splits);
  warptile_kernel<Op, CFG::BM, CFG::BN, CFG::BK, CFG::WM, CFG::WN, CFG::WNITER, CFG::TM, CFG::TN,
                  CFG::NT, SPLIT>
      <<<dim3(Np / CFG::BN, Mp / CFG::BM, (unsigned)splits), CFG::NT>>>(Np, Kp, Kz, A, B, op);
}

template <class Op, class CFG>
static void warptile_launch(int Mp, int Np, int Kp, const warptile_a_t<Op> *A,
                            const warptile_b_t<Op> *B, const Op &op) {
  warptile_launch_as<Op, CFG, false>(Mp, Np, Kp, 1, A, B, op);
}

/* The split kernel on `grid` (z: the slices, a multiple of CS), the slices of Kz folded in clusters
 * of CS along z, on stream st; N: B's leading dimension. */
template <class Op, class CFG, int CS>
static cudaError_t
warptile_launch_cluster_grid(dim3 grid, int N, int K, int Kz, const warptile_a_t<Op> *A,
                             const warptile_b_t<Op> *B, const Op &op,
                             cudaClusterSchedulingPolicy policy, cudaStream_t st) {
  cudaLaunchConfig_t lc = {};
  lc.gridDim = grid;
  lc.blockDim = dim3(CFG::NT);
  lc.stream = st;
  cudaLaunchAttribute at[2];
  at[0].id = cudaLaunchAttributeClusterDimension;
  at[0].val.clusterDim.x = 1;
  at[0].val.clusterDim.y = 1;
  at[0].val.clusterDim.z = CS;
  at[1].id = cudaLaunchAttributeClusterSchedulingPolicyPreference;
  at[1].val.clusterSchedulingPolicyPreference = policy;
  lc.attrs = at;
  lc.numAttrs = 2;
  return cudaLaunchKernelEx(&lc,
                            warptile_kernel<Op, CFG::BM, CFG::BN, CFG::BK, CFG::WM, CFG::WN,
                                            CFG::WNITER, CFG::TM, CFG::TN, CFG::NT, true, CS>,
                            N, K, Kz, A, B, op);
}

/* The same with the slices folded in clusters of CS along z (splits a multiple of CS), placed by
 * the hardware's load balancing: with the default placement, clusters of 4 and 8 ran 1.2-1.6x
 * slower than pairs at the same split (H100, doc/NOTES.md). */
template <class Op, class CFG, int CS>
static cudaError_t warptile_launch_cluster(
    int Mp, int Np, int Kp, int splits, const warptile_a_t<Op> *A, const warptile_b_t<Op> *B,
    const Op &op, cudaClusterSchedulingPolicy policy = cudaClusterSchedulingPolicyLoadBalancing) {
  return warptile_launch_cluster_grid<Op, CFG, CS>(
      dim3(Np / CFG::BN, Mp / CFG::BM, (unsigned)splits), Np, Kp,
      warptile_slice_depth<CFG>(Kp, splits), A, B, op, policy, 0);
}

/* splits slices of K, folded in clusters of cs (1, 2, 4 or 8: warptile_cluster_size), the
 * clusters' results stored into plane blockIdx.z / cs. */
template <class Op, class CFG>
static void warptile_launch_split(int Mp, int Np, int Kp, int splits, int cs,
                                  const warptile_a_t<Op> *A, const warptile_b_t<Op> *B,
                                  const Op &op) {
  /* a failed launch is also the runtime's last error, which the caller checks */
  if (cs == 8) (void)warptile_launch_cluster<Op, CFG, 8>(Mp, Np, Kp, splits, A, B, op);
  else if (cs == 4) (void)warptile_launch_cluster<Op, CFG, 4>(Mp, Np, Kp, splits, A, B, op);
  else if (cs == 2) (void)warptile_launch_cluster<Op, CFG, 2>(Mp, Np, Kp, splits, A, B, op);
  else if (splits > 1) warptile_launch_as<Op, CFG, true>(Mp, Np, Kp, splits, A, B, op);
  else warptile_launch_as<Op, CFG, false>(Mp, Np, Kp, 1, A, B, op);
}

/* Whether split-K may fold its slices in clusters of CS (warptile_launch_cluster): the GPU
 * launches clusters and the kernel was compiled for one that does (a PTX build for an older GPU
 * has no cluster code). */
template <class Op, class CFG, int CS = 8> static bool warptile_clusters_ok(void) {
  static int known[CK_MAX_DEVICES]; /* per device: 0 not asked, 1 no, 2 yes */
  const int dev = ck_device_current();
  if (dev < 0 || dev >= CK_MAX_DEVICES) return false;
  if (!known[dev])
    known[dev] = ck_clusters_built((
                     const void *)warptile_kernel<Op, CFG::BM, CFG::BN, CFG::BK, CFG::WM, CFG::WN,
                                                  CFG::WNITER, CFG::TM, CFG::TN, CFG::NT, true, CS>)
                     ? 2
                     : 1;
  return known[dev] == 2;
}

/* How many blocks of the Op's split kernel an SM holds, asked once: the query costs microseconds
 * of host time on every product, while the GPU may be waiting for the launch. */
template <class Op, class CFG> static int warptile_blocks_per_sm(void) {
  static int known[CK_MAX_DEVICES]; /* per device: 0 not asked yet */
  const int dev = ck_device_current();
  if (dev < 0 || dev >= CK_MAX_DEVICES) return 1;
  int per_sm = known[dev];
  if (per_sm < 1 && (cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                         &per_sm,
                         warptile_kernel<Op, CFG::BM, CFG::BN, CFG::BK, CFG::WM, CFG::WN,
                                         CFG::WNITER, CFG::TM, CFG::TN, CFG::NT, true>,
                         CFG::NT, 0) != cudaSuccess ||
                     per_sm < 1)) {
    (void)cudaGetLastError();
    return 1; /* asked again next time */
  }
  known[dev] = per_sm;
  return per_sm;
}

/* The cluster that folds s slices of each of `tiles` output tiles: the largest of 8, 4 and 2 that
 * divides s. None where the handovers need more than one round (double's: its fold then cost
 * more than the merge it saves, 1-4% slower in pairs, 1.3-1.4x in fours), and clusters over 2
 * only where the grid holds at least 64 clusters (with fewer, clusters of 4 and 8 left SMs idle
 * even with load-balancing placement: 256 x 8192 x 256 single, s = 16, took 102-104 us against
 * 64 in pairs). */
template <class Op, class CFG>
static int warptile_cluster_size(long long s, long long tiles, bool clusters) {
  const int NA = (CFG::BM * CFG::BN) / CFG::NT,
            staging = 2 * CFG::BK * (CFG::BM + CFG::BN) * (int)sizeof(typename Op::T);
  const bool one_round = warptile_fold_per(NA, CFG::NT, staging, (int)sizeof(typename Op::Part)) ==
                         NA;
  int cs = clusters && one_round ? 8 : 1;
  while (cs > 1 && (s % cs != 0 || (cs > 2 && tiles * s / cs < 64))) cs /= 2;
  return cs;
}

/* How many slices of K to run ("split-K") and how they are combined, from a cost in pair updates
 * over the whole GPU:
 *   sms * (pair updates of the busiest SM, slowed)  +  s * outputs * fold_pairs
 *     +  merge_fixed + p * (outputs * merge_pairs + plane_pairs)      (when p > 1)
 * The kernel is throughput-bound per SM, so its time is the busiest SM's share of blocks times
 * their depth (plus block_k of depth per block, for its start and its stores), run in waves of
 * as many as fit, and a wave of few warps runs slower (by thin[0] with at most 4 warps, thin[1]
 * with at most 8). The last wave also has a tail: the blocks sharing an SM do not progress
 * equally (the schedulers favour older warps), so the first to finish leave the SM thin while
 * the last complete, with no later block to take their place (ncu at 2048^3, one wave: 11.3
 * active warps per SM of 16). It costs `tail` of a block. Slices are folded in clusters of cs
 * (warptile_cluster_size) through distributed shared memory; each cluster's result is a plane,
 * and the p = s / cs planes are merged when there is more than one (merge_pairs: the pair
 * updates the GPU could do while the merge reads one plane element; per plane, the latency of
 * the merge's loop; merge_fixed, its launch). Only a product whose tiles fit in two waves is
 * split (the model's margins are thin against many waves, where splitting was never measured
 * to pay); slices stay at least min_len deep, and a split must save `margin` of the cost. */
struct warptile_split_cost {
  int min_len, block_k;
  double fold_pairs, merge_pairs, plane_pairs, merge_fixed;
  double thin[2], tail, margin;
};

/* CLUSTERS false: slices are never folded in clusters (*cs is 1), and the Op needs no Part,
 * handover, fold or store_part (matmul's plus-times: kernels/matmul/matmul_policy.cuh says why). */
template <class Op, class CFG, bool CLUSTERS = true>
static int warptile_splits(int Mp, int Np, int Kp, int sms, const warptile_split_cost &c, int *cs) {
  const int per_sm = warptile_blocks_per_sm<Op, CFG>();
  /* the last plan, kept: products of one shape often come in runs (APSP, benchmarks), and the
   * search below costs microseconds of host time, which at 256 x 8192 x 256 is on the path */
  static struct {
    int Mp, Np, Kp, sms, per_sm, best, cs;
    const warptile_split_cost *c;
  } last = {-1, -1, -1, -1, -1, 1, 1, NULL};
  if (last.Mp == Mp && last.Np == Np && last.Kp == Kp && last.sms == sms && last.per_sm == per_sm &&
      last.c == &c) {
    *cs = last.cs;
    return last.best;
  }
  bool clusters = false;
  if constexpr (CLUSTERS) clusters = warptile_clusters_ok<Op, CFG>();
  (void)clusters;
  const long long blocks = (long long)(Mp / CFG::BM) * (Np / CFG::BN);
  const long long steps = Kp / CFG::BK, most = blocks > 2LL * per_sm * sms ? 1
                                               : Kp / c.min_len < 1024     ? Kp / c.min_len
                                                                           : 1024;
  const double outputs = (double)Mp * Np;
  int best = 1;
  double best_cost = 0;
  *cs = 1;
  for (long long s = 1; s <= (most > 1 ? most : 1); s++) {
    long long kz = (steps + s - 1) / s, used = (steps + kz - 1) / kz; /* no empty slice */
    if (used != s) continue;
    int size = 1;
    if constexpr (CLUSTERS) size = warptile_cluster_size<Op, CFG>(s, blocks, clusters);
    const long long planes = s / size;
    double busiest = 0; /* the busiest SM's blocks, in waves of up to per_sm, each wave slowed */
    long long wave = 0;
    for (long long left = (blocks * s + sms - 1) / sms; left > 0; left -= per_sm) {
      wave = left < per_sm ? left : per_sm;
      const long long warps = wave * (CFG::NT / 32);
      busiest += (double)wave * (warps <= 4 ? c.thin[0] : warps <= 8 ? c.thin[1] : 1.0);
    }
    busiest += c.tail * (double)wave;
    double cost = (double)sms * busiest * CFG::BM * CFG::BN * (double)(kz * CFG::BK + c.block_k);
    if (size > 1) cost += (double)s * outputs * c.fold_pairs;
    if (planes > 1)
      cost += c.merge_fixed + (double)planes * (outputs * c.merge_pairs + c.plane_pairs);
    if (s == 1 || cost < (1 - c.margin) * best_cost) {
      best = (int)s;
      best_cost = cost;
      *cs = size;
    }
  }
  last = {Mp, Np, Kp, sms, per_sm, best, *cs, &c};
  return best;
}

#endif
