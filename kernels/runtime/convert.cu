/* Class conversion on the device, for mixed-class products of device-resident arrays (single
 * wins, as in Octave). */
#include "ck_internal.h"

template <class From, class To>
__global__ void convert_kernel(const From *__restrict__ src, To *__restrict__ dst, size_t count) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) dst[i] = (To)src[i];
}

extern "C" ck_status ck_convert_device(ck_dtype from, const void *src, ck_dtype to, void *dst,
                                       size_t count) {
  if (count == 0) return CK_OK;
  unsigned blocks = (unsigned)((count + 255) / 256);
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
