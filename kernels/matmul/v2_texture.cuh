/* Matmul ladder v2 "texture": v1's tiled32 with its operands read through the texture path.
 *
 * What it adds over v1: nothing in the arithmetic or the tiling (the same 32 x 32 shared-memory
 * tiles, the same boundary checks); the global loads become tex1Dfetch through texture objects over
 * the operands' linear memory. It is the classic lecture version: on the GPUs those lectures were
 * written for (Fermi, Kepler), the texture cache was a read-only cache of its own beside L1, which
 * did not keep global loads, so routing read-only operands through it added cache capacity and
 * bandwidth. Since Maxwell, and on Hopper, L1 and the texture cache are one unit (L1TEX): a texture
 * fetch and an ordinary global load go through the same cache, and tiled32's `const __restrict__`
 * operands already take its read-only path (its PTX loads them with ld.global.nc). Both kernels
 * stage each element once per block into shared memory with coalesced reads, so there are no misses
 * for the texture path to save; what differs is the instruction (a texture fetch instead of a
 * non-coherent global load) and its latency. The prediction, before any measurement: close to
 * tiled32 at large n. Its time includes what each call pays on the host: making two texture
 * objects, waiting for the kernel (an object may not be destroyed while a kernel reads through it)
 * and destroying them (matmul.cu).
 *
 * The texture unit has no 64-bit float format: double is fetched as int2 (its two 32-bit halves)
 * and put together with __hiloint2double.
 *
 * Limits: a linear texture holds at most cudaDeviceGetTexture1DLinearMaxWidth elements (of the
 * order of 2^27, cudaDeviceProp::maxTexture1DLinear; the device is asked). An operand beyond it is
 * refused with CK_ERR_INVALID, a message naming the limit and tiled32 (the same kernel on plain
 * loads); it does not fall back to tiled32, so that a time or a test labelled "texture" is always
 * this kernel's. The texture's base address must be aligned to cudaDeviceProp::textureAlignment,
 * which a page or a panel of a larger array need not be: the object covers the aligned address
 * below the operand, and the kernel adds the operand's offset from it (a0, b0, in elements).
 * Operand and offset together fit the limit, and the limit is below 2^31, so int indices do. */
#ifndef CK_MM_V2_TEXTURE_CUH
#define CK_MM_V2_TEXTURE_CUH

/* Element i of a texture over linear memory of T. */
template <class T> struct tex_elem;
template <> struct tex_elem<float> {
  static __device__ __forceinline__ float at(cudaTextureObject_t t, int i) {
    return tex1Dfetch<float>(t, i);
  }
};
template <> struct tex_elem<double> {
  static __device__ __forceinline__ double at(cudaTextureObject_t t, int i) {
    int2 v = tex1Dfetch<int2>(t, i);
    return __hiloint2double(v.y, v.x); /* little-endian: the high word is the second */
  }
};

/* A is M x K from element a0 of texture tA, B is K x N from element b0 of tB (row-major). */
template <class T, int TW>
__global__ void mm_texture(int M, int N, int K, cudaTextureObject_t tA, int a0,
                           cudaTextureObject_t tB, int b0, T *__restrict__ C) {
  __shared__ T As[TW][TW], Bs[TW][TW];
  int tx = threadIdx.x, ty = threadIdx.y;
  int i = blockIdx.y * TW + ty, j = blockIdx.x * TW + tx;
  T acc = 0;
  for (int ph = 0; ph < K; ph += TW) {
    As[ty][tx] = (i < M && ph + tx < K) ? tex_elem<T>::at(tA, a0 + i * K + ph + tx) : (T)0;
    Bs[ty][tx] = (ph + ty < K && j < N) ? tex_elem<T>::at(tB, b0 + (ph + ty) * N + j) : (T)0;
    __syncthreads();
#pragma unroll
    for (int p = 0; p < TW; p++) acc += As[ty][p] * Bs[p][tx];
    __syncthreads();
  }
  if (i < M && j < N) C[(size_t)i * N + j] = acc;
}

#endif
