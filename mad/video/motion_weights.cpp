#include "mad/video/motion_weights.h"

#include <cmath>
#include <cstddef>
#include <limits>

#include "common/error.h"

namespace mad::video {
namespace {

constexpr double kGaussAlpha = 1.2;  // α_g of §4

// m(k)² g(k) / Σ g for each entry of `means` (§4.4: the means of squared speeds squared again).
std::vector<double> shaped_weights(const std::vector<double>& means) {
  const std::vector<double> g = gausswin(static_cast<int>(means.size()));
  double g_sum = 0;
  for (const double x : g) g_sum += x;
  std::vector<double> w(means.size());
  for (std::size_t k = 0; k < means.size(); ++k) w[k] = means[k] * means[k] * g[k] / g_sum;
  return w;
}

double sum_of(const std::vector<double>& v) {
  double s = 0;
  for (const double x : v) s += x;
  return s;
}

// The branch the original meant for zero motion: every weight 1/n, their sum 1.
void make_uniform(std::vector<double>& w, double& m) {
  for (double& x : w) x = 1.0 / static_cast<double>(w.size());
  m = 1.0;
}

}  // namespace

std::vector<double> gausswin(int length) {
  if (length == 1) return {1.0};
  std::vector<double> g(static_cast<std::size_t>(length));
  const double half = (length - 1) / 2.0;
  for (int n = 0; n < length; ++n) {
    const double x = kGaussAlpha * (n - half) / half;
    g[static_cast<std::size_t>(n)] = std::exp(-0.5 * x * x);
  }
  return g;
}

MotionWeights motion_weights(const std::vector<double>& speed_sums, std::int64_t pairs,
                             const MotionGrid& grid) {
  if (speed_sums.size() != grid.windows()) throw InternalError("motion sums of the wrong size");
  MotionWeights m;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  m.mean_speed.resize(speed_sums.size());
  for (std::size_t i = 0; i < speed_sums.size(); ++i)
    m.mean_speed[i] = pairs > 0 ? speed_sums[i] / static_cast<double>(pairs) : nan;
  const int rows = grid.window_rows, cols = grid.window_cols;
  m.m_ver.assign(static_cast<std::size_t>(rows), 0.0);
  m.m_hor.assign(static_cast<std::size_t>(cols), 0.0);
  for (int I = 0; I < rows; ++I)
    for (int J = 0; J < cols; ++J) {
      const double s = m.mean_speed[static_cast<std::size_t>(I) * cols + J];
      m.m_ver[static_cast<std::size_t>(I)] += s;
      m.m_hor[static_cast<std::size_t>(J)] += s;
    }
  for (double& x : m.m_ver) x /= cols;
  for (double& x : m.m_hor) x /= rows;
  m.w_row = shaped_weights(m.m_ver);
  m.w_col = shaped_weights(m.m_hor);
  m.m_row = sum_of(m.w_row);
  m.m_col = sum_of(m.w_col);
  // Both sums are 0 exactly when every window speed is 0 (squares of real numbers).
  if (pairs > 0 && m.m_row == 0.0 && m.m_col == 0.0) {
    m.static_reference = true;
    make_uniform(m.w_row, m.m_row);
    make_uniform(m.w_col, m.m_col);
  }
  return m;
}

}  // namespace mad::video
