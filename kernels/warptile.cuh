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
 * (Each is called on the Op passed to the kernel, so it may be static or read the Op's fields.)
 * Ops that do not track tiles make first == step and tile_end empty; the compiler then produces
 * the same code as a kernel written for the one semiring. */
#ifndef CK_WARPTILE_CUH
#define CK_WARPTILE_CUH

#include <stdint.h>

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

/* A block tile split into warp tiles, each warp's tile into WMITER x WNITER sub-tiles and each
 * thread owning TM x TN of every sub-tile, so a warp's shared-memory reads stay within a few rows
 * (fewer bank conflicts, better register reuse); double-buffered: the next tiles are loaded from
 * global memory into registers while the current ones are used, then stored into the other
 * shared buffer, with one barrier per step. */
template <class Op, int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, int NT,
          bool SPLIT>
__global__ void __launch_bounds__(NT)
    warptile_kernel(int N, int K, int Kz, const typename Op::T *__restrict__ A,
                    const typename Op::T *__restrict__ B, Op op) {
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
  const int brow = blockIdx.y * BM, bcol = blockIdx.x * BN;
  /* This block's slice of K. Unsplit kernels are compiled without it: with a loop bound that is
   * not a parameter, the register-heavy ones (matmul, double) measured 4-6% slower. */
  const int k0 = SPLIT ? blockIdx.z * Kz : 0, klen = SPLIT ? min(Kz, K - k0) : K;
  A += (size_t)brow * K + k0;
  B += bcol + (size_t)k0 * N;
  vec16<T> ra[LA], rb[LB];
  auto fetch = [&](const T *a, const T *b) {
#pragma unroll
    for (int l = 0; l < LA; l++) {
      int idx = threadIdx.x + l * NT, r = idx / (BK / E), c = (idx % (BK / E)) * E;
      ra[l] = load16(a + (size_t)r * K + c);
    }
#pragma unroll
    for (int l = 0; l < LB; l++) {
      int idx = threadIdx.x + l * NT, r = idx / (BN / E), c = (idx % (BN / E)) * E;
      rb[l] = load16(b + (size_t)r * N + c);
    }
  };
  auto store = [&](int buf) {
#pragma unroll
    for (int l = 0; l < LA; l++) {
      int idx = threadIdx.x + l * NT, r = idx / (BK / E), c = (idx % (BK / E)) * E;
#pragma unroll
      for (int e = 0; e < E; e++) As[buf][(c + e) * BM + r] = ra[l].e[e];
    }
#pragma unroll
    for (int l = 0; l < LB; l++) {
      int idx = threadIdx.x + l * NT, r = idx / (BN / E), c = (idx % (BN / E)) * E;
      *(uint4 *)&Bs[buf][r * BN + c] = rb[l].raw;
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
          if (p == 0)
            op.first(acc[a][b], rm[a], rn[b]);
          else
            op.step(acc[a][b], rm[a], rn[b]);
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
#pragma unroll
  for (int wm = 0; wm < WMITER; wm++)
#pragma unroll
    for (int a = 0; a < TM; a++)
#pragma unroll
      for (int wn = 0; wn < WNITER; wn++)
#pragma unroll
        for (int b = 0; b < TN; b++)
          op.store(acc[wm * TM + a][wn * TN + b], brow + wrow * WM + wm * WSUBM + trow * TM + a,
                   bcol + wcol * WN + wn * WSUBN + tcol * TN + b);
}

/* Launch warptile_kernel over the padded Mp x Np output with a configuration CFG, a struct of
 * enums BM, BN, BK, WM, WN, WNITER, TM, TN, NT. With splits > 1 ("split-K"), blockIdx.z takes
 * slice z of K, Kz = Kp / splits long (a multiple of BK): the Op then writes partial results
 * for a later merge, and tile indices stay global. */
template <class Op, class CFG, bool SPLIT>
static void warptile_launch_as(int Mp, int Np, int Kp, int splits, const typename Op::T *A,
                               const typename Op::T *B, const Op &op) {
  int Kz = (Kp / CFG::BK + splits - 1) / splits * CFG::BK;
  warptile_kernel<Op, CFG::BM, CFG::BN, CFG::BK, CFG::WM, CFG::WN, CFG::WNITER, CFG::TM, CFG::TN,
                  CFG::NT, SPLIT>
      <<<dim3(Np / CFG::BN, Mp / CFG::BM, (unsigned)splits), CFG::NT>>>(Np, Kp, Kz, A, B, op);
}

template <class Op, class CFG>
static void warptile_launch(int Mp, int Np, int Kp, const typename Op::T *A,
                            const typename Op::T *B, const Op &op) {
  warptile_launch_as<Op, CFG, false>(Mp, Np, Kp, 1, A, B, op);
}

template <class Op, class CFG>
static void warptile_launch_split(int Mp, int Np, int Kp, int splits, const typename Op::T *A,
                                  const typename Op::T *B, const Op &op) {
  if (splits > 1)
    warptile_launch_as<Op, CFG, true>(Mp, Np, Kp, splits, A, B, op);
  else
    warptile_launch_as<Op, CFG, false>(Mp, Np, Kp, 1, A, B, op);
}

/* How many slices of K to run ("split-K"). The kernel's time goes in waves of resident blocks,
 * each wave as long as one slice is deep, so the cost of s slices is
 *   waves(s) * slots * BM * BN * (K / s)  +  s * M * N * merge_pairs
 * in pair updates, the second term the merge of the s planes (merge_pairs: the pair updates
 * the GPU could do in the time of reading one plane element; plane_pairs is added per plane
 * for the latency of the merge's loop). Splitting pays when
 * the output alone leaves the last wave (or the only one) partly empty. Slices stay at least
 * min_len deep; a split must save 5% to be taken. */
template <class Op, class CFG>
static int warptile_splits(int Mp, int Np, int Kp, int sms, int min_len, int merge_pairs,
                           int plane_pairs) {
  int per_sm = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &per_sm,
          warptile_kernel<Op, CFG::BM, CFG::BN, CFG::BK, CFG::WM, CFG::WN, CFG::WNITER, CFG::TM,
                          CFG::TN, CFG::NT, true>,
          CFG::NT, 0) != cudaSuccess ||
      per_sm < 1) {
    (void)cudaGetLastError();
    per_sm = 1;
  }
  const long long blocks = (long long)(Mp / CFG::BM) * (Np / CFG::BN);
  const long long slots = (long long)per_sm * sms;
  const long long steps = Kp / CFG::BK, most = Kp / min_len < 1024 ? Kp / min_len : 1024;
  int best = 1;
  double best_cost = 0;
  for (long long s = 1; s <= (most > 1 ? most : 1); s++) {
    long long kz = (steps + s - 1) / s, used = (steps + kz - 1) / kz; /* no empty slice */
    if (used != s) continue;
    double waves = (double)((blocks * s + slots - 1) / slots);
    double cost = waves * slots * CFG::BM * CFG::BN * (double)(kz * CFG::BK) +
                  (s > 1 ? (double)s * ((double)Mp * Np * merge_pairs + plane_pairs) : 0);
    if (s == 1 || cost < 0.95 * best_cost) {
      best = (int)s;
      best_cost = cost;
    }
  }
  return best;
}

#endif
