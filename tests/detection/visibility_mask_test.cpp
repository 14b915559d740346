// Visibility mask ξ (spec §3.6): every branch, the ties, and the rocket maps of the original.
#include "detection/visibility_mask.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "common/block_grid.h"
#include "tests/detection/rocket_pair.h"

namespace mad::detection {
namespace {

// ξ and ln(σ/μ) are a log and two subtractions of block statistics that are themselves exact
// inputs here (read from the original's maps): at most a few ulps of values <= 7.
constexpr double kMaskTol = 1e-14;

TEST(VisibilityMask, LuminanceGate) {
  // Below the gate nothing counts, however large the error; at exactly 0.5 the block is open.
  EXPECT_EQ(visibility_mask_value(0.4999999, 0.001, 10.0), 0.0);
  EXPECT_EQ(visibility_mask_value(-1.0, 0.001, 10.0), 0.0);  // would be a complex log
  EXPECT_EQ(visibility_mask_value(0.0, 0.0, 0.0), 0.0);      // 0/0 never reached
  EXPECT_GT(visibility_mask_value(0.5, 0.001, 10.0), 0.0);
}

TEST(VisibilityMask, ErrorAboveReferenceContrast) {
  // C_ref = -2 > -5 and C_err = -1 > thr ≈ -2: ξ = C_err - thr ≈ 1.
  const double xi = visibility_mask_value(1.0, std::exp(-2.0), std::exp(-1.0));
  EXPECT_NEAR(xi, 1.0, kMaskTol);
  // Error contrast below the reference's: masked.
  EXPECT_EQ(visibility_mask_value(1.0, std::exp(-1.0), std::exp(-2.0)), 0.0);
  // ξ scales with the contrast ratio, not the absolute values: μ cancels.
  EXPECT_NEAR(visibility_mask_value(2.0, 2 * std::exp(-2.0), 2 * std::exp(-1.0)), 1.0, kMaskTol);
}

TEST(VisibilityMask, FlatReferenceBranch) {
  // C_ref <= -5 (here -inf: a perfectly flat reference) and C_err > -5: ξ = C_err + 5.
  EXPECT_NEAR(visibility_mask_value(1.0, 0.0, std::exp(-4.0)), 1.0, kMaskTol);
  // C_ref = -7: compared with -5, not with thr = C_ref (which would give 3).
  EXPECT_NEAR(visibility_mask_value(1.0, std::exp(-7.0), std::exp(-4.0)), 1.0, kMaskTol);
  // C_err <= -5 as well: nothing visible.
  EXPECT_EQ(visibility_mask_value(1.0, std::exp(-7.0), std::exp(-6.0)), 0.0);
  // No error at all: C_err = -inf.
  EXPECT_EQ(visibility_mask_value(1.0, 0.0, 0.0), 0.0);
  EXPECT_EQ(visibility_mask_value(1.0, 0.1, 0.0), 0.0);
}

TEST(VisibilityMask, RefThresholdTieUsesFlatBranch) {
  // Find σ with ln σ == -5 exactly. C_ref = -5 belongs to the "<= -5" branch; both branches
  // compare C_err with -5 there, so ξ must be continuous across the tie.
  double sigma = std::exp(-5.0);
  for (int k = 0; k < 64 && std::log(sigma) != -5.0; ++k)
    sigma = std::nextafter(sigma, std::log(sigma) < -5.0 ? 1.0 : 0.0);
  ASSERT_EQ(std::log(sigma), -5.0);
  const double err = std::exp(-4.5);
  EXPECT_EQ(visibility_mask_value(1.0, sigma, err), std::log(err) + 5.0);
  // Just above -5 the first branch applies: ξ = C_err - ((C_ref + 5) - 5).
  double above = std::nextafter(sigma, 1.0);
  while (std::log(above) <= -5.0) above = std::nextafter(above, 1.0);  // log is flat per ulp
  const double c_above = std::log(above);
  ASSERT_GT(c_above, -5.0);
  EXPECT_EQ(visibility_mask_value(1.0, above, err), std::log(err) - ((c_above + 5.0) - 5.0));
}

TEST(VisibilityMask, EqualContrastsKeepEvaluationOrder) {
  // σ_err == σ_mod gives C_err == C_ref, and thr = (C_ref + 5) - 5, which can differ from C_ref
  // by rounding. The original then reports a tiny ξ = C_ref - thr > 0 (or 0): never simplify.
  int nonzero = 0;
  for (int k = 1; k <= 200; ++k) {
    const double sigma = 0.0123 * k;
    const double c = std::log(sigma / 1.0);
    const double thr = (c - (-5.0)) * 1.0 + (-5.0);
    const double expected = c > thr ? c - thr : 0.0;
    EXPECT_EQ(visibility_mask_value(1.0, sigma, sigma), expected) << sigma;
    nonzero += expected > 0.0;
  }
  EXPECT_GT(nonzero, 0) << "no rounding tie found: the test would not catch a simplification";
}

TEST(VisibilityMask, RocketMaskAndLogContrastMatchReference) {
  // Block values from the original's own tile maps (each tile's top-left pixel).
  const Image<double> mean = test::load_reference_map("hi_04_mean_ref");
  const Image<double> smin = test::load_reference_map("hi_04_stdmin_ref");
  const Image<double> serr = test::load_reference_map("hi_04_std_err");
  const BlockGrid grid(mean.width(), mean.height());
  std::vector<double> mu(grid.count()), sm(grid.count()), se(grid.count()), xi(grid.count()),
      cref(grid.count());
  for (int i = 0; i < grid.rows; ++i)
    for (int j = 0; j < grid.cols; ++j) {
      const std::size_t b = static_cast<std::size_t>(i) * grid.cols + j;
      mu[b] = mean(4 * i, 4 * j);
      sm[b] = smin(4 * i, 4 * j);
      se[b] = serr(4 * i, 4 * j);
      cref[b] = log_contrast(sm[b], mu[b]);
    }
  visibility_mask_cpu(mu.data(), sm.data(), se.data(), grid.count(), xi.data());
  const Image<double> msk = test::tiles_of(xi, grid);
  const double err = test::max_abs_diff(msk.cview(), test::load_reference_map("hi_06_msk").cview());
  EXPECT_LE(err, kMaskTol);
  RecordProperty("hi_06_msk", std::to_string(err));

  // ln(σ_mod/μ) of the original is NaN outside the tiles (0/0): compare the tiled area only.
  const Image<double> ci = test::load_reference_map("hi_05_Ci_ref_REALPART");
  double worst = 0;
  for (int y = 0; y < 4 * grid.rows; ++y)
    for (int x = 0; x < 4 * grid.cols; ++x)
      worst = std::max(
          worst, std::fabs(cref[static_cast<std::size_t>(y / 4) * grid.cols + x / 4] - ci(y, x)));
  EXPECT_LE(worst, kMaskTol);
  EXPECT_TRUE(std::isnan(ci(4 * grid.rows, 0)));
}

}  // namespace
}  // namespace mad::detection
