// Checks shared by the A5 variant tests: CPU reference statistics with each block's
// condition number, a tolerance-aware comparison, one-launch runs of a variant on several
// subbands, and seeded random / real subband images.
// CUDA-only header (cuda_runtime.h; no nvcc syntax), for *_cuda_test.cpp.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "appearance/a5_variants_cuda.h"
#include "appearance/block_stats.h"
#include "appearance/log_gabor.h"
#include "appearance/subband_magnitude.h"
#include "common/fft_cpu.h"
#include "tests/appearance/device_helpers_cuda.h"

namespace mad::appearance::a5_test {

// Tolerances are relative (std to |std|, skew and kurt to max(1, |value|)) and scaled by the
// block's condition kappa = max(1, mean/sigma_b): a two-pass result is itself only accurate
// to ~eps * kappa (the mean's rounding error divided by the spread, spec §7, §11), so two
// correct implementations summing in different orders differ by that much. Measured on the
// 20 subbands of 5 reference images (CPU emulation of each variant's summation order against
// the CPU path): error / kappa <= 8e-15 in double, <= 4.3e-6 in float.
// double: 1e-12 relative up to kappa = 10, then growing with kappa (12x margin).
constexpr double kDoubleTol = 1e-12;
constexpr double kDoubleKappaKnee = 10.0;
// float: 3e-5 * kappa (7x margin over the measured 4.3e-6 * kappa).
constexpr double kFloatTol = 3e-5;
constexpr double kFloatKappaKnee = 1.0;

struct Shape {
  int width, height;
};
// The brief's sizes: MAD's minimum, odd/prime, the rocket's odd non-square, 512x384 both
// ways round, 512x512 and a large non-square frame.
inline const Shape kShapes[] = {{34, 34},   {35, 61},   {257, 333}, {384, 512},
                                {512, 384}, {512, 512}, {1080, 800}};

inline std::string shape_name(const Shape& s) {
  return std::to_string(s.width) + "x" + std::to_string(s.height);
}

// CPU statistics of one subband plus each block's condition number.
struct CpuStats {
  std::vector<double> std, skew, kurt, kappa;
};

inline CpuStats cpu_stats(ImageView<const double> a) {
  const BlockGrid grid(a.width, a.height);
  CpuStats c{std::vector<double>(grid.count()), std::vector<double>(grid.count()),
             std::vector<double>(grid.count()), std::vector<double>(grid.count())};
  subband_block_stats_cpu(a, grid, c.std.data(), c.skew.data(), c.kurt.data());
  for (int by = 0; by < grid.rows; ++by)
    for (int bx = 0; bx < grid.cols; ++bx) {
      double sum = 0;
      for (int i = 0; i < kBlockSize; ++i)
        for (int j = 0; j < kBlockSize; ++j) sum += a(4 * by + i, 4 * bx + j);
      const std::size_t b = static_cast<std::size_t>(by) * grid.cols + bx;
      const double sigma_b = c.std[b] * std::sqrt(255.0 / 256.0);
      c.kappa[b] = sigma_b > 0 ? std::max(1.0, std::fabs(sum / 256) / sigma_b) : 1.0;
    }
  return c;
}

// Compares one subband's GPU planes with the CPU statistics; returns "" or a description of
// the worst violation (NaN, i.e. an unwritten block, always violates).
template <class Real>
std::string compare(const CpuStats& want, const Real* std_g, const Real* skew_g, const Real* kurt_g,
                    std::ptrdiff_t pitch, const BlockGrid& grid) {
  const bool is_double = sizeof(Real) == sizeof(double);
  const double tol = is_double ? kDoubleTol : kFloatTol;
  const double knee = is_double ? kDoubleKappaKnee : kFloatKappaKnee;
  double worst = 0;
  std::string where;
  for (int by = 0; by < grid.rows; ++by)
    for (int bx = 0; bx < grid.cols; ++bx) {
      const std::size_t b = static_cast<std::size_t>(by) * grid.cols + bx;
      const std::size_t g = static_cast<std::size_t>(by) * pitch + bx;
      const double scale = tol * std::max(1.0, want.kappa[b] / knee);
      const double got[3] = {static_cast<double>(std_g[g]), static_cast<double>(skew_g[g]),
                             static_cast<double>(kurt_g[g])};
      const double ref[3] = {want.std[b], want.skew[b], want.kurt[b]};
      const double floor[3] = {0.0, 1.0, 1.0};
      for (int k = 0; k < 3; ++k) {
        const double bound = scale * std::max(std::fabs(ref[k]), floor[k]);
        const double ratio = std::fabs(got[k] - ref[k]) / bound;
        if (!(ratio <= worst)) {  // NaN ratio lands here and sticks as "worse than anything"
          worst = std::isnan(ratio) ? std::numeric_limits<double>::infinity() : ratio;
          std::ostringstream os;
          os << "block (" << by << "," << bx << ") "
             << (k == 0   ? "std"
                 : k == 1 ? "skew"
                          : "kurt")
             << ": gpu " << got[k] << " cpu " << ref[k] << " kappa " << want.kappa[b]
             << " (error/bound " << ratio << ")";
          where = os.str();
        }
      }
    }
  return worst <= 1.0 ? std::string() : where;
}

// Runs `variant` on the subbands (one launch) and compares every subband with the CPU. The
// input is uploaded with a padded pitch and a gap between subbands when `padded`; the output
// planes then also get a padded pitch, and the padding must stay poisoned.
template <class Real>
void check_variant(const VariantRow<A5Launches>& variant,
                   const std::vector<Image<double>>& subbands, bool padded,
                   const std::string& label) {
  const int w = subbands[0].width(), h = subbands[0].height();
  const BlockGrid grid(w, h);
  const std::ptrdiff_t in_pitch = padded ? w + 3 : w;
  const std::ptrdiff_t in_stride = in_pitch * h + (padded ? 5 : 0);
  const std::ptrdiff_t out_pitch = padded ? grid.cols + 2 : grid.cols;
  const std::ptrdiff_t out_stride = out_pitch * grid.rows;
  const int count = static_cast<int>(subbands.size());

  std::vector<Real> host(static_cast<std::size_t>(in_stride) * count, Real(0));
  for (int i = 0; i < count; ++i)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        host[i * in_stride + y * in_pitch + x] = static_cast<Real>(subbands[i](y, x));

  cuda::Stream stream;
  const auto d_in = gpu_test::upload(host, stream.get());
  cuda::DeviceBuffer<Real> d_out(3 * static_cast<std::size_t>(out_stride) * count);
  gpu_test::poison(d_out.get(), d_out.size(), stream.get());

  const A5Input<Real> in = gpu_test::a5_input(d_in.get(), in_pitch, in_stride, count);
  const A5Output<Real> out =
      a5_output_planes(d_out.get(), out_stride * count, out_pitch, out_stride);
  variant.launch.get<Real>()(in, out, grid, stream.get());
  const std::vector<Real> got = gpu_test::download(d_out.get(), d_out.size(), stream.get());

  for (int i = 0; i < count; ++i) {
    const CpuStats want = cpu_stats(subbands[i].cview());
    const Real* base = got.data() + i * out_stride;
    const std::string bad = compare<Real>(want, base, base + out_stride * count,
                                          base + 2 * out_stride * count, out_pitch, grid);
    EXPECT_TRUE(bad.empty()) << variant.name << " " << label << " subband " << i << ": " << bad;
    if (padded) {
      for (int plane = 0; plane < 3; ++plane)
        for (int by = 0; by < grid.rows; ++by)
          for (std::ptrdiff_t bx = grid.cols; bx < out_pitch; ++bx)
            EXPECT_TRUE(std::isnan(
                static_cast<double>(base[plane * out_stride * count + by * out_pitch + bx])))
                << variant.name << " wrote into the output's row padding";
    }
  }
}

// Three seeded random subbands: nonnegative reals, different ranges, like |EO| samples.
inline std::vector<Image<double>> random_subbands(const Shape& s, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Image<double>> out;
  for (double hi : {1.0, 60.0, 3000.0}) {
    std::uniform_real_distribution<double> dist(0.0, hi);
    Image<double> img(s.width, s.height);
    for (int y = 0; y < s.height; ++y)
      for (int x = 0; x < s.width; ++x) img(y, x) = dist(rng);
    out.push_back(std::move(img));
  }
  return out;
}

// Real subbands: |EO| of the finest, a middle and the coarsest scale of a photograph (the
// coarsest is the smooth, ill-conditioned case), computed by the CPU path.
inline std::vector<Image<double>> real_subbands(const Shape& s) {
  const Image<double> img = gpu_test::real_image("camera_512.png", s.width, s.height);
  const CpuFft2d fft(s.width, s.height);
  const LogGaborBankCpu bank(s.width, s.height);
  SubbandScratch scratch(img.pixel_count());
  std::vector<Complex> spectrum(img.pixel_count());
  fft.forward_real(img.cview(), spectrum.data());
  std::vector<Image<double>> out;
  for (auto [scale, orientation] : {std::pair{0, 0}, std::pair{2, 1}, std::pair{4, 3}}) {
    out.emplace_back(s.width, s.height);
    subband_magnitude_cpu(fft, bank, scale, orientation, spectrum.data(), scratch,
                          out.back().view());
  }
  return out;
}

template <class Real>
void check_all_variants(bool real_data) {
  std::uint32_t seed = 1234;
  for (const Shape& s : kShapes) {
    const auto subbands = real_data ? real_subbands(s) : random_subbands(s, seed++);
    for (const VariantRow<A5Launches>& v : a5_variants().rows())
      check_variant<Real>(v, subbands, false, (real_data ? "real " : "random ") + shape_name(s));
  }
}

}  // namespace mad::appearance::a5_test
