// The bootstrap's refit of the 5-parameter logistic (logistic_fit.h): Levenberg-Marquardt on
// the 5x5 normal equations, weighted by how often each distinct observation occurs in the
// resample. One pass over the distinct rows per iteration builds J'WJ, J'Wr, the SSE and the
// moments PLCC needs (Gauss-Newton's model, as MINPACK's LM that fit_logistic5 runs through
// Eigen); the 5x5 solve is negligible. The full sample's standardisation keeps J'WJ's
// condition near that of J. Stopping: MINPACK's ftol and xtol tests with fit_logistic5's
// values, and the same cap of kMaxEvaluations passes.
#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "common/error.h"
#include "datasets/logistic_fit.h"
#include "datasets/logistic_pass.h"

namespace mad::datasets {
namespace {

using Vec5 = Eigen::Matrix<double, 5, 1>;
using Mat5 = Eigen::Matrix<double, 5, 5>;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kXTolerance = 1.4901161193847656e-8;  // Eigen's LM default (sqrt of epsilon)
// A fit from the full sample's curve that has not converged by this many passes is heading
// somewhere fit_logistic5 may not follow (see determined()); it is handed back early rather
// than run to kMaxEvaluations, since fit_logistic5 then fits that resample anyway.
constexpr int kRefitEvaluations = 80;

struct Pass {
  Mat5 jtj;
  Vec5 jtr;
  double sse = 0.0, sq = 0.0, sqq = 0.0, sqy = 0.0;  // weighted sums of r^2, q, q^2, q y
};

bool evaluate(const WeightedRows& rows, const Vec5& b, Pass& p) {
  const PassSums s = logistic_pass(rows, {b(0), b(1), b(2), b(3), b(4)});
  for (int u = 0, t = 0; u < 5; ++u) {
    p.jtr(u) = s.jtr[u];
    for (int v = 0; v <= u; ++v, ++t) p.jtj(u, v) = p.jtj(v, u) = s.jtj[t];
  }
  p.sse = s.sse, p.sq = s.sq, p.sqq = s.sqq, p.sqy = s.sqy;
  return std::isfinite(p.sse) && p.jtj.allFinite() && p.jtr.allFinite();
}

// Minimises the weighted SSE from b; true when a stopping test was met within the cap (false
// also for a start that is not finite). `p` ends as the pass at the returned b.
bool levenberg_marquardt(const WeightedRows& rows, Vec5& b, Pass& p) {
  if (!b.allFinite() || !evaluate(rows, b, p)) return false;
  double mu = 1e-3, nu = 2.0;  // damping relative to diag(J'WJ) (Marquardt's scaling)
  for (int evaluations = 1, tries = 0;
       evaluations < kRefitEvaluations && tries < 4 * kRefitEvaluations; ++tries) {
    // A zero column (b1 = 0 leaves b2 and b3 without effect) gets a floor, so the damped system
    // stays regular and that parameter simply does not move.
    const double top = p.jtj.diagonal().maxCoeff();
    const Vec5 d = p.jtj.diagonal().cwiseMax(1e-12 * top).cwiseMax(1e-300);
    Mat5 m = p.jtj;
    m.diagonal() += mu * d;
    const Eigen::LLT<Mat5> llt(m);
    if (llt.info() != Eigen::Success) {
      mu *= nu, nu *= 2.0;
      continue;
    }
    const Vec5 step = llt.solve(-p.jtr);
    const double dd = step.dot(d.asDiagonal() * step);
    const double predicted = step.dot(p.jtj * step) + 2.0 * mu * dd;
    const Vec5 bn = b + step;
    Pass pn;
    const bool finite = evaluate(rows, bn, pn);
    ++evaluations;
    const double actual = finite ? p.sse - pn.sse : -std::numeric_limits<double>::infinity();
    const double ratio = predicted > 0 ? actual / predicted : 0.0;
    // MINPACK's ftol test: actual and predicted reductions both below ftol of the SSE.
    const bool f_converged = std::abs(actual) <= kRelativeSseTolerance * p.sse &&
                             predicted <= kRelativeSseTolerance * p.sse && ratio <= 2.0;
    const bool x_converged = std::sqrt(dd) <= kXTolerance * std::sqrt(b.dot(d.asDiagonal() * b));
    if (finite && actual > 0) {
      b = bn;
      p = pn;
      mu *= std::max(1.0 / 3.0, 1.0 - std::pow(2.0 * ratio - 1.0, 3));
      nu = 2.0;
    } else {
      mu *= nu, nu *= 2.0;
    }
    if (f_converged || x_converged || !(predicted > 0)) return true;
  }
  return false;
}

// Whether the curve at b is determined by the data: its transition (|z| < 2, where 1/(1+e^z)
// is between 0.12 and 0.88) holds at least three distinct x, and the data reach |z| >= 1, past
// the range where the logistic is its cubic Taylor polynomial to a few percent. A transition
// between two neighbouring x is a step (b1 -> infinity), one far wider than the data a cubic
// (b1 -> 0, b0 and b3 -> infinity): the SSE keeps falling towards such a limit along a flat
// valley, so where this fit and fit_logistic5 stop depends on their paths.
bool determined(const WeightedRows& rows, double b1, double b2) {
  int inside = 0;
  double last = std::numeric_limits<double>::quiet_NaN(), widest = 0.0;
  for (std::size_t k = 0; k < rows.rows(); ++k) {
    const double x = rows.x()[k], z = std::abs(b1 * (x - b2));
    widest = std::max(widest, z);
    if (z < 2.0 && x != last) ++inside, last = x;
  }
  return inside >= 3 && widest >= 1.0;
}

}  // namespace

std::optional<FittedAgreement> refit_logistic5_weighted(const FitFrame& f,
                                                        const std::vector<std::size_t>& rows,
                                                        const std::vector<double>& weight,
                                                        const LogisticParams& start) {
  if (rows.size() != weight.size())
    throw InvalidArgument("refit_logistic5_weighted: rows and weights of different lengths");
  FittedAgreement a;
  a.plcc = a.rmse = kNaN;
  WeightedRows data(rows.size());
  double n = 0, sx = 0, sy = 0;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    data.set(k, f.xs[rows[k]], f.ys[rows[k]], weight[k]);
    n += weight[k], sx += weight[k] * f.xs[rows[k]], sy += weight[k] * f.ys[rows[k]];
  }
  // fit_logistic5's refusals: too few points, or a constant sample.
  if (n < kMinFitPoints || data.constant_x() || data.constant_y()) return a;
  const double mx = sx / n, my = sy / n;
  double cxx = 0, cxy = 0, cyy = 0;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const double dx = f.xs[rows[k]] - mx, dy = f.ys[rows[k]] - my;
    cxx += weight[k] * dx * dx, cxy += weight[k] * dx * dy, cyy += weight[k] * dy * dy;
  }
  // The straight line (b1 = 0), the member of the family the logistic has to beat.
  const double slope = cxy / cxx;
  const double line_sse = std::max(0.0, cyy - slope * cxy);

  const LogisticParams s = f.to_frame(start);
  Vec5 b;
  b << s[0], s[1], s[2], s[3], s[4];
  Pass p;
  // Only a converged, determined logistic that beats the line is certain to be fit_logistic5's
  // answer to within the tolerance; anything else is left to it.
  if (!levenberg_marquardt(data, b, p) || !b.allFinite() || !(p.sse < line_sse) ||
      !determined(data, b(1), b(2)))
    return std::nullopt;
  a.fit.ok = true;
  {
    a.fit.beta = f.to_caller({b(0), b(1), b(2), b(3), b(4)});
    a.fit.sse = f.sy * f.sy * p.sse;
    const double cov = p.sqy - p.sq * my, var_q = p.sqq - p.sq * p.sq / n;
    a.plcc = var_q > 0 ? std::clamp(cov / std::sqrt(var_q * cyy), -1.0, 1.0) : kNaN;
    a.rmse = f.sy * std::sqrt(p.sse / n);
  }
  return a;
}

}  // namespace mad::datasets
