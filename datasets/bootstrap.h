// Percentile bootstrap confidence intervals with resampling by cluster. In IQA datasets the
// distorted images of one reference are not independent samples (they share content), so a
// resample draws whole references with replacement and takes all their pairs.
//
// Deterministic: resample r draws from its own generator seeded by (seed, r), so the result
// does not depend on how many threads share the work.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace mad::datasets {

struct BootstrapOptions {
  int resamples = 1000;
  std::uint64_t seed = 20100101;  // fixed default: reports are reproducible run to run
  double level = 0.95;            // two-sided coverage of the interval
};

struct Interval {
  double lo = 0.0, hi = 0.0;  // NaN when no resample gave a finite statistic
};

// `cluster_of[i]` is observation i's cluster id (any ints). `statistics(indices)` computes K
// statistics on the observations listed in `indices` (with repeats); it is called once per
// resample, possibly from several threads at once. Returns K percentile intervals; resamples
// where a statistic is not finite are left out of that statistic's interval.
std::vector<Interval> bootstrap_by_cluster(
    const std::vector<int>& cluster_of, std::size_t statistic_count,
    const BootstrapOptions& options,
    const std::function<std::vector<double>(const std::vector<std::size_t>&)>& statistics);

// The clusters resample r draws: `clusters` slots (0 .. clusters-1, slot = order of first
// appearance in cluster_of), with replacement, in draw order. bootstrap_by_cluster lists the
// members of these slots in this order; callers that compute their statistics from the draws
// directly (iqa_stats.cpp) see the very same resamples.
std::vector<std::size_t> draw_clusters(std::size_t clusters, std::uint64_t seed, int r);

// Throws InvalidArgument unless resamples >= 1 and level in (0, 1).
void check_bootstrap_options(const BootstrapOptions& options);

// Percentile intervals from `draws` (resample r's statistic j at r * k + j): per statistic,
// the non-finite draws are left out and the type-7 quantiles at (1 -+ level) / 2 taken.
std::vector<Interval> percentile_intervals(const std::vector<double>& draws, std::size_t k,
                                           double level);

// Type-7 (linear interpolation) quantile of sorted data, p in [0, 1].
double quantile_sorted(const std::vector<double>& sorted, double p);

// Uniform integer in [0, n) from a 64-bit generator, without modulo bias.
std::size_t uniform_index(std::uint64_t& state, std::size_t n);

}  // namespace mad::datasets
