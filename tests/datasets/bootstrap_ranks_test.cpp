// ResampleRanks against the oracle: SROCC and KROCC of the materialised resample by
// correlation.h's spearman() and kendall_tau_b(). The claim is bit-for-bit equality, so the
// comparisons are EXPECT_EQ on doubles (NaN compared as NaN), on data with many ties.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "datasets/bootstrap.h"
#include "datasets/bootstrap_ranks.h"
#include "datasets/correlation.h"

namespace mad::datasets {
namespace {

struct Sample {
  std::vector<double> x, y;
  std::vector<std::vector<std::size_t>> members;
};

// `clusters` clusters of 1..max_size observations; values rounded to `grid` so ties are common
// within and across clusters (as MOS to 2 decimals and repeated MAD scores are).
Sample sample(std::uint32_t seed, int clusters, int max_size, double grid) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> size(1, max_size);
  std::normal_distribution<double> noise(0.0, 1.0);
  Sample s;
  s.members.resize(clusters);
  for (int c = 0; c < clusters; ++c)
    for (int k = size(rng); k > 0; --k) {
      const double level = noise(rng);
      s.members[c].push_back(s.x.size());
      s.x.push_back(std::round((3.0 * level + noise(rng)) / grid) * grid);
      s.y.push_back(std::round((-level + 0.5 * noise(rng)) / grid) * grid);
    }
  return s;
}

void expect_same(double a, double b, const char* what, int r) {
  if (std::isnan(a) && std::isnan(b)) return;
  EXPECT_EQ(a, b) << what << " of resample " << r;
}

// Every resample of the cluster bootstrap, as bootstrap_by_cluster draws it.
void check_resamples(const Sample& s, int resamples, bool expect_counts) {
  const ResampleRanks ranks(s.x, s.y, s.members);
  EXPECT_EQ(ranks.counts_kendall(), expect_counts);
  for (int r = 0; r < resamples; ++r) {
    std::vector<int> weight(s.members.size(), 0);
    std::vector<std::size_t> order;
    std::vector<double> bx, by;
    for (const std::size_t c : draw_clusters(s.members.size(), 99, r)) {
      ++weight[c];
      for (const std::size_t i : s.members[c])
        order.push_back(i), bx.push_back(s.x[i]), by.push_back(s.y[i]);
    }
    expect_same(ranks.spearman(weight, order), spearman(bx, by), "SROCC", r);
    expect_same(ranks.kendall_tau_b(weight, order), kendall_tau_b(bx, by), "KROCC", r);
  }
}

TEST(ResampleRanks, EqualsTheMaterialisedResampleWithManyTies) {
  check_resamples(sample(1, 40, 12, 0.5), 300, true);
}

TEST(ResampleRanks, EqualsTheMaterialisedResampleWithFewTies) {
  check_resamples(sample(2, 81, 125, 1e-9), 40, true);  // KADID's shape: 81 refs x 125 pairs
}

TEST(ResampleRanks, EqualsTheMaterialisedResampleWithCoarseValues) {
  check_resamples(sample(3, 12, 6, 2.0), 300, true);  // a handful of distinct values
}

TEST(ResampleRanks, ManyClustersFallBackToSortingAndStillAgree) {
  // One observation per cluster: clusters^2 per resample would cost more than sorting.
  check_resamples(sample(4, 400, 1, 0.25), 30, false);
}

TEST(ResampleRanks, DegenerateResamplesGiveNaNAsTheOracleDoes) {
  // Two clusters, each constant in y: a resample of one cluster twice has no y variation.
  Sample s;
  s.x = {1, 2, 3, 4};
  s.y = {5, 5, 7, 7};
  s.members = {{0, 1}, {2, 3}};
  const ResampleRanks ranks(s.x, s.y, s.members);
  const std::vector<std::size_t> order = {0, 1, 0, 1};
  EXPECT_TRUE(std::isnan(ranks.spearman({2, 0}, order)));
  EXPECT_TRUE(std::isnan(ranks.kendall_tau_b({2, 0}, order)));
  check_resamples(s, 50, true);
}

}  // namespace
}  // namespace mad::datasets
