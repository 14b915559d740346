// CUDA variants of the 5x5 triangular smoothing (issue 4, kernel 3), registered in
// kernels/variant_tables.cpp.
//
//   global            one output pixel per thread (32x8 blocks), taps read from global memory,
//                     loops clipped at the borders, filter in constant memory;
//   global_gmem       the same with the filter in global memory;
//   tile              a 32x8 block stages its (32+4)x(8+4) input tile with the 2-pixel halo in
//                     shared memory (zeros outside the image), 25 taps from shared memory;
//   tile_gmem         the same with the filter in global memory;
//   global_32x16, tile_32x16, global_32x16_pP
//                     (seed 000 §8) the seed's 16x32 blocks (16 rows of 32 threads; its 8x32
//                     are our 32x8), and P output pixels per thread down a column: a grid of
//                     ceil(H / (16 P)) block rows whose threads step by the grid's height;
//   padded            (seed 003) a first kernel writes a zero-padded copy into scratch; the
//                     second reads all 25 taps with no edge checks. The pad pass is timed too.
//   tile_bank_conflict / tile_bank_free  (seed 003's bank conflicts) the tile transposed in
//                     shared memory as 32-bit words, one channel at a time: tile column x is
//                     a run of kStride words. A warp (32 consecutive x at one y) reads words
//                     (x + dx) * kStride + y + dy: with kStride = 32 every thread of the warp
//                     hits the same bank (a 32-way conflict on each store and each of the 25
//                     loads); with kStride = 33 they hit 32 different banks. Nothing else
//                     differs between the two.
// Zero padding adds nothing to S; W comes from the closed form in smooth.h. All arithmetic is
// integer, so every variant equals the CPU reference exactly.
//
// The Wrap border (smooth_wrap_variants()): W = 35 everywhere.
//   direct            one output pixel per thread, each tap's row and column taken mod the
//                     image's size (the seed's "old" loop, lines 311-328);
//   padded            the seed's padImageKernel: a wrap-padded copy, then the unchecked taps
//                     of the Clip `padded` variant (lines 289-309 and 330-346).
#include <algorithm>

#include "common/cuda_check.h"
#include "common/kernel_launch.cuh"
#include "kernels/device_image_cuda.h"
#include "kernels/smooth_cuda.h"

namespace mad::kernels {
namespace {

constexpr int kBx = 32, kBy = 8;
constexpr int kR = kSmoothRadius;
// The 32x8 block's tile with its halo (the bank-conflict pair; the other tiles size their own).
constexpr int kTileW = kBx + 2 * kR, kTileH = kBy + 2 * kR;
constexpr int kMaxChannels = 4;
constexpr int kMaxGridY = 65535;

struct Filter {
  int w[kSmoothTaps * kSmoothTaps];
};
constexpr Filter make_filter() {
  Filter f{};
  for (int dy = -kR; dy <= kR; ++dy)
    for (int dx = -kR; dx <= kR; ++dx)
      f.w[(dy + kR) * kSmoothTaps + dx + kR] = smooth_weight(dy, dx);
  return f;
}
// The same 25 weights in the two memory spaces the variants compare. Not const, so the
// compiler cannot fold them into immediates: reads really go to constant / global memory.
__constant__ Filter c_filter = make_filter();
__device__ Filter g_filter = make_filter();

template <bool kConstFilter>
__device__ __forceinline__ int weight(int i) {
  if constexpr (kConstFilter)
    return c_filter.w[i];
  else
    return g_filter.w[i];
}

// Weighted sum of the 5x5 samples base[dy * row_pitch + dx * channels], dy, dx in 0..4 (no
// edge checks: the caller provides zeros outside the image).
template <bool kConstFilter>
__device__ __forceinline__ int weighted_taps(const std::uint8_t* base, std::ptrdiff_t row_pitch,
                                             int channels) {
  int sum = 0;
#pragma unroll
  for (int dy = 0; dy < kSmoothTaps; ++dy)
#pragma unroll
    for (int dx = 0; dx < kSmoothTaps; ++dx)
      sum += weight<kConstFilter>(dy * kSmoothTaps + dx) * base[dy * row_pitch + dx * channels];
  return sum;
}

template <bool kConstFilter>
__global__ void smooth_global_kernel(ImageView<const std::uint8_t> src, int channels,
                                     ImageView<std::uint8_t> dst) {
  const int width = src.width / channels, height = src.height;
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  const int dx0 = max(-kR, -x), dx1 = min(kR, width - 1 - x);
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < height; y += gridDim.y * blockDim.y) {
    const int dy0 = max(-kR, -y), dy1 = min(kR, height - 1 - y);
    for (int c = 0; c < channels; ++c) {
      int sum = 0, weights = 0;
      for (int dy = dy0; dy <= dy1; ++dy) {
        const std::uint8_t* row = src.data + static_cast<std::ptrdiff_t>(y + dy) * src.pitch + c;
        for (int dx = dx0; dx <= dx1; ++dx) {
          const int w = weight<kConstFilter>((dy + kR) * kSmoothTaps + dx + kR);
          sum += w * row[(x + dx) * channels];
          weights += w;
        }
      }
      dst.data[static_cast<std::ptrdiff_t>(y) * dst.pitch + x * channels + c] =
          smooth_round(sum, weights);
    }
  }
}

template <bool kConstFilter, int kBlockX, int kBlockY>
__global__ void smooth_tile_kernel(ImageView<const std::uint8_t> src, int channels,
                                   ImageView<std::uint8_t> dst) {
  constexpr int kTileW = kBlockX + 2 * kR, kTileH = kBlockY + 2 * kR;
  __shared__ std::uint8_t tile[kTileH][kTileW * kMaxChannels];
  const int width = src.width / channels, height = src.height;
  const int tile_samples = kTileW * channels;
  const int tid = threadIdx.y * kBlockX + threadIdx.x;
  const int x0 = blockIdx.x * kBlockX;
  const int x = x0 + threadIdx.x;
  // The y loop is per block (uniform), so the barriers inside it are safe.
  for (int y0 = blockIdx.y * kBlockY; y0 < height; y0 += gridDim.y * kBlockY) {
    for (int i = tid; i < kTileH * tile_samples; i += kBlockX * kBlockY) {
      const int ty = i / tile_samples, ts = i - ty * tile_samples;
      const int gy = y0 + ty - kR, gx = x0 + ts / channels - kR;
      const bool inside = gy >= 0 && gy < height && gx >= 0 && gx < width;
      tile[ty][ts] = inside ? src.data[static_cast<std::ptrdiff_t>(gy) * src.pitch + gx * channels +
                                       ts % channels]
                            : 0;
    }
    __syncthreads();
    const int y = y0 + threadIdx.y;
    if (x < width && y < height) {
      const int weights = smooth_weight_sum_at(y, x, height, width);
      for (int c = 0; c < channels; ++c) {
        const int sum = weighted_taps<kConstFilter>(&tile[threadIdx.y][threadIdx.x * channels + c],
                                                    kTileW * kMaxChannels, channels);
        dst.data[static_cast<std::ptrdiff_t>(y) * dst.pitch + x * channels + c] =
            smooth_round(sum, weights);
      }
    }
    __syncthreads();
  }
}

// Writes the padded copy: (width + 4) x (height + 4) pixels, `padded_pitch` bytes a row; the
// margin holds zeros, or with kWrap the pixels of the opposite side (the torus).
template <bool kWrap>
__global__ void smooth_pad_kernel(ImageView<const std::uint8_t> src, int channels,
                                  std::uint8_t* padded, int padded_pitch) {
  const int width = src.width / channels, height = src.height;
  const int s = blockIdx.x * blockDim.x + threadIdx.x;  // sample within the padded row
  if (s >= (width + 2 * kR) * channels) return;
  const int gx = s / channels - kR, c = s % channels;
  for (int py = blockIdx.y * blockDim.y + threadIdx.y; py < height + 2 * kR;
       py += gridDim.y * blockDim.y) {
    const int gy = py - kR;
    std::uint8_t value = 0;
    if (kWrap)
      value = src.data[static_cast<std::ptrdiff_t>(smooth_wrap_index(gy, height)) * src.pitch +
                       smooth_wrap_index(gx, width) * channels + c];
    else if (gy >= 0 && gy < height && gx >= 0 && gx < width)
      value = src.data[static_cast<std::ptrdiff_t>(gy) * src.pitch + gx * channels + c];
    padded[static_cast<std::ptrdiff_t>(py) * padded_pitch + s] = value;
  }
}

template <bool kWrap>
__global__ void smooth_padded_kernel(const std::uint8_t* padded, int padded_pitch, int channels,
                                     ImageView<std::uint8_t> dst) {
  const int width = dst.width / channels, height = dst.height;
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < height; y += gridDim.y * blockDim.y) {
    const int weights = kWrap ? kSmoothWeightSum : smooth_weight_sum_at(y, x, height, width);
    // Pixel (y + dy, x + dx) of the image is pixel (y + dy + 2, x + dx + 2) of the copy.
    const std::uint8_t* base =
        padded + static_cast<std::ptrdiff_t>(y) * padded_pitch + x * channels;
    for (int c = 0; c < channels; ++c)
      dst.data[static_cast<std::ptrdiff_t>(y) * dst.pitch + x * channels + c] =
          smooth_round(weighted_taps<true>(base + c, padded_pitch, channels), weights);
  }
}

// The Wrap rule without a padded copy: each tap's row and column taken mod the image's size.
__global__ void smooth_wrap_direct_kernel(ImageView<const std::uint8_t> src, int channels,
                                          ImageView<std::uint8_t> dst) {
  const int width = src.width / channels, height = src.height;
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  int cols[kSmoothTaps];  // sample offset of each tap's column
#pragma unroll
  for (int dx = 0; dx < kSmoothTaps; ++dx)
    cols[dx] = smooth_wrap_index(x + dx - kR, width) * channels;
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < height; y += gridDim.y * blockDim.y)
    for (int c = 0; c < channels; ++c) {
      int sum = 0;
#pragma unroll
      for (int dy = 0; dy < kSmoothTaps; ++dy) {
        const std::uint8_t* row =
            src.data +
            static_cast<std::ptrdiff_t>(smooth_wrap_index(y + dy - kR, height)) * src.pitch + c;
#pragma unroll
        for (int dx = 0; dx < kSmoothTaps; ++dx)
          sum += weight<true>(dy * kSmoothTaps + dx) * row[cols[dx]];
      }
      dst.data[static_cast<std::ptrdiff_t>(y) * dst.pitch + x * channels + c] =
          smooth_round(sum, kSmoothWeightSum);
    }
}

// The transposed word tile of tile_bank_conflict (kStride = 32) and tile_bank_free (33); see
// the banner. One channel at a time; the y and channel loops are per block (uniform), so the
// barriers inside them are safe.
template <int kStride>
__global__ void smooth_tile_bank_kernel(ImageView<const std::uint8_t> src, int channels,
                                        ImageView<std::uint8_t> dst) {
  static_assert(kStride >= kTileH, "a tile column must hold the tile's rows");
  __shared__ int tile[kTileW * kStride];
  const int width = src.width / channels, height = src.height;
  const int tid = threadIdx.y * kBx + threadIdx.x;
  const int x0 = blockIdx.x * kBx;
  const int x = x0 + threadIdx.x;
  for (int y0 = blockIdx.y * kBy; y0 < height; y0 += gridDim.y * kBy) {
    const int y = y0 + threadIdx.y;
    const bool writes = x < width && y < height;
    const int weights = writes ? smooth_weight_sum_at(y, x, height, width) : 1;
    for (int c = 0; c < channels; ++c) {
      // Consecutive threads take consecutive tile columns: coalesced reads from global memory,
      // stores kStride words apart.
      for (int i = tid; i < kTileH * kTileW; i += kBx * kBy) {
        const int ty = i / kTileW, tx = i - ty * kTileW;
        const int gy = y0 + ty - kR, gx = x0 + tx - kR;
        const bool inside = gy >= 0 && gy < height && gx >= 0 && gx < width;
        tile[tx * kStride + ty] =
            inside ? src.data[static_cast<std::ptrdiff_t>(gy) * src.pitch + gx * channels + c] : 0;
      }
      __syncthreads();
      if (writes) {
        int sum = 0;
#pragma unroll
        for (int dy = 0; dy < kSmoothTaps; ++dy)
#pragma unroll
          for (int dx = 0; dx < kSmoothTaps; ++dx)
            sum += weight<true>(dy * kSmoothTaps + dx) *
                   tile[(threadIdx.x + dx) * kStride + threadIdx.y + dy];
        dst.data[static_cast<std::ptrdiff_t>(y) * dst.pitch + x * channels + c] =
            smooth_round(sum, weights);
      }
      __syncthreads();
    }
  }
}

// Host side ----------------------------------------------------------------------------------

void check_shapes(ImageView<const std::uint8_t> src, int channels, ImageView<std::uint8_t> dst) {
  validate_smooth_input(src, channels);
  if (dst.data == nullptr || dst.width != src.width || dst.height != src.height)
    throw InvalidArgument("smooth: device output must have the input's shape");
}

dim3 pixel_grid(int width, int height) {
  return dim3((width + kBx - 1) / kBx, std::min((height + kBy - 1) / kBy, kMaxGridY));
}

int padded_pitch(int width, int channels) {
  return (width + 2 * kR) * channels;
}

}  // namespace

// The launch functions, registered in kernels/variant_tables.cpp.
namespace smooth_detail {

// The global and tile kernels on kBlockX x kBlockY blocks, each thread computing kRows output
// pixels down its column (the kernels step by the grid's height).
template <bool kTile, bool kConstFilter, int kBlockX, int kBlockY, int kRows>
void launch_blocks(ImageView<const std::uint8_t> src, int channels, ImageView<std::uint8_t> dst,
                   cudaStream_t s) {
  check_shapes(src, channels, dst);
  constexpr int kRowsPerBlock = kBlockY * kRows;
  const dim3 grid((src.width / channels + kBlockX - 1) / kBlockX,
                  std::min((src.height + kRowsPerBlock - 1) / kRowsPerBlock, kMaxGridY));
  const dim3 block(kBlockX, kBlockY);
  if constexpr (kTile)
    cuda::launch_kernel(smooth_tile_kernel<kConstFilter, kBlockX, kBlockY>, grid, block, 0, s, src,
                        channels, dst);
  else
    cuda::launch_kernel(smooth_global_kernel<kConstFilter>, grid, block, 0, s, src, channels, dst);
  MAD_CUDA_CHECK_LAUNCH();
}

// The global and tile variants share a launch shape: one thread per output pixel.
template <bool kTile, bool kConstFilter>
void launch_per_pixel(ImageView<const std::uint8_t> src, int channels, ImageView<std::uint8_t> dst,
                      DeviceScratch, cudaStream_t s) {
  launch_blocks<kTile, kConstFilter, kBx, kBy, 1>(src, channels, dst, s);
}

// Seed 000's block shapes and pixels per thread (filter in constant memory, as the seed's).
template <bool kTile, int kBlockX, int kBlockY, int kRows>
void launch_shape(ImageView<const std::uint8_t> src, int channels, ImageView<std::uint8_t> dst,
                  DeviceScratch, cudaStream_t s) {
  launch_blocks<kTile, true, kBlockX, kBlockY, kRows>(src, channels, dst, s);
}

template <bool kWrap>
void launch_padded(ImageView<const std::uint8_t> src, int channels, ImageView<std::uint8_t> dst,
                   DeviceScratch scratch, cudaStream_t s) {
  check_shapes(src, channels, dst);
  const int width = src.width / channels, height = src.height;
  const int pitch = padded_pitch(width, channels);
  ScratchCarver carver(scratch, "smooth (padded)");
  auto* padded = carver.take<std::uint8_t>(static_cast<std::size_t>(pitch) * (height + 2 * kR));
  const dim3 pad_grid((pitch + kBx - 1) / kBx,
                      std::min((height + 2 * kR + kBy - 1) / kBy, kMaxGridY));
  cuda::launch_kernel(smooth_pad_kernel<kWrap>, pad_grid, dim3(kBx, kBy), 0, s, src, channels,
                      padded, pitch);
  MAD_CUDA_CHECK_LAUNCH();
  cuda::launch_kernel(smooth_padded_kernel<kWrap>, pixel_grid(width, height), dim3(kBx, kBy), 0, s,
                      padded, pitch, channels, dst);
  MAD_CUDA_CHECK_LAUNCH();
}

#define INSTANTIATE_SHAPE(...)                                                \
  template void launch_shape<__VA_ARGS__>(ImageView<const std::uint8_t>, int, \
                                          ImageView<std::uint8_t>, DeviceScratch, cudaStream_t);
INSTANTIATE_SHAPE(false, 32, 16, 1)
INSTANTIATE_SHAPE(true, 32, 16, 1)
INSTANTIATE_SHAPE(false, 32, 16, 2)
INSTANTIATE_SHAPE(false, 32, 16, 4)
INSTANTIATE_SHAPE(false, 32, 16, 8)
INSTANTIATE_SHAPE(false, 32, 16, 15)
INSTANTIATE_SHAPE(false, 32, 16, 16)
#undef INSTANTIATE_SHAPE

void launch_wrap_direct(ImageView<const std::uint8_t> src, int channels,
                        ImageView<std::uint8_t> dst, DeviceScratch, cudaStream_t s) {
  check_shapes(src, channels, dst);
  cuda::launch_kernel(smooth_wrap_direct_kernel, pixel_grid(src.width / channels, src.height),
                      dim3(kBx, kBy), 0, s, src, channels, dst);
  MAD_CUDA_CHECK_LAUNCH();
}

template <int kStride>
void launch_tile_bank(ImageView<const std::uint8_t> src, int channels, ImageView<std::uint8_t> dst,
                      DeviceScratch, cudaStream_t s) {
  check_shapes(src, channels, dst);
  cuda::launch_kernel(smooth_tile_bank_kernel<kStride>,
                      pixel_grid(src.width / channels, src.height), dim3(kBx, kBy), 0, s, src,
                      channels, dst);
  MAD_CUDA_CHECK_LAUNCH();
}

template void launch_padded<false>(ImageView<const std::uint8_t>, int, ImageView<std::uint8_t>,
                                   DeviceScratch, cudaStream_t);
template void launch_padded<true>(ImageView<const std::uint8_t>, int, ImageView<std::uint8_t>,
                                  DeviceScratch, cudaStream_t);
template void launch_tile_bank<32>(ImageView<const std::uint8_t>, int, ImageView<std::uint8_t>,
                                   DeviceScratch, cudaStream_t);
template void launch_tile_bank<33>(ImageView<const std::uint8_t>, int, ImageView<std::uint8_t>,
                                   DeviceScratch, cudaStream_t);

template void launch_per_pixel<false, true>(ImageView<const std::uint8_t>, int,
                                            ImageView<std::uint8_t>, DeviceScratch, cudaStream_t);
template void launch_per_pixel<false, false>(ImageView<const std::uint8_t>, int,
                                             ImageView<std::uint8_t>, DeviceScratch, cudaStream_t);
template void launch_per_pixel<true, true>(ImageView<const std::uint8_t>, int,
                                           ImageView<std::uint8_t>, DeviceScratch, cudaStream_t);
template void launch_per_pixel<true, false>(ImageView<const std::uint8_t>, int,
                                            ImageView<std::uint8_t>, DeviceScratch, cudaStream_t);

}  // namespace smooth_detail

std::size_t smooth_scratch_bytes(int width, int height, int channels) {
  return ScratchCarver::padded(static_cast<std::size_t>(padded_pitch(width, channels)) *
                               (height + 2 * kR));
}

void smooth_cuda(ImageView<const std::uint8_t> src, int channels, ImageView<std::uint8_t> dst,
                 const CudaRunOptions& options, SmoothBorder border) {
  validate_smooth_input(src, channels);
  run_registered_kernel(smooth_variants(border), "smooth",
                        "smooth: output size differs from the input size", src, channels, dst,
                        options, smooth_scratch_bytes(src.width / channels, src.height, channels));
}

Image<std::uint8_t> smooth_cuda(ImageView<const std::uint8_t> src, int channels,
                                const CudaRunOptions& options, SmoothBorder border) {
  return smooth_image(src, channels, [&](ImageView<std::uint8_t> dst) {
    smooth_cuda(src, channels, dst, options, border);
  });
}

}  // namespace mad::kernels
