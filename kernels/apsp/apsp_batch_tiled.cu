/* Graphs of 129 to AT_MAX_N (1024) vertices, many in one launch, distances alone: blocked
 * Floyd-Warshall on each page by one thread block, over AP_TILE-wide tiles (the rounds' closure of
 * a pivot block, apsp_block.cu, on a whole graph). The page stays in global memory (the L2 holds
 * the pages in flight up to 256 vertices; past them partly); each tile comes into registers, a
 * piece a thread (apsp_tile.cuh: 4 x 4 values, or 4 x 8 of 16 bits where a launch has one and a
 * half pages an SM), for the step that updates it. Round t of
 * nb = ceil(n / AP_TILE):
 *   (t, t)   = D*, closed by plain Floyd-Warshall in registers (a barrier a step);
 *   (t, J)   = min ((t, J), D* (x) (t, J)), the row strip, kept in shared memory;
 *   (I, t)   = min ((I, t), (I, t) (x) D*), the column strip, a tile at a time;
 *   (I, J)   = min ((I, J), (I, t)' (x) (t, J)'), each row of tiles after its column strip tile.
 * All but the closure are products from shared memory; the cluster kernel's plain
 * Floyd-Warshall (apsp_batch_cluster.cu) spends half of each block's time waiting on the
 * round's owner. The terms are the 2-D rounds' (whole blocks combined), so the distances are
 * the "cpu" kernel's up to rounding where sums round; the paths, and (up to 256 vertices) the
 * second run that names an unbounded cycle's vertex, take the cluster kernel (plain order).
 *
 * Every element of a page belongs to one thread (its place in a tile is the same in every tile),
 * so the page needs no barrier of its own; round 0 reads each weight from in once, looked at as
 * ab_load_tile does, and every write goes to out; where n is a multiple of a piece's width, a
 * piece's rows move in one vector access each (ac_whole_rows). A block takes nb + 2 tiles of
 * shared memory (the products' A operands in A words: 16-bit values in both halves of a word,
 * ab_word) where they fit two blocks an SM (4-byte values: up to 320 vertices, 96 KB at 256),
 * else as many of the row strip's tiles as leave room for one more, in which the others are
 * staged again for each product that reads them (at_slots). 4-byte values take up to 118
 * registers a thread on sm_90, 128 where it stages; 16-bit halves 80, three blocks an SM on
 * Hopper (at_blocks), and where a launch has one and a half pages an SM or more, a wide piece
 * of 4 x 8 values on 128 threads (apsp_tile.cuh, AT_WIDE_PAGES_PER_SM; 102 to 140 registers). Three blocks an SM of
 * 4-byte values at 256, in 64 KB with the whole row strip staged again and 80 registers, ran
 * 8% slower (doc/NOTES.md). */
#include <limits.h>

#include "apsp_tile.cuh"

/* ---- tuning (doc/NOTES.md has the measurements) ----
 * Below this many pages an SM (H100: 66 pages) the cluster kernel, eight SMs a page, takes
 * them: 256 vertices, 66 pages took 0.341 ms here against its 0.513, 132 pages 0.373 against
 * 0.844; 33 pages took it 0.30 ms, about what one page alone on an SM takes here. */
#define AT_MIN_PAGES_PER_SM 0.5
/* Past AP_BATCH_MAX_N vertices from this many pages an SM; fewer run as graphs by tiles, many in
 * one launch (apsp_graph_tiled.cu), which fill the GPU with fewer pages. H200 (132 SMs), D alone,
 * events around the device call, medians of 5 over two runs alternating, ms, this kernel against
 * graphs by tiles: single 320 x 66 pages 0.59 against 0.40-0.41, x 132 0.62 against 0.72;
 * 512 x 66 2.27 against 1.30-1.32, x 132 2.32 against 2.52, x 264 3.98 against 5.06; 704 x 132
 * 5.75 against 6.24-6.37; 1024 x 66 17.74 against 9.44-9.52, x 132 18.21 against 18.67-18.87;
 * int16 320 x 132 0.37 against 0.41, 512 x 132 1.40 against 1.31-1.32, 704 x 132 3.45 against
 * 3.14-3.15, 1024 x 132 10.00 against 9.14-9.25 (doc/NOTES.md). */
#define AT_MIN_PAGES_PER_SM_PAST 1.0
/* Graphs past this many vertices. At 128 the tiles ran 512 pages 15% faster than the block
 * kernel (single 0.185 against 0.221 ms, int16 0.134 against 0.144), but 100 and 80 vertices,
 * padded to two full tiles, 2-20% slower: the block kernel keeps them. */
#define AT_MIN_N AP_BATCH_BLOCK_N
/* 16-bit values take the wide piece (apsp_tile.cuh: 4 x 8 values on 128 threads) from this many
 * pages an SM. Against the square piece (H100, int16, shares of gpu_minplus's rate, two runs
 * each): 256 vertices x 256 pages 54.4-54.9% against 52.5-53.1, x 200 43.3-43.7 against
 * 41.8-42.2; 320 x 200 47.0 against 45.1; but one page an SM (132), 256 vertices 43.9-44.3
 * against 43.8-45.7, 320 47.3 against 48.2, 512 47.8-48.0 against 50.0-50.2 (one block an SM
 * has four warps, not eight). */
#define AT_WIDE_PAGES_PER_SM 1.5

/* Tile rows of a page of n vertices. */
__host__ __device__ static inline int at_rows(int n) { return (n + AP_TILE - 1) / AP_TILE; }

/* The row strip's tiles a block keeps in shared memory for a launch of `pages` pages of n
 * vertices (the others are staged again from the page, one at a time, in a tile of their own,
 * for each product that reads them): all nb - 1 where they fit beside D* (by rows and by
 * columns) and the column strip's tile, else as many as leave room for the staging tile; in two
 * blocks an SM where the launch has more pages than SMs. Two blocks an SM ran 300 and 320
 * vertices 15-23% faster than one, 512 (staging) 6%; one page an SM, staging ran 400 vertices
 * 12% slower than keeping them all (doc/NOTES.md). */
/* The shared memory every block takes: D* by rows (values) and by columns, and the column
 * strip's tile by columns (A words). */
template <class T> static size_t at_fixed() {
  return AC_TILE_ELEMS * (sizeof(T) + 2 * sizeof(typename ac_piece<T>::A));
}
template <class T> static int at_slots(int n, size_t pages) {
  const int nb = at_rows(n);
  const size_t tile = AC_TILE_ELEMS * sizeof(T), block = ck_device_block_smem(),
               sm = ck_device_sm_smem();
  auto in = [&](size_t room) {
    const int fit = room < at_fixed<T>() ? 0 : (int)((room - at_fixed<T>()) / tile);
    return nb - 1 <= fit ? nb - 1 : fit - 1;
  };
  /* two blocks an SM only where that keeps a tile of the row strip (GPUs of 100 KB an SM keep
   * none: one block there, as before the staging) */
  if (pages > (size_t)ck_device_sms() && sm / 2 > 1024 && sm / 2 - 1024 < block) {
    const int two = in(sm / 2 - 1024);
    if (two >= 1) return two;
  }
  return in(block);
}

/* Shared memory for pages of n vertices: D* by rows and by columns, the column strip's tile by
 * columns (both in A words; the closure's row and column buffers lie in the second before it),
 * the row strip's kept tiles by rows and, where not all are kept, the staging tile. */
template <class T> static size_t at_smem(int n, int slots) {
  static_assert(4 * AP_TILE <= AC_TILE_ELEMS, "the closure's buffers fit in a tile");
  const int nb = at_rows(n);
  return at_fixed<T>() + (size_t)(slots + (slots < nb - 1)) * AC_TILE_ELEMS * sizeof(T);
}

/* The row strip's tile J of round t among its nb - 1 tiles (tile t is D* itself). */
__device__ __forceinline__ int at_slot(int J, int t) { return J < t ? J : J - 1; }

/* Blocks an SM the registers must allow: on Hopper and later (228 KB of shared memory an SM,
 * where 16-bit pages fit three blocks up to 320 vertices) 16-bit halves three, in 80 registers
 * (without the bound the vector accesses took them to 111); the others two. GPUs of less shared
 * memory an SM could not hold the third block, and there the bound made them spill (sm_75 to
 * sm_89, 8 to 88 bytes). sm_120, built from compute_90 PTX, keeps the bound: 8 bytes of spills
 * in the 16-bit square instances there. The wide piece's blocks are half the threads: three
 * leave them 170 registers, and they take 102 to 140 without spills on sm_90. */
template <class T> constexpr int at_blocks() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  return ab_word<T>::PK == 2 ? 3 : 2;
#else
  return 2;
#endif
}

/* STAGE: some of the row strip's tiles are not kept (at_slots); its own instance, as the
 * staging takes registers (4-byte values on sm_90: 122-128 against 98-118). WIDE: the piece
 * (ac_shape; 16-bit values on sm_90: 102-140 registers). */
template <class T, class SR, bool STAGE, bool WIDE>
__global__ void __launch_bounds__(ac_shape<T, WIDE>::THREADS, at_blocks<T>())
    ab_close_tiled(const ap_batch<T> b, int slots) {
  typedef typename ab_word<T>::A A;
  constexpr int TN = ac_shape<T, WIDE>::TN, WN = ac_shape<T, WIDE>::WN;
  extern __shared__ __align__(16) unsigned char at_smem_[];
  T *Dr = (T *)at_smem_;
  A *Dc = (A *)(Dr + AC_TILE_ELEMS), *Cc = Dc + AC_TILE_ELEMS;
  T *Rr = (T *)(Cc + AC_TILE_ELEMS), *St = Rr + slots * AC_TILE_ELEMS, *rowk = (T *)Cc,
    *colk = rowk + 2 * AP_TILE;
  int ty, tx;
  ac_place<TN>(ty, tx);
  const int r0 = ty * AC_TT, c0 = tx * TN, n = b.n, nb = at_rows(n);
  const size_t q = blockIdx.x, nn = (size_t)n * n, page = b.page0 + q;
  const T *in = b.in + q * nn;
  T *out = b.out + q * nn;
  const bool win = ac_whole_rows<TN>(in, n), wout = ac_whole_rows<TN>(out, n);
  typename ab_word<T>::W v[AC_TT][WN];
  int nx[AC_TT][TN]; /* no next hops: ab_load_tile's and ab_steps', unused */
  for (int t = 0; t < nb; t++) {
    /* tile (I, J) into v: round 0 from the weights, later from what earlier rounds wrote */
    auto fetch = [&](int I, int J) {
      const int r = I * AP_TILE + r0, c = J * AP_TILE + c0;
      if (t > 0) return ac_fetch<T>(v, out, n, b.nopath, r, c, wout);
      /* every row's loads before the first look (ab_look_tile), but not in the staging
       * instances, which ran slower so (single 512 x 264 pages 68.5% of the rate against 64%) */
      if constexpr (STAGE) {
        ab_load_tile<T, SR, AC_TT, TN, false>(v, nx, b, in, page, r, c, true, win);
      } else {
        ac_fetch<T>(v, in, n, b.nopath, r, c, win);
        ab_look_tile<T, SR, AC_TT, TN>(v, b, page, r, c);
      }
    };
    /* and back; the last round's diagonal entries are the page's last word on its cycles */
    auto keep = [&](int I, int J) {
      ac_keep<T, SR>(v, out, n, I * AP_TILE + r0, J * AP_TILE + c0, page,
                     t == nb - 1 ? b.cycle : NULL, wout);
    };
    const int steps = n - t * AP_TILE < AP_TILE ? n - t * AP_TILE : AP_TILE;
    fetch(t, t);
    ab_steps<T, SR, AC_TT, TN, false>(v, nx, rowk, colk, NULL, AP_TILE, steps, ty, tx,
                                      ac_shape<T, WIDE>::THREADS, [](int, int) {});
    keep(t, t);
    ac_put_rows<T>(v, Dr, r0, c0);
    ac_put_cols<T>(v, Dc, r0, c0);
    for (int J = 0; J < nb; J++) { /* the row strip */
      if (J == t) continue;
      const int slot = at_slot(J, t);
      const bool kept = !STAGE || slot < slots;
      T *R = kept ? Rr + slot * AC_TILE_ELEMS : St;
      fetch(t, J);
      ac_put_rows<T>(v, R, r0, c0);
      __syncthreads(); /* D* and (t, J) in shared memory */
      ac_product<T, SR>(v, Dc, R, r0, c0);
      __syncthreads(); /* every thread done with (t, J) */
      if (kept) ac_put_rows<T>(v, R, r0, c0);
      keep(t, J);
    }
    for (int I = 0; I < nb; I++) { /* each row of tiles after its column strip tile */
      if (I == t) continue;
      fetch(I, t);
      __syncthreads(); /* the last row's products done with Cc; the row strip all written */
      ac_put_cols<T>(v, Cc, r0, c0);
      __syncthreads();
      ac_product<T, SR>(v, Cc, Dr, r0, c0);
      __syncthreads();
      ac_put_cols<T>(v, Cc, r0, c0);
      keep(I, t);
      __syncthreads();
      for (int J = 0; J < nb; J++) {
        if (J == t || (STAGE && at_slot(J, t) >= slots)) continue;
        fetch(I, J);
        ac_product<T, SR>(v, Cc, Rr + at_slot(J, t) * AC_TILE_ELEMS, r0, c0);
        keep(I, J);
      }
      for (int J = 0; STAGE && J < nb; J++) { /* the tiles not kept: (t, J)' staged again */
        if (J == t || at_slot(J, t) < slots) continue;
        /* this thread's piece of it is what it stored, from out (in round 0 too, where fetch
         * would read the weights) */
        ac_fetch<T>(v, out, n, b.nopath, t * AP_TILE + r0, J * AP_TILE + c0, wout);
        __syncthreads(); /* every thread done with the last staged tile */
        ac_put_rows<T>(v, St, r0, c0);
        __syncthreads();
        fetch(I, J);
        ac_product<T, SR>(v, Cc, St, r0, c0);
        keep(I, J);
      }
    }
    __syncthreads(); /* before the next closure's buffers overwrite Cc, and D* is rewritten */
  }
}

/* 8-byte values would take 192 KB a block: one block an SM, its closures not hidden. */
template <class T> static constexpr bool at_form() { return sizeof(T) <= 4; }

bool ap_batch_tiles_enough(size_t pages, int n) {
  const double per_sm = n > AP_BATCH_MAX_N ? AT_MIN_PAGES_PER_SM_PAST : AT_MIN_PAGES_PER_SM;
  return (double)pages >= per_sm * ck_device_sms();
}

template <class T> bool ap_batch_tiles(const ap_batch<T> &b) {
  if constexpr (!at_form<T>()) {
    return false;
  } else {
    if (b.P || b.trace || b.n <= AT_MIN_N || b.n > AT_MAX_N) return false;
    /* at_slots keeps at_smem within the block's shared memory wherever it gives a tile */
    return at_slots<T>(b.n, b.pages) >= 1 && ap_batch_tiles_enough(b.pages, b.n);
  }
}

/* One launch of kernel, a block of threads a page. Shared memory over the default 48 KB: raised
 * for each call's device (it does not survive a reset), to one value whatever the launch's size,
 * so that calls on other threads do not race. */
template <class T>
static ck_status at_launch(const ap_batch<T> &b, int slots, size_t smem,
                           void (*kernel)(const ap_batch<T>, int), int threads) {
  cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       (int)ck_device_block_smem());
  if (e == cudaSuccess) {
    kernel<<<(unsigned)b.pages, threads, smem, b.st>>>(b, slots);
    e = cudaGetLastError();
  }
  return ck_cuda_check(e, "closing a batch of graphs by tiles");
}

template <class T, class SR> ck_status ap_batch_tiled(const ap_batch<T> &b) {
  if constexpr (!at_form<T>()) {
    return ck_fail(CK_ERR_INVALID, "batched graphs by tiles take values of up to 4 bytes");
  } else {
    if (b.pages > INT_MAX) return ck_fail(CK_ERR_INVALID, "too many pages in one launch");
    if (b.n > AT_MAX_N)
      return ck_fail(CK_ERR_INVALID, "batched graphs by tiles have up to %d vertices, not %d",
                     AT_MAX_N, b.n);
    const int slots = at_slots<T>(b.n, b.pages);
    if (slots < 1)
      return ck_fail(CK_ERR_INVALID, "graphs of %d vertices by tiles need more shared memory", b.n);
    const size_t smem = at_smem<T>(b.n, slots);
    const bool stage = slots < at_rows(b.n) - 1;
    if constexpr (ab_word<T>::PK == 2) {
      if ((double)b.pages >= AT_WIDE_PAGES_PER_SM * ck_device_sms())
        return at_launch(b, slots, smem,
                         stage ? ab_close_tiled<T, SR, true, true>
                               : ab_close_tiled<T, SR, false, true>,
                         ac_shape<T, true>::THREADS);
    }
    return at_launch(b, slots, smem,
                     stage ? ab_close_tiled<T, SR, true, false>
                           : ab_close_tiled<T, SR, false, false>,
                     ac_shape<T, false>::THREADS);
  }
}

#define AP_BATCH_TILED_INSTANCE(T, SR) \
  template ck_status ap_batch_tiled<T, SR>(const ap_batch<T> &);
AP_INSTANTIATE_SR(AP_BATCH_TILED_INSTANCE)
#define AP_BATCH_TILES_INSTANCE(T) template bool ap_batch_tiles<T>(const ap_batch<T> &);
AP_INSTANTIATE(AP_BATCH_TILES_INSTANCE)
