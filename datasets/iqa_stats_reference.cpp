// The straightforward statistics, kept as the oracle the fast path (iqa_stats.cpp) is tested
// and benchmarked against: every resample is materialised, its ranks re-sorted, its Kendall
// counts re-merged and its logistic fitted from the full sample's parameters, one group after
// another. Same seeds, same resamples, same order of summation as the fast path's correlations.
#include <map>

#include "datasets/correlation.h"
#include "datasets/iqa_stats.h"

namespace mad::datasets {
namespace {

struct PointStats {
  double srocc, krocc, plcc, rmse;
  LogisticFit fit;
};

PointStats point_stats(const std::vector<double>& x, const std::vector<double>& y,
                       const LogisticParams* start) {
  const FittedAgreement f = plcc_rmse_after_fit(x, y, start);
  return {spearman(x, y), kendall_tau_b(x, y), f.plcc, f.rmse, f.fit};
}

}  // namespace

GroupStats group_stats_reference(const std::string& name, const std::vector<Observation>& obs,
                                 int expected_sign, const BootstrapOptions& bootstrap) {
  GroupStats g;
  g.name = name;
  g.pairs = obs.size();
  std::map<std::string, int> ids;
  std::vector<int> cluster(obs.size());
  std::vector<double> x(obs.size()), y(obs.size());
  for (std::size_t i = 0; i < obs.size(); ++i) {
    cluster[i] = ids.emplace(obs[i].reference, static_cast<int>(ids.size())).first->second;
    x[i] = obs[i].mad;
    y[i] = obs[i].subjective;
  }
  g.references = ids.size();
  const PointStats p = point_stats(x, y, nullptr);
  g.srocc_signed = p.srocc;
  g.krocc_signed = p.krocc;
  g.srocc.value = expected_sign * p.srocc;
  g.krocc.value = expected_sign * p.krocc;
  g.plcc.value = p.plcc;
  g.rmse.value = p.rmse;
  g.fit = p.fit;
  if (obs.size() < 2) return g;

  const auto ci = bootstrap_by_cluster(
      cluster, 4, bootstrap, [&](const std::vector<std::size_t>& idx) -> std::vector<double> {
        std::vector<double> bx(idx.size()), by(idx.size());
        for (std::size_t k = 0; k < idx.size(); ++k) bx[k] = x[idx[k]], by[k] = y[idx[k]];
        const PointStats s = point_stats(bx, by, p.fit.ok ? &p.fit.beta : nullptr);
        return {expected_sign * s.srocc, expected_sign * s.krocc, s.plcc, s.rmse};
      });
  g.srocc.ci = ci[0];
  g.krocc.ci = ci[1];
  g.plcc.ci = ci[2];
  g.rmse.ci = ci[3];
  return g;
}

EvalStats evaluate_agreement_reference(const std::vector<Observation>& observations,
                                       const StatsOptions& options) {
  EvalStats s;
  s.expected_sign = options.subjective_higher_is_better ? -1 : 1;
  s.overall = group_stats_reference("all", observations, s.expected_sign, options.bootstrap);
  std::map<std::string, std::vector<Observation>> by_type;
  for (const auto& o : observations)
    if (!o.type.empty()) by_type[o.type].push_back(o);
  for (const auto& [type, obs] : by_type)
    s.per_type.push_back(group_stats_reference(type, obs, s.expected_sign, options.bootstrap));
  return s;
}

}  // namespace mad::datasets
