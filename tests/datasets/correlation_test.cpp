// SROCC, KROCC (tau-b) and PLCC against values worked out by hand (shown in the comments) and
// invariances that must hold whatever the implementation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>

#include "datasets/correlation.h"

namespace mad::datasets {
namespace {

using V = std::vector<double>;

// Brute-force tau-b straight from its definition, O(n^2): the fast one must agree.
double tau_b_by_pairs(const V& x, const V& y) {
  double c = 0, d = 0, tx = 0, ty = 0, n0 = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t j = i + 1; j < x.size(); ++j) {
      ++n0;
      const double s = (x[i] - x[j]) * (y[i] - y[j]);
      if (x[i] == x[j]) ++tx;
      if (y[i] == y[j]) ++ty;
      if (s > 0) ++c;
      if (s < 0) ++d;
    }
  return (c - d) / std::sqrt((n0 - tx) * (n0 - ty));
}

TEST(AverageRanks, TiesShareTheMeanRank) {
  EXPECT_EQ(average_ranks({10, 20, 20, 30}), (V{1, 2.5, 2.5, 4}));
  EXPECT_EQ(average_ranks({5, 5, 5}), (V{2, 2, 2}));
  EXPECT_EQ(average_ranks({3, 1, 2}), (V{3, 1, 2}));
}

TEST(Pearson, HandComputedCases) {
  // x = 1,2,3; y = 1,3,2: deviations (-1,0,1) and (-1,1,0): r = 1 / sqrt(2 * 2) = 0.5.
  EXPECT_NEAR(pearson({1, 2, 3}, {1, 3, 2}), 0.5, 1e-15);
  EXPECT_NEAR(pearson({1, 2, 3, 4}, {7, 5, 3, 1}), -1.0, 1e-15);
  EXPECT_TRUE(std::isnan(pearson({1, 2, 3}, {4, 4, 4})));  // constant sample
  EXPECT_TRUE(std::isnan(pearson({1}, {2})));
}

TEST(Spearman, WithTiesMatchesTheHandComputedValue) {
  // y = 5,6,7,8,7 has ranks 1,2,3.5,5,3.5; against x ranks 1..5 the centred sums are
  // Sxy = 4+1+0+2+1 = 8, Sxx = 10, Syy = 9.5, so rho = 8 / sqrt(95).
  EXPECT_NEAR(spearman({1, 2, 3, 4, 5}, {5, 6, 7, 8, 7}), 8.0 / std::sqrt(95.0), 1e-15);
}

TEST(KendallTauB, TextbookExampleWithTies) {
  // x = 12,2,1,12,2 and y = 1,4,7,1,0: of the 10 pairs 2 are concordant, 6 discordant, 2 tied
  // in x (one of them also tied in y) and 1 tied in y, so tau-b = (2-6)/sqrt(8*9) = -0.4714...
  const V x = {12, 2, 1, 12, 2}, y = {1, 4, 7, 1, 0};
  EXPECT_NEAR(kendall_tau_b(x, y), -4.0 / std::sqrt(72.0), 1e-15);
  // x = 1,2,2,3 and y = 1,3,2,3: C = 4, D = 0, one tie in each: 4 / sqrt(5 * 5) = 0.8.
  EXPECT_NEAR(kendall_tau_b({1, 2, 2, 3}, {1, 3, 2, 3}), 0.8, 1e-15);
  EXPECT_DOUBLE_EQ(kendall_tau_b({1, 2, 3}, {3, 2, 1}), -1.0);
  EXPECT_TRUE(std::isnan(kendall_tau_b({1, 1, 1}, {1, 2, 3})));
}

TEST(KendallTauB, AgreesWithTheDefinitionOnRandomDataWithManyTies) {
  for (std::uint32_t seed : {1u, 2u, 3u, 4u, 5u}) {
    SCOPED_TRACE(seed);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> coarse(0, 6);  // few values: many ties in x and y
    V x(200 + seed * 37), y(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      x[i] = coarse(rng);
      y[i] = (i % 3 == 0) ? x[i] : coarse(rng);  // a partial dependence
    }
    EXPECT_NEAR(kendall_tau_b(x, y), tau_b_by_pairs(x, y), 1e-12);
  }
}

TEST(RankCorrelations, InvariantUnderIncreasingMapsAndFlippedByDecreasingOnes) {
  std::mt19937 rng(7);
  std::normal_distribution<double> g(0.0, 1.0);
  V x(300), y(300);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = g(rng);
    y[i] = 0.6 * x[i] + g(rng);
  }
  V up(x.size()), down(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    up[i] = std::exp(3 * x[i]) + x[i] * x[i] * x[i];  // strictly increasing
    down[i] = -std::atan(x[i]);                       // strictly decreasing
  }
  EXPECT_DOUBLE_EQ(spearman(up, y), spearman(x, y));
  EXPECT_DOUBLE_EQ(kendall_tau_b(up, y), kendall_tau_b(x, y));
  EXPECT_DOUBLE_EQ(spearman(down, y), -spearman(x, y));
  EXPECT_DOUBLE_EQ(kendall_tau_b(down, y), -kendall_tau_b(x, y));
  // Pearson is not rank-based: the exponential map changes it.
  EXPECT_GT(std::abs(pearson(up, y) - pearson(x, y)), 1e-3);
}

TEST(Rmse, HandComputed) {
  EXPECT_DOUBLE_EQ(rmse({1, 2, 3}, {1, 2, 3}), 0.0);
  EXPECT_DOUBLE_EQ(rmse({0, 0}, {3, 4}), std::sqrt(12.5));
}

}  // namespace
}  // namespace mad::datasets
