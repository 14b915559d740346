// The 5-parameter logistic fit: exact recovery of an exactly logistic relation (PLCC = 1,
// RMSE = 0), never worse than a straight line, equivariance under affine changes of x.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "datasets/correlation.h"
#include "datasets/logistic_fit.h"

namespace mad::datasets {
namespace {

using V = std::vector<double>;

// Tolerances: LM stops on relative steps of ~1.5e-8 (sqrt(eps)), so an exact relation is
// recovered to roughly that relative level in the residuals.
constexpr double kExactPlccTol = 1e-9;  // 1 - PLCC is quadratic in the residuals
constexpr double kExactRmseTol = 1e-5;  // residuals relative to a y range of ~8

TEST(Logistic5, FormulaAtKnownPoints) {
  const LogisticParams b = {2.0, 1.0, 3.0, 0.5, 1.0};
  // At x = b3 the logistic term is 1/2 - 1/2 = 0: q = b4*x + b5.
  EXPECT_DOUBLE_EQ(logistic5(b, 3.0), 0.5 * 3.0 + 1.0);
  // Far above b3 the term tends to b1/2, far below to -b1/2.
  EXPECT_NEAR(logistic5(b, 1000.0) - (0.5 * 1000 + 1), 1.0, 1e-12);
  EXPECT_NEAR(logistic5(b, -1000.0) - (0.5 * -1000 + 1), -1.0, 1e-12);
}

// q' = b4 + b1 b2 s(1 - s) (logistic_fit.h): a steep logistic against an opposite linear term
// turns back near b3 and nowhere else.
TEST(Logistic5Monotone, ATurnInsideTheRangeIsFound) {
  const LogisticParams turns = {4.0, 3.0, 5.0, -0.5, 0.0};  // q' = -0.5 + 12 s(1-s): +2.5 at 5
  EXPECT_FALSE(logistic5_monotone(turns, 0.0, 10.0));
  EXPECT_FALSE(logistic5_monotone(turns, 3.0, 6.0));   // falls at 3 (q' -0.47), rises at 5
  EXPECT_FALSE(logistic5_monotone(turns, 5.5, 10.0));  // the slope changes sign past the peak
  EXPECT_TRUE(logistic5_monotone(turns, 7.0, 10.0));   // only the falling tail
  EXPECT_TRUE(logistic5_monotone(turns, -10.0, 3.0));
  EXPECT_TRUE(logistic5_monotone({4.0, 3.0, 5.0, 0.5, 0.0}, 0.0, 10.0));  // both rise
  EXPECT_TRUE(logistic5_monotone({0.0, 1.0, 0.0, -2.0, 1.0}, -1e3, 1e3));  // the line
  EXPECT_TRUE(logistic5_monotone({1.0, 1e6, 0.0, -1e-9, 0.0}, 1.0, 2.0));  // no overflow
}

class ExactLogistic : public ::testing::TestWithParam<LogisticParams> {};

TEST_P(ExactLogistic, IsRecoveredWithPlccOneAndRmseZero) {
  const LogisticParams truth = GetParam();
  V x, y;
  for (int i = 0; i < 80; ++i) {
    x.push_back(1.5 * i);  // MAD-like range 0..120
    y.push_back(logistic5(truth, x.back()));
  }
  const FittedAgreement a = plcc_rmse_after_fit(x, y);
  ASSERT_TRUE(a.fit.ok);
  EXPECT_NEAR(a.plcc, 1.0, kExactPlccTol);
  EXPECT_LT(a.rmse, kExactRmseTol);
  EXPECT_FALSE(a.fit.linear);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, ExactLogistic,
    ::testing::Values(LogisticParams{-7.0, 0.08, 55.0, 0.0, 4.5},     // MOS falling with MAD
                      LogisticParams{0.8, 0.05, 40.0, 0.001, 0.4},    // DMOS rising with MAD
                      LogisticParams{-5.0, 0.2, 70.0, -0.01, 6.0}));  // steep, with a linear part

TEST(FitLogistic5, ExactLineGivesPlccOne) {
  V x, y;
  for (int i = 0; i < 20; ++i) x.push_back(i), y.push_back(9.0 - 0.3 * i);
  const FittedAgreement a = plcc_rmse_after_fit(x, y);
  ASSERT_TRUE(a.fit.ok);
  EXPECT_NEAR(a.plcc, 1.0, 1e-12);
  EXPECT_LT(a.rmse, 1e-9);
}

TEST(FitLogistic5, NeverWorseThanTheLeastSquaresLine) {
  std::mt19937 rng(11);
  std::normal_distribution<double> noise(0.0, 0.7);
  V x, y;
  for (int i = 0; i < 150; ++i) {
    x.push_back(i * 0.8);
    y.push_back(logistic5({-6, 0.1, 60, 0, 4}, x.back()) + noise(rng));
  }
  // Least-squares line: SSE = Syy (1 - r^2).
  double my = 0;
  for (double v : y) my += v / y.size();
  double syy = 0;
  for (double v : y) syy += (v - my) * (v - my);
  const double r = pearson(x, y);
  const LogisticFit f = fit_logistic5(x, y);
  ASSERT_TRUE(f.ok);
  EXPECT_LE(f.sse, syy * (1 - r * r) * (1 + 1e-12));
  EXPECT_GT(plcc_rmse_after_fit(x, y).plcc, std::abs(r));  // the curvature is real here
}

TEST(FitLogistic5, EquivariantUnderAffineChangesOfX) {
  std::mt19937 rng(3);
  std::normal_distribution<double> noise(0.0, 0.4);
  V x, y, x2;
  for (int i = 0; i < 100; ++i) {
    x.push_back(i);
    x2.push_back(10.0 * i + 3.0);
    y.push_back(logistic5({5, 0.1, 50, 0, 2}, i) + noise(rng));
  }
  const FittedAgreement a = plcc_rmse_after_fit(x, y), b = plcc_rmse_after_fit(x2, y);
  EXPECT_NEAR(a.plcc, b.plcc, 1e-9);
  EXPECT_NEAR(a.rmse, b.rmse, 1e-9);
}

TEST(FitLogistic5, TooFewOrConstantPointsGiveNoFit) {
  const FittedAgreement few = plcc_rmse_after_fit({1, 2, 3, 4, 5}, {5, 4, 3, 2, 1});
  EXPECT_FALSE(few.fit.ok);
  EXPECT_TRUE(std::isnan(few.plcc));
  EXPECT_TRUE(std::isnan(few.rmse));
  EXPECT_FALSE(fit_logistic5({1, 1, 1, 1, 1, 1, 1}, {1, 2, 3, 4, 5, 6, 7}).ok);
}

}  // namespace
}  // namespace mad::datasets
