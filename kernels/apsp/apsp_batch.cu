/* Many small graphs in one launch: plain Floyd-Warshall on each page, the whole graph in
 * registers (apsp.cuh, ap_batch). A graph of np x np work values (n padded with isolated vertices
 * to a power of two) belongs to a group of (np / TT)^2 threads, each holding a TT x TT tile of
 * it (rows ty * TT .., columns tx * TT ..) and, with paths, the tile's next hops. Step k needs
 * the tile's part of row k and of column k: the threads that hold them wrote them to shared
 * memory at the end of step k - 1 (two buffers, one barrier a step). Within step k, row k and
 * column k do not change (the diagonal is the empty path; once it is not, the page has an
 * unbounded cycle and its values no longer matter), so every value updates at once from them,
 * exactly as the "cpu" kernel's round k does: the same terms, strictly better only, the next hop
 * of the winning row's k. Steps past the last real vertex are skipped but for the last tile's
 * few (TT at most), whose rows are isolated padding and change nothing.
 *
 * Several graphs share a block where a graph's group is smaller than AP_BATCH_THREADS; all run in
 * step, so the block's barrier serves them all. 16-bit work values run two to a 32-bit word, as
 * in the products (DPX's 16x2 forms); with paths, each half's change picks its own next hop. */
#include <limits.h>
#include <stdint.h>

#include <math.h>

#include "apsp_batch.cuh"

/* ---- tuning (doc/NOTES.md has the measurements) ----
 * The block, and the thread tile by graph size: TT = 4 keeps 16 values a thread (np = 16: 16
 * graphs a block, 32: 4, 64: one, 128: one graph on 1024 threads); 8-byte values at np = 128
 * take TT = 8 instead (64 values a thread, 256 threads), as do paths there (TT = 4's next hops
 * would not fit 1024 threads' registers). */
#define AP_BATCH_THREADS 256
#define AP_BATCH_WIDE 1024 /* the block of TT = 4 at np = 128 */
static int ap_batch_tt(int np, size_t bytes, bool paths) {
  return np >= 128 && (bytes > 4 || paths) ? 8 : 4;
}

/* The padded side: a power of two from 16 to AP_BATCH_MAX_N. */
static int ap_batch_np(int n) {
  int np = 16;
  while (np < n) np *= 2;
  return np;
}

/* 16-bit values keep column k in A words (ab_word) from graphs of this many vertices, padded:
 * 64 x 4096 pages took 0.117-0.120 ms against 0.132-0.137 (P 0.421-0.423 against 0.436-0.455),
 * but 16 x 65536 0.105 against 0.088-0.095 (H100, two runs each alternating; 128 x 512 the
 * same). */
#define AB_WIDE_NP 64

/* The column buffer's element: A words where WIDE, else the values. */
template <class T, bool WIDE>
using ab_col_t = typename std::conditional<WIDE, typename ab_word<T>::A, T>::type;

/* A graph's buffers in shared memory: row k and column k of two steps, with paths the column's
 * next hops (after every graph's). */
template <class T, bool WIDE>
__host__ __device__ constexpr size_t ab_graph_smem(int np, bool paths) {
  return (size_t)np *
         (2 * sizeof(T) + 2 * sizeof(ab_col_t<T, WIDE>) + (paths ? 2 * sizeof(int) : 0));
}

template <class T, class SR, int TT, bool ARG, int MAXT, bool WIDE>
__global__ void __launch_bounds__(MAXT) ab_close(const ap_batch<T> b, int np, int group) {
  typedef ab_word<T> Wd;
  typedef typename Wd::W W;
  constexpr int WN = TT / Wd::PK;
  extern __shared__ __align__(16) unsigned char ab_smem[];
  const int g = threadIdx.x / group, lt = threadIdx.x % group, side = np / TT;
  const int ty = lt / side, tx = lt % side, n = b.n;
  const size_t q = (size_t)blockIdx.x * (blockDim.x / group) + g; /* the page in this launch */
  const bool live = q < b.pages;
  /* this graph's buffers: row k and column k of two steps, the column's next hops */
  typedef ab_col_t<T, WIDE> A;
  constexpr int PER = 2 + 2 * (int)(sizeof(A) / sizeof(T)); /* values of T a vertex */
  T *rowk = (T *)ab_smem + (size_t)g * PER * np;
  A *colk = (A *)(rowk + 2 * np);
  int *nxk = (int *)((T *)ab_smem + (size_t)(blockDim.x / group) * PER * np) + (size_t)g * 2 * np;
  const size_t nn = (size_t)n * n;
  W v[TT][WN];
  int nx[TT][TT];
  ab_load_tile<T, SR, TT, TT, ARG>(v, nx, b, b.in + q * nn, b.page0 + q, ty * TT, tx * TT, live);
  /* PACK: with paths, 16-bit values' next hops two to a word as the values are (up to 128
   * vertices, each fits a half), column k's in both halves of its buffer's words: a step's
   * choice is one mask from __vcmpne2 and one LOP3 a word, where each half took its own compare
   * and selects. With P 64 x 4096 int16 pages took 0.317-0.320 ms against 0.415-0.416, 128 x 512
   * 0.389-0.391 against 0.509-0.512, 32 x 16384 0.217-0.223 against 0.269-0.274, 16 x 65536 the
   * same (0.183-0.188 against 0.179-0.183) (H100, three runs each alternating); on sm_90 58
   * registers against 64-71 (min.+), 146 against 170-187 on 8 x 8 pieces (min.+ and min.max) */
  constexpr bool PACK = ARG && Wd::PK == 2;
  uint32_t nxp[TT][WN];
  if constexpr (PACK)
#pragma unroll
    for (int i = 0; i < TT; i++)
#pragma unroll
      for (int j = 0; j < TT; j++) ab_set<uint16_t, TT>(nxp[i], j, (uint16_t)nx[i][j]);
  /* column c of the tile (and of its next hops) into the step's buffers at colk, nxk */
  auto put_column = [&](A *col, int *ncol, int c) {
    if constexpr (PACK) {
      uint32_t cn[TT];
#pragma unroll
      for (int i = 0; i < TT; i++) cn[i] = ab_col_word<uint16_t, TT>(nxp[i], c);
      ab_put_column<T, TT, TT, false, A>(col, NULL, v, nx, c);
      ab_sts<uint32_t, TT>((uint32_t *)ncol, cn);
    } else {
      ab_put_column<T, TT, TT, ARG, A>(col, ncol, v, nx, c);
    }
  };
  /* ab_steps (apsp_batch.cuh) written out, with the trace: through ab_steps, 16-vertex pages with
   * P ran 17% slower (H100, 16 x 65536: 0.248 against 0.208 ms, three runs each), the compiler
   * splitting and lengthening the tile's store after the steps */
  /* row 0 and column 0 for step 0 */
  if (ty == 0) ab_sts<W, WN>((W *)(rowk + tx * TT), v[0]);
  if (tx == 0) put_column(colk + ty * TT, nxk + ty * TT, 0);
  ab_step_barrier(group);
  for (int k0 = 0; k0 < n; k0 += TT) {
#pragma unroll
    for (int kk = 0; kk < TT; kk++) {
      const int k = k0 + kk, buf = k & 1;
      /* row k's words over this tile's columns, column k over its rows */
      W bw[WN];
      A a[TT];
      int nk[TT];
      ab_lds<W, WN>(bw, (const W *)(rowk + buf * np + tx * TT));
      ab_lds<A, TT>(a, colk + buf * np + ty * TT);
      if (ARG) ab_lds<int, TT>(nk, nxk + buf * np + ty * TT);
#pragma unroll
      for (int i = 0; i < TT; i++) {
        typename Wd::A aw; /* column k's value as the step takes it */
        if constexpr (WIDE) aw = a[i];
        else aw = ab_wide<T>(a[i]);
        if constexpr (PACK) {
#pragma unroll
          for (int j = 0; j < WN; j++) {
            const uint32_t now = SR::step_u16x2(aw, bw[j], v[i][j]),
                           moved = __vcmpne2(now, v[i][j]);
            nxp[i][j] = (nxp[i][j] & ~moved) | ((uint32_t)nk[i] & moved);
            v[i][j] = now;
          }
        } else {
          ab_step_row_w<T, SR, TT, ARG>(v[i], nx[i], aw, bw, nk[i]);
        }
      }
      if (b.trace && live && tx == ty)
        ab_trace<T, SR, TT, TT>(v, b, b.page0 + q, k, ty * TT, tx * TT);
      /* row and column k + 1 as they stand now, for the next step */
      const int k1 = k + 1, kk1 = (kk + 1) % TT, nb = buf ^ 1;
      if (ty == k1 / TT) ab_sts<W, WN>((W *)(rowk + nb * np + tx * TT), v[kk1]);
      if (tx == k1 / TT) put_column(colk + nb * np + ty * TT, nxk + nb * np + ty * TT, kk1);
      ab_step_barrier(group);
    }
  }
  if constexpr (PACK)
#pragma unroll
    for (int i = 0; i < TT; i++)
#pragma unroll
      for (int j = 0; j < TT; j++) nx[i][j] = ab_at<uint16_t, TT>(nxp[i], j);
  if (live)
    ab_store_tile<T, SR, TT, TT, ARG>(v, nx, b.out + q * nn, ARG ? b.P + q * nn : NULL, n, ty * TT,
                                      tx * TT, b.page0 + q, b.trace ? NULL : b.cycle);
}

/* ---- a page a thread: distances alone of 16-bit graphs of 16 vertices ----
 * The whole page lies in one thread's registers (16 rows of 8 words), so a step needs no barrier
 * and no shared memory: column k's A words are formed from the thread's own words, row k is its
 * own, and the step is 128 DPX on them. A warp's 32 pages are one run of 16 KB, which it reads
 * and writes whole (each instruction 512 contiguous bytes) through shared memory, where a page's
 * 16-byte pieces lie rotated by its lane (piece c of lane t at c ^ t) so that neither the
 * warp's runs nor a thread's page meet bank conflicts: read a piece at a time by each thread
 * from global memory, the same pages took 0.082-0.085 ms a call against 0.063-0.065. A warp
 * that walked several runs, reading the next (cp.async) while it closed one, measured the same
 * (0.064 ms; 255 registers, six warps an SM). Only where a row is a whole 32-byte piece (n = 16,
 * the pages aligned). */
#define AB_LONE_N 16
#define AB_LONE_THREADS 64
#define AB_LONE_PIECES (AB_LONE_N * AB_LONE_N * 2 / 16) /* 16-byte pieces a page */

/* The warp's pages [q0, q0 + 32) between global memory and its staging space, whole pieces,
 * pages past `pages` left alone. */
__device__ __forceinline__ void ab_lone_in(uint4 *sm, const uint4 *g, size_t pages, size_t q0,
                                           int lane) {
#pragma unroll 8
  for (int p = 0; p < 32; p++)
    if (q0 + p < pages) sm[p * AB_LONE_PIECES + (lane ^ p)] = g[p * AB_LONE_PIECES + lane];
}
__device__ __forceinline__ void ab_lone_out(uint4 *g, const uint4 *sm, size_t pages, size_t q0,
                                            int lane) {
#pragma unroll 8
  for (int p = 0; p < 32; p++)
    if (q0 + p < pages) g[p * AB_LONE_PIECES + lane] = sm[p * AB_LONE_PIECES + (lane ^ p)];
}

template <class SR>
__global__ void __launch_bounds__(AB_LONE_THREADS) ab_close_lone(const ap_batch<uint16_t> b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 /* DPX in hardware (ab_lone_built) */
  typedef uint16_t T;
  constexpr int N = AB_LONE_N, WN = N / 2;
  static_assert(AB_LONE_PIECES == 32, "a piece a lane");
  __shared__ uint4 stage[AB_LONE_THREADS / 32][32 * AB_LONE_PIECES];
  const int lane = threadIdx.x & 31;
  uint4 *sm = stage[threadIdx.x >> 5], *mine = sm + lane * AB_LONE_PIECES;
  const size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x, q0 = q - lane;
  ab_lone_in(sm, (const uint4 *)b.in + q0 * AB_LONE_PIECES, b.pages, q0, lane);
  __syncwarp();
  uint32_t v[N][WN];
#pragma unroll
  for (int c = 0; c < AB_LONE_PIECES; c++) {
    const uint4 x = mine[c ^ lane];
    uint32_t *w = &v[c / 2][(c % 2) * 4];
    w[0] = x.x, w[1] = x.y, w[2] = x.z, w[3] = x.w;
  }
  /* the look at every value (one atomic a page), the diagonal the empty path */
  const uint32_t none = (uint32_t)b.nopath * 0x10001u, one = SR::mul::template one<T>();
  uint32_t past = 0;
#pragma unroll
  for (int r = 0; r < N; r++) {
#pragma unroll
    for (int j = 0; j < WN; j++) past |= __vcmpgtu2(v[r][j], none);
    v[r][r / 2] = r % 2 ? (v[r][r / 2] & 0xffffu) | one << 16 : (v[r][r / 2] & 0xffff0000u) | one;
  }
  if (past && b.refused && q < b.pages) atomicOr(b.refused, 2); /* a negative: the guess missed */
  int nx[N][N]; /* no next hops: ab_step_row_w's, unused */
#pragma unroll
  for (int k = 0; k < N; k++) {
    uint32_t a[N], row[WN]; /* row and column k as they stand before step k */
#pragma unroll
    for (int i = 0; i < N; i++) a[i] = ab_col_word<T, N>(v[i], k);
#pragma unroll
    for (int j = 0; j < WN; j++) row[j] = v[k][j];
#pragma unroll
    for (int i = 0; i < N; i++) ab_step_row_w<T, SR, N, false>(v[i], nx[i], a[i], row, 0);
  }
#pragma unroll
  for (int c = 0; c < AB_LONE_PIECES; c++) {
    const uint32_t *w = &v[c / 2][(c % 2) * 4];
    mine[c ^ lane] = make_uint4(w[0], w[1], w[2], w[3]);
  }
  __syncwarp();
  ab_lone_out((uint4 *)b.out + q0 * AB_LONE_PIECES, sm, b.pages, q0, lane);
#endif
}

/* Whether b's pages run a page a thread: min.+ on 16-bit words (max.+ too where it runs as min.+
 * on them; min.max's two SIMD instructions a pair left its instance at 255 registers with 92
 * bytes of spills), where the kernel was built for DPX in hardware (sm_90 on: emulated, the
 * page's words spilled 2 KB on sm_75; a build for older GPUs holds no body), and from as many
 * pages as it paid for: one page took 0.048-0.050 ms a call against the group kernel's
 * 0.042-0.043, 2048 pages 0.032-0.034 against 0.031-0.037, 16384 pages 0.033 against
 * 0.047-0.053 (H100, two runs each alternating). */
#define AB_LONE_PAGES_PER_SM 16
static bool ab_lone_built(void) {
  static int known[CK_MAX_DEVICES];
  return ck_kernel_built_here((const void *)ab_close_lone<sr_min_plus>, 90, known);
}
template <class T, class SR> static bool ab_lone(const ap_batch<T> &b) {
  return std::is_same<T, uint16_t>::value && std::is_same<SR, sr_min_plus>::value &&
         ab_whole_pages(b, AB_LONE_N, AB_LONE_PAGES_PER_SM) && ab_lone_built();
}

template <class T, class SR> static ck_status ab_launch_lone(const ap_batch<T> &b) {
  if constexpr (std::is_same<T, uint16_t>::value && std::is_same<SR, sr_min_plus>::value) {
    const unsigned blocks = (unsigned)((b.pages + AB_LONE_THREADS - 1) / AB_LONE_THREADS);
    ab_close_lone<SR><<<blocks, AB_LONE_THREADS, 0, b.st>>>(b);
    return ck_cuda_check(cudaGetLastError(), "closing a batch of graphs");
  }
  return ck_fail(CK_ERR_INVALID, "a page a thread takes min.+ on 16-bit values");
}

template <class T, class SR, int TT, bool ARG, int MAXT, bool WIDE>
static ck_status ab_launch_as(const ap_batch<T> &b, int np) {
  const int group = (np / TT) * (np / TT);
  const int threads = group > AP_BATCH_THREADS ? group : AP_BATCH_THREADS;
  const size_t per_block = (size_t)(threads / group);
  const size_t smem = per_block * ab_graph_smem<T, WIDE>(np, ARG);
  const size_t blocks = (b.pages + per_block - 1) / per_block;
  ab_close<T, SR, TT, ARG, MAXT, WIDE><<<(unsigned)blocks, threads, smem, b.st>>>(b, np, group);
  return ck_cuda_check(cudaGetLastError(), "closing a batch of graphs");
}
template <class T, class SR, int TT, bool ARG, int MAXT>
static ck_status ab_launch(const ap_batch<T> &b, int np) {
  if constexpr (ab_word<T>::PK == 2)
    if (np >= AB_WIDE_NP) return ab_launch_as<T, SR, TT, ARG, MAXT, true>(b, np);
  return ab_launch_as<T, SR, TT, ARG, MAXT, false>(b, np);
}

template <class T, class SR, bool ARG> static ck_status ab_launch_np(const ap_batch<T> &b, int np) {
  if (ap_batch_tt(np, sizeof(T), ARG) == 8)
    return ab_launch<T, SR, 8, ARG, AP_BATCH_THREADS>(b, np);
  if (np >= 128) {
    if constexpr (sizeof(T) <= 4 && !ARG) return ab_launch<T, SR, 4, ARG, AP_BATCH_WIDE>(b, np);
  }
  return ab_launch<T, SR, 4, ARG, AP_BATCH_THREADS>(b, np);
}

template <class T, class SR> ck_status ap_batch_close(const ap_batch<T> &b) {
  if (b.pages == 0 || b.n == 0) return CK_OK;
  if (b.tiles) return ap_batch_tiled<T, SR>(b);
  if (b.n > AP_BATCH_MAX_N)
    return ck_fail(CK_ERR_INVALID, "batched paths take graphs of up to %d vertices, not %d",
                   AP_BATCH_MAX_N, b.n);
  const int np = ap_batch_np(b.n);
  if (np > AP_BATCH_BLOCK_N) return ap_batch_cluster<T, SR>(b);
  if (ab_lone<T, SR>(b)) return ab_launch_lone<T, SR>(b);
  if constexpr (std::is_same<T, uint16_t>::value && std::is_same<SR, sr_min_plus>::value)
    if (ab_warp_takes(b)) return ab_warp_close(b);
  return b.P ? ab_launch_np<T, SR, true>(b, np) : ab_launch_np<T, SR, false>(b, np);
}

/* About 2^33 pair updates a launch (a few ms at the rates measured): Ctrl-C is polled between.
 * The tiled kernel's launches take a multiple of the SM count, two pages an SM at least (512
 * vertices: 264 pages on an H100, about 5 ms), so that no launch leaves SMs idle. */
size_t ap_batch_chunk(int n, bool tiles) {
  const double side = tiles ? (double)round_up((size_t)n, AP_TILE) : ap_batch_np(n),
               per_page = side * side * (n < 1 ? 1 : n);
  double pages = 8589934592.0 / per_page;
  if (tiles) {
    const double sms = ck_device_sms();
    pages = ceil((pages < 2 * sms ? 2 * sms : pages) / sms) * sms;
  }
  return pages < 1 ? 1 : pages > 1e9 ? (size_t)1e9 : (size_t)pages;
}

#define AP_BATCH_INSTANCE(T, SR) template ck_status ap_batch_close<T, SR>(const ap_batch<T> &);
AP_INSTANTIATE_SR(AP_BATCH_INSTANCE)
