// The agreement statistics, fast: every (group, resample) pair is one task of a single
// parallel loop over all groups, so 16 cores share 26,000 resamples rather than 1000 at a time
// per group; each task computes its statistics from the cluster draws without materialising
// and sorting the resample (bootstrap_ranks.h: SROCC and KROCC bit for bit those of the
// materialised resample) and refits the logistic by weighted normal equations from the full
// sample's fit (logistic_fit.h); where that refit has no certain answer, fit_logistic5's own
// steps run on the resample merged by x (fit_logistic5_tied). iqa_stats_reference.cpp keeps
// the straightforward algorithm.
#include "datasets/iqa_stats.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>

#include "common/parallel.h"
#include "datasets/bootstrap_ranks.h"
#include "datasets/correlation.h"

namespace mad::datasets {
namespace {

constexpr std::size_t kStatistics = 4;  // SROCC, KROCC, PLCC, RMSE: a resample's draws

// One group's data, its point figures and what its resamples share.
struct GroupPlan {
  GroupStats stats;
  std::vector<double> x, y;
  std::vector<std::vector<std::size_t>> members;  // by cluster, in order of first appearance
  bool resampled = false;                         // two or more observations
  std::unique_ptr<ResampleRanks> ranks;           // null: non-finite data (sorting handles them)
  bool refit = false;                // resamples try the weighted refit first (see run_groups)
  std::vector<char> refit_answered;  // per resample that tried it: whether it answered
  FitFrame frame;
  std::unique_ptr<TiedIndex> tied;  // the fallback fit's merge by x (finite data with a start)
  std::vector<double> draws;
};

GroupPlan plan_group(const std::string& name, const std::vector<Observation>& obs,
                     int expected_sign) {
  GroupPlan p;
  GroupStats& g = p.stats;
  g.name = name;
  g.pairs = obs.size();
  std::map<std::string, std::size_t> ids;
  p.x.resize(obs.size());
  p.y.resize(obs.size());
  for (std::size_t i = 0; i < obs.size(); ++i) {
    const std::size_t c = ids.emplace(obs[i].reference, ids.size()).first->second;
    if (c == p.members.size()) p.members.emplace_back();
    p.members[c].push_back(i);
    p.x[i] = obs[i].mad;
    p.y[i] = obs[i].subjective;
  }
  g.references = ids.size();
  const FittedAgreement f = plcc_rmse_after_fit(p.x, p.y);
  g.srocc_signed = spearman(p.x, p.y);
  g.krocc_signed = kendall_tau_b(p.x, p.y);
  g.srocc.value = expected_sign * g.srocc_signed;
  g.krocc.value = expected_sign * g.krocc_signed;
  g.plcc.value = f.plcc;
  g.rmse.value = f.rmse;
  g.fit = f.fit;
  p.resampled = obs.size() >= 2;
  bool finite = true;
  for (std::size_t i = 0; i < obs.size(); ++i)
    finite = finite && std::isfinite(p.x[i]) && std::isfinite(p.y[i]);
  if (p.resampled && finite) p.ranks = std::make_unique<ResampleRanks>(p.x, p.y, p.members);
  // Resample fits start from the full sample's logistic (a straight line is no start).
  p.refit = p.ranks && g.fit.ok && !g.fit.linear;
  if (p.refit) p.frame = make_fit_frame(p.x, p.y);
  if (p.ranks && g.fit.ok) p.tied = std::make_unique<TiedIndex>(p.x);
  return p;
}

// Resample r of group p: SROCC and KROCC (oriented), PLCC, RMSE.
void resample(GroupPlan& p, int expected_sign, const BootstrapOptions& options, int r) {
  const std::size_t k = p.members.size();
  std::vector<int> weight(k, 0);
  std::vector<std::size_t> order;  // the resample as bootstrap_by_cluster lists it
  order.reserve(p.x.size() + p.x.size() / 4);
  for (const std::size_t c : draw_clusters(k, options.seed, r)) {
    ++weight[c];
    order.insert(order.end(), p.members[c].begin(), p.members[c].end());
  }
  double* out = &p.draws[static_cast<std::size_t>(r) * kStatistics];
  std::vector<double> bx, by;  // the materialised resample, only where it is needed
  const auto materialise = [&] {
    bx.resize(order.size()), by.resize(order.size());
    for (std::size_t j = 0; j < order.size(); ++j) bx[j] = p.x[order[j]], by[j] = p.y[order[j]];
  };
  if (p.ranks) {
    out[0] = expected_sign * p.ranks->spearman(weight, order);
    out[1] = expected_sign * p.ranks->kendall_tau_b(weight, order);
  } else {
    materialise();
    out[0] = expected_sign * spearman(bx, by);
    out[1] = expected_sign * kendall_tau_b(bx, by);
  }
  std::optional<FittedAgreement> f;
  // The fits need each distinct observation once, with its multiplicity.
  std::vector<std::size_t> rows;
  std::vector<double> multiplicity;
  if (p.refit || p.tied) {
    rows.reserve(p.x.size());
    multiplicity.reserve(p.x.size());
    for (std::size_t c = 0; c < k; ++c)
      for (const std::size_t i : p.members[c])
        if (weight[c]) rows.push_back(i), multiplicity.push_back(weight[c]);
  }
  if (p.refit) {
    f = refit_logistic5_weighted(p.frame, rows, multiplicity, p.stats.fit.beta);
    p.refit_answered[static_cast<std::size_t>(r)] = f.has_value();
  }
  // No certain minimum: fit_logistic5's own steps, on the resample merged by x.
  if (!f && p.tied)
    f = fit_logistic5_tied(p.tied->merge(p.y, rows, multiplicity), p.stats.fit.beta);
  if (!f) {  // fit_logistic5 itself, on the materialised resample
    if (bx.empty()) materialise();
    f = plcc_rmse_after_fit(bx, by, p.stats.fit.ok ? &p.stats.fit.beta : nullptr);
  }
  out[2] = f->plcc;
  out[3] = f->rmse;
}

// The weighted refit answers only where a resample's curve has a certain minimum, and where it
// does not it has cost a fraction of the fallback fit for nothing. On data whose curves have
// none (mad eval's synthetic set, whose scores are a function of the level, not of MAD) it
// answers few resamples of a group or none, so each group tries it on its first resamples and
// keeps it for the rest only if it answered at least half of them.
constexpr int kProbeResamples = 32;

// Plans every group (in parallel), then runs all their resamples in two parallel loops: the
// probes of every group, then the rest.
void run_groups(std::vector<GroupPlan>& plans,
                const std::vector<const std::vector<Observation>*>& obs,
                const std::vector<std::string>& names, int expected_sign,
                const BootstrapOptions& options) {
  plans.resize(obs.size());
  parallel_for(static_cast<int>(obs.size()),
               [&](int g) { plans[g] = plan_group(names[g], *obs[g], expected_sign); });
  std::vector<GroupPlan*> resampled;
  for (auto& p : plans)
    if (p.resampled) resampled.push_back(&p);
  if (resampled.empty()) return;
  check_bootstrap_options(options);
  const int per_group = options.resamples;
  for (GroupPlan* p : resampled) {
    p->draws.assign(static_cast<std::size_t>(per_group) * kStatistics, 0.0);
    p->refit_answered.assign(static_cast<std::size_t>(per_group), 0);
  }
  const int probes = std::min(per_group, kProbeResamples), rest = per_group - probes;
  parallel_for(static_cast<int>(resampled.size()) * probes, [&](int t) {
    resample(*resampled[t / probes], expected_sign, options, t % probes);
  });
  for (GroupPlan* p : resampled) {
    const auto first = p->refit_answered.begin();
    if (2 * std::count(first, first + probes, 1) < probes) p->refit = false;
  }
  if (rest > 0)
    parallel_for(static_cast<int>(resampled.size()) * rest, [&](int t) {
      resample(*resampled[t / rest], expected_sign, options, probes + t % rest);
    });
  for (GroupPlan* p : resampled) {
    const auto ci = percentile_intervals(p->draws, kStatistics, options.level);
    p->stats.srocc.ci = ci[0];
    p->stats.krocc.ci = ci[1];
    p->stats.plcc.ci = ci[2];
    p->stats.rmse.ci = ci[3];
  }
}

}  // namespace

std::string interval_warning(const GroupStats& g) {
  if (g.pairs < 2 || g.references >= kFewestIntervalReferences) return "";
  return "'" + g.name + "': its 95% intervals resample only " + std::to_string(g.references) +
         " reference image(s), fewer than " + std::to_string(kFewestIntervalReferences) +
         ": too few distinct resamples for a meaningful interval";
}

GroupStats group_stats(const std::string& name, const std::vector<Observation>& obs,
                       int expected_sign, const BootstrapOptions& bootstrap) {
  std::vector<GroupPlan> plans;
  run_groups(plans, {&obs}, {name}, expected_sign, bootstrap);
  return std::move(plans[0].stats);
}

EvalStats evaluate_agreement(const std::vector<Observation>& observations,
                             const StatsOptions& options) {
  EvalStats s;
  // MAD rises with distortion, so it agrees with a MOS by falling as the MOS rises.
  s.expected_sign = options.subjective_higher_is_better ? -1 : 1;
  std::map<std::string, std::vector<Observation>> by_type;
  for (const auto& o : observations)
    if (!o.type.empty()) by_type[o.type].push_back(o);
  std::vector<const std::vector<Observation>*> groups = {&observations};
  std::vector<std::string> names = {"all"};
  for (const auto& [type, obs] : by_type) groups.push_back(&obs), names.push_back(type);
  std::vector<GroupPlan> plans;
  run_groups(plans, groups, names, s.expected_sign, options.bootstrap);
  s.overall = std::move(plans[0].stats);
  for (std::size_t g = 1; g < plans.size(); ++g) s.per_type.push_back(std::move(plans[g].stats));
  return s;
}

}  // namespace mad::datasets
