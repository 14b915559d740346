// Device helpers shared by the A5 variants and the appearance stage's kernels: explicitly
// rounded arithmetic (where the CPU path's rounding must be replicated, nvcc must not contract
// a*b+c into one FMA), the two sample sources of A5Input, and the statistics of a block from
// its central sums. Include only from .cu files.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "appearance/a5_variants_cuda.h"
#include "common/cuda_check.h"
#include "common/error.h"

namespace mad::appearance::detail {

__device__ __forceinline__ double mul_rn(double a, double b) {
  return __dmul_rn(a, b);
}
__device__ __forceinline__ float mul_rn(float a, float b) {
  return __fmul_rn(a, b);
}
__device__ __forceinline__ double add_rn(double a, double b) {
  return __dadd_rn(a, b);
}
__device__ __forceinline__ float add_rn(float a, float b) {
  return __fadd_rn(a, b);
}
__device__ __forceinline__ double sub_rn(double a, double b) {
  return __dsub_rn(a, b);
}
__device__ __forceinline__ float sub_rn(float a, float b) {
  return __fsub_rn(a, b);
}
__device__ __forceinline__ double fma_rn(double a, double b, double c) {
  return __fma_rn(a, b, c);
}
__device__ __forceinline__ float fma_rn(float a, float b, float c) {
  return __fmaf_rn(a, b, c);
}

// Real samples: subband i is data + i*subband_stride, rows `pitch` apart.
template <class Real>
struct RealSamples {
  const Real* base;
  std::ptrdiff_t pitch;

  __device__ static RealSamples make(const A5Input<Real>& in, int subband) {
    return {in.data + subband * in.subband_stride, in.pitch};
  }
  __device__ Real operator()(int y, int x) const {
    return __ldg(base + static_cast<std::ptrdiff_t>(y) * pitch + x);
  }
};

// |z * scale| of complex samples (an unnormalised inverse FFT), as the CPU path evaluates it:
// both parts scaled first (IFFT output * 1/(MN)), then sqrt(re^2 + im^2) without contraction.
template <class Real>
struct ModulusSamples {
  using C = DeviceComplex<Real>;
  const C* base;
  std::ptrdiff_t pitch;
  Real scale;

  __device__ static ModulusSamples make(const A5Input<Real>& in, int subband) {
    return {reinterpret_cast<const C*>(in.data) + subband * in.subband_stride, in.pitch, in.scale};
  }
  __device__ Real operator()(int y, int x) const {
    const C z = base[static_cast<std::ptrdiff_t>(y) * pitch + x];
    const Real re = mul_rn(z.x, scale), im = mul_rn(z.y, scale);
    return sqrt(add_rn(mul_rn(re, re), mul_rn(im, im)));
  }
};

// Writes std, skew and kurt of block (by, bx) of subband i from its central sums (spec §4.4):
// unbiased std, biased normalisation for skew and Pearson kurtosis, 0 when sigma_b == 0. The
// expressions follow the CPU reference (appearance/block_stats_cpu.cpp) term by term.
template <class Real>
__device__ __forceinline__ void store_block_stats(const A5Output<Real>& out, int subband, int by,
                                                  int bx, Real s2, Real s3, Real s4) {
  const Real n = 256, n1 = 255;
  const std::ptrdiff_t k = subband * out.subband_stride + by * out.pitch + bx;
  out.std[k] = sqrt(s2 / n1);
  const Real sigma_b = sqrt(s2 / n);
  if (sigma_b != Real(0)) {
    const Real sigma2 = mul_rn(sigma_b, sigma_b);
    out.skew[k] = (s3 / n) / mul_rn(sigma2, sigma_b);
    out.kurt[k] = (s4 / n) / mul_rn(sigma2, sigma2);
  } else {
    out.skew[k] = Real(0);
    out.kurt[k] = Real(0);
  }
}

// Shared argument checks of the launch functions (host side). Returns false when there is
// nothing to launch (no subbands, or an image below 16x16 with an empty grid); throws
// InvalidArgument for null pointers, short pitches and more subbands than gridDim.z allows.
template <class Real>
bool a5_launch_needed(const A5Input<Real>& in, const A5Output<Real>& out, const BlockGrid& grid,
                      const char* who) {
  if (in.count <= 0 || grid.count() == 0) return false;
  const std::string name(who);
  if (in.count > 65535) throw InvalidArgument(name + ": more than 65535 subbands per launch");
  if (!in.data || !out.std || !out.skew || !out.kurt)
    throw InvalidArgument(name + ": null device pointer");
  if (in.pitch < grid.image_width || out.pitch < grid.cols)
    throw InvalidArgument(name + ": pitch shorter than a row");
  const std::ptrdiff_t in_plane = in.pitch * (grid.image_height - 1) + grid.image_width;
  const std::ptrdiff_t out_plane = out.pitch * (grid.rows - 1) + grid.cols;
  if (in.count > 1 && (in.subband_stride < in_plane || out.subband_stride < out_plane))
    throw InvalidArgument(name + ": subbands overlap (subband_stride too small)");
  return true;
}

// The host side every A5 variant shares: the argument checks above (nothing launched when
// there is nothing to do), the CTA grid (CTAs of cta_blocks_x x cta_blocks_y blocks, one
// grid.z slice per subband; more than 65535 CTA rows are refused), then
// `launch(samples, cta_grid)` with a value of the input's sample source type (RealSamples or
// ModulusSamples, used only for its type) and the launch check. Does not synchronize.
template <class Real, class Launch>
void launch_a5_variant(const A5Input<Real>& in, const A5Output<Real>& out, const BlockGrid& grid,
                       const char* who, int cta_blocks_x, int cta_blocks_y, Launch&& launch) {
  if (!a5_launch_needed(in, out, grid, who)) return;
  const dim3 cta_grid((grid.cols + cta_blocks_x - 1) / cta_blocks_x,
                      (grid.rows + cta_blocks_y - 1) / cta_blocks_y, in.count);
  if (cta_grid.y > 65535) throw InvalidArgument(std::string(who) + ": image too tall");
  if (in.complex_modulus)
    launch(ModulusSamples<Real>{}, cta_grid);
  else
    launch(RealSamples<Real>{}, cta_grid);
  MAD_CUDA_CHECK_LAUNCH();
}

}  // namespace mad::appearance::detail
