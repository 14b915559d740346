// The cluster bootstrap: quantiles by hand, whole clusters drawn, determinism (seed and thread
// count), and the interval of a mean matching the normal-theory width.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>

#include "common/parallel.h"
#include "datasets/bootstrap.h"

namespace mad::datasets {
namespace {

using Stats = std::function<std::vector<double>(const std::vector<std::size_t>&)>;

TEST(QuantileSorted, Type7ByHand) {
  const std::vector<double> v = {1, 2, 3, 4};
  EXPECT_DOUBLE_EQ(quantile_sorted(v, 0.5), 2.5);      // h = 1.5
  EXPECT_DOUBLE_EQ(quantile_sorted(v, 0.025), 1.075);  // h = 0.075
  EXPECT_DOUBLE_EQ(quantile_sorted(v, 1.0), 4.0);
  EXPECT_DOUBLE_EQ(quantile_sorted({7}, 0.3), 7.0);
  EXPECT_TRUE(std::isnan(quantile_sorted({}, 0.5)));
}

TEST(UniformIndex, CoversTheRangeEvenly) {
  std::uint64_t state = 42;
  std::vector<int> counts(7, 0);
  for (int i = 0; i < 70000; ++i) ++counts[uniform_index(state, 7)];
  for (int c : counts) EXPECT_NEAR(c, 10000, 400);  // ~4 standard deviations
}

TEST(Bootstrap, DrawsWholeClusters) {
  // 5 clusters of 3 members: every resample has exactly 15 indices, each cluster's members
  // together.
  std::vector<int> cluster;
  for (int c = 0; c < 5; ++c)
    for (int k = 0; k < 3; ++k) cluster.push_back(100 + c);
  BootstrapOptions o;
  o.resamples = 200;
  const Stats stats = [&](const std::vector<std::size_t>& idx) -> std::vector<double> {
    bool grouped = idx.size() == 15;
    for (std::size_t i = 0; grouped && i < idx.size(); i += 3)
      grouped = cluster[idx[i]] == cluster[idx[i + 1]] && cluster[idx[i]] == cluster[idx[i + 2]];
    return {static_cast<double>(idx.size()), grouped ? 1.0 : 0.0};
  };
  const auto ci = bootstrap_by_cluster(cluster, 2, o, stats);
  EXPECT_EQ(ci[0].lo, 15.0);
  EXPECT_EQ(ci[0].hi, 15.0);
  EXPECT_EQ(ci[1].lo, 1.0);
}

std::vector<Interval> mean_ci(const std::vector<double>& v, const BootstrapOptions& o) {
  std::vector<int> cluster(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) cluster[i] = static_cast<int>(i);
  return bootstrap_by_cluster(cluster, 1, o, [&](const std::vector<std::size_t>& idx) {
    double s = 0;
    for (auto i : idx) s += v[i];
    return std::vector<double>{s / idx.size()};
  });
}

TEST(Bootstrap, IntervalOfAMeanHasTheNormalTheoryWidth) {
  std::mt19937 rng(5);
  std::normal_distribution<double> g(0.0, 1.0);
  std::vector<double> v(400);
  for (auto& e : v) e = g(rng);
  const Interval ci = mean_ci(v, {})[0];
  // 95% half-width of a mean of 400 unit-variance values: 1.96 / 20 = 0.098.
  EXPECT_NEAR(0.5 * (ci.hi - ci.lo), 0.098, 0.015);
}

TEST(Bootstrap, DeterministicForASeedAndAnyThreadCount) {
  std::vector<double> v;
  for (int i = 0; i < 60; ++i) v.push_back(std::sin(i * 1.7) * 3 + i * 0.01);
  BootstrapOptions o;
  o.resamples = 300;
  set_thread_count(1);
  const Interval one = mean_ci(v, o)[0];
  set_thread_count(4);
  const Interval four = mean_ci(v, o)[0];
  set_thread_count(0);
  EXPECT_EQ(one.lo, four.lo);
  EXPECT_EQ(one.hi, four.hi);
  o.seed += 1;
  const Interval other = mean_ci(v, o)[0];
  EXPECT_TRUE(other.lo != one.lo || other.hi != one.hi);
}

TEST(Bootstrap, NonFiniteStatisticsAreLeftOutAndBadOptionsRejected) {
  const std::vector<int> cluster = {0, 1, 2, 3};
  BootstrapOptions o;
  o.resamples = 50;
  const auto ci = bootstrap_by_cluster(cluster, 2, o, [](const std::vector<std::size_t>&) {
    return std::vector<double>{NAN, 2.0};
  });
  EXPECT_TRUE(std::isnan(ci[0].lo));
  EXPECT_EQ(ci[1].lo, 2.0);
  o.resamples = 0;
  EXPECT_ANY_THROW(
      bootstrap_by_cluster(cluster, 1, o, [](auto&) { return std::vector<double>{1}; }));
}

}  // namespace
}  // namespace mad::datasets
