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
#include "common/kernel_launch.cuh"

namespace mad::appearance::detail {

// Each operation rounded once, in both precisions (overloads): these intrinsics are never
// contracted into an FMA, so the device rounds exactly where the CPU path does.
// (One overload pair a line: clang-format would unfold the macro into six.)
// clang-format off
#define MAD_A5_ROUNDED_BINARY(name, double_op, float_op)                                 \
  __device__ __forceinline__ double name(double a, double b) { return double_op(a, b); } \
  __device__ __forceinline__ float name(float a, float b) { return float_op(a, b); }
MAD_A5_ROUNDED_BINARY(mul_rn, __dmul_rn, __fmul_rn)
MAD_A5_ROUNDED_BINARY(add_rn, __dadd_rn, __fadd_rn)
MAD_A5_ROUNDED_BINARY(sub_rn, __dsub_rn, __fsub_rn)
#undef MAD_A5_ROUNDED_BINARY
// clang-format on
// a * b + c with one rounding.
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

constexpr int kBlockSamples = kBlockSize * kBlockSize;  // 256

// The per-thread forms (a5-original, a5-per-thread; thesis Appendix B): the block whose
// top-left sample is (y0, x0) gathered into a private array in row-major order...
template <class Real, class Samples>
__device__ __forceinline__ void gather_block(const Samples& samples, int y0, int x0,
                                             Real (&v)[kBlockSamples]) {
  for (int i = 0; i < kBlockSize; ++i)
    for (int j = 0; j < kBlockSize; ++j) v[i * kBlockSize + j] = samples(y0 + i, x0 + j);
}

// ... its mean, summed in that order (Appendix B's second loop) ...
template <class Real>
__device__ __forceinline__ Real private_block_mean(const Real (&v)[kBlockSamples]) {
  Real sum = 0;
  for (int k = 0; k < kBlockSamples; ++k) sum += v[k];
  return sum / Real(kBlockSamples);
}

// ... and the central sums S2, S3, S4 about it (the second pass the thesis left to future
// work, in the accumulation order every variant uses: d^2 rounded, then FMAs).
template <class Real>
__device__ __forceinline__ void private_central_sums(const Real (&v)[kBlockSamples], Real mean,
                                                     Real& s2, Real& s3, Real& s4) {
  s2 = s3 = s4 = 0;
  for (int k = 0; k < kBlockSamples; ++k) {
    const Real d = v[k] - mean;
    const Real d2 = d * d;
    s2 += d2;
    s3 = fma_rn(d2, d, s3);
    s4 = fma_rn(d2, d2, s4);
  }
}

// Writes the mean of block (by, bx) of subband i (the mean-only forms).
template <class Real>
__device__ __forceinline__ void store_block_mean(const A5MeanOutput<Real>& out, int subband, int by,
                                                 int bx, Real mean) {
  out.mean[subband * out.subband_stride + by * out.pitch + bx] = mean;
}

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

// Whether the output has its planes: std, skew and kurt, or the block means.
template <class Real>
bool has_planes(const A5Output<Real>& out) {
  return out.std && out.skew && out.kurt;
}
template <class Real>
bool has_planes(const A5MeanOutput<Real>& out) {
  return out.mean != nullptr;
}

// Shared argument checks of the launch functions (host side), for A5Output and A5MeanOutput.
// Returns false when there is nothing to launch (no subbands, or an image below 16x16 with an
// empty grid); throws InvalidArgument for null pointers, short pitches and more subbands than
// gridDim.z allows.
template <class Real, class Output>
bool a5_launch_needed(const A5Input<Real>& in, const Output& out, const BlockGrid& grid,
                      const char* who) {
  if (in.count <= 0 || grid.count() == 0) return false;
  const std::string name(who);
  if (in.count > 65535) throw InvalidArgument(name + ": more than 65535 subbands per launch");
  if (!in.data || !has_planes(out)) throw InvalidArgument(name + ": null device pointer");
  if (in.pitch < grid.image_width || out.pitch < grid.cols)
    throw InvalidArgument(name + ": pitch shorter than a row");
  const std::ptrdiff_t in_plane = in.pitch * (grid.image_height - 1) + grid.image_width;
  const std::ptrdiff_t out_plane = out.pitch * (grid.rows - 1) + grid.cols;
  if (in.count > 1 && (in.subband_stride < in_plane || out.subband_stride < out_plane))
    throw InvalidArgument(name + ": subbands overlap (subband_stride too small)");
  return true;
}

// The host side every A5 variant shares, after the grid of CTAs is chosen: the argument checks
// above (nothing launched when there is nothing to do), a refusal of more than 65535 CTAs in
// grid y, then `launch(samples, cta_grid)` with a value of the input's sample source type
// (RealSamples or ModulusSamples, used only for its type) and the launch check. Does not
// synchronize.
template <class Real, class Output, class Launch>
void launch_a5_on_grid(const A5Input<Real>& in, const Output& out, const BlockGrid& grid,
                       const char* who, dim3 cta_grid, Launch&& launch) {
  if (!a5_launch_needed(in, out, grid, who)) return;
  if (cta_grid.y > 65535) throw InputError(std::string(who) + ": image too large for the GPU kernels");
  if (in.complex_modulus)
    launch(ModulusSamples<Real>{}, cta_grid);
  else
    launch(RealSamples<Real>{}, cta_grid);
  MAD_CUDA_CHECK_LAUNCH();
}

inline unsigned ceil_div(int n, int d) {
  return static_cast<unsigned>((n + d - 1) / d);
}

// CTAs of cta_blocks_x x cta_blocks_y blocks, block columns along grid x, block rows along
// grid y, one grid.z slice per subband (our own variants).
template <class Real, class Output, class Launch>
void launch_a5_variant(const A5Input<Real>& in, const Output& out, const BlockGrid& grid,
                       const char* who, int cta_blocks_x, int cta_blocks_y, Launch&& launch) {
  launch_a5_on_grid(
      in, out, grid, who,
      dim3(ceil_div(grid.cols, cta_blocks_x), ceil_div(grid.rows, cta_blocks_y), in.count), launch);
}

// The launch of one of our variants whose kernel takes (in, out, rows, cols, image_height,
// image_width), on CTAs of `threads` covering cta_blocks_x x cta_blocks_y blocks:
// kernel_for(samples) names the kernel instantiated for the sample source launch_a5_variant
// picks.
template <class Real, class Output, class KernelFor>
void launch_a5_image_kernel(const A5Input<Real>& in, const Output& out, const BlockGrid& grid,
                            cudaStream_t stream, const char* who, int cta_blocks_x,
                            int cta_blocks_y, dim3 threads, KernelFor&& kernel_for) {
  launch_a5_variant(
      in, out, grid, who, cta_blocks_x, cta_blocks_y, [&](auto samples, dim3 cta_grid) {
        cuda::launch_kernel(kernel_for(samples), cta_grid, threads, 0, stream, in, out, grid.rows,
                            grid.cols, grid.image_height, grid.image_width);
      });
}

// The thesis's orientation (Appendices B and C): threadIdx.x and blockIdx.x walk block ROWS,
// threadIdx.y and blockIdx.y block columns, CTAs of cta_block_rows x cta_block_cols blocks,
// one grid.z slice per subband.
template <class Real, class Output, class Launch>
void launch_a5_thesis_variant(const A5Input<Real>& in, const Output& out, const BlockGrid& grid,
                              const char* who, int cta_block_rows, int cta_block_cols,
                              Launch&& launch) {
  launch_a5_on_grid(
      in, out, grid, who,
      dim3(ceil_div(grid.rows, cta_block_rows), ceil_div(grid.cols, cta_block_cols), in.count),
      launch);
}

}  // namespace mad::appearance::detail

// Explicit instantiations of a variant's launch, a function template
// fn<[leading template arguments,] Real[, Output]>(in, out, grid, stream): the optional
// arguments after `fn`, each followed by a comma (`fn, false, true,`), come first (a thesis
// form's policy flags).
// MAD_A5_INSTANTIATE_STATS: both precisions, all statistics (a5_variants() only).
// MAD_A5_INSTANTIATE_STATS_AND_MEAN: both precisions of both outputs (all statistics for
// a5_variants(), the mean alone for a5_mean_variants()). Use in namespace mad::appearance.
#define MAD_A5_LAUNCH_INSTANCE(fn, Real, Output, ...)                             \
  template void fn<__VA_ARGS__ Real, Output>(const A5Input<Real>&, const Output&, \
                                             const BlockGrid&, cudaStream_t)
#define MAD_A5_INSTANTIATE_STATS(fn)                                                          \
  template void fn<double>(const A5Input<double>&, const A5Output<double>&, const BlockGrid&, \
                           cudaStream_t);                                                     \
  template void fn<float>(const A5Input<float>&, const A5Output<float>&, const BlockGrid&,    \
                          cudaStream_t)
#define MAD_A5_INSTANTIATE_STATS_AND_MEAN(fn, ...)                       \
  MAD_A5_LAUNCH_INSTANCE(fn, double, A5Output<double>, __VA_ARGS__);     \
  MAD_A5_LAUNCH_INSTANCE(fn, float, A5Output<float>, __VA_ARGS__);       \
  MAD_A5_LAUNCH_INSTANCE(fn, double, A5MeanOutput<double>, __VA_ARGS__); \
  MAD_A5_LAUNCH_INSTANCE(fn, float, A5MeanOutput<float>, __VA_ARGS__)

// Defines and instantiates (both precisions, all statistics) one of our variants' launch,
// launch_name<Real>(in, out, grid, stream), for a kernel template kernel<Real, Samples> taking
// (in, out, rows, cols, image_height, image_width) on CTAs of `threads` that cover
// blocks_x x blocks_y blocks (detail::launch_a5_image_kernel). `who` names it in errors.
#define MAD_A5_IMAGE_KERNEL_LAUNCH(launch_name, who, kernel, blocks_x, blocks_y, threads)     \
  template <class Real>                                                                       \
  void launch_name(const A5Input<Real>& in, const A5Output<Real>& out, const BlockGrid& grid, \
                   cudaStream_t stream) {                                                     \
    detail::launch_a5_image_kernel(in, out, grid, stream, who, blocks_x, blocks_y, threads,   \
                                   [](auto s) { return kernel<Real, decltype(s)>; });         \
  }                                                                                           \
  MAD_A5_INSTANTIATE_STATS(launch_name)
