#include "mad/video/frame_pooling.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mad {

double percentile_linear(const std::vector<double>& sorted, double p) {
  // numpy's "linear" rule: the position (n - 1) * p / 100 between the two values around it.
  const double position = static_cast<double>(sorted.size() - 1) * p / 100.0;
  const std::size_t below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return sorted[below] + (sorted[above] - sorted[below]) * fraction;
}

std::vector<std::pair<std::string, double>> named_figures(const PooledFigure& f) {
  return {{"min", f.min}, {"max", f.max}, {"mean", f.mean}, {"harmonic_mean", f.harmonic_mean},
          {"p1", f.p1},   {"p5", f.p5},   {"p50", f.p50},   {"p95", f.p95}};
}

PooledFigure pool_frames(const std::vector<double>& values) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  PooledFigure f{nan, nan, nan, nan, nan, nan, nan, nan, 0};
  if (values.empty()) return f;
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  double sum = 0, reciprocal_sum = 0;
  // Summed in frame order, as the frames came: the mean is the same whatever the pooling's
  // own order, and a reader that sums the log's rows in order gets the same bits.
  for (double v : values) {
    sum += v;
    reciprocal_sum += 1.0 / (v + 1.0);
  }
  const double n = static_cast<double>(values.size());
  f.count = static_cast<std::int64_t>(values.size());
  f.min = sorted.front();
  f.max = sorted.back();
  f.mean = sum / n;
  // vmaf's harmonic mean (libvmaf's pooling): shifted by one so that a frame scoring 0 does not
  // make it 0.
  f.harmonic_mean = n / reciprocal_sum - 1.0;
  f.p1 = percentile_linear(sorted, 1);
  f.p5 = percentile_linear(sorted, 5);
  f.p50 = percentile_linear(sorted, 50);
  f.p95 = percentile_linear(sorted, 95);
  return f;
}

}  // namespace mad
