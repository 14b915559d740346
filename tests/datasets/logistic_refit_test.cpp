// The bootstrap's weighted logistic refit against the oracle, fit_logistic5 warm-started on the
// materialised resample (plcc_rmse_after_fit), and its vectorised pass against plain loops.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <random>

#include "datasets/bootstrap.h"
#include "datasets/logistic_fit.h"
#include "datasets/logistic_pass.h"

namespace mad::datasets {
namespace {

// Both fits stop when a step lowers the SSE by less than kRelativeSseTolerance (1e-7) of it; at
// a well-defined minimum PLCC and RMSE then agree far inside this.
constexpr double kFitAgreement = 1e-6;

TEST(LogisticPass, ExpWithinFourUlpOfStdExp) {
  for (double z = -745.0; z <= 745.0; z += 0.0137) {
    const double want = std::exp(std::clamp(z, -700.0, 700.0));
    EXPECT_NEAR(pass_exp(z), want, 4 * 2.2e-16 * want) << z;
  }
}

TEST(LogisticPass, SumsEqualPlainLoops) {
  std::mt19937 rng(3);
  std::normal_distribution<double> g(0.0, 1.0);
  WeightedRows rows(11);  // not a multiple of 4: the padding must weigh nothing
  std::vector<double> x(11), y(11), w(11);
  for (int k = 0; k < 11; ++k) {
    x[k] = g(rng), y[k] = g(rng), w[k] = 1 + k % 3;
    rows.set(k, x[k], y[k], w[k]);
  }
  const std::array<double, 5> b = {-2.0, 1.3, 0.2, 0.4, 0.1};
  const PassSums s = logistic_pass(rows, b);
  double sse = 0, jtr0 = 0, jtj11 = 0, sqy = 0;
  for (int k = 0; k < 11; ++k) {
    const double e = 1.0 / (1.0 + std::exp(b[1] * (x[k] - b[2])));
    const double q = b[0] * (0.5 - e) + b[3] * x[k] + b[4], r = q - y[k];
    const double j1 = b[0] * e * (1 - e) * (x[k] - b[2]);
    sse += w[k] * r * r, jtr0 += w[k] * (0.5 - e) * r, jtj11 += w[k] * j1 * j1;
    sqy += w[k] * q * y[k];
  }
  EXPECT_NEAR(s.sse, sse, 1e-13 * sse);
  EXPECT_NEAR(s.jtr[0], jtr0, 1e-12);
  EXPECT_NEAR(s.jtj[2], jtj11, 1e-12 * jtj11);  // (1,1) is the third of the lower triangle
  EXPECT_NEAR(s.sqy, sqy, 1e-12);
}

// A well-posed sigmoid: 30 clusters of 8, x spread over the curve's bend.
struct Data {
  std::vector<double> x, y;
  std::vector<std::vector<std::size_t>> members;
};
Data sigmoid_data(std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  Data d;
  d.members.resize(30);
  for (int c = 0; c < 30; ++c)
    for (int k = 0; k < 8; ++k) {
      const double x = 10.0 + 80.0 * (k + 0.3 * g(rng)) / 8.0 + c * 0.2;
      d.members[c].push_back(d.x.size());
      d.x.push_back(x);
      d.y.push_back(1.0 + 4.0 / (1.0 + std::exp((x - 50.0) / 9.0)) + 0.25 * g(rng));
    }
  return d;
}

TEST(RefitLogistic5Weighted, MatchesTheWarmStartedFitOfTheMaterialisedResample) {
  const Data d = sigmoid_data(11);
  const LogisticFit full = fit_logistic5(d.x, d.y);
  ASSERT_TRUE(full.ok);
  ASSERT_FALSE(full.linear);
  const FitFrame frame = make_fit_frame(d.x, d.y);
  int answered = 0;
  for (int r = 0; r < 60; ++r) {
    std::vector<int> weight(30, 0);
    std::vector<double> bx, by;
    for (const std::size_t c : draw_clusters(30, 5, r)) {
      ++weight[c];
      for (const std::size_t i : d.members[c]) bx.push_back(d.x[i]), by.push_back(d.y[i]);
    }
    std::vector<std::size_t> rows;
    std::vector<double> w;
    for (std::size_t c = 0; c < 30; ++c)
      for (const std::size_t i : d.members[c])
        if (weight[c]) rows.push_back(i), w.push_back(weight[c]);
    const std::optional<FittedAgreement> fast = refit_logistic5_weighted(frame, rows, w, full.beta);
    if (!fast) continue;  // left to fit_logistic5 (iqa_stats.cpp runs it): nothing to compare
    ++answered;
    const FittedAgreement oracle = plcc_rmse_after_fit(bx, by, &full.beta);
    EXPECT_NEAR(fast->plcc, oracle.plcc, kFitAgreement) << r;
    EXPECT_NEAR(fast->rmse, oracle.rmse, kFitAgreement * oracle.rmse) << r;
    EXPECT_NEAR(fast->fit.sse, oracle.fit.sse, kFitAgreement * oracle.fit.sse) << r;
    EXPECT_FALSE(oracle.fit.linear) << r;
    // The curves, not the parameters (which a flat SSE leaves loose), agree.
    for (double x : {20.0, 50.0, 80.0})
      EXPECT_NEAR(logistic5(fast->fit.beta, x), logistic5(oracle.fit.beta, x), 1e-3) << r;
  }
  EXPECT_GE(answered, 55);  // on this well-posed curve nearly every resample takes the fast fit
}

TEST(RefitLogistic5Weighted, RefusesWhatFitLogistic5Refuses) {
  const Data d = sigmoid_data(2);
  const FitFrame frame = make_fit_frame(d.x, d.y);
  const LogisticParams start = fit_logistic5(d.x, d.y).beta;
  // Five points (weight 5 on one row) are below kMinFitPoints; one row is a constant sample.
  EXPECT_TRUE(std::isnan(refit_logistic5_weighted(frame, {0, 1}, {2, 3}, start).value().plcc));
  EXPECT_TRUE(std::isnan(refit_logistic5_weighted(frame, {4}, {9}, start).value().rmse));
  EXPECT_THROW(refit_logistic5_weighted(frame, {0, 1}, {1}, start), std::exception);
}

TEST(RefitLogistic5Weighted, LeavesLinesStepsAndCubicsToFitLogistic5) {
  std::vector<double> x, y;
  for (int i = 0; i < 40; ++i) x.push_back(i), y.push_back(3.0 - 0.5 * i);
  std::vector<std::size_t> rows(40);
  for (std::size_t i = 0; i < 40; ++i) rows[i] = i;
  const std::vector<double> ones(40, 1.0);
  // An exact line: the logistic cannot beat it.
  EXPECT_FALSE(refit_logistic5_weighted(make_fit_frame(x, y), rows, ones, {-1, 0.1, 20, -0.5, 3}));
  // Two plateaus: the best curve is a step between x = 19 and 20, which no finite b2 reaches.
  for (int i = 0; i < 40; ++i) y[i] = i < 20 ? 4.0 : 1.0;
  EXPECT_FALSE(refit_logistic5_weighted(make_fit_frame(x, y), rows, ones, {-3, 1, 19.5, 0, 2.5}));
  // A cubic: the logistic approaches it only as b1 -> 0 with b1 and b4 running off.
  for (int i = 0; i < 40; ++i) y[i] = 1e-3 * (i - 20) * (i - 20) * (i - 20);
  EXPECT_FALSE(refit_logistic5_weighted(make_fit_frame(x, y), rows, ones, {-40, 0.1, 20, 1, 0}));
}

}  // namespace
}  // namespace mad::datasets
