#include "mad/backends/device_gather_cuda.h"

#include <cstdint>

#include "common/cuda_check.h"
#include "common/error.h"
#include "common/kernel_launch.cuh"
#include "kernels/gray_formula.h"

namespace mad::gpu {
namespace {

// The host conversion of one gray sample to the 0..255 scale (common/gray_convert.cpp).
__device__ double to_scale(std::uint8_t v) {
  return v;
}
__device__ double to_scale(std::uint16_t v) {
  // v * 255.0 / 65535.0 as the host writes it, each step rounded on its own.
  return __ddiv_rn(__dmul_rn(static_cast<double>(v), 255.0), 65535.0);
}
__device__ double to_scale(float v) {
  return v;
}
__device__ double to_scale(double v) {
  return v;
}

// Strategy: one thread per output pixel, 32x8 blocks over the image; reads follow the
// caller's strides (any sign), writes are coalesced along rows.
template <class Src, class Real>
__global__ void gather_gray_kernel(const Src* __restrict__ src, std::ptrdiff_t row_stride,
                                   std::ptrdiff_t col_stride, int width, int height,
                                   Real* __restrict__ dst) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const Src v = src[y * row_stride + x * col_stride];
  dst[static_cast<std::size_t>(y) * width + x] = static_cast<Real>(to_scale(v));
}

// Same shape; three samples per pixel reduced by MATLAB's rgb2gray for uint8.
template <class Real>
__global__ void gather_rgb8_kernel(const std::uint8_t* __restrict__ src, std::ptrdiff_t row_stride,
                                   std::ptrdiff_t col_stride, std::ptrdiff_t channel_stride,
                                   int width, int height, Real* __restrict__ dst) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const std::uint8_t* p = src + y * row_stride + x * col_stride;
  const std::uint8_t gray =
      kernels::gray_matlab_fixed(p[0], p[channel_stride], p[2 * channel_stride]);
  dst[static_cast<std::size_t>(y) * width + x] = static_cast<Real>(gray);
}

template <class Src, class Real>
void launch_gray(const DeviceImage& src, Real* dst, dim3 grid, dim3 block, cudaStream_t stream) {
  cuda::launch_kernel(gather_gray_kernel<Src, Real>, grid, block, 0, stream,
                      static_cast<const Src*>(src.data), src.row_stride, src.col_stride, src.width,
                      src.height, dst);
  MAD_CUDA_CHECK_LAUNCH();
}

}  // namespace

template <class Real>
void gather_device_image(const DeviceImage& src, Real* dst, cudaStream_t stream) {
  const dim3 block(32, 8);
  const dim3 grid((src.width + block.x - 1) / block.x, (src.height + block.y - 1) / block.y);
  if (src.channels != 1) {
    if (src.dtype != DeviceDtype::U8) throw InputError("colour GPU input must be uint8");
    cuda::launch_kernel(gather_rgb8_kernel<Real>, grid, block, 0, stream,
                        static_cast<const std::uint8_t*>(src.data), src.row_stride, src.col_stride,
                        src.channel_stride, src.width, src.height, dst);
    MAD_CUDA_CHECK_LAUNCH();
    return;
  }
  switch (src.dtype) {
    case DeviceDtype::U8: return launch_gray<std::uint8_t>(src, dst, grid, block, stream);
    case DeviceDtype::U16: return launch_gray<std::uint16_t>(src, dst, grid, block, stream);
    case DeviceDtype::F32: return launch_gray<float>(src, dst, grid, block, stream);
    case DeviceDtype::F64: return launch_gray<double>(src, dst, grid, block, stream);
  }
}

template void gather_device_image<double>(const DeviceImage&, double*, cudaStream_t);
template void gather_device_image<float>(const DeviceImage&, float*, cudaStream_t);

}  // namespace mad::gpu
