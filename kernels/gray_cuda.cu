// CUDA variants of gray/darken (issue 4, kernel 1), registered in kernels/gray_variants.cpp.
//
// Every variant is a pure streaming kernel: 3 or 4 bytes in, 1 byte out per pixel, so the
// variants differ only in how threads map to pixels (the launch-shape study of the seeds):
// one pixel per thread with 1-D or 2-D blocks, a grid-stride loop with P pixels per thread,
// and vectorized 32/128-bit accesses. Layout (interleaved RGB, RGBA, planar) is a template
// parameter so the per-pixel addressing is compile-time. The arithmetic is the integer form
// of kernels/gray_formula.h, identical to the CPU reference.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "common/cuda_check.h"
#include "kernels/device_image_cuda.h"
#include "kernels/gray_cuda.h"
#include "kernels/gray_formula.h"

namespace mad::kernels {
namespace {

constexpr int kPlanar = 1;  // the kChannels value that selects the planar layout
constexpr int kThreads = 256;
constexpr int kMaxGridY = 65535;

__device__ __forceinline__ std::uint8_t convert(std::uint32_t r, std::uint32_t g, std::uint32_t b,
                                                GrayWeighting w) {
  return w == GrayWeighting::Matlab ? gray_matlab_fixed(r, g, b) : gray_darken_exact(r, g, b);
}

template <int kChannels>
__device__ __forceinline__ std::uint8_t gray_at(const RgbView8& s, GrayWeighting w, int y, int x) {
  const std::uint8_t* row = s.data + static_cast<std::ptrdiff_t>(y) * s.pitch;
  if constexpr (kChannels == kPlanar) {
    const std::uint8_t* p = row + x;
    return convert(p[0], p[s.plane_stride], p[2 * s.plane_stride], w);
  } else {
    const std::uint8_t* p = row + static_cast<std::ptrdiff_t>(x) * kChannels;
    return convert(p[0], p[1], p[2], w);
  }
}

__device__ __forceinline__ std::uint8_t* out_at(ImageView<std::uint8_t> d, int y, int x) {
  return d.data + static_cast<std::ptrdiff_t>(y) * d.pitch + x;
}

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

// grid_stride: consecutive threads take consecutive pixels, then jump by the grid size; the
// (y, x) position is advanced incrementally so the loop has no division.
template <int kChannels>
__global__ void gray_grid_stride_kernel(RgbView8 src, GrayWeighting w,
                                        ImageView<std::uint8_t> dst) {
  const long long n = static_cast<long long>(src.width) * src.height;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int y = static_cast<int>(i / src.width), x = static_cast<int>(i % src.width);
  const int dy = static_cast<int>(stride / src.width), dx = static_cast<int>(stride % src.width);
  for (; i < n; i += stride) {
    *out_at(dst, y, x) = gray_at<kChannels>(src, w, y, x);
    x += dx;
    y += dy;
    if (x >= src.width) {
      x -= src.width;
      ++y;
    }
  }
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

// Calls fn(std::integral_constant<int, kChannels>) for the view's layout.
template <class Fn>
void with_layout(const RgbView8& src, Fn&& fn) {
  if (src.layout == RgbLayout::Planar)
    fn(std::integral_constant<int, kPlanar>{});
  else if (src.channels == 3)
    fn(std::integral_constant<int, 3>{});
  else
    fn(std::integral_constant<int, 4>{});
}

unsigned blocks_for(long long items, long long per_block) {
  const long long blocks = (items + per_block - 1) / per_block;
  if (blocks > 0x7fffffffLL) throw InvalidArgument("gray: image too large for a 1-D grid");
  return static_cast<unsigned>(blocks);
}

void launch_grid_stride_blocks(const RgbView8& src, GrayWeighting w, ImageView<std::uint8_t> dst,
                               unsigned blocks, cudaStream_t s) {
  with_layout(src, [&](auto ch) {
    gray_grid_stride_kernel<decltype(ch)::value><<<blocks, kThreads, 0, s>>>(src, w, dst);
    MAD_CUDA_CHECK_LAUNCH();
  });
}

}  // namespace

// The launch functions, registered in kernels/gray_variants.cpp.
namespace gray_detail {

void launch_pixel_1d(const RgbView8& src, GrayWeighting w, ImageView<std::uint8_t> dst,
                     cudaStream_t s) {
  check_shapes(src, dst);
  const unsigned blocks = blocks_for(static_cast<long long>(src.width) * src.height, kThreads);
  with_layout(src, [&](auto ch) {
    gray_pixel_1d_kernel<decltype(ch)::value><<<blocks, kThreads, 0, s>>>(src, w, dst);
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
    gray_pixel_2d_kernel<decltype(ch)::value><<<grid, block, 0, s>>>(src, w, dst);
    MAD_CUDA_CHECK_LAUNCH();
  });
}

// Grid sized so each thread handles about kPixels pixels.
template <int kPixels>
void launch_grid_stride(const RgbView8& src, GrayWeighting w, ImageView<std::uint8_t> dst,
                        cudaStream_t s) {
  check_shapes(src, dst);
  const long long n = static_cast<long long>(src.width) * src.height;
  launch_grid_stride_blocks(src, w, dst, blocks_for(n, static_cast<long long>(kThreads) * kPixels),
                            s);
}

// Fixed grid of 4 resident-size blocks per SM, whatever the image size.
void launch_grid_stride_fixed(const RgbView8& src, GrayWeighting w, ImageView<std::uint8_t> dst,
                              cudaStream_t s) {
  check_shapes(src, dst);
  launch_grid_stride_blocks(src, w, dst, static_cast<unsigned>(4 * device_sm_count()), s);
}

template <int kVec>
void launch_vector(const RgbView8& src, GrayWeighting w, ImageView<std::uint8_t> dst,
                   cudaStream_t s) {
  check_shapes(src, dst);
  const long long groups = static_cast<long long>((src.width + kVec - 1) / kVec) * src.height;
  const unsigned blocks = blocks_for(groups, kThreads);
  with_layout(src, [&](auto ch) {
    gray_vector_kernel<decltype(ch)::value, kVec><<<blocks, kThreads, 0, s>>>(src, w, dst);
    MAD_CUDA_CHECK_LAUNCH();
  });
}

// The instances the registry names.
#define INSTANTIATE(...) \
  template void __VA_ARGS__(const RgbView8&, GrayWeighting, ImageView<std::uint8_t>, cudaStream_t);
INSTANTIATE(launch_pixel_2d<32, 8>)
INSTANTIATE(launch_pixel_2d<32, 16>)
INSTANTIATE(launch_grid_stride<1>)
INSTANTIATE(launch_grid_stride<2>)
INSTANTIATE(launch_grid_stride<4>)
INSTANTIATE(launch_grid_stride<8>)
INSTANTIATE(launch_grid_stride<16>)
INSTANTIATE(launch_grid_stride<32>)
INSTANTIATE(launch_vector<4>)
INSTANTIATE(launch_vector<16>)
#undef INSTANTIATE

}  // namespace gray_detail

}  // namespace mad::kernels
