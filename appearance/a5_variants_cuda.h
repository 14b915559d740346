// The A5 block-statistics kernels (spec §4.4) on the GPU: what every variant of the registry
// (appearance/a5_variants.h, STYLE.md rule 5) reads, writes and computes. Tests, the stage,
// the CLI and `mad bench` iterate the same registry, so a registered variant is tested and
// benchmarked.
//
// CUDA-only header (needs cuda_runtime.h, carries no nvcc syntax): include it from .cu files
// and from *_cuda_test.cpp only. CUDA-free code uses appearance/a5_variants.h.
//
// Every variant computes, for `count` subband images of one shape and every 16x16 block of the
// BlockGrid (stride 4), with the block's 256 samples a, m = mean(a), S_k = sum (a - m)^k
// (two-pass per block: the mean first, then the central sums):
//   std = sqrt(S2/255), skew = (S3/256)/sigma_b^3, kurt = (S4/256)/sigma_b^4,
//   sigma_b = sqrt(S2/256), skew = kurt = 0 when sigma_b == 0.
// Any image size >= 16x16 works (smaller: empty grid, nothing written). The mean-only forms
// (A5MeanLaunchFn) read the same input and write m alone (A5MeanOutput).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "appearance/a5_variants.h"
#include "common/block_grid.h"

namespace mad::appearance {

// double2 for double, float2 for float: one complex sample, the layout of cufftDoubleComplex
// and cufftComplex.
template <class Real>
using DeviceComplex = std::conditional_t<std::is_same_v<Real, double>, double2, float2>;

// `count` subbands on the device. Sample (y, x) of subband i is
//   real input:    data[i * subband_stride + y * pitch + x]
//   complex input: |z| * scale with z = (data[2k], data[2k + 1]),
//                  k = i * subband_stride + y * pitch + x
// (pitch and subband_stride count samples, i.e. complex elements for complex input).
// The complex form reads an unnormalised inverse FFT and fuses the 1/(MN) and the modulus
// (spec §4.3) into the statistics' loads: |z| is evaluated as sqrt((re*s)^2 + (im*s)^2), the
// CPU path's order, with no FMA contraction.
template <class Real>
struct A5Input {
  const Real* data = nullptr;
  bool complex_modulus = false;
  Real scale = 1;
  std::ptrdiff_t pitch = 0;
  std::ptrdiff_t subband_stride = 0;
  int count = 0;
};

// Three planes per subband, each grid.rows x grid.cols with rows `pitch` elements apart:
// std[i * subband_stride + by * pitch + bx], likewise skew and kurt.
template <class Real>
struct A5Output {
  Real* std = nullptr;
  Real* skew = nullptr;
  Real* kurt = nullptr;
  std::ptrdiff_t pitch = 0;
  std::ptrdiff_t subband_stride = 0;
};

// The mean-only forms (a5_mean_variants(), the thesis's Table 9 measurement): one plane of
// block means m per subband, grid.rows x grid.cols with rows `pitch` elements apart:
// mean[i * subband_stride + by * pitch + bx].
template <class Real>
struct A5MeanOutput {
  Real* mean = nullptr;
  std::ptrdiff_t pitch = 0;
  std::ptrdiff_t subband_stride = 0;
};

// The three planes in one buffer: std from `base`, skew `plane_gap` elements later, kurt
// 2 * plane_gap elements later.
template <class Real>
A5Output<Real> a5_output_planes(Real* base, std::ptrdiff_t plane_gap, std::ptrdiff_t pitch,
                                std::ptrdiff_t subband_stride) {
  A5Output<Real> out;
  out.std = base;
  out.skew = base + plane_gap;
  out.kurt = base + 2 * plane_gap;
  out.pitch = pitch;
  out.subband_stride = subband_stride;
  return out;
}

}  // namespace mad::appearance
