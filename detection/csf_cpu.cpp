#include "detection/csf.h"

#include <cmath>
#include <mutex>
#include <vector>

#include "common/error.h"
#include "common/parallel.h"
#include "common/workspace_cpu.h"

namespace mad::detection {

double csf_grid_coordinate(int k, int n) {
  // The original multiplies a centred grid -n/2+0.5 .. n/2-0.5 into fftshift(fft2(L)); bin k
  // of the unshifted layout sits at centred index (k + floor(n/2)) mod n (spec §3.2).
  return static_cast<double>((k + n / 2) % n) - (n - 1) / 2.0;
}

double csf_at(double u_r, double u_c, int width) {
  const double scale = 2.0 * kCsfNyquistCyclesPerDegree / width;
  const double a = u_r * scale;
  const double b = u_c * scale;
  const double f = std::hypot(a, b);  // the original's abs() of a complex plane
  const double theta = std::atan2(b, a);
  // Oblique effect: sensitivity falls to w on the diagonals.
  const double s = (1.0 - kCsfObliqueW) / 2.0 * std::cos(4.0 * theta) + (1.0 + kCsfObliqueW) / 2.0;
  const double fp = f / s;
  if (fp < kCsfPeakFrequency) return kCsfPeakValue;
  return 2.6 * (0.0192 + 0.114 * fp) * std::exp(-std::pow(0.114 * fp, 1.1));
}

Image<double> csf_unshifted(int width, int height) {
  if (width <= 0 || height <= 0) throw InvalidArgument("csf_unshifted: empty shape");
  Image<double> c(width, height);
  std::vector<double> u_c(width);
  for (int k = 0; k < width; ++k) u_c[k] = csf_grid_coordinate(k, width);
  parallel_for(height, [&](int kr) {
    const double u_r = csf_grid_coordinate(kr, height);
    double* row = c.row(kr);
    for (int kc = 0; kc < width; ++kc) row[kc] = csf_at(u_r, u_c[kc], width);
  });
  return c;
}

Image<double> csf_hermitian_half(int width, int height) {
  const Image<double> c = csf_unshifted(width, height);
  const int hw = width / 2 + 1;
  Image<double> half(hw, height);
  for (int kr = 0; kr < height; ++kr) {
    const int mr = (height - kr) % height;
    for (int kc = 0; kc < hw; ++kc) {
      const int mc = (width - kc) % width;
      half(kr, kc) = 0.5 * (c(kr, kc) + c(mr, mc));
    }
  }
  return half;
}

Image<double> fft_shift(ImageView<const double> unshifted) {
  const int w = unshifted.width, h = unshifted.height;
  Image<double> out(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) out((y + h / 2) % h, (x + w / 2) % w) = unshifted(y, x);
  return out;
}

CsfFilterCpu::CsfFilterCpu(int width, int height)
    : fft_(std::make_unique<CpuFft2d>(width, height)),
      csf_half_(csf_hermitian_half(width, height)) {}

CsfFilterCpu::~CsfFilterCpu() = default;

void CsfScratchCpu::poison() {
  poison_buffer(spectrum);
  fft.poison();
}

void CsfFilterCpu::apply(ImageView<const double> lum, ImageView<double> out) const {
  CsfScratchCpu scratch;
  apply(lum, out, scratch);
}

void CsfFilterCpu::apply(ImageView<const double> lum, ImageView<double> out,
                         CsfScratchCpu& scratch) const {
  const int w = width(), h = height();
  if (lum.width != w || lum.height != h || out.width != w || out.height != h)
    throw InvalidArgument("CsfFilterCpu::apply: shape differs from the filter's");
  const int hw = fft_->half_width();
  fit_buffer(scratch.spectrum, static_cast<std::size_t>(hw) * h);
  Complex* spectrum = scratch.spectrum.data();
  fft_->forward_real_half(lum, spectrum, scratch.fft);
  // F is Hermitian and C_s real and even, so F .* C_s is Hermitian: c2r is exact here.
  for (int y = 0; y < h; ++y) {
    Complex* s = spectrum + static_cast<std::size_t>(y) * hw;
    const double* c = csf_half_.row(y);
    for (int x = 0; x < hw; ++x) s[x] *= c[x];
  }
  fft_->inverse_real(spectrum, out, scratch.fft);
}

std::shared_ptr<const CsfFilterCpu> shared_csf_filter_cpu(int width, int height) {
  constexpr std::size_t kCachedShapes = 4;
  static std::mutex mutex;
  static std::vector<std::shared_ptr<const CsfFilterCpu>> cache;  // most recent last
  {
    std::lock_guard<std::mutex> lock(mutex);
    for (std::size_t i = 0; i < cache.size(); ++i)
      if (cache[i]->width() == width && cache[i]->height() == height) {
        auto hit = cache[i];
        cache.erase(cache.begin() + static_cast<std::ptrdiff_t>(i));
        cache.push_back(hit);
        return hit;
      }
  }
  // Built outside the lock: a concurrent miss on the same shape only builds it twice.
  auto built = std::make_shared<const CsfFilterCpu>(width, height);
  std::lock_guard<std::mutex> lock(mutex);
  if (cache.size() >= kCachedShapes) cache.erase(cache.begin());
  cache.push_back(built);
  return built;
}

}  // namespace mad::detection
