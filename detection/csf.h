// Contrast sensitivity function filter of the detection stage (spec §3.2).
//
// Layouts: "unshifted" is the FFT's own order (DC at (0,0)); "centred" is the fftshift-ed order
// the original multiplies into (and the reference map hi_02_csf is stored in). The grid has a
// half-bin offset for even sizes, so C is not Hermitian there: the filtered image is the REAL
// part of IFFT(FFT(L) .* C), which equals the c2r inverse of FFT(L) .* C_s with C_s the
// Hermitian part of C. CsfFilterCpu applies that exact, cheaper form.
#pragma once

#include <memory>
#include <vector>

#include "common/fft_cpu.h"
#include "common/image.h"

namespace mad::detection {

constexpr double kCsfNyquistCyclesPerDegree = 32.0;  // nfreq: 64 pixels per degree
constexpr double kCsfObliqueW = 0.7;                 // s(θ) = (1-w)/2·cos4θ + (1+w)/2
constexpr double kCsfPeakFrequency = 7.8909;         // below it the CSF is flattened ...
constexpr double kCsfPeakValue = 0.9809;             // ... to this value

// CSF at the centred-grid coordinates (u_r, u_c) (bins from the centre, possibly half-integer)
// for an image of `width` columns: both axes are scaled by 2·nfreq/width (spec §3.2, the
// vertical mis-scaling for non-square images is intended).
double csf_at(double u_r, double u_c, int width);

// Centred-grid coordinate of unshifted bin k on an axis of n bins: ((k + n/2) mod n) - (n-1)/2.
double csf_grid_coordinate(int k, int n);

// C in the unshifted layout, height x width.
Image<double> csf_unshifted(int width, int height);
// C_s(k) = (C(k) + C(-k mod size))/2 on the r2c half layout: height x (width/2 + 1).
Image<double> csf_hermitian_half(int width, int height);
// fftshift: element k of each axis moves to (k + n/2) mod n. Turns an unshifted-layout array
// into the centred layout of the reference map hi_02_csf.
Image<double> fft_shift(ImageView<const double> unshifted);

// The work space of one CsfFilterCpu::apply at a time: the filtered half spectrum and the
// transforms' packing copies. Kept by the caller across images of a shape.
struct CsfScratchCpu {
  std::vector<Complex> spectrum;  // height x half_width
  CpuFftBuffers fft;
  void poison();
};

// The CSF filter for one image shape: owns the FFT plans and C_s, built once.
class CsfFilterCpu {
 public:
  CsfFilterCpu(int width, int height);
  ~CsfFilterCpu();  // not copyable: it owns its plans through fft_

  int width() const { return fft_->width(); }
  int height() const { return fft_->height(); }
  const Image<double>& hermitian_half() const { return csf_half_; }

  // out = Re(IFFT2(FFT2(lum) .* C)), with the 1/(M·N) inverse scaling. Shapes must match the
  // filter's. Safe to call from several threads at once on different outputs.
  void apply(ImageView<const double> lum, ImageView<double> out) const;
  // The same in the caller's scratch (fitted here to this shape; one scratch per thread).
  void apply(ImageView<const double> lum, ImageView<double> out, CsfScratchCpu& scratch) const;

 private:
  std::unique_ptr<CpuFft2d> fft_;
  Image<double> csf_half_;
};

// A process-wide cache of filters for the few most recently used shapes (building C costs more
// than applying it: ~20 ms at 512x512), so a dataset of equal-sized images builds it once.
// Thread-safe; the returned filter stays valid while the caller holds it.
std::shared_ptr<const CsfFilterCpu> shared_csf_filter_cpu(int width, int height);

}  // namespace mad::detection
