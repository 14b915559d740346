// Log-Gabor bank (spec §4.2). Every expression keeps the original's evaluation order (Kovesi's
// gaborconvolve): ln(r/rho) rather than ln r - ln rho, sin/cos of atan2's angle rather than
// y/r, so the filters agree with the reference to the last bit or two.
#include "appearance/log_gabor.h"

#include <cmath>

#include "common/error.h"
#include "common/parallel.h"

namespace mad::appearance {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kMinWaveLength = 3.0;   // lambda_1, px
constexpr double kWaveLengthMult = 3.0;  // lambda_{s+1} / lambda_s
constexpr double kSigmaOnf = 0.55;       // radial bandwidth (~2 octaves)
constexpr double kDThetaOnSigma = 1.5;   // angular spacing / angular sigma

// 2 (ln 0.55)^2 = 0.714818158944951
double two_log_sigma_sq() {
  static const double v = 2.0 * (std::log(kSigmaOnf) * std::log(kSigmaOnf));
  return v;
}

// 2 sigma_theta^2 with sigma_theta = pi/4/1.5, i.e. pi^2/18 = 0.548311355616075
double two_theta_sigma_sq() {
  static const double sigma = kPi / kOrientations / kDThetaOnSigma;
  static const double v = 2.0 * (sigma * sigma);
  return v;
}

// rho_s = (1/lambda_s)/0.5, the filter's centre frequency in Nyquist units.
double centre_radius(int scale) {
  double wavelength = kMinWaveLength;
  for (int s = 0; s < scale; ++s) wavelength *= kWaveLengthMult;  // exact: small integers
  return (1.0 / wavelength) / 0.5;
}

struct Polar {
  double r, sin_theta, cos_theta;
};

// Polar coordinates of unshifted bin (kr, kc). The DC bin gets r = 1, the original's guard
// against ln 0 (its filter value is zeroed afterwards).
Polar polar_of_bin(int kr, int kc, int width, int height) {
  if (kr == 0 && kc == 0) return {1.0, 0.0, 1.0};
  const double y = log_gabor_axis_coord(kr, height);
  const double x = log_gabor_axis_coord(kc, width);
  const double theta = std::atan2(-y, x);  // -y: anticlockwise with rows pointing down
  return {std::sqrt(x * x + y * y), std::sin(theta), std::cos(theta)};
}

void check_args(int width, int height, int scale, int orientation) {
  if (width <= 0 || height <= 0) throw InvalidArgument("log-Gabor: empty shape");
  if (scale < 0 || scale >= kScales || orientation < 0 || orientation >= kOrientations)
    throw InvalidArgument("log-Gabor: scale must be 0..4 and orientation 0..3");
}

}  // namespace

double log_gabor_radial(double r, int scale) {
  const double l = std::log(r / centre_radius(scale));
  return std::exp(-(l * l) / two_log_sigma_sq());
}

double log_gabor_angular(double sin_theta, double cos_theta, int orientation) {
  const double angle = orientation * kPi / kOrientations;
  const double c = std::cos(angle), s = std::sin(angle);
  // Angular distance to phi_o, wrapped into [0, pi] through atan2.
  const double ds = sin_theta * c - cos_theta * s;
  const double dc = cos_theta * c + sin_theta * s;
  const double dtheta = std::fabs(std::atan2(ds, dc));
  return std::exp(-(dtheta * dtheta) / two_theta_sigma_sq());
}

void log_gabor_filter_cpu(int width, int height, int scale, int orientation, double* out) {
  check_args(width, height, scale, orientation);
  for (int kr = 0; kr < height; ++kr) {
    double* row = out + static_cast<std::size_t>(kr) * width;
    for (int kc = 0; kc < width; ++kc) {
      const Polar p = polar_of_bin(kr, kc, width, height);
      row[kc] =
          log_gabor_radial(p.r, scale) * log_gabor_angular(p.sin_theta, p.cos_theta, orientation);
    }
  }
  out[0] = 0.0;  // H = 0 at DC (§4.2)
}

LogGaborBankCpu::LogGaborBankCpu(int width, int height) : width_(width), height_(height) {
  check_args(width, height, 0, 0);
  for (auto& v : radial_) v.resize(size());
  for (auto& v : angular_) v.resize(size());
  // One task per frequency row: each writes only its own row of the 9 factor arrays.
  parallel_for(height, [&](int kr) {
    const std::size_t base = static_cast<std::size_t>(kr) * width;
    for (int kc = 0; kc < width; ++kc) {
      const Polar p = polar_of_bin(kr, kc, width, height);
      for (int s = 0; s < kScales; ++s) radial_[s][base + kc] = log_gabor_radial(p.r, s);
      for (int o = 0; o < kOrientations; ++o)
        angular_[o][base + kc] = log_gabor_angular(p.sin_theta, p.cos_theta, o);
    }
  });
  for (auto& v : radial_) v[0] = 0.0;  // zero at DC carries into every product
}

void LogGaborBankCpu::filter(int scale, int orientation, double* out) const {
  check_args(width_, height_, scale, orientation);
  const double* g = radial(scale);
  const double* a = angular(orientation);
  for (std::size_t i = 0; i < size(); ++i) out[i] = g[i] * a[i];
}

}  // namespace mad::appearance
