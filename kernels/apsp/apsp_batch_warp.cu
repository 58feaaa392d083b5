/* Distances alone of many 16-bit graphs of 64 vertices: a page a warp (ap_batch_close takes it
 * where ab_warp_takes says so).
 *
 * Lane t holds rows t and t + 32 of its warp's page in registers, 32 words each (two values a
 * word, as the DPX instruction takes them). Step k: the lane that holds row k writes it to the
 * warp's shared buffer (one of two, by k's parity), the warp meets at __syncwarp, and every lane
 * reads it back (eight 16-byte loads, the same address for all) and makes 64 DPX on its own
 * rows, column k's values taken from its own words. The group kernel (16 threads a page at 16
 * vertices, 256 at 64) made 8 DPX a thread between barriers of 256 threads at 64 vertices; here
 * 64 between a warp's. The page moves between global and shared memory whole (each warp
 * instruction 512 contiguous bytes), its 16-byte pieces rotated within each row's eight by the
 * row (piece c of row r at c ^ (r % 8)), so that a lane's reads and writes of its rows and the
 * warp's of the page meet no bank conflict. Plain Floyd-Warshall's order, as the group kernel's:
 * the same distances bit for bit.
 *
 * Measured (H100, int16 64 x 4096 pages, D alone, three to seven calls each): this form, 191
 * registers and ten warps an SM, 0.086-0.093 ms; the staging loops unrolled by 4 (144
 * registers, fourteen warps) 0.098-0.099; each lane writing its rows to global memory itself
 * (106 registers, eighteen warps) 0.102-0.104; the group kernel 0.116-0.122; as many warps as
 * the GPU holds, each walking its pages and copying the next one in (cp.async) while it closes
 * one, 0.113-0.115. 4096 pages are 3.1 waves of ten warps an SM. */
#include <type_traits>

#include "apsp_batch.cuh"

#define AW_N 64
#define AW_WN (AW_N / 2)     /* words a row */
#define AW_PIECES (AW_N / 8) /* 16-byte pieces a row */
#define AW_WARPS 2           /* pages a block: 191 registers, five blocks an SM */
#define AW_PAGES_PER_SM 16   /* ab_warp_takes: from this many pages an SM */

/* Piece c of row r of a staged page. */
__device__ __forceinline__ int aw_at(int r, int c) { return r * AW_PIECES + (c ^ (r % 8)); }

template <class SR>
__global__ void __launch_bounds__(AW_WARPS * 32) ab_close_warp(const ap_batch<uint16_t> b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 /* DPX in hardware (ab_warp_built) */
  typedef uint16_t T;
  __shared__ uint4 stage[AW_WARPS][AW_N * AW_PIECES];
  __shared__ uint4 rowk[AW_WARPS][2][AW_PIECES];
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  const size_t q = (size_t)blockIdx.x * AW_WARPS + w;
  if (q >= b.pages) return; /* a whole warp: no barrier below waits for it */
  uint4 *sm = stage[w];
  const uint4 *g = (const uint4 *)(b.in + q * AW_N * AW_N);
  /* the look at every value: past "no path", a negative integer (the guess missed) */
  const uint32_t none = (uint32_t)b.nopath * 0x10001u;
  uint32_t past = 0;
#pragma unroll
  for (int i = 0; i < AW_N * AW_PIECES / 32; i++) {
    const int p = i * 32 + lane;
    const uint4 x = g[p];
    past |= __vcmpgtu2(x.x, none) | __vcmpgtu2(x.y, none) | __vcmpgtu2(x.z, none) |
            __vcmpgtu2(x.w, none);
    sm[aw_at(p / AW_PIECES, p % AW_PIECES)] = x;
  }
  if (past && b.refused) atomicOr(b.refused, 2);
  __syncwarp();
  /* the diagonal is the empty path */
  const T one = SR::mul::template one<T>();
  ((T *)sm)[aw_at(lane, lane / 8) * 8 + lane % 8] = one;
  ((T *)sm)[aw_at(lane + 32, (lane + 32) / 8) * 8 + lane % 8] = one;
  __syncwarp();
  uint32_t v[2][AW_WN];
  int nx[AW_N]; /* no next hops: ab_step_row_w's, unused */
#pragma unroll
  for (int s = 0; s < 2; s++)
#pragma unroll
    for (int c = 0; c < AW_PIECES; c++) {
      const uint4 x = sm[aw_at(lane + 32 * s, c)];
      uint32_t *d = &v[s][4 * c];
      d[0] = x.x, d[1] = x.y, d[2] = x.z, d[3] = x.w;
    }
#pragma unroll
  for (int k = 0; k < AW_N; k++) {
    uint4 *buf = rowk[w][k & 1];
    if (lane == k % 32) /* row k as it stands before step k */
#pragma unroll
      for (int c = 0; c < AW_PIECES; c++) {
        const uint32_t *r = &v[k / 32][4 * c];
        buf[c] = make_uint4(r[0], r[1], r[2], r[3]);
      }
    __syncwarp();
    uint32_t row[AW_WN];
#pragma unroll
    for (int c = 0; c < AW_PIECES; c++) {
      const uint4 x = buf[c];
      row[4 * c] = x.x, row[4 * c + 1] = x.y, row[4 * c + 2] = x.z, row[4 * c + 3] = x.w;
    }
#pragma unroll
    for (int s = 0; s < 2; s++)
      ab_step_row_w<T, SR, AW_N, false>(v[s], nx, ab_col_word<T, AW_N>(v[s], k), row, 0);
  }
#pragma unroll
  for (int s = 0; s < 2; s++)
#pragma unroll
    for (int c = 0; c < AW_PIECES; c++) {
      const uint32_t *d = &v[s][4 * c];
      sm[aw_at(lane + 32 * s, c)] = make_uint4(d[0], d[1], d[2], d[3]);
    }
  __syncwarp();
  uint4 *o = (uint4 *)(b.out + q * AW_N * AW_N);
#pragma unroll
  for (int i = 0; i < AW_N * AW_PIECES / 32; i++) {
    const int p = i * 32 + lane;
    o[p] = sm[aw_at(p / AW_PIECES, p % AW_PIECES)];
  }
#endif
}

static bool ab_warp_built(void) {
  static int known[CK_MAX_DEVICES];
  return ck_kernel_built_here((const void *)ab_close_warp<sr_min_plus>, 90, known);
}

bool ab_warp_takes(const ap_batch<uint16_t> &b) {
  return ab_whole_pages(b, AW_N, AW_PAGES_PER_SM) && ab_warp_built();
}

ck_status ab_warp_close(const ap_batch<uint16_t> &b) {
  const unsigned blocks = (unsigned)((b.pages + AW_WARPS - 1) / AW_WARPS);
  ab_close_warp<sr_min_plus><<<blocks, AW_WARPS * 32, 0, b.st>>>(b);
  return ck_cuda_check(cudaGetLastError(), "closing a batch of graphs");
}
