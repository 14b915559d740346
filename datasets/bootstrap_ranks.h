// SROCC and KROCC of cluster-bootstrap resamples without sorting each resample.
//
// A resample is the full sample's observations, each repeated as often as its cluster was
// drawn (weight w_c). Everything the rank correlations need follows from the full sample's
// orders and these weights:
//  - ranks: walking the full sample's tie groups in ascending order with the resample's
//    counts gives each value's average rank, the same integers average_ranks derives by
//    sorting; spearman() then takes Pearson's r of the rank vectors laid out in the
//    resample's order, so its value is bit for bit that of correlation.h's spearman().
//  - Kendall's tau-b is a function of integer counts: discordant pairs are the quadratic form
//    sum_cd w_c w_d E[c][d] (E counted once for the full sample), ties are sums of
//    T(T-1)/2 over tie groups of weighted size T. Same integers, same formula, same bits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mad::datasets {

class ResampleRanks {
 public:
  // x, y: the full sample (finite values, copied); members[c] lists cluster c's observations
  // (every observation in exactly one cluster). Counting E costs n^2 comparisons once.
  ResampleRanks(const std::vector<double>& x, const std::vector<double>& y,
                const std::vector<std::vector<std::size_t>>& members);

  // `weight[c]`: how often cluster c was drawn; `order`: the resample's observations (full
  // sample indices, repeats included) in the order the bootstrap lists them.
  double spearman(const std::vector<int>& weight, const std::vector<std::size_t>& order) const;
  double kendall_tau_b(const std::vector<int>& weight, const std::vector<std::size_t>& order) const;

  // True when tau-b comes from the cluster-pair counts; false when there are too many
  // clusters for them to pay (then each resample is materialised and sorted).
  bool counts_kendall() const { return !pair_counts_.empty(); }

 private:
  // Observations grouped by equal value: group g holds sorted[start[g] .. start[g+1]).
  struct TieGroups {
    std::vector<std::size_t> sorted, start;
  };
  // Tied pairs of a resample under one grouping: groups of one observation are summed per
  // cluster (singles[c] of them in cluster c), larger groups walked.
  struct TieCounter {
    std::vector<std::int64_t> singles;
    std::vector<std::size_t> multi_start;  // CSR over the larger groups
    std::vector<int> multi_cluster;
    std::int64_t count(const std::vector<int>& weight) const;
  };

  void ranks_in_resample(const TieGroups& g, const std::vector<int>& weight,
                         std::vector<double>& rank_of) const;
  TieCounter tie_counter(const TieGroups& g) const;

  std::vector<double> x_, y_;
  std::vector<int> cluster_;
  std::vector<std::int64_t> size_;  // observations per cluster
  TieGroups x_groups_, y_groups_;
  TieCounter x_ties_, y_ties_, xy_ties_;
  std::vector<std::int64_t> pair_counts_;  // E, clusters x clusters, row-major; see above
};

}  // namespace mad::datasets
