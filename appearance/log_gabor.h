// The appearance stage's 5x4 log-Gabor filter bank (spec §4.2): Kovesi's gaborconvolve as
// altered by Larson, with no low-pass term and no normalisation, laid out for the UNSHIFTED
// FFT (DC at index (0,0)).
//
// H_{s,o}(k) = G_s(r) * A_o(theta) separates into a radial factor per scale and an angular
// factor per orientation, so the bank stores 5 + 4 factor arrays instead of 20 filters
// (9 M*N doubles instead of 20) and forms each product on demand; the product of the stored
// factors is bit-identical to evaluating the filter directly.
#pragma once

#include <cstddef>
#include <vector>

namespace mad::appearance {

constexpr int kScales = 5;        // lambda = 3, 9, 27, 81, 243 px; scale 0 is the finest
constexpr int kOrientations = 4;  // phi = 0, 45, 90, 135 degrees
constexpr int kSubbands = kScales * kOrientations;

// Subbands are numbered scale-major, the order in which §4.5 accumulates them.
constexpr int subband_index(int scale, int orientation) {
  return scale * kOrientations + orientation;
}

// Normalised frequency of unshifted bin k on an n-point axis (§4.2):
// (((k + ceil(n/2)) mod n) - n/2) / (n/2), 1 = Nyquist. Exact signed frequency for even n;
// offset by +1/n for odd n (the original's fftshift of a centred grid).
inline double log_gabor_axis_coord(int k, int n) {
  const double half = n / 2.0;
  const int j = (k + (n + 1) / 2) % n;
  return (j - half) / half;
}

// Radial factor G_s at radius r > 0 (scale 0..4).
double log_gabor_radial(double r, int scale);
// Angular factor A_o for a bin whose polar angle theta = atan2(-y, x) has the given sine and
// cosine (orientation 0..3). One-sided: ~1 at theta = phi_o, <= e^-18 on the opposite side.
double log_gabor_angular(double sin_theta, double cos_theta, int orientation);

// Writes H_{s,o} for a width x height image into `out` (height rows of width, row-major,
// unshifted layout); H = 0 at the DC bin. scale 0..4, orientation 0..3.
void log_gabor_filter_cpu(int width, int height, int scale, int orientation, double* out);

// The whole bank for one image shape, as its separable factors. Building it costs about 20
// transcendental calls per bin (spread over mad::parallel_for); reuse it for every image of
// the shape. Read-only after construction, so it may be shared between threads.
class LogGaborBankCpu {
 public:
  LogGaborBankCpu(int width, int height);

  int width() const { return width_; }
  int height() const { return height_; }
  std::size_t size() const { return static_cast<std::size_t>(width_) * height_; }

  // G_s and A_o per bin (height x width, unshifted). The DC bin holds 0 in radial(s), so the
  // product is 0 there whatever A_o is.
  const double* radial(int scale) const { return radial_[scale].data(); }
  const double* angular(int orientation) const { return angular_[orientation].data(); }

  // H_{s,o} materialised (height x width), equal bit for bit to log_gabor_filter_cpu.
  void filter(int scale, int orientation, double* out) const;

 private:
  int width_;
  int height_;
  std::vector<double> radial_[kScales];
  std::vector<double> angular_[kOrientations];
};

}  // namespace mad::appearance
