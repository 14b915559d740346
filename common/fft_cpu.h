// Double-precision 2-D FFTs for the CPU path, through FFTW3 (the library MATLAB's fft2 uses, so
// every size — odd, prime — is handled exactly as the original). One object per image shape;
// plans are made once (under a global lock, FFTW's planner is not thread-safe) and executing
// them from several threads at once is safe.
#pragma once

#include <complex>
#include <memory>
#include <vector>

#include "common/image.h"

namespace mad {

using Complex = std::complex<double>;

class CpuFft2d;

// The packing copies the transforms work in, owned by the caller so that one kept across
// images of a shape (common/workspace_cpu.h) spares an allocation per transform. One per
// thread: a transform writes them.
struct CpuFftBuffers {
  std::vector<double> packed;  // width x height, tightly packed real plane
  std::vector<Complex> half;   // height x half_width, a half spectrum c2r may destroy
  void fit(const CpuFft2d& fft);  // sized for fft's shape; reallocates only on a change
  void poison();                  // NaN everywhere (workspace poisoning test mode)
};

class CpuFft2d {
 public:
  CpuFft2d(int width, int height);
  ~CpuFft2d();
  CpuFft2d(const CpuFft2d&) = delete;
  CpuFft2d& operator=(const CpuFft2d&) = delete;

  int width() const { return width_; }
  int height() const { return height_; }
  // Elements of a half spectrum: height x (width/2+1).
  int half_width() const { return width_ / 2 + 1; }

  // Full, unshifted spectrum (height x width, row-major) of a real image. No scaling.
  void forward_real(ImageView<const double> in, Complex* spectrum) const;
  // Half spectrum (height x half_width) of a real image. No scaling.
  void forward_real_half(ImageView<const double> in, Complex* half_spectrum) const;
  // The same three with the caller's buffers (fitted to this shape; see CpuFftBuffers).
  void forward_real(ImageView<const double> in, Complex* spectrum, CpuFftBuffers& buffers) const;
  void forward_real_half(ImageView<const double> in, Complex* half_spectrum,
                         CpuFftBuffers& buffers) const;
  void inverse_real(const Complex* half_spectrum, ImageView<double> out,
                    CpuFftBuffers& buffers) const;
  // Inverse complex transform scaled by 1/(width*height). `in` and `out` hold height x width
  // elements and must not alias.
  void inverse(const Complex* in, Complex* out) const;
  // Real image from a Hermitian half spectrum (height x half_width), scaled by 1/(width*height).
  void inverse_real(const Complex* half_spectrum, ImageView<double> out) const;

 private:
  struct Plans;
  int width_;
  int height_;
  std::unique_ptr<Plans> plans_;
};

}  // namespace mad
