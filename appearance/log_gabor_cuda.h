// The 5x4 log-Gabor bank of the appearance stage (spec §4.2) on the device, for one image shape.
//
// H_{s,o}(k) = G_s(r(k)) * A_o(theta(k)) is stored as its separable factors, 5 radial and 4
// angular planes (9 planes instead of 20 filters), in the UNSHIFTED FFT layout with the exact
// odd/even grid rule of §4.2 and the DC bin's radial factor 0 (so every H is 0 at DC), the same
// factors as the CPU bank (appearance/log_gabor.h, LogGaborBankCpu). Values are computed in
// double on the device and stored as Real.
//
// The radial factors are stored for one quadrant only, (M/2+1) x (N/2+1) bins. On an n-point
// axis the grid rule gives bin k and its mirror bin (n - k for even n, n - 1 - k for odd n)
// exactly negated coordinates (integers and halves over n/2, no rounding), so x^2 + y^2, and
// with it r and G_s(r), is bit for bit the same at the four mirror images of a bin: the
// quadrant loses nothing (tests/appearance/log_gabor_cuda_test.cpp compares it with every bin
// evaluated directly). The DC bin is the exception: its factor 0 is not stored (for odd sizes
// its quadrant entry also serves its non-DC mirror bins); readers apply it
// (log_gabor_radial_at). The angular factors have no such exact symmetry (their atan2, sin and
// cos of mirrored angles may differ in the last bit), so they stay full M x N planes.
//
// CUDA-only header (needs cuda_runtime.h, carries no nvcc syntax; the constexpr helpers below
// are callable from device code through --expt-relaxed-constexpr).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "appearance/log_gabor.h"
#include "common/cuda_resources.h"

namespace mad::appearance {

// Bins of one axis of the radial quadrant: 0..n/2 for even n, 0..(n-1)/2 for odd n.
constexpr int log_gabor_quadrant_extent(int n) {
  return n / 2 + 1;
}
// The quadrant bin holding axis bin k's radial coordinate (up to sign).
constexpr int log_gabor_quadrant_index(int k, int n) {
  const int e = log_gabor_quadrant_extent(n);
  return k < e ? k : 2 * (e - 1) - k;
}

template <class Real>
class LogGaborBankCuda {
 public:
  // Allocates the factors and enqueues their computation on `stream` (no synchronisation):
  // work on another stream that reads the bank must be ordered after `stream`. Throws
  // InvalidArgument for an empty shape, GpuError on CUDA failures.
  LogGaborBankCuda(int width, int height, cudaStream_t stream);

  int width() const { return width_; }
  int height() const { return height_; }
  std::size_t plane_size() const { return static_cast<std::size_t>(width_) * height_; }
  // The radial quadrant: quadrant_height() x quadrant_width() bins, row-major.
  int quadrant_width() const { return log_gabor_quadrant_extent(width_); }
  int quadrant_height() const { return log_gabor_quadrant_extent(height_); }
  std::size_t quadrant_size() const {
    return static_cast<std::size_t>(quadrant_width()) * quadrant_height();
  }

  // G_s (scale 0..4, finest first) on the quadrant; read bin (kr, kc) of the full spectrum
  // through log_gabor_radial_at.
  const Real* radial(int scale) const { return radial_.get() + scale * quadrant_size(); }
  // A_o (orientation 0..3), height x width, row-major, unshifted.
  const Real* angular(int orientation) const { return angular_.get() + orientation * plane_size(); }
  std::size_t device_bytes() const { return radial_.bytes() + angular_.bytes(); }

  // The 9 factors as full height x width planes (radial 0..4 with 0 at DC, then angular
  // 0..3) into d_out (9 planes), enqueued on `stream`: for tests and tools.
  void expand(Real* d_out, cudaStream_t stream) const;

 private:
  int width_;
  int height_;
  cuda::DeviceBuffer<Real> radial_;   // 5 quadrant planes
  cuda::DeviceBuffer<Real> angular_;  // 4 full planes
};

// G_s at bin (kr, kc) of the full width x height spectrum from its quadrant plane `radial`
// (LogGaborBankCuda::radial(s)): 0 at DC, else the mirrored quadrant entry.
template <class Real>
constexpr Real log_gabor_radial_at(const Real* radial, int kr, int kc, int width, int height) {
  if (kr == 0 && kc == 0) return Real(0);
  const int qr = log_gabor_quadrant_index(kr, height), qc = log_gabor_quadrant_index(kc, width);
  return radial[static_cast<std::size_t>(qr) * log_gabor_quadrant_extent(width) + qc];
}

// The 9 factors evaluated directly at every bin of the full width x height spectrum (the layout
// the bank had before it stored radial quadrants), into d_out (9 planes as LogGaborBankCuda::
// expand writes them), enqueued on `stream`. The reference the quadrant storage is checked
// against, bit for bit (tests).
template <class Real>
void log_gabor_direct_factors_cuda(int width, int height, Real* d_out, cudaStream_t stream);

}  // namespace mad::appearance
