// Nick methods 1-3 of seed 002: each thread sums its whole window, O(w^2) per pixel.
//
//   method 1 (global)   every tap is a global-memory read;
//   method 2 (tile)     the block's own B x B tile is staged in shared memory; window columns
//                       inside it come from shared memory, the rest from global memory;
//   method 3 (tile3x3)  the tile and its 8 neighbours (3B x 3B) are staged; windows up to
//                       2B + 1 wide then never touch global memory.
// Blocks are B x B threads (16x16 or 32x32), one pixel per thread. Sums are exact uint32
// (w <= 101: S2 <= 101^2 * 255^2 < 2^32); the decision is nick_decide_device.
#include <algorithm>

#include "common/cuda_check.h"
#include "common/kernel_launch.cuh"
#include "kernels/nick_launch_cuda.h"
#include "kernels/nick_threshold.cuh"

namespace mad::kernels::nick_detail {
namespace {

constexpr int kMaxGridY = 65535;

struct Window {
  int y0, y1, x0, x1;  // inclusive, clipped to the image
  __device__ unsigned count() const { return static_cast<unsigned>((y1 - y0 + 1) * (x1 - x0 + 1)); }
};

__device__ __forceinline__ Window window_at(int y, int x, int before, int after, int width,
                                            int height) {
  return {max(0, y - before), min(height - 1, y + after), max(0, x - before),
          min(width - 1, x + after)};
}

// Adds row[x - offset] for x in [x0, x1] (an empty range adds nothing).
__device__ __forceinline__ void add_span(const std::uint8_t* row, int offset, int x0, int x1,
                                         unsigned& sum, unsigned& sum_sq) {
  for (int x = x0; x <= x1; ++x) {
    const unsigned p = row[x - offset];
    sum += p;
    sum_sq += p * p;
  }
}

// __launch_bounds__ caps registers so 32x32 (1024-thread) blocks always launch.
template <int B>
__global__ void __launch_bounds__(B* B)
    nick_global_kernel(ImageView<const std::uint8_t> src, int before, int after, double k,
                       ImageView<std::uint8_t> mask) {
  const int x = blockIdx.x * B + threadIdx.x;
  if (x >= src.width) return;
  for (int y = blockIdx.y * B + threadIdx.y; y < src.height; y += gridDim.y * B) {
    const Window win = window_at(y, x, before, after, src.width, src.height);
    unsigned sum = 0, sum_sq = 0;
    for (int yy = win.y0; yy <= win.y1; ++yy)
      add_span(src.data + static_cast<std::ptrdiff_t>(yy) * src.pitch, 0, win.x0, win.x1, sum,
               sum_sq);
    const unsigned p = src.data[static_cast<std::ptrdiff_t>(y) * src.pitch + x];
    mask.data[static_cast<std::ptrdiff_t>(y) * mask.pitch + x] =
        nick_decide_device(p, sum, sum_sq, win.count(), k);
  }
}

// Methods 2 (kTiles = 1) and 3 (kTiles = 3): the kTiles x kTiles blocks centred on this one
// are staged in shared memory (zeros outside the image, never read: windows are clipped).
template <int B, int kTiles>
__global__ void __launch_bounds__(B* B)
    nick_shared_kernel(ImageView<const std::uint8_t> src, int before, int after, double k,
                       ImageView<std::uint8_t> mask) {
  constexpr int kSide = B * kTiles;
  constexpr int kLead = (kTiles / 2) * B;  // region rows/columns before the block's own tile
  __shared__ std::uint8_t region[kSide][kSide];
  const int x = blockIdx.x * B + threadIdx.x;
  const int rx0 = blockIdx.x * B - kLead;
  // Per-block loop (uniform), so the barriers inside are safe.
  for (int by0 = blockIdx.y * B; by0 < src.height; by0 += gridDim.y * B) {
    const int ry0 = by0 - kLead;
    for (int i = threadIdx.y * B + threadIdx.x; i < kSide * kSide; i += B * B) {
      const int ty = i / kSide, tx = i - ty * kSide;
      const int gy = ry0 + ty, gx = rx0 + tx;
      const bool inside = gy >= 0 && gy < src.height && gx >= 0 && gx < src.width;
      region[ty][tx] = inside ? src.data[static_cast<std::ptrdiff_t>(gy) * src.pitch + gx] : 0;
    }
    __syncthreads();
    const int y = by0 + threadIdx.y;
    if (x < src.width && y < src.height) {
      const Window win = window_at(y, x, before, after, src.width, src.height);
      // Window columns inside the region: [sx0, sx1], possibly empty.
      const int sx0 = max(win.x0, rx0), sx1 = min(win.x1, rx0 + kSide - 1);
      unsigned sum = 0, sum_sq = 0;
      for (int yy = win.y0; yy <= win.y1; ++yy) {
        const std::uint8_t* grow = src.data + static_cast<std::ptrdiff_t>(yy) * src.pitch;
        if (yy >= ry0 && yy < ry0 + kSide && sx0 <= sx1) {
          add_span(grow, 0, win.x0, sx0 - 1, sum, sum_sq);
          add_span(region[yy - ry0], rx0, sx0, sx1, sum, sum_sq);
          add_span(grow, 0, sx1 + 1, win.x1, sum, sum_sq);
        } else {
          add_span(grow, 0, win.x0, win.x1, sum, sum_sq);
        }
      }
      const unsigned p = region[threadIdx.y + kLead][threadIdx.x + kLead];
      mask.data[static_cast<std::ptrdiff_t>(y) * mask.pitch + x] =
          nick_decide_device(p, sum, sum_sq, win.count(), k);
    }
    __syncthreads();
  }
}

template <int B>
dim3 block_grid(ImageView<const std::uint8_t> src) {
  return dim3((src.width + B - 1) / B, std::min((src.height + B - 1) / B, kMaxGridY));
}

}  // namespace

// The registered launch functions (kernels/variant_tables.cpp; B x B blocks, kTiles 1 for
// method 2 and 3 for method 3). They need no scratch.
template <int B>
void launch_global(ImageView<const std::uint8_t> src, const NickParams& params,
                   ImageView<std::uint8_t> mask, DeviceScratch, cudaStream_t s) {
  check_launch(src, params, mask);
  cuda::launch_kernel(nick_global_kernel<B>, block_grid<B>(src), dim3(B, B), 0, s, src,
                      nick_before(params), nick_after(params), params.k, mask);
  MAD_CUDA_CHECK_LAUNCH();
}

template <int B, int kTiles>
void launch_shared(ImageView<const std::uint8_t> src, const NickParams& params,
                   ImageView<std::uint8_t> mask, DeviceScratch, cudaStream_t s) {
  check_launch(src, params, mask);
  cuda::launch_kernel(nick_shared_kernel<B, kTiles>, block_grid<B>(src), dim3(B, B), 0, s, src,
                      nick_before(params), nick_after(params), params.k, mask);
  MAD_CUDA_CHECK_LAUNCH();
}

using Src = ImageView<const std::uint8_t>;
using Mask = ImageView<std::uint8_t>;
template void launch_global<16>(Src, const NickParams&, Mask, DeviceScratch, cudaStream_t);
template void launch_global<32>(Src, const NickParams&, Mask, DeviceScratch, cudaStream_t);
template void launch_shared<16, 1>(Src, const NickParams&, Mask, DeviceScratch, cudaStream_t);
template void launch_shared<32, 1>(Src, const NickParams&, Mask, DeviceScratch, cudaStream_t);
template void launch_shared<16, 3>(Src, const NickParams&, Mask, DeviceScratch, cudaStream_t);
template void launch_shared<32, 3>(Src, const NickParams&, Mask, DeviceScratch, cudaStream_t);

}  // namespace mad::kernels::nick_detail
