#include "datasets/bootstrap_ranks.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "common/error.h"
#include "common/parallel.h"
#include "datasets/correlation.h"

namespace mad::datasets {
namespace {

// The discordant-pair counts E cost clusters^2 per resample and n^2 once; below these bounds
// they beat sorting every resample (n log n each) by a wide margin, above them they may not.
bool pair_counts_pay(std::size_t n, std::size_t clusters) {
  return clusters * clusters <= 64 * n && n <= 50000;
}

template <class Less, class Equal>
void group_runs(std::size_t n, Less less, Equal equal, std::vector<std::size_t>& sorted,
                std::vector<std::size_t>& start) {
  sorted.resize(n);
  std::iota(sorted.begin(), sorted.end(), 0);
  std::sort(sorted.begin(), sorted.end(), less);
  start.clear();
  for (std::size_t i = 0; i < n; ++i)
    if (i == 0 || !equal(sorted[i - 1], sorted[i])) start.push_back(i);
  start.push_back(n);
}

// #{b < n: x[b] < xa and y[b] > ya}, n a multiple of 4, four lanes at a time (a true vector
// comparison is -1 in every bit); an AVX2 clone where the CPU has it.
#pragma GCC diagnostic ignored "-Wpsabi"  // the vectors never cross a call
typedef double D4 __attribute__((vector_size(32)));
typedef std::int64_t L4 __attribute__((vector_size(32)));
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
std::int64_t
count_below_above(const double* x, const double* y, std::size_t n, double xa, double ya) {
  const D4 xa4 = {xa, xa, xa, xa}, ya4 = {ya, ya, ya, ya};
  L4 hits = {0, 0, 0, 0};
  for (std::size_t b = 0; b < n; b += 4) {
    D4 xb, yb;
    std::memcpy(&xb, x + b, sizeof xb);
    std::memcpy(&yb, y + b, sizeof yb);
    hits += (xb < xa4) & (yb > ya4);
  }
  return -(hits[0] + hits[1] + hits[2] + hits[3]);
}

}  // namespace

ResampleRanks::ResampleRanks(const std::vector<double>& x, const std::vector<double>& y,
                             const std::vector<std::vector<std::size_t>>& members)
    : x_(x), y_(y), cluster_(x.size(), -1), size_(members.size(), 0) {
  if (x.size() != y.size()) throw InvalidArgument("ResampleRanks: samples of different lengths");
  for (std::size_t c = 0; c < members.size(); ++c)
    for (const std::size_t i : members[c]) cluster_.at(i) = static_cast<int>(c), ++size_[c];
  if (std::count(cluster_.begin(), cluster_.end(), -1))
    throw InvalidArgument("ResampleRanks: an observation in no cluster");
  const std::size_t n = x.size();
  group_runs(
      n, [&](std::size_t a, std::size_t b) { return x[a] < x[b]; },
      [&](std::size_t a, std::size_t b) { return x[a] == x[b]; }, x_groups_.sorted,
      x_groups_.start);
  group_runs(
      n, [&](std::size_t a, std::size_t b) { return y[a] < y[b]; },
      [&](std::size_t a, std::size_t b) { return y[a] == y[b]; }, y_groups_.sorted,
      y_groups_.start);
  TieGroups xy;
  group_runs(
      n, [&](std::size_t a, std::size_t b) { return x[a] < x[b] || (x[a] == x[b] && y[a] < y[b]); },
      [&](std::size_t a, std::size_t b) { return x[a] == x[b] && y[a] == y[b]; }, xy.sorted,
      xy.start);
  x_ties_ = tie_counter(x_groups_);
  y_ties_ = tie_counter(y_groups_);
  xy_ties_ = tie_counter(xy);

  const std::size_t k = members.size();
  if (!pair_counts_pay(n, k)) return;
  // E[c][d] = #(a in c, b in d) with x_b < x_a and y_b > y_a: each discordant pair of the
  // resample is counted once, from the member with the larger x. Cluster d's values are laid
  // out contiguously so the innermost count vectorises.
  // Each cluster's values padded to a multiple of 4 with x = +inf, which no x_a exceeds.
  std::vector<double> xd, yd;
  std::vector<std::size_t> offset(k + 1, 0);
  for (std::size_t d = 0; d < k; ++d) {
    for (const std::size_t b : members[d]) xd.push_back(x[b]), yd.push_back(y[b]);
    while (xd.size() % 4) xd.push_back(std::numeric_limits<double>::infinity()), yd.push_back(0);
    offset[d + 1] = xd.size();
  }
  pair_counts_.assign(k * k, 0);
  // Row c is written by task c alone (integer sums: the same at any thread count). This is
  // most of the statistics' serial part on many cores (10,125 pairs: 10^8 comparisons).
  parallel_for(static_cast<int>(k), [&](int c) {
    std::int64_t* row = &pair_counts_[static_cast<std::size_t>(c) * k];
    for (const std::size_t a : members[static_cast<std::size_t>(c)])
      for (std::size_t d = 0; d < k; ++d)
        row[d] += count_below_above(&xd[offset[d]], &yd[offset[d]], offset[d + 1] - offset[d], x[a],
                                    y[a]);
  });
}

ResampleRanks::TieCounter ResampleRanks::tie_counter(const TieGroups& g) const {
  TieCounter t;
  t.singles.assign(size_.size(), 0);
  t.multi_start.push_back(0);
  for (std::size_t k = 0; k + 1 < g.start.size(); ++k) {
    if (g.start[k + 1] - g.start[k] == 1) {
      ++t.singles[static_cast<std::size_t>(cluster_[g.sorted[g.start[k]]])];
      continue;
    }
    for (std::size_t j = g.start[k]; j < g.start[k + 1]; ++j)
      t.multi_cluster.push_back(cluster_[g.sorted[j]]);
    t.multi_start.push_back(t.multi_cluster.size());
  }
  return t;
}

std::int64_t ResampleRanks::TieCounter::count(const std::vector<int>& weight) const {
  std::int64_t ties = 0;
  for (std::size_t c = 0; c < singles.size(); ++c) {
    const std::int64_t w = weight[c];  // one observation drawn w times: w copies tie
    ties += singles[c] * (w * (w - 1) / 2);
  }
  for (std::size_t g = 0; g + 1 < multi_start.size(); ++g) {
    std::int64_t t = 0;
    for (std::size_t j = multi_start[g]; j < multi_start[g + 1]; ++j) t += weight[multi_cluster[j]];
    ties += t * (t - 1) / 2;
  }
  return ties;
}

// Each value's average rank in the resample, exactly as average_ranks computes it: a tie group
// of weighted size m after c observations spans ranks c+1 .. c+m.
void ResampleRanks::ranks_in_resample(const TieGroups& g, const std::vector<int>& weight,
                                      std::vector<double>& rank_of) const {
  std::size_t before = 0;
  for (std::size_t k = 0; k + 1 < g.start.size(); ++k) {
    std::size_t m = 0;
    for (std::size_t j = g.start[k]; j < g.start[k + 1]; ++j)
      m += static_cast<std::size_t>(weight[static_cast<std::size_t>(cluster_[g.sorted[j]])]);
    if (m == 0) continue;
    const double mean_rank = 0.5 * static_cast<double>(before + 1 + before + m);
    for (std::size_t j = g.start[k]; j < g.start[k + 1]; ++j) rank_of[g.sorted[j]] = mean_rank;
    before += m;
  }
}

double ResampleRanks::spearman(const std::vector<int>& weight,
                               const std::vector<std::size_t>& order) const {
  std::vector<double> rank_of(x_.size());
  std::vector<double> rx(order.size()), ry(order.size());
  ranks_in_resample(x_groups_, weight, rank_of);
  for (std::size_t k = 0; k < order.size(); ++k) rx[k] = rank_of[order[k]];
  ranks_in_resample(y_groups_, weight, rank_of);
  for (std::size_t k = 0; k < order.size(); ++k) ry[k] = rank_of[order[k]];
  return pearson(rx, ry);  // same vectors, same summation order as spearman() on the resample
}

double ResampleRanks::kendall_tau_b(const std::vector<int>& weight,
                                    const std::vector<std::size_t>& order) const {
  if (!counts_kendall()) {
    std::vector<double> bx(order.size()), by(order.size());
    for (std::size_t k = 0; k < order.size(); ++k) bx[k] = x_[order[k]], by[k] = y_[order[k]];
    return datasets::kendall_tau_b(bx, by);
  }
  const std::int64_t n = static_cast<std::int64_t>(order.size());
  if (n < 2) return std::numeric_limits<double>::quiet_NaN();
  const std::size_t k = size_.size();
  std::vector<std::size_t> drawn;
  for (std::size_t c = 0; c < k; ++c)
    if (weight[c]) drawn.push_back(c);
  std::int64_t discordant = 0;
  for (const std::size_t c : drawn) {
    const std::int64_t* row = &pair_counts_[c * k];
    std::int64_t s = 0;
    for (const std::size_t d : drawn) s += row[d] * weight[d];
    discordant += s * weight[c];
  }
  // The rest is kendall_tau_b's own arithmetic on the same integers.
  const std::int64_t n0 = n * (n - 1) / 2;
  const std::int64_t n1 = x_ties_.count(weight), n2 = y_ties_.count(weight);
  const std::int64_t n3 = xy_ties_.count(weight);
  if (n0 == n1 || n0 == n2) return std::numeric_limits<double>::quiet_NaN();
  const double numerator = static_cast<double>(n0 - n1 - n2 + n3 - 2 * discordant);
  return numerator / std::sqrt(static_cast<double>(n0 - n1) * static_cast<double>(n0 - n2));
}

}  // namespace mad::datasets
