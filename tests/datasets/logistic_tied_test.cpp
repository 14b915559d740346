// The bootstrap's fallback fit on rows merged by x (fit_logistic5_tied) against the fit it
// stands in for, fit_logistic5 warm-started on the materialised resample (plcc_rmse_after_fit):
// step for step where the curve has a finite best fit, and on data like mad eval's synthetic
// set, whose curves mostly have none, as close as fit_logistic5 is to itself when the same
// resample's rows are listed in another order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>

#include "datasets/bootstrap.h"
#include "datasets/logistic_fit.h"
#include "datasets/logistic_pass.h"

namespace mad::datasets {
namespace {

// Same algorithm, same start, rows merged: only rounding differs, and where the fit converges
// to a finite minimum rounding moves nothing the reports show.
constexpr double kSamePath = 1e-9;

struct Group {
  std::vector<double> x, y;
  std::vector<std::vector<std::size_t>> members;  // by reference
};

// A well-posed sigmoid with ties: x on a grid of 12 values, 25 references of 8 pairs.
Group tied_sigmoid(std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  std::uniform_int_distribution<int> grid(0, 11);
  Group d;
  d.members.resize(25);
  for (int c = 0; c < 25; ++c)
    for (int k = 0; k < 8; ++k) {
      const double x = 10.0 + 7.0 * grid(rng);
      d.members[c].push_back(d.x.size());
      d.x.push_back(x);
      d.y.push_back(1.0 + 4.0 / (1.0 + std::exp((x - 50.0) / 9.0)) + 0.25 * g(rng));
    }
  return d;
}

// One distortion type of data shaped like `mad eval --make-synthetic`'s set at 512x384: the
// opinion a function of the level and a per-reference offset only (1 .. 5 by steps of 0.8,
// +-0.15), MAD 0 at the mild levels a type does not reach (ties) and otherwise rising with the
// level with per-image scatter. The opinion is not a function of MAD, so the logistic's best
// fit mostly runs off to a step or a cubic: the case the fallback fit exists for.
Group synthetic_set_type(int zero_levels, double slope, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  Group d;
  d.members.resize(40);
  for (int r = 0; r < 40; ++r)
    for (int level = 1; level <= 5; ++level) {
      const double mad =
          level <= zero_levels ? 0.0 : slope * (level - zero_levels) * (1.0 + 0.25 * g(rng));
      d.members[r].push_back(d.x.size());
      d.x.push_back(std::max(0.0, mad));
      d.y.push_back(std::clamp(5.0 - 0.8 * (level - 1) + 0.05 * ((r * 37) % 7 - 3), 1.0, 5.0));
    }
  return d;
}

struct Resample {
  std::vector<double> bx, by;  // materialised, in the bootstrap's order
  std::vector<std::size_t> rows;
  std::vector<double> weight;
};

Resample draw(const Group& d, int r) {
  Resample s;
  std::vector<int> w(d.members.size(), 0);
  for (const std::size_t c : draw_clusters(d.members.size(), 20100101, r)) {
    ++w[c];
    for (const std::size_t i : d.members[c]) s.bx.push_back(d.x[i]), s.by.push_back(d.y[i]);
  }
  for (std::size_t c = 0; c < d.members.size(); ++c)
    for (const std::size_t i : d.members[c])
      if (w[c]) s.rows.push_back(i), s.weight.push_back(w[c]);
  return s;
}

// The fallback fit's transition takes exp as a Pade quotient (logistic_pass.cpp); a few ulp
// of 1/(1+exp) with the standard exp, the pass's own exp4 being within 4.
constexpr double kTransitionUlps = 4;

TEST(LogisticTransition, WithinAFewUlpOfTheStandardExp) {
  std::vector<double> z;
  for (double v = -745.0; v <= 745.0; v += 0.0137) z.push_back(v);
  while (z.size() % 4) z.push_back(0.0);
  std::vector<double> s(z.size());
  logistic_transition(z.data(), z.size(), 1.0, 0.0, s.data());
  for (std::size_t i = 0; i < z.size(); ++i) {
    const double want = 1.0 / (1.0 + std::exp(std::clamp(z[i], -700.0, 700.0)));
    EXPECT_NEAR(s[i], want, kTransitionUlps * 2.2e-16 * want) << z[i];
  }
  // Slope and centre enter as slope (x - centre).
  const double x[4] = {1.0, 2.0, 3.0, 4.0};
  double t[4];
  logistic_transition(x, 4, -0.5, 2.5, t);
  for (int i = 0; i < 4; ++i)
    EXPECT_NEAR(t[i], 1.0 / (1.0 + std::exp(-0.5 * (x[i] - 2.5))), 1e-15) << i;
}

TEST(TiedIndex, MergesAResampleByEqualX) {
  const std::vector<double> x = {3.0, 1.0, 3.0, 2.0, 1.0}, y = {1.0, 2.0, 5.0, 4.0, 6.0};
  const TiedIndex index(x);
  // Observation 0 twice, 2 once, 4 three times, 3 once (1 not drawn).
  const TiedRows t = index.merge(y, {0, 2, 3, 4}, {2.0, 1.0, 1.0, 3.0});
  EXPECT_EQ(t.x, (std::vector<double>{1.0, 2.0, 3.0}));
  EXPECT_EQ(t.count, (std::vector<double>{3.0, 1.0, 3.0}));
  EXPECT_EQ(t.mean_y, (std::vector<double>{6.0, 4.0, 7.0 / 3.0}));
  // At x = 3: y 1, 1, 5 about their mean 7/3.
  const double m = 7.0 / 3.0;
  EXPECT_NEAR(t.spread_y, 2 * (1 - m) * (1 - m) + (5 - m) * (5 - m), 1e-12);
  EXPECT_EQ(t.observations, 7.0);
  EXPECT_THROW(index.merge(y, {0, 1}, {1.0}), std::exception);
}

TEST(FitLogistic5Tied, FollowsFitLogistic5StepForStepWhereTheBestFitIsFinite) {
  const Group d = tied_sigmoid(4);
  const LogisticFit full = fit_logistic5(d.x, d.y);
  ASSERT_TRUE(full.ok);
  ASSERT_FALSE(full.linear);
  const TiedIndex index(d.x);
  for (int r = 0; r < 40; ++r) {
    const Resample s = draw(d, r);
    const std::optional<FittedAgreement> tied =
        fit_logistic5_tied(index.merge(d.y, s.rows, s.weight), full.beta);
    ASSERT_TRUE(tied.has_value()) << r;
    const FittedAgreement old = plcc_rmse_after_fit(s.bx, s.by, &full.beta);
    EXPECT_NEAR(tied->plcc, old.plcc, kSamePath) << r;
    EXPECT_NEAR(tied->rmse, old.rmse, kSamePath * old.rmse) << r;
    EXPECT_NEAR(tied->fit.sse, old.fit.sse, kSamePath * old.fit.sse) << r;
    EXPECT_EQ(tied->fit.linear, old.fit.linear) << r;
    for (int u = 0; u < 5; ++u)  // the same steps reach the same parameters
      EXPECT_NEAR(tied->fit.beta[u], old.fit.beta[u], 1e-6 * (1 + std::abs(old.fit.beta[u])))
          << r << " b" << u + 1;
  }
}

// On data whose best fit mostly has no finite minimum, fit_logistic5 stops wherever its path
// has got to after 200 evaluations or where one step happens to gain little, so rounding moves
// its answer: listing a resample's rows in reverse order moves PLCC by up to ~1e-4 on such
// data (at 48x40 pixels, where MAD's ties and noise are coarser; on this data far less). The
// fallback fit follows the same steps with other rounding; it must agree with fit_logistic5 as
// closely as fit_logistic5 agrees with itself, resample by resample.
TEST(FitLogistic5Tied, AgreesWithFitLogistic5AsCloselyAsItAgreesWithItselfOnTheSyntheticSet) {
  int compared = 0, same_path = 0, declined = 0;
  double tied_gap = 0, own_gap = 0;
  for (const auto& [zero_levels, slope] : {std::pair{0, 18.0}, {1, 20.0}, {2, 45.0}, {3, 60.0}}) {
    const Group d = synthetic_set_type(zero_levels, slope, 11 + zero_levels);
    const LogisticFit full = fit_logistic5(d.x, d.y);
    ASSERT_TRUE(full.ok);
    const TiedIndex index(d.x);
    const FitFrame frame = make_fit_frame(d.x, d.y);
    for (int r = 0; r < 60; ++r) {
      Resample s = draw(d, r);
      const std::optional<FittedAgreement> tied =
          fit_logistic5_tied(index.merge(d.y, s.rows, s.weight), full.beta);
      ASSERT_TRUE(tied.has_value());
      const FittedAgreement old = plcc_rmse_after_fit(s.bx, s.by, &full.beta);
      declined += !refit_logistic5_weighted(frame, s.rows, s.weight, full.beta).has_value();
      std::reverse(s.bx.begin(), s.bx.end());
      std::reverse(s.by.begin(), s.by.end());
      const FittedAgreement reversed = plcc_rmse_after_fit(s.bx, s.by, &full.beta);
      // PLCC's difference, and RMSE's relative to it.
      const auto gap = [&](const FittedAgreement& a) {
        return std::max(std::abs(a.plcc - old.plcc), std::abs(a.rmse - old.rmse) / old.rmse);
      };
      tied_gap = std::max(tied_gap, gap(*tied));
      own_gap = std::max(own_gap, gap(reversed));
      same_path += gap(*tied) <= kSamePath;
      ++compared;
    }
  }
  // The data are the case in point: the weighted refit leaves most resamples to the fallback.
  EXPECT_GE(2 * declined, compared);
  EXPECT_LE(tied_gap, 3 * own_gap + kSamePath);
  EXPECT_GE(same_path, compared * 9 / 10);
}

TEST(FitLogistic5Tied, LeavesToFitLogistic5WhatItsOwnArithmeticDecides) {
  const LogisticParams start = {-3.0, 0.2, 50.0, 0.0, 3.0};
  const auto merged = [](std::vector<double> x, std::vector<double> y) {
    std::vector<std::size_t> rows(x.size());
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = i;
    return TiedIndex(x).merge(y, rows, std::vector<double>(x.size(), 1.0));
  };
  // Four distinct x: fit_logistic5's Jacobian starts rank-deficient.
  EXPECT_FALSE(
      fit_logistic5_tied(merged({1, 2, 3, 4, 1, 2, 3, 4}, {5, 4, 3, 1, 5, 4, 2, 1}), start));
  // A constant y, whose mean fit_logistic5 rounds its own way.
  EXPECT_FALSE(fit_logistic5_tied(
      merged({1, 2, 3, 4, 5, 6, 7}, {0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}), start));
  // Five observations: below kMinFitPoints, refused as fit_logistic5 refuses (PLCC NaN).
  const auto few = fit_logistic5_tied(merged({1, 2, 3, 4, 5}, {5, 4, 3, 2, 1}), start);
  ASSERT_TRUE(few.has_value());
  EXPECT_TRUE(std::isnan(few->plcc));
  EXPECT_FALSE(few->fit.ok);
}

}  // namespace
}  // namespace mad::datasets
