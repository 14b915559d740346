#include "datasets/bootstrap.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "common/error.h"
#include "common/parallel.h"

namespace mad::datasets {
namespace {

// SplitMix64 (Steele, Lea & Flood 2014): a small generator whose every seed gives a good
// stream, so seeding one per resample is safe.
std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

std::size_t uniform_index(std::uint64_t& state, std::size_t n) {
  if (n == 0) throw InvalidArgument("uniform_index: empty range");
  // Reject the top partial block of 2^64 so every index is equally likely.
  const std::uint64_t limit =
      std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % n;
  std::uint64_t v;
  do v = splitmix64(state);
  while (v >= limit);
  return static_cast<std::size_t>(v % n);
}

double quantile_sorted(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return std::numeric_limits<double>::quiet_NaN();
  const double h = (static_cast<double>(sorted.size()) - 1.0) * std::clamp(p, 0.0, 1.0);
  const std::size_t i = static_cast<std::size_t>(std::floor(h));
  if (i + 1 >= sorted.size()) return sorted.back();
  return sorted[i] + (h - static_cast<double>(i)) * (sorted[i + 1] - sorted[i]);
}

std::vector<std::size_t> draw_clusters(std::size_t clusters, std::uint64_t seed, int r) {
  std::uint64_t state = seed ^ (0xD1B54A32D192ED03ull * (static_cast<std::uint64_t>(r) + 1));
  std::vector<std::size_t> drawn(clusters);
  for (auto& d : drawn) d = uniform_index(state, clusters);
  return drawn;
}

void check_bootstrap_options(const BootstrapOptions& options) {
  if (options.resamples < 1) throw InvalidArgument("bootstrap: resamples must be positive");
  if (!(options.level > 0 && options.level < 1))
    throw InvalidArgument("bootstrap: level must be in (0, 1)");
}

std::vector<Interval> percentile_intervals(const std::vector<double>& draws, std::size_t k,
                                           double level) {
  std::vector<Interval> out(k);
  if (k == 0) return out;
  const std::size_t resamples = draws.size() / k;
  const double tail = 0.5 * (1.0 - level);
  for (std::size_t j = 0; j < k; ++j) {
    std::vector<double> v;
    for (std::size_t r = 0; r < resamples; ++r) {
      const double d = draws[r * k + j];
      if (std::isfinite(d)) v.push_back(d);
    }
    std::sort(v.begin(), v.end());
    out[j] = {quantile_sorted(v, tail), quantile_sorted(v, 1.0 - tail)};
  }
  return out;
}

std::vector<Interval> bootstrap_by_cluster(
    const std::vector<int>& cluster_of, std::size_t statistic_count,
    const BootstrapOptions& options,
    const std::function<std::vector<double>(const std::vector<std::size_t>&)>& statistics) {
  check_bootstrap_options(options);
  // Members of each cluster, clusters in order of first appearance.
  std::map<int, std::size_t> slot;
  std::vector<std::vector<std::size_t>> members;
  for (std::size_t i = 0; i < cluster_of.size(); ++i) {
    auto [it, fresh] = slot.emplace(cluster_of[i], members.size());
    if (fresh) members.emplace_back();
    members[it->second].push_back(i);
  }
  const std::size_t k = statistic_count;
  std::vector<double> draws(static_cast<std::size_t>(options.resamples) * k,
                            std::numeric_limits<double>::quiet_NaN());
  if (!members.empty()) {
    parallel_for(options.resamples, [&](int r) {
      std::vector<std::size_t> indices;
      indices.reserve(cluster_of.size() + cluster_of.size() / 4);
      for (const std::size_t c : draw_clusters(members.size(), options.seed, r))
        indices.insert(indices.end(), members[c].begin(), members[c].end());
      const std::vector<double> s = statistics(indices);
      if (s.size() != k) throw InvalidArgument("bootstrap: statistics returned the wrong count");
      std::copy(s.begin(), s.end(), draws.begin() + static_cast<std::ptrdiff_t>(r) * k);
    });
  }
  return percentile_intervals(draws, k, options.level);
}

}  // namespace mad::datasets
