// CUDA variants of the 256-bin histogram (issue 4, kernel 2) and its host entry; the variants
// are registered in kernels/variant_tables.cpp.
//
// The variants differ in where the increments land, which decides how they behave on the
// adversarial images (monochrome, wide stripes: every thread of a warp hits one bin):
//   global_atomic      one pixel per thread, atomicAdd straight into the global bins;
//   shared_block       one shared histogram per block, merged into global at the end;
//   shared_warp        one shared histogram per warp (8 per block), merged at the end;
//   shared_warp_match  as shared_warp, but lanes holding equal values are grouped with
//                      __match_any_sync and one leader adds the group's count;
//   cub                cub::DeviceHistogram::HistogramEven, the library anchor;
//   shared_{block,warp}_pP, shared_{block,warp}_fixed_60x45, shared_block_2d_32x8
//                      seed 000's launch shapes (§7, Figures 15-22, Table 7) of the
//                      privatized kernel in kernels/histogram_device.cuh: P flat pixels per
//                      thread, the seed's fixed 60x45 grid, or 2-D blocks.
// The shared variants read 4 pixels per thread with one 32-bit load when the row allows it.
// Bins are 32-bit integer atomics: exact and order-independent (STYLE rule 10).
#include <cub/device/device_histogram.cuh>

#include <algorithm>

#include "common/cuda_check.h"
#include "common/kernel_launch.cuh"
#include "kernels/device_image_cuda.h"
#include "kernels/histogram_cuda.h"
#include "kernels/histogram_device.cuh"

namespace mad::kernels {
namespace {

constexpr int kThreads = 256;
constexpr int kWarpsPerBlock = kThreads / 32;
constexpr unsigned kNone = kHistogramBins;  // "no pixel" in a partial group; never counted
constexpr int kMaxGridY = 65535;

// Group i of the image is 4 consecutive pixels of one row (the last group of a row may be
// partial). Missing pixels come back as kNone.
__device__ __forceinline__ void load_group(ImageView<const std::uint8_t> src, int groups_per_row,
                                           long long i, unsigned v[4]) {
  const int y = static_cast<int>(i / groups_per_row);
  const int x0 = static_cast<int>(i - static_cast<long long>(y) * groups_per_row) * 4;
  const std::uint8_t* p = src.data + static_cast<std::ptrdiff_t>(y) * src.pitch + x0;
  if (x0 + 4 <= src.width && (reinterpret_cast<std::uintptr_t>(p) & 3) == 0) {
    const std::uint32_t w = *reinterpret_cast<const std::uint32_t*>(p);
    v[0] = w & 0xFFu, v[1] = (w >> 8) & 0xFFu, v[2] = (w >> 16) & 0xFFu, v[3] = w >> 24;
  } else {
#pragma unroll
    for (int j = 0; j < 4; ++j) v[j] = x0 + j < src.width ? p[j] : kNone;
  }
}

__global__ void histogram_global_atomic_kernel(ImageView<const std::uint8_t> src, unsigned* bins) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= src.width) return;
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < src.height; y += gridDim.y * blockDim.y)
    atomicAdd(&bins[src.data[static_cast<std::ptrdiff_t>(y) * src.pitch + x]], 1u);
}

__global__ void histogram_shared_block_kernel(ImageView<const std::uint8_t> src, unsigned* bins,
                                              int groups_per_row, long long groups) {
  __shared__ unsigned h[kHistogramBins];
  for (int b = threadIdx.x; b < kHistogramBins; b += blockDim.x) h[b] = 0;
  __syncthreads();
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < groups;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    unsigned v[4];
    load_group(src, groups_per_row, i, v);
#pragma unroll
    for (int j = 0; j < 4; ++j)
      if (v[j] != kNone) atomicAdd(&h[v[j]], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < kHistogramBins; b += blockDim.x)
    if (h[b] != 0) atomicAdd(&bins[b], h[b]);
}

// One private histogram per warp. The loop is warp-uniform (it advances by warps, and lanes
// past the end carry kNone) so __match_any_sync always sees the full warp.
template <bool kMatch>
__global__ void histogram_shared_warp_kernel(ImageView<const std::uint8_t> src, unsigned* bins,
                                             int groups_per_row, long long groups) {
  __shared__ unsigned h[kWarpsPerBlock][kHistogramBins];
  for (int b = threadIdx.x; b < kWarpsPerBlock * kHistogramBins; b += blockDim.x) (&h[0][0])[b] = 0;
  __syncthreads();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  unsigned* mine = h[warp];
  for (long long base = static_cast<long long>(blockIdx.x) * blockDim.x + warp * 32; base < groups;
       base += static_cast<long long>(gridDim.x) * blockDim.x) {
    unsigned v[4] = {kNone, kNone, kNone, kNone};
    if (base + lane < groups) load_group(src, groups_per_row, base + lane, v);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      if constexpr (kMatch) {
        const unsigned peers = __match_any_sync(0xFFFFFFFFu, v[j]);
        if (lane == __ffs(peers) - 1 && v[j] != kNone) atomicAdd(&mine[v[j]], __popc(peers));
      } else if (v[j] != kNone) {
        atomicAdd(&mine[v[j]], 1u);
      }
    }
  }
  __syncthreads();
  for (int b = threadIdx.x; b < kHistogramBins; b += blockDim.x) {
    unsigned sum = 0;
#pragma unroll
    for (int w = 0; w < kWarpsPerBlock; ++w) sum += h[w][b];
    if (sum != 0) atomicAdd(&bins[b], sum);
  }
}

// Host side ----------------------------------------------------------------------------------

void check_input(ImageView<const std::uint8_t> src, const std::uint32_t* bins) {
  validate_histogram_input(src);  // field checks only; never dereferences device memory
  if (bins == nullptr) throw InvalidArgument("histogram: bins pointer is null");
}

void zero_bins(std::uint32_t* bins, cudaStream_t s) {
  MAD_CUDA_CHECK(cudaMemsetAsync(bins, 0, kHistogramBins * sizeof(std::uint32_t), s));
}

// Grid for the shared-memory variants: enough blocks to cover the groups once, at most 8
// resident blocks per SM (more would only add merge atomics).
struct GroupGrid {
  int groups_per_row;
  long long groups;
  unsigned blocks;
};
GroupGrid group_grid(ImageView<const std::uint8_t> src) {
  GroupGrid g;
  g.groups_per_row = (src.width + 3) / 4;
  g.groups = static_cast<long long>(g.groups_per_row) * src.height;
  g.blocks = static_cast<unsigned>(
      std::min<long long>((g.groups + kThreads - 1) / kThreads, 8LL * device_sm_count()));
  return g;
}

// The privatized kernel's pixel source: the gray image itself.
struct GrayPixels {
  ImageView<const std::uint8_t> src;
  __device__ unsigned operator()(int y, int x) const {
    return src.data[static_cast<std::ptrdiff_t>(y) * src.pitch + x];
  }
};

// One bin per value: 257 levels 0..256, so bin v holds the samples in [v, v+1).
std::size_t cub_temp_bytes(const std::uint8_t* data, std::uint32_t* bins, int width, int height,
                           std::ptrdiff_t pitch, cudaStream_t s) {
  std::size_t bytes = 0;
  MAD_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(nullptr, bytes, data, bins, kHistogramBins + 1,
                                                     0, kHistogramBins, width, height,
                                                     static_cast<std::size_t>(pitch), s));
  return bytes;
}

}  // namespace

// The launch functions, registered in kernels/variant_tables.cpp.
namespace histogram_detail {

void launch_global_atomic(ImageView<const std::uint8_t> src, std::uint32_t* bins, DeviceScratch,
                          cudaStream_t s) {
  check_input(src, bins);
  zero_bins(bins, s);
  const dim3 block(32, 8);
  const dim3 grid((src.width + 31) / 32, std::min((src.height + 7) / 8, kMaxGridY));
  cuda::launch_kernel(histogram_global_atomic_kernel, grid, block, 0, s, src, bins);
  MAD_CUDA_CHECK_LAUNCH();
}

void launch_shared_block(ImageView<const std::uint8_t> src, std::uint32_t* bins, DeviceScratch,
                         cudaStream_t s) {
  check_input(src, bins);
  zero_bins(bins, s);
  const GroupGrid g = group_grid(src);
  cuda::launch_kernel(histogram_shared_block_kernel, g.blocks, kThreads, 0, s, src, bins,
                      g.groups_per_row, g.groups);
  MAD_CUDA_CHECK_LAUNCH();
}

template <bool kMatch>
void launch_shared_warp(ImageView<const std::uint8_t> src, std::uint32_t* bins, DeviceScratch,
                        cudaStream_t s) {
  check_input(src, bins);
  zero_bins(bins, s);
  const GroupGrid g = group_grid(src);
  cuda::launch_kernel(histogram_shared_warp_kernel<kMatch>, g.blocks, kThreads, 0, s, src, bins,
                      g.groups_per_row, g.groups);
  MAD_CUDA_CHECK_LAUNCH();
}

void launch_cub(ImageView<const std::uint8_t> src, std::uint32_t* bins, DeviceScratch scratch,
                cudaStream_t s) {
  check_input(src, bins);
  std::size_t bytes = cub_temp_bytes(src.data, bins, src.width, src.height, src.pitch, s);
  ScratchCarver carver(scratch, "histogram (cub)");
  void* temp = carver.take(bytes);
  // CUB zeroes the bins itself (its init kernel) before counting.
  MAD_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(
      temp, bytes, src.data, bins, kHistogramBins + 1, 0, kHistogramBins, src.width, src.height,
      static_cast<std::size_t>(src.pitch), s));
  MAD_CUDA_CHECK_LAUNCH();
}

// Seed 000's flat shapes: 256-thread blocks, kPixels flat pixels per thread from a dynamic
// grid, or (kPixels == 0) the seed's fixed 60x45 grid whatever the image.
template <bool kPerWarp, int kPixels>
void launch_flat(ImageView<const std::uint8_t> src, std::uint32_t* bins, DeviceScratch,
                 cudaStream_t s) {
  check_input(src, bins);
  histogram_device::launch_privatized<kThreads, kPerWarp, true>(
      histogram_device::flat_grid(src.width, src.height, kPixels, kThreads), dim3(kThreads),
      src.width, src.height, GrayPixels{src}, bins, s);
}

// Seed 000's 2-D blocks (Figure 15): one per-block shared histogram, one pixel per thread.
template <int kBx, int kBy>
void launch_shared_block_2d(ImageView<const std::uint8_t> src, std::uint32_t* bins, DeviceScratch,
                            cudaStream_t s) {
  check_input(src, bins);
  histogram_device::launch_privatized<kBx * kBy, false, false>(
      histogram_device::tile_grid(src.width, src.height, kBx, kBy), dim3(kBx, kBy), src.width,
      src.height, GrayPixels{src}, bins, s);
}

#define INSTANTIATE(...)                                                                  \
  template void __VA_ARGS__(ImageView<const std::uint8_t>, std::uint32_t*, DeviceScratch, \
                            cudaStream_t);
#define INSTANTIATE_FLAT(P) INSTANTIATE(launch_flat<false, P>) INSTANTIATE(launch_flat<true, P>)
INSTANTIATE_FLAT(histogram_device::kSeedFixedGrid)
INSTANTIATE_FLAT(1)
INSTANTIATE_FLAT(2)
INSTANTIATE_FLAT(4)
INSTANTIATE_FLAT(8)
INSTANTIATE_FLAT(10)
INSTANTIATE_FLAT(16)
INSTANTIATE_FLAT(30)
INSTANTIATE_FLAT(32)
INSTANTIATE(launch_shared_block_2d<32, 8>)
#undef INSTANTIATE_FLAT
#undef INSTANTIATE

template void launch_shared_warp<false>(ImageView<const std::uint8_t>, std::uint32_t*,
                                        DeviceScratch, cudaStream_t);
template void launch_shared_warp<true>(ImageView<const std::uint8_t>, std::uint32_t*, DeviceScratch,
                                       cudaStream_t);

}  // namespace histogram_detail

std::size_t histogram_scratch_bytes(int width, int height, std::ptrdiff_t pitch) {
  return ScratchCarver::padded(cub_temp_bytes(nullptr, nullptr, width, height, pitch, nullptr));
}

Histogram histogram_cuda(ImageView<const std::uint8_t> gray, const CudaRunOptions& options) {
  validate_histogram_input(gray);
  const auto& row = histogram_variants().find(options.variant);
  require_device("histogram");
  cuda::Stream stream;
  const DeviceImage8 src = upload_image8(gray, stream.get());
  cuda::DeviceBuffer<std::uint32_t> bins(kHistogramBins);
  MAD_CUDA_CHECK(cudaMemsetAsync(bins.get(), options.poison, bins.bytes(), stream.get()));
  const OwnedScratch scratch =
      make_scratch(histogram_scratch_bytes(gray.width, gray.height, gray.pitch));
  row.launch(src.view, bins.get(), scratch.span(), stream.get());
  Histogram h{};
  MAD_CUDA_CHECK(
      cudaMemcpyAsync(h.data(), bins.get(), bins.bytes(), cudaMemcpyDeviceToHost, stream.get()));
  stream.synchronize();
  return h;
}

}  // namespace mad::kernels
