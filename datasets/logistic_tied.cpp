// The bootstrap's fallback fit (logistic_fit.h: fit_logistic5_tied): fit_logistic5 warm-started
// on a resample, step for step, but on one row per distinct x. A resample repeats each drawn
// reference's pairs and ties x wherever scores coincide, so it has far fewer distinct x than
// rows; and the algorithm runs on 5-wide arrays (logistic_lmder.cpp) instead of Eigen's
// general matrices, which cost fit_logistic5 most of its time (its QR, norms and allocations
// at every step, up to 200 steps on resamples without a finite best fit).
#include <algorithm>
#include <cmath>
#include <limits>

#include "common/error.h"
#include "datasets/logistic_fit.h"
#include "datasets/logistic_lmder.h"

namespace mad::datasets {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool finite(const LogisticParams& b) {
  return std::all_of(b.begin(), b.end(), [](double v) { return std::isfinite(v); });
}

}  // namespace

TiedIndex::TiedIndex(const std::vector<double>& x) : values_(x), id_(x.size()) {
  std::sort(values_.begin(), values_.end());
  values_.erase(std::unique(values_.begin(), values_.end()), values_.end());
  for (std::size_t i = 0; i < x.size(); ++i)
    id_[i] = static_cast<std::size_t>(std::lower_bound(values_.begin(), values_.end(), x[i]) -
                                      values_.begin());
}

TiedRows TiedIndex::merge(const std::vector<double>& y, const std::vector<std::size_t>& rows,
                          const std::vector<double>& weight) const {
  if (rows.size() != weight.size())
    throw InvalidArgument("TiedIndex::merge: rows and weights of different lengths");
  std::vector<double> count(values_.size(), 0.0), sum(values_.size(), 0.0);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const std::size_t d = id_[rows[k]];
    count[d] += weight[k];
    sum[d] += weight[k] * y[rows[k]];
  }
  TiedRows t;
  std::vector<std::size_t> slot(values_.size());
  for (std::size_t d = 0; d < values_.size(); ++d) {
    if (count[d] == 0) continue;
    slot[d] = t.x.size();
    t.x.push_back(values_[d]);
    t.count.push_back(count[d]);
    t.mean_y.push_back(sum[d] / count[d]);
    t.observations += count[d];
  }
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const double e = y[rows[k]] - t.mean_y[slot[id_[rows[k]]]];
    t.spread_y += weight[k] * e * e;
  }
  return t;
}

std::optional<FittedAgreement> fit_logistic5_tied(const TiedRows& t, const LogisticParams& start) {
  FittedAgreement a;
  a.plcc = a.rmse = kNaN;
  const double n = t.observations;
  const std::size_t rows = t.x.size();
  if (n < kMinFitPoints) return a;  // fit_logistic5's refusal
  const bool constant_y =
      t.spread_y == 0 &&
      std::all_of(t.mean_y.begin(), t.mean_y.end(), [&](double v) { return v == t.mean_y[0]; });
  if (rows < 5 || constant_y) return std::nullopt;

  // fit_logistic5's standardisation by the resample's own means and standard deviations.
  double mx = 0, my = 0;
  for (std::size_t d = 0; d < rows; ++d) mx += t.count[d] * t.x[d], my += t.count[d] * t.mean_y[d];
  mx /= n, my /= n;
  double vx = 0, vy = t.spread_y;
  for (std::size_t d = 0; d < rows; ++d) {
    vx += t.count[d] * (t.x[d] - mx) * (t.x[d] - mx);
    vy += t.count[d] * (t.mean_y[d] - my) * (t.mean_y[d] - my);
  }
  const double sx = std::sqrt(vx / n), sy = std::sqrt(vy / n);
  if (!(sx > 0) || !(sy > 0)) return a;
  const FitFrame frame{mx, sx, my, sy, {}, {}};
  LmderRows lm;
  const std::size_t padded = (rows + 3) / 4 * 4;
  lm.x.assign(padded, 0.0), lm.sw.assign(padded, 0.0), lm.y.assign(padded, 0.0);
  for (std::size_t d = 0; d < rows; ++d) {
    lm.x[d] = (t.x[d] - mx) / sx;
    lm.sw[d] = std::sqrt(t.count[d]);
    lm.y[d] = (t.mean_y[d] - my) / sy;
  }
  lm.rows = rows;
  lm.rest = std::sqrt(t.spread_y) / sy;
  lm.materialised_rows = n;

  // The straight line (b1 = 0) through Pearson's r of the standardised sample: the baseline.
  double mxs = 0, mys = 0;
  for (std::size_t d = 0; d < rows; ++d) mxs += t.count[d] * lm.x[d], mys += t.count[d] * lm.y[d];
  mxs /= n, mys /= n;
  double sxy = 0, sxx = 0, syy = lm.rest * lm.rest;
  for (std::size_t d = 0; d < rows; ++d) {
    const double dx = lm.x[d] - mxs, dy = lm.y[d] - mys;
    sxy += t.count[d] * dx * dy, sxx += t.count[d] * dx * dx, syy += t.count[d] * dy * dy;
  }
  const double r = sxx == 0 || syy == 0 ? 0.0 : std::clamp(sxy / std::sqrt(sxx * syy), -1.0, 1.0);
  const auto sse = [&](const LogisticParams& b) {
    double s = lm.rest * lm.rest;
    for (std::size_t d = 0; d < rows; ++d) {
      const double e = logistic5(b, lm.x[d]) - lm.y[d];
      s += t.count[d] * e * e;
    }
    return s;
  };
  LogisticParams best = {0.0, 1.0, 0.0, r, 0.0};
  const double best_sse = sse(best);
  bool linear = true;
  const LogisticParams s0 = frame.to_frame(start);
  if (finite(s0)) {
    const LogisticParams b = lmder_logistic5(lm, s0);
    const double s = finite(b) ? sse(b) : kNaN;
    if (std::isfinite(s) && s < best_sse) best = b, linear = false;
  }
  a.fit.beta = frame.to_caller(best);
  a.fit.ok = true;
  a.fit.linear = linear;

  // PLCC and RMSE of q(x) against y over the resample, in the caller's units.
  std::vector<double> q(rows);
  double sq = 0, sse_caller = t.spread_y;
  for (std::size_t d = 0; d < rows; ++d) {
    q[d] = logistic5(a.fit.beta, t.x[d]);
    sq += t.count[d] * q[d];
    sse_caller += t.count[d] * (q[d] - t.mean_y[d]) * (q[d] - t.mean_y[d]);
  }
  const double mq = sq / n;
  double cov = 0, vq = 0, vyy = t.spread_y;
  for (std::size_t d = 0; d < rows; ++d) {
    const double dq = q[d] - mq, dy = t.mean_y[d] - my;
    cov += t.count[d] * dq * dy, vq += t.count[d] * dq * dq, vyy += t.count[d] * dy * dy;
  }
  a.fit.sse = sse_caller;
  a.plcc = vq == 0 || vyy == 0 ? kNaN : std::clamp(cov / std::sqrt(vq * vyy), -1.0, 1.0);
  a.rmse = std::sqrt(sse_caller / n);
  return a;
}

}  // namespace mad::datasets
