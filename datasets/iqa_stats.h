// Agreement of MAD with subjective scores, overall and per distortion type: SROCC, KROCC
// (tau-b), and PLCC and RMSE after the 5-parameter logistic fit, each with a 95% bootstrap
// interval from resampling references.
//
// Sign convention: MAD is a distortion measure, higher = worse. Against a MOS (higher = better)
// an agreeing metric correlates negatively; against a DMOS (higher = worse) positively. The
// rank correlations are reported ORIENTED: multiplied by the expected sign, so a good metric
// scores near +1 on either kind of subjective score; `*_signed` keeps the raw value. PLCC is
// computed between the fitted prediction q(MAD) and the subjective score, so it is positive
// whenever the fit captures the trend, whatever the orientation.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "datasets/bootstrap.h"
#include "datasets/logistic_fit.h"

namespace mad::datasets {

struct Observation {
  double mad = 0.0;
  double subjective = 0.0;
  std::string reference;  // the bootstrap's cluster
  std::string type;       // distortion type ("" = none)
};

struct Metric {
  double value = std::numeric_limits<double>::quiet_NaN();
  Interval ci{std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN()};
};

struct GroupStats {
  std::string name;  // "all" or the type label
  std::size_t pairs = 0, references = 0;
  Metric srocc, krocc, plcc, rmse;  // srocc and krocc oriented (see above)
  double srocc_signed = 0.0, krocc_signed = 0.0;
  LogisticFit fit;
};

struct StatsOptions {
  bool subjective_higher_is_better = true;
  BootstrapOptions bootstrap;
};

struct EvalStats {
  int expected_sign = -1;  // sign of corr(MAD, subjective) for an agreeing metric
  GroupStats overall;
  std::vector<GroupStats> per_type;  // sorted by type label; empty when no entry has a type
};

// Below this many references the bootstrap by reference has too few distinct resamples for a
// percentile interval to mean much: k references give C(2k-1, k) of them (2 give 3: each one
// twice or both once, so the interval collapses onto two or three values; 9 give 24,310).
constexpr std::size_t kFewestIntervalReferences = 10;

// The reports' warning for a group whose interval rests on fewer than kFewestIntervalReferences
// references, "" otherwise (and for a group without an interval).
std::string interval_warning(const GroupStats& g);

// One group's statistics with their intervals.
GroupStats group_stats(const std::string& name, const std::vector<Observation>& obs,
                       int expected_sign, const BootstrapOptions& bootstrap);

EvalStats evaluate_agreement(const std::vector<Observation>& observations,
                             const StatsOptions& options);

// The same statistics by the straightforward algorithm (iqa_stats_reference.cpp): each resample
// materialised, sorted and fitted on its own, groups one after another. Slow; kept as the
// oracle that tests and tools/stats_bench compare the fast path with.
GroupStats group_stats_reference(const std::string& name, const std::vector<Observation>& obs,
                                 int expected_sign, const BootstrapOptions& bootstrap);
EvalStats evaluate_agreement_reference(const std::vector<Observation>& observations,
                                       const StatsOptions& options);

}  // namespace mad::datasets
