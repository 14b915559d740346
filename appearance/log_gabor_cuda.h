// The 5x4 log-Gabor bank of the appearance stage (spec §4.2) on the device, for one image shape.
//
// H_{s,o}(k) = G_s(r(k)) * A_o(theta(k)) is stored as its separable factors, 5 radial and 4
// angular M x N planes (9 planes instead of 20 filters), in the UNSHIFTED FFT layout with the
// exact odd/even grid rule of §4.2 and the DC bin's radial factor 0 (so every H is 0 at DC),
// the same factors as the CPU bank (appearance/log_gabor.h, LogGaborBankCpu). Values are
// computed in double on the device and stored as Real.
//
// CUDA-only header (needs cuda_runtime.h, carries no nvcc syntax).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "appearance/log_gabor.h"
#include "common/cuda_resources.h"

namespace mad::appearance {

template <class Real>
class LogGaborBankCuda {
 public:
  // Allocates the 9 planes and enqueues their computation on `stream` (no synchronisation):
  // work on another stream that reads the bank must be ordered after `stream`. Throws
  // InvalidArgument for an empty shape, GpuError on CUDA failures.
  LogGaborBankCuda(int width, int height, cudaStream_t stream);

  int width() const { return width_; }
  int height() const { return height_; }
  std::size_t plane_size() const { return static_cast<std::size_t>(width_) * height_; }

  // G_s (scale 0..4, finest first) and A_o (orientation 0..3), height x width, row-major.
  const Real* radial(int scale) const { return factors_.get() + scale * plane_size(); }
  const Real* angular(int orientation) const {
    return factors_.get() + (kScales + orientation) * plane_size();
  }
  std::size_t device_bytes() const { return factors_.bytes(); }

 private:
  int width_;
  int height_;
  cuda::DeviceBuffer<Real> factors_;  // radial planes 0..4, then angular planes 0..3
};

}  // namespace mad::appearance
