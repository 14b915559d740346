// The "fused" subband transform (appearance/subband_transform.h) for one image shape: one
// scale's 4 subbands |IFFT2(F H_{s,o})| / (MN) from the image's half spectrum, in two passes of
// our own inverse FFT, so that neither the filtered spectra nor the complex subbands make an
// extra trip through memory.
//
//  1. Column pass: a CTA loads 4 (double) or 8 (float) adjacent columns of the spectrum (the
//     right half mirrored from the left, F(-k) = conj F(k)), multiplies each bin by
//     G_s(r) * A_o(theta) exactly as the cuFFT route's product kernel does, transforms the
//     columns in shared memory and stores them into plane o of `work` (4 planes of M x N
//     complex, row-major).
//  2. Row pass: a CTA loads one row of one plane, transforms it, and stores the modulus of
//     every value times 1/(MN), formed as A5's complex loader forms it (both parts scaled,
//     then sqrt(re^2 + im^2), explicitly rounded), as Real values into the first half of the
//     same row's bytes. No other CTA reads that row, so the pass works in place.
//
// A5 then reads real samples (magnitudes()): plane o's row r starts 2 (o M N + r N) Reals into
// `work`. Each 1-D transform is a Stockham autosort FFT (radix 8, 4, 2, 3, 5 passes ping-ponging
// between two shared-memory buffers) with twiddles exp(+2 pi i m / n) tabulated on the host in
// long double and rounded once.
//
// CUDA-only header (needs cuda_runtime.h, carries no nvcc syntax).
#pragma once

#include <cuda_runtime.h>

#include "appearance/a5_variants_cuda.h"
#include "appearance/log_gabor_cuda.h"
#include "common/cuda_resources.h"

namespace mad::appearance {

// One line length's plan as the kernels take it (by value).
struct SubbandLinePlan {
  static constexpr int kMaxPasses = 32;
  int n = 0;
  int passes = 0;
  int threads = 0;                  // threads a line (subband_fft::threads_per_line)
  unsigned char radix[kMaxPasses]{};
  // Per pass: the product L of the earlier radices, the twiddle stride n / (L R), and
  // ceil(2^32 / L) (0 for L = 1), so that a butterfly's j / L is one __umulhi instead of a
  // division by a run-time value (exact for j, L < 2^16).
  int span[kMaxPasses]{};
  int step[kMaxPasses]{};
  unsigned span_inverse[kMaxPasses]{};
  const void* twiddles = nullptr;   // n values exp(+2 pi i m / n), DeviceComplex<Real>
};

template <class Real>
class SubbandFftCuda {
 public:
  using Complex = DeviceComplex<Real>;

  // Tabulates the twiddles (synchronous copies) and sets the kernels' shared-memory limits.
  // Throws InvalidArgument when fused_subband_transform_supports(width, height) is false.
  SubbandFftCuda(int width, int height);

  int width() const { return width_; }
  int height() const { return height_; }
  std::size_t device_bytes() const { return column_twiddles_.bytes() + row_twiddles_.bytes(); }

  // Scale `scale`'s 4 magnitude planes into `work` (>= 4 M N complex), from the half spectrum
  // (M x (N/2+1) complex, as the in-place R2C leaves it) and the bank. Enqueued on `stream`.
  void run_scale(const Complex* half_spectrum, const LogGaborBankCuda<Real>& bank, int scale,
                 Complex* work, cudaStream_t stream) const;

  // The 4 magnitude planes in `work` as A5's input (real samples).
  A5Input<Real> magnitudes(const Complex* work) const;

 private:
  int width_;
  int height_;
  cuda::DeviceBuffer<Complex> column_twiddles_;  // height values
  cuda::DeviceBuffer<Complex> row_twiddles_;     // width values
  SubbandLinePlan column_plan_;
  int column_lines_ = 0;  // columns a CTA of the column pass (subband_fft::column_lines)
  SubbandLinePlan row_plan_;
};

}  // namespace mad::appearance
