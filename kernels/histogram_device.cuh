// The privatized-histogram kernel shared by the histogram variants (histogram_cuda.cu) and the
// fused gray+histogram variants (gray_histogram_cuda.cu), in the shapes seed 000 §7 compares:
//   * one shared histogram per block, or one per warp (kPerWarp), merged into the global bins
//     with one atomicAdd per non-empty bin and block at the end;
//   * flat mapping (kFlat): threads numbered across the grid take flat pixels i, i + T, ...
//     (T = threads in the grid; kernels/pixel_walk.cuh), so the grid's size sets the pixels per
//     thread: a dynamic grid for P pixels, or a fixed grid such as the seed's 60x45;
//   * 2-D mapping (!kFlat): 2-D blocks over 2-D tiles of the image, one pixel per thread (and
//     a row loop only past 65535 block rows).
// `Pixel` returns the 8-bit value of pixel (y, x) (and may write it out: the fused kernel
// stores the gray pixel it just computed). The bins must be zero before the launch.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/cuda_check.h"
#include "common/error.h"
#include "common/kernel_launch.cuh"
#include "kernels/histogram.h"
#include "kernels/pixel_walk.cuh"

namespace mad::kernels::histogram_device {

constexpr int kMaxGridY = 65535;
// Seed 000's fixed grid of Table 7 ("60x45"): 60 x 45 blocks of 256 threads.
constexpr int kSeedFixedGridX = 60, kSeedFixedGridY = 45;

// kThreads must equal blockDim.x * blockDim.y (the host launches below guarantee it).
template <int kThreads, bool kPerWarp, bool kFlat, class Pixel>
__global__ void privatized_histogram_kernel(int width, int height, Pixel pixel, unsigned* bins) {
  static_assert(kThreads % 32 == 0, "whole warps");
  constexpr int kCopies = kPerWarp ? kThreads / 32 : 1;
  __shared__ unsigned h[kCopies][kHistogramBins];
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  for (int b = tid; b < kCopies * kHistogramBins; b += kThreads) (&h[0][0])[b] = 0;
  __syncthreads();
  unsigned* mine = h[kPerWarp ? tid / 32 : 0];
  if constexpr (kFlat) {
    const long long n = static_cast<long long>(width) * height;
    const long long stride = grid_thread_count();
    long long i = flat_thread_index();
    if (i < n)
      for (PixelWalk p(i, stride, width); i < n; i += stride, p.advance())
        atomicAdd(&mine[pixel(p.y, p.x)], 1u);
  } else {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x < width)
      for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < height; y += gridDim.y * blockDim.y)
        atomicAdd(&mine[pixel(y, x)], 1u);
  }
  __syncthreads();  // every thread reaches it: the loops above hold no barrier
  for (int b = tid; b < kHistogramBins; b += kThreads) {
    unsigned sum = 0;
#pragma unroll
    for (int c = 0; c < kCopies; ++c) sum += h[c][b];
    if (sum != 0) atomicAdd(&bins[b], sum);
  }
}

// Host: a 1-D grid of `threads`-thread blocks giving each thread about `pixels` flat pixels,
// or, for pixels == kSeedFixedGrid, the seed's fixed 60x45 grid whatever the image.
constexpr int kSeedFixedGrid = 0;
inline dim3 flat_grid(int width, int height, int pixels, int threads) {
  if (pixels == kSeedFixedGrid) return dim3(kSeedFixedGridX, kSeedFixedGridY);
  const long long n = static_cast<long long>(width) * height;
  const long long per_block = static_cast<long long>(threads) * pixels;
  const long long blocks = (n + per_block - 1) / per_block;
  if (blocks > 0x7fffffffLL) throw InvalidArgument("histogram: image too large for a 1-D grid");
  return dim3(static_cast<unsigned>(blocks));
}

// Host: the 2-D grid of bx x by blocks over the image (rows capped at 65535, see above).
inline dim3 tile_grid(int width, int height, int bx, int by) {
  return dim3((width + bx - 1) / bx, std::min((height + by - 1) / by, kMaxGridY));
}

// Host: zeroes the bins, then launches the kernel over `grid` (blocks of kThreads threads,
// `block` shaped) on `stream`.
template <int kThreads, bool kPerWarp, bool kFlat, class Pixel>
void launch_privatized(dim3 grid, dim3 block, int width, int height, Pixel pixel,
                       std::uint32_t* bins, cudaStream_t stream) {
  MAD_CUDA_CHECK(cudaMemsetAsync(bins, 0, kHistogramBins * sizeof(std::uint32_t), stream));
  cuda::launch_kernel(privatized_histogram_kernel<kThreads, kPerWarp, kFlat, Pixel>, grid, block, 0,
                      stream, width, height, pixel, bins);
  MAD_CUDA_CHECK_LAUNCH();
}

}  // namespace mad::kernels::histogram_device
