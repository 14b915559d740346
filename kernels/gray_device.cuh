// Device side of the RGB -> gray conversion shared by the gray/darken variants
// (gray_cuda.cu) and the fused gray+histogram variants (gray_histogram_cuda.cu): one pixel's
// conversion for each layout, with the layout a template parameter so the addressing is
// compile-time. The arithmetic is the integer form of kernels/gray_formula.h.
#pragma once

#include <cstdint>
#include <type_traits>

#include "common/image.h"
#include "kernels/gray.h"
#include "kernels/gray_formula.h"

namespace mad::kernels::gray_device {

constexpr int kPlanar = 1;  // the kChannels value that selects the planar layout

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

// Host: calls fn(std::integral_constant<int, kChannels>) for the view's layout.
template <class Fn>
void with_layout(const RgbView8& src, Fn&& fn) {
  if (src.layout == RgbLayout::Planar)
    fn(std::integral_constant<int, kPlanar>{});
  else if (src.channels == 3)
    fn(std::integral_constant<int, 3>{});
  else
    fn(std::integral_constant<int, 4>{});
}

}  // namespace mad::kernels::gray_device
