#include "datasets/logistic_fit.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <unsupported/Eigen/LevenbergMarquardt>

#include "common/error.h"
#include "common/parallel.h"
#include "datasets/correlation.h"

namespace mad::datasets {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// From this many points fit_logistic5's starts run on threads of their own: smaller fits take
// milliseconds, and the bootstrap's groups already run side by side.
constexpr std::size_t kParallelStartsPoints = 2000;

// Residuals q(x_i) - y_i and their analytic Jacobian, on standardised data.
struct Logistic5Functor : Eigen::DenseFunctor<double> {
  const std::vector<double>& x;
  const std::vector<double>& y;
  Logistic5Functor(const std::vector<double>& xs, const std::vector<double>& ys)
      : Eigen::DenseFunctor<double>(5, static_cast<int>(xs.size())), x(xs), y(ys) {}

  int operator()(const InputType& b, ValueType& f) const {
    for (std::size_t i = 0; i < x.size(); ++i)
      f(static_cast<Eigen::Index>(i)) = logistic5({b(0), b(1), b(2), b(3), b(4)}, x[i]) - y[i];
    return 0;
  }
  // With s = 1/(1+exp(z)), z = b2 (x - b3): ds/dz = -s(1-s), so the b2 and b3 columns carry
  // b1 s (1-s) times dz/db.
  int df(const InputType& b, JacobianType& j) const {
    for (std::size_t i = 0; i < x.size(); ++i) {
      const auto r = static_cast<Eigen::Index>(i);
      const double s = 1.0 / (1.0 + std::exp(b(1) * (x[i] - b(2))));
      const double g = b(0) * s * (1.0 - s);
      j(r, 0) = 0.5 - s;
      j(r, 1) = g * (x[i] - b(2));
      j(r, 2) = -g * b(1);
      j(r, 3) = x[i];
      j(r, 4) = 1.0;
    }
    return 0;
  }
};

double sse_of(const LogisticParams& b, const std::vector<double>& x, const std::vector<double>& y) {
  double s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double r = logistic5(b, x[i]) - y[i];
    s += r * r;
  }
  return s;
}

void mean_std(const std::vector<double>& v, double& mean, double& sd) {
  mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  double ss = 0;
  for (double e : v) ss += (e - mean) * (e - mean);
  sd = std::sqrt(ss / static_cast<double>(v.size()));
}

}  // namespace

LogisticParams FitFrame::to_frame(const LogisticParams& s) const {
  return {s[0] / sy, s[1] * sx, (s[2] - mx) / sx, s[3] * sx / sy, (s[4] + s[3] * mx - my) / sy};
}

LogisticParams FitFrame::to_caller(const LogisticParams& b) const {
  return {sy * b[0], b[1] / sx, mx + sx * b[2], sy * b[3] / sx,
          my + sy * b[4] - sy * b[3] * mx / sx};
}

FitFrame make_fit_frame(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size()) throw InvalidArgument("make_fit_frame: samples of different lengths");
  FitFrame f;
  if (x.empty()) return f;
  mean_std(x, f.mx, f.sx);
  mean_std(y, f.my, f.sy);
  if (!(f.sx > 0)) f.sx = 1.0;
  if (!(f.sy > 0)) f.sy = 1.0;
  f.xs.resize(x.size());
  f.ys.resize(y.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    f.xs[i] = (x[i] - f.mx) / f.sx;
    f.ys[i] = (y[i] - f.my) / f.sy;
  }
  return f;
}

double logistic5(const LogisticParams& b, double x) {
  return b[0] * (0.5 - 1.0 / (1.0 + std::exp(b[1] * (x - b[2])))) + b[3] * x + b[4];
}

bool logistic5_monotone(const LogisticParams& b, double lo, double hi) {
  const auto slope = [&b](double x) {
    const double e = std::exp(-std::abs(b[1] * (x - b[2])));  // s(1 - s) without overflow
    return b[3] + b[0] * b[1] * e / ((1.0 + e) * (1.0 + e));
  };
  double low = std::min(slope(lo), slope(hi)), high = std::max(slope(lo), slope(hi));
  if (lo < b[2] && b[2] < hi) {
    low = std::min(low, slope(b[2]));
    high = std::max(high, slope(b[2]));
  }
  return low >= 0.0 || high <= 0.0;
}

LogisticFit fit_logistic5(const std::vector<double>& x, const std::vector<double>& y,
                          const LogisticParams* start) {
  if (x.size() != y.size()) throw InvalidArgument("fit_logistic5: samples of different lengths");
  LogisticFit out;
  if (static_cast<int>(x.size()) < kMinFitPoints) return out;
  double mx, sx, my, sy;
  mean_std(x, mx, sx);
  mean_std(y, my, sy);
  if (!(sx > 0) || !(sy > 0)) return out;  // a constant sample has no trend to fit
  const FitFrame frame{mx, sx, my, sy, {}, {}};
  std::vector<double> xs(x.size()), ys(y.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    xs[i] = (x[i] - mx) / sx;
    ys[i] = (y[i] - my) / sy;
  }
  const double r = pearson(xs, ys);
  const double sign = r < 0 ? -1.0 : 1.0;
  double lo = ys[0], hi = ys[0];
  for (double v : ys) lo = std::min(lo, v), hi = std::max(hi, v);

  // The straight line (b1 = 0) is a member of the family: its fit is the baseline to beat.
  LogisticParams best = {0.0, 1.0, 0.0, std::isnan(r) ? 0.0 : r, 0.0};
  double best_sse = sse_of(best, xs, ys);
  bool linear = true;
  std::vector<Eigen::VectorXd> starts;
  if (start) {
    // The caller's parameters in this sample's standardised units (inverse of the map below).
    const LogisticParams s = frame.to_frame(*start);
    Eigen::VectorXd b(5);
    b << s[0], s[1], s[2], s[3], s[4];
    if (b.allFinite()) starts.push_back(b);
  } else {
    for (const double slope : {0.5, 1.5, 4.0}) {
      Eigen::VectorXd b(5);
      b << sign * (hi - lo), slope, 0.0, 0.0, 0.0;
      starts.push_back(b);
    }
  }
  // The starts' minimisations are independent. On a large sample (a dataset's overall group:
  // 10,125 pairs in KADID-10k, whose fit is the longest task before the bootstrap's loop
  // starts) they run side by side; the best is then taken in the starts' order, as before.
  std::vector<Eigen::VectorXd> ends = starts;
  const auto minimise = [&](int i) {
    Logistic5Functor functor(xs, ys);
    Eigen::LevenbergMarquardt<Logistic5Functor> lm(functor);
    lm.setMaxfev(kMaxEvaluations);
    lm.setFtol(kRelativeSseTolerance);
    lm.minimize(ends[static_cast<std::size_t>(i)]);
  };
  if (x.size() >= kParallelStartsPoints)
    parallel_for(static_cast<int>(ends.size()), minimise);
  else
    for (int i = 0; i < static_cast<int>(ends.size()); ++i) minimise(i);
  for (const Eigen::VectorXd& b : ends) {
    if (!b.allFinite()) continue;
    const LogisticParams cand = {b(0), b(1), b(2), b(3), b(4)};
    const double s = sse_of(cand, xs, ys);
    if (std::isfinite(s) && s < best_sse) best_sse = s, best = cand, linear = false;
  }
  // Back to the caller's units: y = my + sy * q'((x - mx) / sx).
  out.beta = frame.to_caller(best);
  out.ok = true;
  out.linear = linear;
  out.sse = sse_of(out.beta, x, y);
  return out;
}

FittedAgreement plcc_rmse_after_fit(const std::vector<double>& x, const std::vector<double>& y,
                                    const LogisticParams* start) {
  FittedAgreement a;
  a.fit = fit_logistic5(x, y, start);
  if (!a.fit.ok) {
    a.plcc = a.rmse = kNaN;
    return a;
  }
  std::vector<double> q(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) q[i] = logistic5(a.fit.beta, x[i]);
  a.plcc = pearson(q, y);
  a.rmse = datasets::rmse(q, y);
  return a;
}

}  // namespace mad::datasets
