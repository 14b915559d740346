// Device-side building blocks of the CUDA detection stage, shared by its kernels: the mirrored
// index of the local MSE, the luminance of one raw value, the σ_mod candidate rule and the
// visibility mask of one block. Each mirrors the CPU reference function named in its comment,
// with the same constants (taken from the CPU headers) and the same evaluation order.
// CUDA syntax: include only from .cu files.
#pragma once

#include <cmath>

#include "common/block_grid.h"
#include "detection/block_stats.h"
#include "detection/luminance.h"
#include "detection/visibility_mask.h"

namespace mad::detection::gpu {

// Threads per block of the 1-D pointwise kernels.
constexpr int kPointwiseThreads = 256;

// Symmetric ('mirror including the edge') index, spec §3.7; local_mse.h symmetric_index.
// Only reached for -7 <= i < n + 8 with n >= 34, so a single reflection suffices.
__host__ __device__ inline int mirror_index(int i, int n) {
  if (i < 0) return -i - 1;
  if (i >= n) return 2 * n - 1 - i;
  return i;
}

// Luminance of one raw value (spec §3.1; luminance.h luminance_value). `table` holds
// k·v^(2.2/3) for v = 0..255, computed on the host with the same std::pow as the CPU path, so
// integer-valued input matches it bit for bit; other values take the direct formula (the 2011
// rule), evaluated in double.
template <class Real>
__device__ inline Real luminance_of(Real raw, bool uint8_luminance, const Real* table) {
  const double v = static_cast<double>(raw);
  const double j = (uint8_luminance && v > kUint8LuminanceMaxIndex) ? kUint8LuminanceMaxIndex : v;
  if (j >= 0.0 && j <= 255.0 && j == floor(j)) return table[static_cast<int>(j)];
  return static_cast<Real>(kLuminanceScale * pow(j, kLuminanceExponent));
}

// σ_mod's candidate at the next grid point (+4) exists when the original's +5 probe still lies
// on a valid block position (spec §3.5; block_stats.h min_std_next_available).
__host__ __device__ inline bool next_candidate_available(int p, int n) {
  return p + kMinStdProbe <= n - kBlockSize;
}

// ξ of one block (spec §3.6; visibility_mask.h visibility_mask_value), always in double: the
// float mode only rounds the statistics, never the logarithms or the branch thresholds.
__device__ inline double visibility_mask_of(double mean_ref, double std_min_ref, double std_err) {
  if (mean_ref < kMaskLuminanceGate) return 0.0;  // the gate first: no ln of a negative ratio
  const double c_ref = log(std_min_ref / mean_ref);
  const double c_err = log(std_err / mean_ref);
  // (C_ref - Ci)·slope + Ci in this order (spec §3.6), not C_ref.
  const double thr = (c_ref - kMaskRefThreshold) * kMaskSlope + kMaskRefThreshold;
  if (c_ref > kMaskRefThreshold && c_err > thr) return c_err - thr;
  if (c_ref <= kMaskRefThreshold && c_err > kMaskErrThreshold) return c_err - kMaskErrThreshold;
  return 0.0;
}

// Unbiased std from a sum of squared deviations over n samples.
template <class Real>
__device__ inline Real unbiased_std(Real ssd, int n) {
  return sqrt(ssd / static_cast<Real>(n - 1));
}

// std::min's choice (keeps the first argument unless the second is smaller), so NaN handling
// matches min_std_of_block.
template <class Real>
__device__ inline Real min_keep_first(Real a, Real b) {
  return b < a ? b : a;
}

// Pixel accessors for the direct two-pass window statistics below.
// L'_ref (or any image) in global memory.
template <class Real>
struct GlobalPixels {
  const Real* image;
  int width;
  __device__ Real operator()(int y, int x) const {
    return image[static_cast<long long>(y) * width + x];
  }
};
// E = L'_dst - L'_ref formed on the fly, as error_image_cpu forms it.
template <class Real>
struct GlobalErrorPixels {
  const Real* dst;
  const Real* ref;
  int width;
  __device__ Real operator()(int y, int x) const {
    const long long i = static_cast<long long>(y) * width + x;
    return dst[i] - ref[i];
  }
};
// A tile staged in shared memory, `pitch` elements per row.
template <class Real>
struct SharedPixels {
  const Real* tile;
  int pitch;
  __device__ Real operator()(int y, int x) const { return tile[y * pitch + x]; }
};

// Mean of the side x side window at (y0, x0): one row-major sum, divided by side², as
// block_stats_cpu.cpp window_mean.
template <class Real, class Pixels>
__device__ inline Real window_mean(const Pixels& px, int y0, int x0, int side) {
  Real sum = 0;
  for (int y = y0; y < y0 + side; ++y)
    for (int x = x0; x < x0 + side; ++x) sum += px(y, x);
  return sum / static_cast<Real>(side * side);
}

// Unbiased std of the same window about `mean` (the second pass of the two-pass form).
template <class Real, class Pixels>
__device__ inline Real window_std(const Pixels& px, int y0, int x0, int side, Real mean) {
  Real ssd = 0;
  for (int y = y0; y < y0 + side; ++y)
    for (int x = x0; x < x0 + side; ++x) {
      const Real d = px(y, x) - mean;
      ssd += d * d;
    }
  return unbiased_std(ssd, side * side);
}

// σ_mod of the block at (y0, x0) of an image of width x height (spec §3.5): the 8x8 std at the
// block's corner and, where the edge rule allows, at +4 down, +4 right and +4 diagonally.
template <class Real, class Pixels>
__device__ inline Real min_window8_std(const Pixels& px, int y0, int x0, int ly0, int lx0,
                                       int width, int height) {
  // (y0, x0): the block's image position (for the edge rule); (ly0, lx0): where `px` holds it.
  auto s8 = [&](int y, int x) {
    return window_std<Real>(px, y, x, kMinStdWindow, window_mean<Real>(px, y, x, kMinStdWindow));
  };
  const bool down = next_candidate_available(y0, height);
  const bool right = next_candidate_available(x0, width);
  Real m = s8(ly0, lx0);
  if (down) m = min_keep_first(m, s8(ly0 + kBlockStride, lx0));
  if (right) m = min_keep_first(m, s8(ly0, lx0 + kBlockStride));
  if (down && right) m = min_keep_first(m, s8(ly0 + kBlockStride, lx0 + kBlockStride));
  return m;
}

}  // namespace mad::detection::gpu
