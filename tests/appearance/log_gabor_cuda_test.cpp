// The device log-Gabor bank (appearance/log_gabor_cuda.h, spec §4.2) against the CPU bank's
// factors, the original's filters of the odd, non-square rocket shape, and its own factors
// evaluated at every bin (the radial quadrant must lose nothing).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "appearance/log_gabor.h"
#include "appearance/log_gabor_cuda.h"
#include "common/error.h"
#include "tests/appearance/device_helpers_cuda.h"

namespace mad::appearance {
namespace {

// Factors are exp of arguments up to ~37 built from log/atan2/sin/cos; the device's and the
// host's libm differ by 1-2 ulp per call, i.e. <~1e-14 relative after the exp. 1e-12 relative
// still catches any grid or constant error (those move values by >= 1e-4).
constexpr double kDoubleRelTol = 1e-12;
// float stores the double value rounded once: 2^-24 = 6e-8 relative.
constexpr double kFloatRelTol = 1.2e-7;
// The original's filters (maps/lo_filter_*): same bound as the CPU bank's own test, since
// the products of two factors add one rounding.
constexpr double kOriginalAbsTol = 1e-14;

// Largest |got - want| / max(|want|, 1e-300) over n values (NaN counts as infinite).
template <class Real>
double max_rel(const std::vector<Real>& got, const double* want, std::size_t offset,
               std::size_t n) {
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double g = static_cast<double>(got[offset + i]), w = want[i];
    if (g == w) continue;
    const double r = std::fabs(g - w) / std::max(std::fabs(w), 1e-300);
    if (!(r <= worst)) worst = std::isnan(r) ? std::numeric_limits<double>::infinity() : r;
  }
  return worst;
}

// The bank's 9 factors as full planes (LogGaborBankCuda::expand), on the host.
template <class Real>
std::vector<Real> expanded(const LogGaborBankCuda<Real>& bank, cudaStream_t stream) {
  cuda::DeviceBuffer<Real> planes((kScales + kOrientations) * bank.plane_size());
  bank.expand(planes.get(), stream);
  return gpu_test::download(planes.get(), planes.size(), stream);
}

template <class Real>
void check_against_cpu(int width, int height) {
  cuda::Stream stream;
  const LogGaborBankCuda<Real> bank(width, height, stream.get());
  const LogGaborBankCpu cpu(width, height);
  const std::size_t plane = bank.plane_size();
  const std::size_t quadrant = static_cast<std::size_t>(width / 2 + 1) * (height / 2 + 1);
  ASSERT_EQ(bank.quadrant_size(), quadrant);
  ASSERT_EQ(bank.device_bytes(), (kScales * quadrant + kOrientations * plane) * sizeof(Real));
  const auto got = expanded(bank, stream.get());
  const double tol = sizeof(Real) == sizeof(double) ? kDoubleRelTol : kFloatRelTol;
  for (int s = 0; s < kScales; ++s) {
    EXPECT_EQ(got[s * plane], Real(0)) << "radial factor at DC, scale " << s;
    EXPECT_LE(max_rel(got, cpu.radial(s), s * plane, plane), tol)
        << width << "x" << height << " radial scale " << s;
  }
  for (int o = 0; o < kOrientations; ++o)
    EXPECT_LE(max_rel(got, cpu.angular(o), (kScales + o) * plane, plane), tol)
        << width << "x" << height << " angular orientation " << o;
}

// The quadrant storage loses nothing: the expanded bank equals every factor evaluated directly
// at every bin (the full layout the bank had before), bit for bit, for even, odd, prime,
// non-square and minimum shapes. Bins whose radial factor comes from a mirrored quadrant entry
// are most of each plane, so any asymmetry of the grid rule or of the arithmetic shows here.
template <class Real>
void check_quadrant_is_exact(int width, int height) {
  cuda::Stream stream;
  const LogGaborBankCuda<Real> bank(width, height, stream.get());
  cuda::DeviceBuffer<Real> direct((kScales + kOrientations) * bank.plane_size());
  log_gabor_direct_factors_cuda<Real>(width, height, direct.get(), stream.get());
  const auto want = gpu_test::download(direct.get(), direct.size(), stream.get());
  const auto got = expanded(bank, stream.get());
  ASSERT_EQ(got.size(), want.size());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(Real)) != 0) ++differing;
  EXPECT_EQ(differing, 0u) << width << "x" << height << ": values differing in any bit";
}

TEST(LogGaborBankCuda, DoubleFactorsMatchCpuBank) {
  MAD_REQUIRE_GPU();
  for (auto [w, h] : {std::pair{34, 34}, std::pair{35, 61}, std::pair{257, 333},
                      std::pair{384, 512}, std::pair{512, 512}, std::pair{1080, 800}})
    check_against_cpu<double>(w, h);
}

TEST(LogGaborBankCuda, RadialQuadrantEqualsTheDirectFactorsBitForBit) {
  MAD_REQUIRE_GPU();
  for (auto [w, h] :
       {std::pair{34, 34}, std::pair{35, 35}, std::pair{35, 61}, std::pair{61, 47},
        std::pair{257, 333}, std::pair{384, 512}, std::pair{512, 384}, std::pair{512, 512},
        std::pair{521, 512}, std::pair{1031, 769}, std::pair{1920, 1080}}) {
    check_quadrant_is_exact<double>(w, h);
    check_quadrant_is_exact<float>(w, h);
  }
}

TEST(LogGaborBankCuda, FloatFactorsAreTheDoubleFactorsRounded) {
  MAD_REQUIRE_GPU();
  for (auto [w, h] : {std::pair{35, 61}, std::pair{512, 384}}) check_against_cpu<float>(w, h);
}

TEST(LogGaborBankCuda, ProductsMatchTheOriginalRocketFilters) {
  MAD_REQUIRE_GPU();
  constexpr int kCols = 257, kRows = 333;
  cuda::Stream stream;
  const LogGaborBankCuda<double> bank(kCols, kRows, stream.get());
  const std::size_t plane = bank.plane_size();
  const auto factors = expanded(bank, stream.get());
  for (auto [s, o, name] :
       {std::tuple{0, 0, "lo_filter_s1_o1"}, std::tuple{2, 1, "lo_filter_s3_o2"}}) {
    const double* g = factors.data() + s * plane;
    const double* a = factors.data() + (kScales + o) * plane;
    Image<double> h(kCols, kRows);
    for (std::size_t i = 0; i < plane; ++i) h.data()[i] = g[i] * a[i];
    const Image<double> want = test::load_reference_map(name);
    ASSERT_EQ(want.width(), kCols);
    ASSERT_EQ(want.height(), kRows);
    EXPECT_LE(test::max_abs_diff(h.cview(), want.cview()), kOriginalAbsTol) << name;
    EXPECT_EQ(h(0, 0), 0.0) << name;
  }
}

TEST(LogGaborBankCuda, RejectsEmptyShape) {
  MAD_REQUIRE_GPU();
  cuda::Stream stream;
  EXPECT_THROW(LogGaborBankCuda<double>(0, 10, stream.get()), InvalidArgument);
}

}  // namespace
}  // namespace mad::appearance
