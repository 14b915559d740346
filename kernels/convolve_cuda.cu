// CUDA variants of the general convolution (kernels/convolve.h), registered in
// kernels/variant_tables.cpp. Every variant runs one thread per output element in 2-D CTAs of
// the caller's block shape; the grid covers the width, and rows beyond 65535 CTAs are covered
// by a CTA-uniform grid-stride loop.
//
//   global_cmem / global_gmem  taps read from global memory, tap loops clipped at the borders
//                              (the skipped taps are the zero padding); filter in constant /
//                              global memory;
//   tile_cmem / tile_gmem      the CTA stages its (bx+N-1)x(by+N-1) input tile, zeros outside
//                              the image, in dynamic shared memory, then all N*N taps from it.
// Float sums use __fmul_rn / __fadd_rn in the CPU reference's order (never contracted into an
// FMA); the tile variants' extra zero taps add +-0 to a sum that is never -0, which changes no
// bit. 8-bit sums are integers. So every variant equals the CPU reference exactly.
#include <algorithm>
#include <string>
#include <type_traits>

#include "common/cuda_check.h"
#include "common/kernel_launch.cuh"
#include "kernels/convolve_tile.cuh"
#include "kernels/convolve_cuda.h"
#include "kernels/device_image_cuda.h"

namespace mad::kernels {
namespace {

constexpr int kMaxGridY = 65535;

// The device's one constant-memory filter (upload_convolve_filter writes it), sized for the
// largest filter: no read past it for any accepted size.
__constant__ float c_weights[kConvolveMaxTaps];

template <bool kConstFilter>
__device__ __forceinline__ float tap_weight(const float* global, int i) {
  if constexpr (kConstFilter)
    return c_weights[i];
  else
    return global[i];
}

// The running sum of one output element: float, rounded step by step; or exact integers.
template <class T>
struct Sum;
template <>
struct Sum<float> {
  float v = 0.0f;
  __device__ void add(float w, float s) { v = __fadd_rn(v, __fmul_rn(w, s)); }
  __device__ float result(int) const { return v; }
};
template <>
struct Sum<std::uint8_t> {
  int v = 0;  // <= 255 * 2^22 < 2^31 (convolve.h bounds T)
  __device__ void add(float w, std::uint8_t s) { v += static_cast<int>(w) * s; }
  __device__ std::uint8_t result(int total) const {
    return static_cast<std::uint8_t>((2LL * v + total) / (2LL * total));
  }
};

template <class T, bool kConstFilter>
__global__ void convolve_global_kernel(ImageView<const T> src, ImageView<T> dst, DeviceFilter f) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= src.width) return;  // no barrier in this kernel
  const int n = f.size, r = n / 2;
  const int dx0 = max(0, r - x), dx1 = min(n - 1, src.width - 1 - x + r);
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < src.height;
       y += gridDim.y * blockDim.y) {
    const int dy0 = max(0, r - y), dy1 = min(n - 1, src.height - 1 - y + r);
    Sum<T> sum;
    for (int dy = dy0; dy <= dy1; ++dy) {
      const T* row = src.data + static_cast<std::ptrdiff_t>(y + dy - r) * src.pitch;
      for (int dx = dx0; dx <= dx1; ++dx)
        sum.add(tap_weight<kConstFilter>(f.global, dy * n + dx), row[x + dx - r]);
    }
    dst.data[static_cast<std::ptrdiff_t>(y) * dst.pitch + x] = sum.result(f.weight_sum);
  }
}

template <class T, bool kConstFilter>
__global__ void convolve_tile_kernel(ImageView<const T> src, ImageView<T> dst, DeviceFilter f) {
  extern __shared__ __align__(16) unsigned char tile_bytes[];
  T* tile = reinterpret_cast<T*>(tile_bytes);
  const int n = f.size, r = n / 2;
  const int bx = blockDim.x, by = blockDim.y;
  const int tw = bx + n - 1, th = by + n - 1;  // validate_block_shape bounds tw * th
  const int tid = threadIdx.y * bx + threadIdx.x;
  const int x0 = blockIdx.x * bx, x = x0 + threadIdx.x;
  // y0 is uniform over the CTA, so every thread reaches both barriers of every iteration.
  for (int y0 = blockIdx.y * by; y0 < src.height; y0 += gridDim.y * by) {
    detail::stage_zero_padded_tile(src, y0, x0, r, tw, th, tid, bx * by, tile);
    __syncthreads();
    const int y = y0 + threadIdx.y;
    if (x < src.width && y < src.height) {
      Sum<T> sum;
      for (int dy = 0; dy < n; ++dy) {
        const T* row = tile + (threadIdx.y + dy) * tw + threadIdx.x;
        for (int dx = 0; dx < n; ++dx)
          sum.add(tap_weight<kConstFilter>(f.global, dy * n + dx), row[dx]);
      }
      dst.data[static_cast<std::ptrdiff_t>(y) * dst.pitch + x] = sum.result(f.weight_sum);
    }
    __syncthreads();
  }
}

template <class T>
void check_launch(ImageView<const T> src, ImageView<T> dst, const DeviceFilter& f,
                  BlockShape block, bool tile, bool const_filter) {
  constexpr bool kBytes = std::is_same_v<T, std::uint8_t>;
  if (f.size < 1 || f.size > kConvolveMaxSize || f.size % 2 == 0)
    throw InvalidArgument("convolve: the filter side must be odd and in 1..17, got " +
                          std::to_string(f.size));
  if (!const_filter && f.global == nullptr)
    throw InvalidArgument("convolve: the global-memory variants need the filter's device copy");
  if (kBytes && (f.weight_sum < 1 || f.weight_sum > kConvolveMaxWeightSum))
    throw InvalidArgument("convolve: 8-bit input needs the filter's weight sum");
  if (src.empty() || src.data == nullptr) throw InputError("convolve: the image is empty");
  if (dst.data == nullptr || dst.width != src.width || dst.height != src.height)
    throw InvalidArgument("convolve: device output must have the input's shape");
  validate_block_shape(block, tile, f.size, sizeof(T));
}

}  // namespace

namespace convolve_detail {

template <class T, bool kTile, bool kConstFilter>
void launch(ImageView<const T> src, ImageView<T> dst, const DeviceFilter& f, BlockShape block,
            cudaStream_t s) {
  check_launch(src, dst, f, block, kTile, kConstFilter);
  const dim3 threads(block.x, block.y);
  const dim3 grid((src.width + block.x - 1) / block.x,
                  std::min((src.height + block.y - 1) / block.y, kMaxGridY));
  if constexpr (kTile) {
    const std::size_t shared =
        static_cast<std::size_t>(block.x + f.size - 1) * (block.y + f.size - 1) * sizeof(T);
    cuda::launch_kernel(convolve_tile_kernel<T, kConstFilter>, grid, threads, shared, s, src, dst,
                        f);
  } else {
    cuda::launch_kernel(convolve_global_kernel<T, kConstFilter>, grid, threads, 0, s, src, dst, f);
  }
  MAD_CUDA_CHECK_LAUNCH();
}

#define MAD_CONVOLVE_INSTANTIATE(T, TILE, CONST)                                           \
  template void launch<T, TILE, CONST>(ImageView<const T>, ImageView<T>, const DeviceFilter&, \
                                       BlockShape, cudaStream_t);
MAD_CONVOLVE_INSTANTIATE(float, false, true)
MAD_CONVOLVE_INSTANTIATE(float, false, false)
MAD_CONVOLVE_INSTANTIATE(float, true, true)
MAD_CONVOLVE_INSTANTIATE(float, true, false)
MAD_CONVOLVE_INSTANTIATE(std::uint8_t, false, true)
MAD_CONVOLVE_INSTANTIATE(std::uint8_t, false, false)
MAD_CONVOLVE_INSTANTIATE(std::uint8_t, true, true)
MAD_CONVOLVE_INSTANTIATE(std::uint8_t, true, false)
#undef MAD_CONVOLVE_INSTANTIATE

}  // namespace convolve_detail

DeviceConvolveFilter upload_convolve_filter(const ConvolveFilter& filter, bool for_bytes,
                                            cudaStream_t stream) {
  validate_convolve_filter(filter, for_bytes);
  DeviceConvolveFilter d;
  const std::size_t taps = filter.weights.size();
  d.buffer = cuda::DeviceBuffer<float>(taps);
  MAD_CUDA_CHECK(cudaMemcpyAsync(d.buffer.get(), filter.weights.data(), taps * sizeof(float),
                                 cudaMemcpyHostToDevice, stream));
  MAD_CUDA_CHECK(cudaMemcpyToSymbolAsync(c_weights, filter.weights.data(), taps * sizeof(float), 0,
                                         cudaMemcpyHostToDevice, stream));
  d.ref.global = d.buffer.get();
  d.ref.size = filter.size;
  d.ref.weight_sum = for_bytes ? convolve_weight_sum(filter) : 0;
  return d;
}

namespace {

template <class T>
void run_host(ImageView<const T> src, const ConvolveFilter& filter, ImageView<T> dst,
              const CudaRunOptions& options, BlockShape block) {
  constexpr bool kBytes = std::is_same_v<T, std::uint8_t>;
  validate_convolve_filter(filter, kBytes);
  validate_block_shape(block, false, filter.size, sizeof(T));
  if (src.empty() || src.data == nullptr) throw InputError("convolve: the image is empty");
  const auto& row = convolve_variants().find(options.variant);
  require_device("convolve");
  DeviceConvolveFilter f;
  {
    cuda::Stream upload;
    f = upload_convolve_filter(filter, kBytes, upload.get());
    upload.synchronize();  // the launch runs on run_image_kernel's own stream
  }
  ConvolveLaunchFn<T> fn;
  if constexpr (kBytes)
    fn = row.launch.u8;
  else
    fn = row.launch.f32;
  run_image_kernel(as_bytes(src), as_bytes(dst), options.poison, 0,
                   [&](ImageView<const std::uint8_t> in, ImageView<std::uint8_t> out,
                       DeviceScratch, cudaStream_t stream) {
                     fn(from_bytes<const T>(in), from_bytes<T>(out), f.ref, block, stream);
                   });
}

}  // namespace

void convolve_cuda(ImageView<const float> src, const ConvolveFilter& filter, ImageView<float> dst,
                   const CudaRunOptions& options, BlockShape block) {
  run_host(src, filter, dst, options, block);
}

void convolve_cuda(ImageView<const std::uint8_t> src, const ConvolveFilter& filter,
                   ImageView<std::uint8_t> dst, const CudaRunOptions& options, BlockShape block) {
  run_host(src, filter, dst, options, block);
}

}  // namespace mad::kernels
