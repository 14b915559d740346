// CUDA variants of gray/darken (issue 4, kernel 1), registered in kernels/variant_tables.cpp.
//
// Every variant is a pure streaming kernel: 3 or 4 bytes in, 1 byte out per pixel, so the
// variants differ only in how threads map to pixels (the launch-shape study of the seeds):
// one pixel per thread with 1-D or 2-D blocks (seed 000's grid configurations M1-M4 among
// them: see launch_m4), a grid-stride loop with P pixels per thread, and vectorized 32/128-bit
// accesses. Layout (interleaved RGB, RGBA, planar) is a template parameter so the per-pixel
// addressing is compile-time. The arithmetic is the integer form of kernels/gray_formula.h
// (kernels/gray_device.cuh), identical to the CPU reference.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "common/cuda_check.h"
#include "common/kernel_launch.cuh"
#include "kernels/device_image_cuda.h"
#include "kernels/gray_cuda.h"
#include "kernels/gray_device.cuh"
#include "kernels/pixel_walk.cuh"

namespace mad::kernels {
namespace {

using gray_device::convert;
using gray_device::gray_at;
using gray_device::kPlanar;
using gray_device::out_at;
using gray_device::with_layout;

constexpr int kThreads = 256;
constexpr int kMaxGridY = 65535;

// pixel_1d: one pixel per thread over the flattened image.
template <int kChannels>
__global__ void gray_pixel_1d_kernel(RgbView8 src, GrayWeighting w, ImageView<std::uint8_t> dst) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<long long>(src.width) * src.height) return;
  const int y = static_cast<int>(i / src.width), x = static_cast<int>(i % src.width);
  *out_at(dst, y, x) = gray_at<kChannels>(src, w, y, x);
}

// pixel_2d: one pixel per thread, 2-D blocks; the y loop only runs twice past 65535 blocks.
template <int kChannels>
__global__ void gray_pixel_2d_kernel(RgbView8 src, GrayWeighting w, ImageView<std::uint8_t> dst) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= src.width) return;
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < src.height; y += gridDim.y * blockDim.y)
    *out_at(dst, y, x) = gray_at<kChannels>(src, w, y, x);
}

// grid_stride: consecutive threads take consecutive pixels, then jump by the grid's thread
// count (seed 000 Listing 3). Threads are numbered across any 1-D or 2-D grid of 1-D or 2-D
// blocks (kernels/pixel_walk.cuh), so the same kernel also serves the seed's M4.
template <int kChannels>
__global__ void gray_grid_stride_kernel(RgbView8 src, GrayWeighting w,
                                        ImageView<std::uint8_t> dst) {
  const long long n = static_cast<long long>(src.width) * src.height;
  const long long stride = grid_thread_count();
  long long i = flat_thread_index();
  if (i >= n) return;
  for (PixelWalk p(i, stride, src.width); i < n; i += stride, p.advance())
    *out_at(dst, p.y, p.x) = gray_at<kChannels>(src, w, p.y, p.x);
}

template <int kVec>
__device__ __forceinline__ void load_chunk(const std::uint8_t* p, std::uint32_t* words) {
  if constexpr (kVec == 4) {
    words[0] = *reinterpret_cast<const std::uint32_t*>(p);
  } else {
    const uint4 q = *reinterpret_cast<const uint4*>(p);
    words[0] = q.x, words[1] = q.y, words[2] = q.z, words[3] = q.w;
  }
}

template <int kVec>
__device__ __forceinline__ void store_chunk(std::uint8_t* p, const std::uint32_t* words) {
  if constexpr (kVec == 4) {
    *reinterpret_cast<std::uint32_t*>(p) = words[0];
  } else {
    *reinterpret_cast<uint4*>(p) = make_uint4(words[0], words[1], words[2], words[3]);
  }
}

__device__ __forceinline__ std::uint32_t byte_of(const std::uint32_t* words, int i) {
  return (words[i >> 2] >> ((i & 3) * 8)) & 0xFFu;
}

__device__ __forceinline__ bool is_aligned(const void* p, int bytes) {
  return reinterpret_cast<std::uintptr_t>(p) % bytes == 0;
}

// vector: a thread converts kVec consecutive pixels of one row with kVec-byte loads (one per
// channel chunk) and one kVec-byte store. Rows whose start is not kVec-aligned (tight odd
// pitches) and the last partial group of a row take the scalar path, so any pitch works.
template <int kChannels, int kVec>
__global__ void gray_vector_kernel(RgbView8 src, GrayWeighting w, ImageView<std::uint8_t> dst) {
  constexpr int kChunks = kChannels == kPlanar ? 3 : kChannels;
  constexpr int kSamples = kChannels == kPlanar ? 1 : kChannels;  // bytes per pixel in a row
  constexpr int kWords = kVec / 4;
  const int groups = (src.width + kVec - 1) / kVec;
  const long long n = static_cast<long long>(groups) * src.height;
  const std::ptrdiff_t chunk_step = kChannels == kPlanar ? src.plane_stride : kVec;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int y = static_cast<int>(i / groups);
    const int x0 = static_cast<int>(i - static_cast<long long>(y) * groups) * kVec;
    const std::uint8_t* in = src.data + static_cast<std::ptrdiff_t>(y) * src.pitch +
                             static_cast<std::ptrdiff_t>(x0) * kSamples;
    std::uint8_t* out = out_at(dst, y, x0);
    const bool vector_ok = x0 + kVec <= src.width && is_aligned(in, kVec) &&
                           is_aligned(out, kVec) && chunk_step % kVec == 0;
    if (vector_ok) {
      std::uint32_t words[kChunks * kWords];
#pragma unroll
      for (int c = 0; c < kChunks; ++c) load_chunk<kVec>(in + c * chunk_step, words + c * kWords);
      std::uint32_t packed[kWords] = {};
#pragma unroll
      for (int p = 0; p < kVec; ++p) {
        // Interleaved: sample c of pixel p is byte p*C + c. Planar: byte p of chunk c.
        const int ir = kChannels == kPlanar ? p : p * kChannels;
        const int step = kChannels == kPlanar ? kVec : 1;
        const std::uint32_t g8 = convert(byte_of(words, ir), byte_of(words, ir + step),
                                         byte_of(words, ir + 2 * step), w);
        packed[p >> 2] |= g8 << ((p & 3) * 8);
      }
      store_chunk<kVec>(out, packed);
    } else {
      const int x_end = min(x0 + kVec, src.width);
      for (int x = x0; x < x_end; ++x) out[x - x0] = gray_at<kChannels>(src, w, y, x);
    }
  }
}

// Host side ----------------------------------------------------------------------------------

void check_shapes(const RgbView8& src, ImageView<std::uint8_t> dst) {
  validate_rgb(src);  // pure field checks; never dereferences the (device) pointer
  if (dst.data == nullptr || dst.width != src.width || dst.height != src.height ||
      dst.pitch < dst.width)
    throw InvalidArgument("gray: device output must be a " + std::to_string(src.width) + "x" +
                          std::to_string(src.height) + " image");
}

unsigned blocks_for(long long items, long long per_block) {
  const long long blocks = (items + per_block - 1) / per_block;
  if (blocks > 0x7fffffffLL) throw InvalidArgument("gray: image too large for a 1-D grid");
  return static_cast<unsigned>(blocks);
}

void launch_grid_stride_blocks(const RgbView8& src, GrayWeighting w, ImageView<std::uint8_t> dst,
                               dim3 grid, dim3 block, cudaStream_t s) {
  with_layout(src, [&](auto ch) {
    cuda::launch_kernel(gray_grid_stride_kernel<decltype(ch)::value>, grid, block, 0, s, src, w,
                        dst);
    MAD_CUDA_CHECK_LAUNCH();
  });
}

}  // namespace

// The launch functions, registered in kernels/variant_tables.cpp.
namespace gray_detail {

void launch_pixel_1d(const RgbView8& src, GrayWeighting w, ImageView<std::uint8_t> dst,
                     cudaStream_t s) {
  check_shapes(src, dst);
  const unsigned blocks = blocks_for(static_cast<long long>(src.width) * src.height, kThreads);
  with_layout(src, [&](auto ch) {
    cuda::launch_kernel(gray_pixel_1d_kernel<decltype(ch)::value>, blocks, kThreads, 0, s, src, w,
                        dst);
    MAD_CUDA_CHECK_LAUNCH();
  });
}

template <int kBx, int kBy>
void launch_pixel_2d(const RgbView8& src, GrayWeighting w, ImageView<std::uint8_t> dst,
                     cudaStream_t s) {
  check_shapes(src, dst);
  const dim3 block(kBx, kBy);
  const dim3 grid((src.width + kBx - 1) / kBx, std::min((src.height + kBy - 1) / kBy, kMaxGridY));
  with_layout(src, [&](auto ch) {
    cuda::launch_kernel(gray_pixel_2d_kernel<decltype(ch)::value>, grid, block, 0, s, src, w, dst);
    MAD_CUDA_CHECK_LAUNCH();
  });
}

// Grid sized so each thread handles about kPixels pixels.
template <int kPixels>
void launch_grid_stride(const RgbView8& src, GrayWeighting w, ImageView<std::uint8_t> dst,
                        cudaStream_t s) {
  check_shapes(src, dst);
  const long long n = static_cast<long long>(src.width) * src.height;
  launch_grid_stride_blocks(src, w, dst,
                            dim3(blocks_for(n, static_cast<long long>(kThreads) * kPixels)),
                            dim3(kThreads), s);
}

// Fixed grid of 4 resident-size blocks per SM, whatever the image size.
void launch_grid_stride_fixed(const RgbView8& src, GrayWeighting w, ImageView<std::uint8_t> dst,
                              cudaStream_t s) {
  check_shapes(src, dst);
  launch_grid_stride_blocks(src, w, dst, dim3(static_cast<unsigned>(4 * device_sm_count())),
                            dim3(kThreads), s);
}

// The seed's M4 (seed 000 §4): M3's grid of 32-wide, 8-tall blocks, ceil(width / 32) x
// ceil(height / 8) of them, but threads numbered consecutively over the flattened image as in
// M2, so only threads of the last block(s) idle. (M1 is launch_pixel_2d<256, 1>, M2 is
// launch_pixel_1d, M3 is launch_pixel_2d<32, 8>.) Past 65535 block rows the grid-stride loop
// covers the rest.
void launch_m4(const RgbView8& src, GrayWeighting w, ImageView<std::uint8_t> dst, cudaStream_t s) {
  check_shapes(src, dst);
  const dim3 grid((src.width + 31) / 32, std::min((src.height + 7) / 8, kMaxGridY));
  launch_grid_stride_blocks(src, w, dst, grid, dim3(32, 8), s);
}

template <int kVec>
void launch_vector(const RgbView8& src, GrayWeighting w, ImageView<std::uint8_t> dst,
                   cudaStream_t s) {
  check_shapes(src, dst);
  const long long groups = static_cast<long long>((src.width + kVec - 1) / kVec) * src.height;
  const unsigned blocks = blocks_for(groups, kThreads);
  with_layout(src, [&](auto ch) {
    cuda::launch_kernel(gray_vector_kernel<decltype(ch)::value, kVec>, blocks, kThreads, 0, s, src,
                        w, dst);
    MAD_CUDA_CHECK_LAUNCH();
  });
}

// The instances the registry names.
#define INSTANTIATE(...) \
  template void __VA_ARGS__(const RgbView8&, GrayWeighting, ImageView<std::uint8_t>, cudaStream_t);
INSTANTIATE(launch_pixel_2d<256, 1>)
INSTANTIATE(launch_pixel_2d<32, 8>)
INSTANTIATE(launch_pixel_2d<32, 16>)
INSTANTIATE(launch_grid_stride<1>)
INSTANTIATE(launch_grid_stride<2>)
INSTANTIATE(launch_grid_stride<4>)
INSTANTIATE(launch_grid_stride<8>)
INSTANTIATE(launch_grid_stride<10>)
INSTANTIATE(launch_grid_stride<16>)
INSTANTIATE(launch_grid_stride<32>)
INSTANTIATE(launch_vector<4>)
INSTANTIATE(launch_vector<16>)
#undef INSTANTIATE

}  // namespace gray_detail

}  // namespace mad::kernels
