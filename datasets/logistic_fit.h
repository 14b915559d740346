// The 5-parameter logistic mapping of Sheikh, Sabir & Bovik (2006), fitted before PLCC and
// RMSE so that they measure prediction accuracy rather than linearity:
//
//   q(x) = b1 * (1/2 - 1 / (1 + exp(b2 * (x - b3)))) + b4 * x + b5
//
// fitted by least squares with Eigen's Levenberg-Marquardt (analytic Jacobian). x is
// standardised internally for conditioning; the returned parameters are in the caller's units.
#pragma once

#include <array>
#include <vector>

namespace mad::datasets {

using LogisticParams = std::array<double, 5>;  // b1..b5

double logistic5(const LogisticParams& b, double x);

struct LogisticFit {
  LogisticParams beta{};
  bool ok = false;      // false: fewer than kMinFitPoints or every start failed
  bool linear = false;  // true when the best fit found is the linear member (b1 = 0)
  double sse = 0.0;     // sum of squared residuals at beta
};

// Fewer points than this leave the five parameters (nearly) free to interpolate.
constexpr int kMinFitPoints = 6;

// Least-squares fit of q to (x, y). Several deterministic starts (the slope scale b2 at three
// multiples of 1/std(x), the sign of b1 from the data's trend) and the straight-line fit are
// compared; the lowest SSE wins, so the result is never worse than a linear fit. With `start`
// (e.g. the full sample's fit, when fitting bootstrap resamples) that is the only logistic
// start, which is several times faster. Each start is capped at kMaxEvaluations: data with
// few distinct x values pull b2 towards a step (b2 -> infinity) without ever converging.
LogisticFit fit_logistic5(const std::vector<double>& x, const std::vector<double>& y,
                          const LogisticParams* start = nullptr);
constexpr int kMaxEvaluations = 200;

struct FittedAgreement {
  double plcc = 0.0;  // Pearson r between q(x) and y
  double rmse = 0.0;  // in the units of y
  LogisticFit fit;
};

// Fits q and evaluates PLCC and RMSE of q(x) against y. NaN for both when the fit is not ok.
FittedAgreement plcc_rmse_after_fit(const std::vector<double>& x, const std::vector<double>& y,
                                    const LogisticParams* start = nullptr);

}  // namespace mad::datasets
