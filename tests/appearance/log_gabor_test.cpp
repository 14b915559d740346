// Log-Gabor bank (spec §4.2): grid rule, reference filters of the odd, non-square rocket shape,
// DC, one-sidedness, and the factored bank against the direct per-filter form.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "appearance/log_gabor.h"
#include "tests/support/test_support.h"

namespace mad::appearance {
namespace {

// The filters are products of exp/log/atan2 of values <= sqrt(2); two libms may differ by a
// few ulp per call, i.e. ~1e-16 absolute on values <= 1. 1e-14 leaves room yet would catch any
// grid or constant error (those move values by >= 1e-4).
constexpr double kFilterTol = 1e-14;

constexpr int kRocketRows = 333, kRocketCols = 257;
constexpr double kPi = 3.14159265358979323846;

std::vector<double> make_filter(int width, int height, int s, int o) {
  std::vector<double> h(static_cast<std::size_t>(width) * height);
  log_gabor_filter_cpu(width, height, s, o, h.data());
  return h;
}

TEST(LogGaborGrid, OddSizeIsOffsetByOneOverN) {
  // §4.2: for n = 5 the unshifted bins are [0.2, 0.6, -1, -0.6, -0.2].
  const double expect5[] = {0.2, 0.6, -1.0, -0.6, -0.2};
  for (int k = 0; k < 5; ++k) EXPECT_DOUBLE_EQ(log_gabor_axis_coord(k, 5), expect5[k]) << k;
  // n = 7: ((k + 4) mod 7 - 3.5) / 3.5
  const double expect7[] = {0.5 / 3.5,  1.5 / 3.5,  2.5 / 3.5, -1.0,
                            -2.5 / 3.5, -1.5 / 3.5, -0.5 / 3.5};
  for (int k = 0; k < 7; ++k) EXPECT_DOUBLE_EQ(log_gabor_axis_coord(k, 7), expect7[k]) << k;
}

TEST(LogGaborGrid, EvenSizeIsExactSignedFrequency) {
  for (int n : {6, 8, 512}) {
    for (int k = 0; k < n; ++k) {
      const int signed_k = k < n / 2 ? k : k - n;  // Nyquist bin n/2 maps to -1
      EXPECT_EQ(log_gabor_axis_coord(k, n), signed_k / (n / 2.0)) << "n=" << n << " k=" << k;
    }
  }
}

void expect_matches_reference(int s, int o, const char* name) {
  const Image<double> ref = test::load_reference_map(name);
  ASSERT_EQ(ref.height(), kRocketRows);
  ASSERT_EQ(ref.width(), kRocketCols);
  const std::vector<double> h = make_filter(kRocketCols, kRocketRows, s, o);
  const ImageView<const double> got(h.data(), kRocketCols, kRocketRows);
  EXPECT_LE(test::max_abs_diff(got, ref.cview()), kFilterTol) << name;
  EXPECT_EQ(h[0], 0.0);
  EXPECT_EQ(ref(0, 0), 0.0);
}

TEST(LogGaborReference, RocketScale1Orientation1) {
  expect_matches_reference(0, 0, "lo_filter_s1_o1");
}

TEST(LogGaborReference, RocketScale3Orientation2) {
  expect_matches_reference(2, 1, "lo_filter_s3_o2");
}

TEST(LogGaborBank, FactoredBankEqualsDirectFiltersBitForBit) {
  for (auto [w, h] : {std::pair{61, 35}, std::pair{34, 34}, std::pair{64, 48}}) {
    const LogGaborBankCpu bank(w, h);
    std::vector<double> from_bank(static_cast<std::size_t>(w) * h);
    for (int s = 0; s < kScales; ++s) {
      for (int o = 0; o < kOrientations; ++o) {
        bank.filter(s, o, from_bank.data());
        EXPECT_EQ(from_bank, make_filter(w, h, s, o)) << w << "x" << h << " s" << s << " o" << o;
      }
    }
  }
}

TEST(LogGaborBank, ZeroAtDcOnlyAndPositiveElsewhere) {
  for (auto [w, h] : {std::pair{61, 35}, std::pair{64, 48}}) {
    const LogGaborBankCpu bank(w, h);
    std::vector<double> f(bank.size());
    for (int s = 0; s < kScales; ++s) {
      bank.filter(s, 0, f.data());
      EXPECT_EQ(f[0], 0.0);
      // Values are tiny far from the pass band but never 0 (no truncation, §4.2).
      for (std::size_t i = 1; i < f.size(); ++i) ASSERT_GT(f[i], 0.0) << "s" << s << " bin " << i;
    }
  }
}

TEST(LogGaborBank, AngularFactorIsOneSided) {
  // §4.2: A_o peaks at theta = phi_o (value 1) and the opposite direction gets e^-18.
  for (int o = 0; o < kOrientations; ++o) {
    const double phi = o * kPi / 4;
    EXPECT_NEAR(log_gabor_angular(std::sin(phi), std::cos(phi), o), 1.0, 1e-15) << o;
    EXPECT_NEAR(log_gabor_angular(std::sin(phi + kPi), std::cos(phi + kPi), o), std::exp(-18.0),
                1e-20)
        << o;
  }
}

TEST(LogGaborBank, RadialFactorPeaksAtCentreFrequency) {
  // rho_s = 2 / lambda_s, lambda_s = 3^(s+1); G = 1 there and exp(-1/2) one sigma away.
  for (int s = 0; s < kScales; ++s) {
    const double rho = 2.0 / std::pow(3.0, s + 1);
    EXPECT_NEAR(log_gabor_radial(rho, s), 1.0, 1e-15) << s;
    EXPECT_NEAR(log_gabor_radial(rho * 0.55, s), std::exp(-0.5), 1e-15) << s;
  }
}

TEST(LogGaborBank, RejectsBadArguments) {
  std::vector<double> f(64);
  EXPECT_THROW(log_gabor_filter_cpu(8, 8, 5, 0, f.data()), InvalidArgument);
  EXPECT_THROW(log_gabor_filter_cpu(8, 8, 0, 4, f.data()), InvalidArgument);
  EXPECT_THROW(LogGaborBankCpu(0, 8), InvalidArgument);
}

}  // namespace
}  // namespace mad::appearance
