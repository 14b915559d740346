// Luminance (spec §3.1) against the original's map and its documented constants.
#include "detection/luminance.h"

#include <gtest/gtest.h>

#include <cmath>

#include "common/error.h"

#include "tests/detection/rocket_pair.h"

namespace mad::detection {
namespace {

// Table entries and pow are the same libm call, and MATLAB's table came from the same IEEE
// pow, so the map agrees to the last bits; 1e-15 allows one ulp at values ~1.6.
constexpr double kLumTol = 1e-15;
// The spec quotes L(255) and L(254) to 16 significant digits.
constexpr double kQuotedTol = 2e-15;

TEST(Luminance, RocketReferenceMatches) {
  const auto& p = test::rocket_pair();
  Image<double> lum(p.ref.width(), p.ref.height());
  luminance_cpu(p.ref.cview(), /*uint8_luminance=*/true, lum.view());
  const Image<double> expected = test::load_reference_map("hi_01_lum_ref");
  EXPECT_LE(test::max_abs_diff(lum.cview(), expected.cview()), kLumTol);
}

TEST(Luminance, QuotedEndpoints) {
  EXPECT_NEAR(luminance_value(255, false), 1.672179504613053, kQuotedTol);
  EXPECT_NEAR(luminance_value(254, false), 1.667368103756705, kQuotedTol);
  EXPECT_EQ(luminance_value(0, false), 0.0);
}

TEST(Luminance, Uint8QuirkMaps255As254Only) {
  EXPECT_EQ(luminance_value(255, true), luminance_value(254, false));
  EXPECT_NE(luminance_value(255, false), luminance_value(254, false));
  for (int v = 0; v <= 254; ++v)
    EXPECT_EQ(luminance_value(v, true), luminance_value(v, false)) << v;
}

TEST(Luminance, NonIntegerUsesDirectFormula) {
  // The 2011 rule for non-integer input: k·I^(2.2/3) directly, continuous between table entries.
  const double v = luminance_value(100.5, false);
  EXPECT_GT(v, luminance_value(100, false));
  EXPECT_LT(v, luminance_value(101, false));
  EXPECT_DOUBLE_EQ(v, kLuminanceScale * std::pow(100.5, kLuminanceExponent));
}

TEST(Luminance, PaddedViewsAndShapeCheck) {
  Image<double> in(5, 3, 0.0, 8), out(5, 3, -1.0, 7);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 5; ++x) in(y, x) = 50 * y + x;
  luminance_cpu(in.cview(), false, out.view());
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 5; ++x) EXPECT_EQ(out(y, x), luminance_value(50 * y + x, false));
  Image<double> wrong(4, 3);
  EXPECT_THROW(luminance_cpu(in.cview(), false, wrong.view()), InvalidArgument);
}

}  // namespace
}  // namespace mad::detection
