// Subband magnitudes of the appearance stage (spec §4.1, §4.3): a = |IFFT2(F ⊙ H_{s,o})| with
// the 1/(M*N) normalisation, F the unshifted, unpadded spectrum of the raw image.
#pragma once

#include <memory>

#include "appearance/log_gabor.h"
#include "common/fft_cpu.h"
#include "common/image.h"

namespace mad::appearance {

// Caller-owned work space for one subband at a time (two M*N complex arrays). One per thread;
// allocated once and reused across subbands, its contents are never read before written.
class SubbandScratch {
 public:
  explicit SubbandScratch(std::size_t pixels)
      : product_(new Complex[pixels]), eo_(new Complex[pixels]), pixels_(pixels) {}
  Complex* product() { return product_.get(); }
  Complex* eo() { return eo_.get(); }
  std::size_t pixels() const { return pixels_; }
  void poison();  // NaN everywhere (workspace poisoning test mode)

 private:
  std::unique_ptr<Complex[]> product_;  // F ⊙ H
  std::unique_ptr<Complex[]> eo_;       // EO = IFFT2(F ⊙ H) / (MN)
  std::size_t pixels_;
};

// Writes |EO_{s,o}| into `magnitude` (fft's shape; any pitch). `spectrum` is the full
// unshifted FFT2 of the image (height x width, row-major, from CpuFft2d::forward_real); fft
// and bank must have the same shape. Thread-safe for distinct scratch/magnitude.
void subband_magnitude_cpu(const CpuFft2d& fft, const LogGaborBankCpu& bank, int scale,
                           int orientation, const Complex* spectrum, SubbandScratch& scratch,
                           ImageView<double> magnitude);

}  // namespace mad::appearance
