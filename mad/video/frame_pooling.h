// The pooled figures of a clip's per-frame values (mad, hi, lo), as vmaf pools its per-frame
// metrics, plus the percentiles codec teams ask for (vmaf #818, ab-av1 #164).
//
//  * harmonic mean: vmaf's form, 1 / mean(1 / (x + 1)) - 1, which stays finite when a frame
//    scores 0 (MAD is 0 for identical frames);
//  * percentiles 1, 5, 50, 95: numpy's default rule ("linear"): over the n values sorted, the
//    p-th percentile lies at position (n - 1) * p / 100, interpolated between its neighbours.
//
// Percentiles need every value, so a clip keeps one double per frame per figure (8 bytes a
// frame each: 2.4 KB for a 300-frame clip), never the frames.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mad {

struct PooledFigure {
  double min, max, mean, harmonic_mean, p1, p5, p50, p95;
  std::int64_t count;
};

// The figures by name, as the logs write them: "min", "max", "mean", "harmonic_mean", "p1",
// "p5", "p50", "p95" (count aside).
std::vector<std::pair<std::string, double>> named_figures(const PooledFigure& figure);

// The figures of `values` (any order). No values: every figure NaN and count 0.
PooledFigure pool_frames(const std::vector<double>& values);

// numpy.percentile(values, p) with its default linear interpolation; `sorted` ascending and
// not empty, p in [0, 100].
double percentile_linear(const std::vector<double>& sorted, double p);

}  // namespace mad
