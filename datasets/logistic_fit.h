// The 5-parameter logistic mapping of Sheikh, Sabir & Bovik (2006), fitted before PLCC and
// RMSE so that they measure prediction accuracy rather than linearity:
//
//   q(x) = b1 * (1/2 - 1 / (1 + exp(b2 * (x - b3)))) + b4 * x + b5
//
// fitted by least squares with Eigen's Levenberg-Marquardt (analytic Jacobian). x is
// standardised internally for conditioning; the returned parameters are in the caller's units.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
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
// Fewer pairs than this (5 per parameter) let the curve follow the points, so PLCC and RMSE
// overstate the agreement: on a 6-pair set they read 1.0000 and 0.011 (issue 39). The reports
// warn below it; the fit itself still runs from kMinFitPoints.
constexpr std::size_t kFewestTrustedFitPairs = 25;

// Whether q with parameters `b` is monotone (never rising and falling both) on [lo, hi].
// q'(x) = b4 + b1 b2 s(1 - s), s = 1 / (1 + exp(b2 (x - b3))); s(1 - s) peaks at x = b3 and
// falls on either side, so q' takes its extremes at lo, hi and b3 (when inside): q is monotone
// when they share a sign. A fit that turns back over the data's range ranks some pairs against
// its own trend, which no quality score does.
bool logistic5_monotone(const LogisticParams& b, double lo, double hi);

// Least-squares fit of q to (x, y). Several deterministic starts (the slope scale b2 at three
// multiples of 1/std(x), the sign of b1 from the data's trend) and the straight-line fit are
// compared; the lowest SSE wins, so the result is never worse than a linear fit. With `start`
// (e.g. the full sample's fit, when fitting bootstrap resamples) that is the only logistic
// start, which is several times faster. Each start is capped at kMaxEvaluations: data with
// few distinct x values pull b2 towards a step (b2 -> infinity) without ever converging.
LogisticFit fit_logistic5(const std::vector<double>& x, const std::vector<double>& y,
                          const LogisticParams* start = nullptr);
constexpr int kMaxEvaluations = 200;
// Levenberg-Marquardt stops when a step's actual and predicted reductions of the SSE are both
// below this fraction of it (MINPACK's ftol). PLCC and RMSE are reported to 4 decimals; 1e-7
// leaves them unchanged to ~8 digits and stops sooner, which matters 1000 times over in the
// bootstrap.
constexpr double kRelativeSseTolerance = 1e-7;

struct FittedAgreement {
  double plcc = 0.0;  // Pearson r between q(x) and y
  double rmse = 0.0;  // in the units of y
  LogisticFit fit;
};

// Fits q and evaluates PLCC and RMSE of q(x) against y. NaN for both when the fit is not ok.
FittedAgreement plcc_rmse_after_fit(const std::vector<double>& x, const std::vector<double>& y,
                                    const LogisticParams* start = nullptr);

// A sample prepared once for many weighted refits (the bootstrap's resamples of it): its
// observations standardised by the full sample's means and standard deviations, for
// conditioning. sx and sy are 1 where the full sample is constant.
struct FitFrame {
  double mx = 0.0, sx = 1.0, my = 0.0, sy = 1.0;
  std::vector<double> xs, ys;
  // Parameters between the caller's units and the frame's: y = my + sy q'((x - mx) / sx).
  LogisticParams to_frame(const LogisticParams& b) const;
  LogisticParams to_caller(const LogisticParams& b) const;
};
FitFrame make_fit_frame(const std::vector<double>& x, const std::vector<double>& y);

// plcc_rmse_after_fit(bx, by, &start) for the resample (bx, by) that holds the frame's
// observation rows[k] weight[k] times (logistic_refit.cpp): the same family, start and stopping
// tolerance, so the same minimum to within that tolerance; but each
// iteration is one pass over the distinct rows accumulating the 5x5 normal equations, instead
// of a QR of the whole materialised resample. Answers only where that minimum is certain:
// std::nullopt when the fit did not converge (within 80 passes), the straight line wins, or the
// curve runs off to a step or a cubic (no finite minimum: where a fit stops then depends on its
// path, so only fit_logistic5's own steps give its answer); the caller then runs
// fit_logistic5_tied (below), or plcc_rmse_after_fit where that declines.
// Not ok (PLCC, RMSE NaN) below kMinFitPoints or on a constant x or y, as fit_logistic5.
std::optional<FittedAgreement> refit_logistic5_weighted(const FitFrame& frame,
                                                        const std::vector<std::size_t>& rows,
                                                        const std::vector<double>& weight,
                                                        const LogisticParams& start);

// A resample with its observations merged by equal x, in the caller's units: per distinct x
// (ascending) how many observations have it and their mean y, and the spread of y about those
// means. The fallback fit below needs nothing else.
struct TiedRows {
  std::vector<double> x, count, mean_y;
  double spread_y = 0.0;  // sum over the resample of (y - mean y at its x)^2
  double observations = 0.0;
};

// A sample's distinct x values, found once, so that each resample of it merges in one pass.
class TiedIndex {
 public:
  explicit TiedIndex(const std::vector<double>& x);  // finite x
  // The resample that holds observation rows[k] weight[k] times (weight > 0).
  TiedRows merge(const std::vector<double>& y, const std::vector<std::size_t>& rows,
                 const std::vector<double>& weight) const;

 private:
  std::vector<double> values_;   // distinct x, ascending
  std::vector<std::size_t> id_;  // observation -> its x's index in values_
};

// plcc_rmse_after_fit(bx, by, &start) for the resample (bx, by) that `rows` describes, where
// the weighted refit has no certain answer (logistic_tied.cpp): the same standardisation, line
// and acceptance test as fit_logistic5, and its Levenberg-Marquardt algorithm run on one row
// per distinct x (logistic_lmder.h), so the same steps up to rounding at a fraction of the
// cost. Where a fit has no finite minimum, rounding alone moves where fit_logistic5 stops (as
// listing the resample's rows in another order does), and the two agree only as closely as
// that. std::nullopt, for the caller to run plcc_rmse_after_fit on the materialised resample,
// where fewer than 5 distinct x (fit_logistic5's Jacobian would be rank-deficient from the
// start) or a constant y (whose mean it rounds) leave its answer to its own arithmetic.
std::optional<FittedAgreement> fit_logistic5_tied(const TiedRows& rows,
                                                  const LogisticParams& start);

}  // namespace mad::datasets
