// Device construction of the log-Gabor bank's separable factors (spec §4.2).
//
// One thread per frequency bin computes the bin's polar coordinates once and the factors stored
// for it (the 4 angular ones everywhere, the 5 radial ones in the quadrant). Constants that
// need a transcendental (2 ln(0.55)^2, cos/sin of phi_o) are evaluated on the host with the
// same expressions as the CPU bank and passed in, and the per-bin arithmetic uses explicitly
// rounded operations (no FMA contraction), so the only differences from the CPU bank are the
// last-ulp differences of the device's log, exp, atan2, sin and cos. Built once per shape; cost
// is irrelevant next to one run.
// Launch shape: 32 x 8 threads over (columns, rows) of the M x N spectrum.
#include "appearance/log_gabor_cuda.h"

#include <cmath>

#include "appearance/a5_device_cuda.cuh"
#include "common/error.h"
#include "common/kernel_launch.cuh"

namespace mad::appearance {
namespace {

using detail::add_rn;
using detail::mul_rn;
using detail::sub_rn;

constexpr double kPi = 3.14159265358979323846;
constexpr double kMinWaveLength = 3.0;  // lambda_1 in px; lambda_{s+1} = 3 lambda_s
constexpr double kWaveLengthMult = 3.0;
constexpr double kSigmaOnf = 0.55;
constexpr double kDThetaOnSigma = 1.5;

struct BankConstants {
  double rho[kScales];            // centre radius (1/lambda_s)/0.5, Nyquist units
  double two_log_sigma_sq;        // 2 (ln 0.55)^2
  double two_theta_sigma_sq;      // 2 (pi/4/1.5)^2
  double cos_phi[kOrientations];  // phi_o = o pi / 4
  double sin_phi[kOrientations];
};

BankConstants bank_constants() {
  BankConstants c{};
  double wavelength = kMinWaveLength;
  for (int s = 0; s < kScales; ++s) {
    c.rho[s] = (1.0 / wavelength) / 0.5;
    wavelength *= kWaveLengthMult;
  }
  c.two_log_sigma_sq = 2.0 * (std::log(kSigmaOnf) * std::log(kSigmaOnf));
  const double sigma_theta = kPi / kOrientations / kDThetaOnSigma;
  c.two_theta_sigma_sq = 2.0 * (sigma_theta * sigma_theta);
  for (int o = 0; o < kOrientations; ++o) {
    const double angle = o * kPi / kOrientations;
    c.cos_phi[o] = std::cos(angle);
    c.sin_phi[o] = std::sin(angle);
  }
  return c;
}

// (((k + ceil(n/2)) mod n) - n/2) / (n/2): exact signed frequency for even n, +1/n for odd n.
__device__ __forceinline__ double axis_coord(int k, int n) {
  const double half = n / 2.0;
  const int j = (k + (n + 1) / 2) % n;
  return (j - half) / half;
}

// G_s(r) for the 5 scales; one code path for both layouts, so that a bin's quadrant entry and
// its direct evaluation run the same instructions on the same r.
template <class Real>
__device__ __forceinline__ void write_radial(double r, const BankConstants& c, Real* out,
                                             std::size_t plane) {
  for (int s = 0; s < kScales; ++s) {
    const double l = log(r / c.rho[s]);
    const double g = exp(-mul_rn(l, l) / c.two_log_sigma_sq);
    out[s * plane] = static_cast<Real>(g);
  }
}

// One thread per bin of the full spectrum: the 4 angular factors, and the 5 radial ones where
// they are stored (kQuadrant: the quadrant's bins, with the bin's own r; else every bin, 0 at
// DC: the direct layout the quadrant is checked against).
template <class Real, bool kQuadrant>
__global__ void build_log_gabor_kernel(Real* radial, Real* angular, int width, int height,
                                       BankConstants c) {
  const int kc = blockIdx.x * blockDim.x + threadIdx.x;
  const int kr = blockIdx.y * blockDim.y + threadIdx.y;
  if (kc >= width || kr >= height) return;
  const std::size_t plane = static_cast<std::size_t>(width) * height;
  const std::size_t idx = static_cast<std::size_t>(kr) * width + kc;
  const bool dc = kr == 0 && kc == 0;

  const double y = axis_coord(kr, height);
  const double x = axis_coord(kc, width);
  const double r = sqrt(add_rn(mul_rn(x, x), mul_rn(y, y)));
  if (kQuadrant) {
    const int qw = log_gabor_quadrant_extent(width), qh = log_gabor_quadrant_extent(height);
    // r = 0 only at DC of an even x even shape, whose entry no other bin reads (readers
    // give DC 0): 1 avoids ln 0 there.
    if (kr < qh && kc < qw)
      write_radial(r == 0.0 ? 1.0 : r, c, radial + static_cast<std::size_t>(kr) * qw + kc,
                   static_cast<std::size_t>(qw) * qh);
  } else {
    // The DC bin gets r = 1: the original's guard against ln 0; its radial factor is set to 0,
    // which zeroes every filter there.
    write_radial(dc ? 1.0 : r, c, radial + idx, plane);
    if (dc)
      for (int s = 0; s < kScales; ++s) radial[s * plane] = Real(0);
  }

  // The DC bin gets theta = 0 (the original's guard).
  double sin_t = 0.0, cos_t = 1.0;
  if (!dc) {
    const double theta = atan2(-y, x);  // -y: anticlockwise with rows pointing down
    sin_t = sin(theta);
    cos_t = cos(theta);
  }
  for (int o = 0; o < kOrientations; ++o) {
    // Angular distance to phi_o, wrapped into [0, pi] through atan2.
    const double ds = sub_rn(mul_rn(sin_t, c.cos_phi[o]), mul_rn(cos_t, c.sin_phi[o]));
    const double dc_ = add_rn(mul_rn(cos_t, c.cos_phi[o]), mul_rn(sin_t, c.sin_phi[o]));
    const double dtheta = fabs(atan2(ds, dc_));
    const double a = exp(-mul_rn(dtheta, dtheta) / c.two_theta_sigma_sq);
    angular[o * plane + idx] = static_cast<Real>(a);
  }
}

// Full radial planes from the quadrant (expand): one thread per bin.
template <class Real>
__global__ void expand_radial_kernel(const Real* quadrant, std::size_t quadrant_size, Real* out,
                                     int width, int height) {
  const int kc = blockIdx.x * blockDim.x + threadIdx.x;
  const int kr = blockIdx.y * blockDim.y + threadIdx.y;
  if (kc >= width || kr >= height) return;
  const std::size_t plane = static_cast<std::size_t>(width) * height;
  const std::size_t idx = static_cast<std::size_t>(kr) * width + kc;
  for (int s = 0; s < kScales; ++s)
    out[s * plane + idx] = log_gabor_radial_at(quadrant + s * quadrant_size, kr, kc, width, height);
}

// Launch shape: 32 x 8 threads over (columns, rows) of the M x N spectrum.
dim3 bin_grid(int width, int height, dim3 block) {
  const dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
  if (grid.y > 65535) throw InputError("log-Gabor bank: image too tall for the GPU kernels");
  return grid;
}

void check_shape(int width, int height) {
  if (width <= 0 || height <= 0) throw InvalidArgument("LogGaborBankCuda: empty shape");
}

std::size_t quadrant_bins(int width, int height) {
  return width > 0 && height > 0 ? static_cast<std::size_t>(log_gabor_quadrant_extent(width)) *
                                       log_gabor_quadrant_extent(height)
                                 : 0;
}

std::size_t plane_bins(int width, int height) {
  return width > 0 && height > 0 ? static_cast<std::size_t>(width) * height : 0;
}

}  // namespace

template <class Real>
LogGaborBankCuda<Real>::LogGaborBankCuda(int width, int height, cudaStream_t stream)
    : width_(width),
      height_(height),
      radial_(kScales * quadrant_bins(width, height)),
      angular_(kOrientations * plane_bins(width, height)) {
  check_shape(width, height);
  const dim3 block(32, 8);
  cuda::launch_kernel(build_log_gabor_kernel<Real, true>, bin_grid(width, height, block), block, 0,
                      stream, radial_.get(), angular_.get(), width, height, bank_constants());
  MAD_CUDA_CHECK_LAUNCH();
}

template <class Real>
void LogGaborBankCuda<Real>::expand(Real* d_out, cudaStream_t stream) const {
  const dim3 block(32, 8);
  cuda::launch_kernel(expand_radial_kernel<Real>, bin_grid(width_, height_, block), block, 0,
                      stream, radial_.get(), quadrant_size(), d_out, width_, height_);
  MAD_CUDA_CHECK_LAUNCH();
  MAD_CUDA_CHECK(cudaMemcpyAsync(d_out + kScales * plane_size(), angular_.get(), angular_.bytes(),
                                 cudaMemcpyDeviceToDevice, stream));
}

template <class Real>
void log_gabor_direct_factors_cuda(int width, int height, Real* d_out, cudaStream_t stream) {
  check_shape(width, height);
  const dim3 block(32, 8);
  const std::size_t plane = static_cast<std::size_t>(width) * height;
  cuda::launch_kernel(build_log_gabor_kernel<Real, false>, bin_grid(width, height, block), block, 0,
                      stream, d_out, d_out + kScales * plane, width, height, bank_constants());
  MAD_CUDA_CHECK_LAUNCH();
}

template void log_gabor_direct_factors_cuda<double>(int, int, double*, cudaStream_t);
template void log_gabor_direct_factors_cuda<float>(int, int, float*, cudaStream_t);
template class LogGaborBankCuda<double>;
template class LogGaborBankCuda<float>;

}  // namespace mad::appearance
