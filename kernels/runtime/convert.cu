/* Class conversion on the device: single and double for mixed-class products of device-resident
 * arrays (single wins, as in Octave), and any class to logical for the boolean product (nonzero
 * is true; NaN is refused, as Octave's logical () refuses it). */
#include "dispatch.cuh"
#include "ck_internal.h"

template <class From, class To>
__global__ void convert_kernel(const From *__restrict__ src, To *__restrict__ dst, size_t count) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) dst[i] = (To)src[i];
}

template <class From>
__global__ void logical_kernel(const From *__restrict__ src, uint8_t *__restrict__ dst,
                               size_t count, int *nan) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const From v = src[i];
  if (v != v) *nan = 1; /* a plain store: any thread's 1 will do */
  dst[i] = v != (From)0;
}

static ck_status to_logical(ck_dtype from, const void *src, uint8_t *dst, size_t count,
                            unsigned blocks) {
  int *nan = NULL, found = 0;
  CK_TRY(ck_dev_alloc((void **)&nan, sizeof(int)));
  cudaError_t e = cudaMemsetAsync(nan, 0, sizeof(int), 0);
  if (e == cudaSuccess) {
    ck_with_class<~0u>(from, 0, [&](auto c) {
      typedef typename decltype(c)::type T;
      logical_kernel<T><<<blocks, 256>>>((const T *)src, dst, count, nan);
      return 0;
    });
    e = cudaGetLastError();
  }
  if (e == cudaSuccess) e = cudaMemcpy(&found, nan, sizeof(int), cudaMemcpyDeviceToHost);
  ck_dev_free(nan);
  if (e != cudaSuccess) return ck_cuda_status(e, "converting to logical on the device");
  if (found) return ck_fail(CK_ERR_INVALID, "logical: NaN can't be converted to logical value");
  return CK_OK;
}

extern "C" ck_status ck_convert_device(ck_dtype from, const void *src, ck_dtype to, void *dst,
                                       size_t count) {
  if (count == 0) return CK_OK;
  unsigned blocks = (unsigned)((count + 255) / 256);
  if (to == CK_LOGICAL && (int)from >= 0 && from < CK_NUM_DTYPES)
    return to_logical(from, src, (uint8_t *)dst, count, blocks);
  if (from == CK_DOUBLE && to == CK_SINGLE)
    convert_kernel<double, float><<<blocks, 256>>>((const double *)src, (float *)dst, count);
  else if (from == CK_SINGLE && to == CK_DOUBLE)
    convert_kernel<float, double><<<blocks, 256>>>((const float *)src, (double *)dst, count);
  else
    return ck_fail(CK_ERR_INVALID, "conversion from %s to %s is not supported", ck_dtype_name(from),
                   ck_dtype_name(to));
  CK_CUDA(cudaGetLastError(), "converting on the device");
  return CK_OK;
}
