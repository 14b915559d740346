// Luminance, CSF construction and CSF application of the CUDA detection stage (spec §3.1-3.2).
#include <cmath>

#include "common/cuda_check.h"
#include "common/kernel_launch.cuh"
#include "detection/csf.h"
#include "detection/detection_device.cuh"
#include "detection/luminance_csf_cuda.h"
#include "detection/luminance.h"

namespace mad::detection::gpu {
namespace {

unsigned blocks_for(std::size_t count) {
  return static_cast<unsigned>((count + kPointwiseThreads - 1) / kPointwiseThreads);
}

// Luminance, 1-D, one value per thread, kPointwiseThreads (= 256, one table entry per thread)
// threads. The 256-entry table is staged in shared memory: the lookups are data-dependent
// gathers, which shared memory serves without the serialisation of constant memory.
template <class Real>
__global__ void luminance_kernel(const Real* __restrict__ raw, std::size_t count,
                                 bool uint8_luminance, const Real* __restrict__ table,
                                 Real* __restrict__ out) {
  __shared__ Real table_s[256];
  table_s[threadIdx.x] = table[threadIdx.x];
  __syncthreads();
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) out[i] = luminance_of(raw[i], uint8_luminance, table_s);
}

// Centred-grid coordinate of unshifted bin k (csf_grid_coordinate).
__device__ inline double grid_coordinate(int k, int n) {
  return static_cast<double>((k + n / 2) % n) - (n - 1) / 2.0;
}

// C at one bin, the CPU's csf_at expression for expression (scale, hypot, atan2, oblique
// correction, flattened peak); device libm may differ from the host's by an ulp or two.
__device__ inline double csf_value(double u_r, double u_c, int width) {
  const double scale = 2.0 * kCsfNyquistCyclesPerDegree / width;
  const double a = u_r * scale;
  const double b = u_c * scale;
  const double f = hypot(a, b);
  const double theta = atan2(b, a);
  const double s = (1.0 - kCsfObliqueW) / 2.0 * cos(4.0 * theta) + (1.0 + kCsfObliqueW) / 2.0;
  const double fp = f / s;
  if (fp < kCsfPeakFrequency) return kCsfPeakValue;
  return 2.6 * (0.0192 + 0.114 * fp) * exp(-pow(0.114 * fp, 1.1));
}

// C_s on the half layout, one bin per thread (1-D). Runs once per stage (shape).
template <class Real>
__global__ void build_csf_half_kernel(int width, int height, Real* __restrict__ csf_half) {
  const int half_width = width / 2 + 1;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<std::size_t>(half_width) * height) return;
  const int kr = static_cast<int>(i / half_width), kc = static_cast<int>(i % half_width);
  const int mr = (height - kr) % height, mc = (width - kc) % width;
  const double c = csf_value(grid_coordinate(kr, height), grid_coordinate(kc, width), width);
  const double c_mirror = csf_value(grid_coordinate(mr, height), grid_coordinate(mc, width), width);
  csf_half[i] = static_cast<Real>(0.5 * (c + c_mirror));
}

// spectrum *= C_s · 1/(M·N), one complex bin per thread (1-D).
template <class Real, class Complex>
__global__ void csf_multiply_kernel(Complex* __restrict__ spectrum,
                                    const Real* __restrict__ csf_half, std::size_t count,
                                    Real scale) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const Real g = csf_half[i] * scale;
  Complex v = spectrum[i];
  v.x *= g;
  v.y *= g;
  spectrum[i] = v;
}

}  // namespace

template <class Real>
std::array<Real, 256> luminance_table_host() {
  std::array<Real, 256> t{};
  for (int v = 0; v < 256; ++v)
    t[v] =
        static_cast<Real>(kLuminanceScale * std::pow(static_cast<double>(v), kLuminanceExponent));
  return t;
}

template <class Real>
void launch_luminance(const Real* d_raw, std::size_t count, bool uint8_luminance,
                      const Real* d_table, Real* d_out, cudaStream_t stream) {
  if (count == 0) return;
  cuda::launch_kernel(luminance_kernel<Real>, blocks_for(count), kPointwiseThreads, 0, stream,
                      d_raw, count, uint8_luminance, d_table, d_out);
  MAD_CUDA_CHECK_LAUNCH();
}

template <class Real>
void launch_build_csf_half(int width, int height, Real* d_csf_half, cudaStream_t stream) {
  const std::size_t count = static_cast<std::size_t>(width / 2 + 1) * height;
  if (count == 0) return;
  cuda::launch_kernel(build_csf_half_kernel<Real>, blocks_for(count), kPointwiseThreads, 0, stream,
                      width, height, d_csf_half);
  MAD_CUDA_CHECK_LAUNCH();
}

template <class Real>
void launch_csf_multiply(typename cuda::CufftOps<Real>::Complex* d_spectrum, const Real* d_csf_half,
                         std::size_t count, Real scale, cudaStream_t stream) {
  if (count == 0) return;
  using Complex = typename cuda::CufftOps<Real>::Complex;
  cuda::launch_kernel(csf_multiply_kernel<Real, Complex>, blocks_for(count), kPointwiseThreads, 0,
                      stream, d_spectrum, d_csf_half, count, scale);
  MAD_CUDA_CHECK_LAUNCH();
}

template std::array<double, 256> luminance_table_host<double>();
template std::array<float, 256> luminance_table_host<float>();
template void launch_luminance<double>(const double*, std::size_t, bool, const double*, double*,
                                       cudaStream_t);
template void launch_luminance<float>(const float*, std::size_t, bool, const float*, float*,
                                      cudaStream_t);
template void launch_build_csf_half<double>(int, int, double*, cudaStream_t);
template void launch_build_csf_half<float>(int, int, float*, cudaStream_t);
template void launch_csf_multiply<double>(cufftDoubleComplex*, const double*, std::size_t, double,
                                          cudaStream_t);
template void launch_csf_multiply<float>(cufftComplex*, const float*, std::size_t, float,
                                         cudaStream_t);

}  // namespace mad::detection::gpu
