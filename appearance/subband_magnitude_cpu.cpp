// Subband magnitude (spec §4.3): filter multiply, inverse FFT with 1/(MN), complex modulus.
#include "appearance/subband_magnitude.h"
#include "appearance/simd_dispatch.h"

#include <algorithm>
#include <cmath>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/error.h"

namespace mad::appearance {
namespace {

// The two point-wise passes around the inverse FFT are memory-bound streams over M*N complex
// values; they are cloned for AVX2 with runtime dispatch (the build targets baseline x86-64).
// Neither clone uses FMA, so both give the same bits.

// prod = F ⊙ (G_s * A_o). H is formed here, bit-identical to the stored product (§4.2); a
// complex times a real scales both parts, exactly as MATLAB's complex .* real does.
MAD_CLONE_AVX2
void multiply_filter(const double* f, const double* g, const double* a, double* prod,
                     std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const double h = g[i] * a[i];
    prod[2 * i] = f[2 * i] * h;
    prod[2 * i + 1] = f[2 * i + 1] * h;
  }
}

// out[x] = |eo[x]| = sqrt(re^2 + im^2) for one row of `width` complex values. Within 1 ulp of
// hypot, whose scaling only matters near overflow/underflow, far from |EO| of 0..255 images.
// std::sqrt cannot be vectorised while it may set errno, so SSE2's sqrtpd (baseline on
// x86-64, correctly rounded like sqrtsd) does two at a time.
MAD_CLONE_AVX2
void modulus_row(const double* eo, double* out, int width) {
  int x = 0;
#if defined(__SSE2__)
  for (; x + 2 <= width; x += 2) {
    const __m128d c0 = _mm_loadu_pd(eo + 2 * x);      // re0 im0
    const __m128d c1 = _mm_loadu_pd(eo + 2 * x + 2);  // re1 im1
    const __m128d q0 = _mm_mul_pd(c0, c0), q1 = _mm_mul_pd(c1, c1);
    const __m128d sum = _mm_add_pd(_mm_unpacklo_pd(q0, q1), _mm_unpackhi_pd(q0, q1));
    _mm_storeu_pd(out + x, _mm_sqrt_pd(sum));
  }
#endif
  for (; x < width; ++x) {
    const double re = eo[2 * x], im = eo[2 * x + 1];
    out[x] = std::sqrt(re * re + im * im);
  }
}

}  // namespace

void SubbandScratch::poison() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::fill(product_.get(), product_.get() + pixels_, Complex(nan, nan));
  std::fill(eo_.get(), eo_.get() + pixels_, Complex(nan, nan));
}

void subband_magnitude_cpu(const CpuFft2d& fft, const LogGaborBankCpu& bank, int scale,
                           int orientation, const Complex* spectrum, SubbandScratch& scratch,
                           ImageView<double> magnitude) {
  const int width = fft.width(), height = fft.height();
  const std::size_t n = static_cast<std::size_t>(width) * height;
  if (bank.width() != width || bank.height() != height || magnitude.width != width ||
      magnitude.height != height || scratch.pixels() < n)
    throw InvalidArgument("subband_magnitude_cpu: shape mismatch");

  multiply_filter(reinterpret_cast<const double*>(spectrum), bank.radial(scale),
                  bank.angular(orientation), reinterpret_cast<double*>(scratch.product()), n);
  fft.inverse(scratch.product(), scratch.eo());  // includes the 1/(MN)
  const double* eo = reinterpret_cast<const double*>(scratch.eo());
  for (int y = 0; y < height; ++y)
    modulus_row(eo + 2 * static_cast<std::size_t>(y) * width, magnitude.row(y), width);
}

}  // namespace mad::appearance
