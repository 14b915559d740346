// stats_bench: wall time of the statistics `mad eval` computes after the scoring (issue 26,
// item 1), on a synthetic KADID-10k-shaped set: 81 references x 25 types x 5 levels = 10,125
// pairs, MOS rounded to 2 decimals as KADID's are (so the ranks have ties), the overall figures
// and the 25 per-type ones, each with --resamples bootstrap resamples. A timing tool, not a
// test: it prints seconds and asserts nothing. No GPU, no images.
//
//   stats_bench [--resamples N] [--threads T] [--repeat R] [--refs K] [--curve C] [--reference]
//               [--compare] [--results FILE]
//
// --results FILE takes the observations from a `mad eval` results file instead of --refs and
// --curve (its mad, subjective, type and ref columns; rows with an error are left out; the
// subjective score read as a MOS, which orients the rank correlations), in the file's order:
// the statistics `mad eval --resume` computes on that set, timed alone. Its figures can differ
// from the run's report in the intervals, since the run lists the pairs in the dataset's
// order and the file in the order they were scored.
//
// --compare runs both algorithms once and prints how far apart their figures are (rank
// correlations and their intervals must be 0 apart; PLCC and RMSE within the fit's tolerance).
// --curve sigmoid (default): the MOS a noisy sigmoid of MAD, the shape the logistic mapping is
// made for; every type's curve has a finite best fit. --curve exponential: the MOS falls
// exponentially with MAD, so ten of the 25 types are best fitted by the logistic's cubic
// limit (no finite minimum): their resamples take the fallback fit (fit_logistic5's steps on
// the resample merged by x, logistic_tied.cpp), as --results on `mad eval`'s synthetic set do.
//
// --reference times the straightforward algorithm kept as the test oracle
// (evaluate_agreement_reference), so before/after come from one binary on one machine.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/parallel.h"
#include "datasets/iqa_stats.h"
#include "mad/results/csv.h"

namespace {

using mad::datasets::Observation;

std::vector<Observation> kadid_shaped(int refs, bool sigmoid, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, 1.0);
  std::vector<Observation> obs;
  for (int r = 0; r < refs; ++r)
    for (int t = 0; t < 25; ++t)
      for (int level = 1; level <= 5; ++level) {
        Observation o;
        const double strength = level * (0.6 + 0.05 * t) + 0.2 * noise(rng);
        o.mad = 30.0 * std::log1p(strength) + 3.0 * noise(rng) + 0.1 * r;
        const double mos =
            sigmoid ? 1.0 + 4.0 / (1.0 + std::exp((o.mad - 40.0 - t) / 8.0)) : 4.6 - 0.7 * strength;
        o.subjective = std::round(100.0 * std::clamp(mos + 0.35 * noise(rng), 1.0, 5.0)) / 100.0;
        o.reference = "ref" + std::to_string(r);
        o.type = "type" + std::to_string(t + 1);
        obs.push_back(o);
      }
  return obs;
}

// The scored rows of a `mad eval` results file, as the statistics take them.
std::vector<Observation> read_results(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!std::getline(in, line)) throw mad::InputError("'" + path + "' is empty or unreadable");
  const std::vector<std::string> header = mad::results::split_csv_line(line);
  const auto column = [&](const char* name) {
    const auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end())
      throw mad::InputError("'" + path + "' has no column '" + name +
                            "': not a mad eval results file");
    return static_cast<std::size_t>(it - header.begin());
  };
  const std::size_t mad = column("mad"), subjective = column("subjective"), type = column("type"),
                    ref = column("ref"), error = column("error");
  std::vector<Observation> obs;
  for (int number = 2; std::getline(in, line); ++number) {
    const std::string where = path + ":" + std::to_string(number) + ": ";
    const std::vector<std::string> f = mad::results::split_csv_line(line);
    if (f.size() != header.size())
      throw mad::InputError(where + std::to_string(f.size()) + " fields, the header has " +
                            std::to_string(header.size()));
    if (!f[error].empty()) continue;  // a pair that failed has no score
    const auto number_in = [&](std::size_t c) {
      char* end = nullptr;
      const double v = std::strtod(f[c].c_str(), &end);
      if (f[c].empty() || *end) throw mad::InputError(where + "'" + f[c] + "' is not a number");
      return v;
    };
    obs.push_back({number_in(mad), number_in(subjective), f[ref], f[type]});
  }
  return obs;
}

// Largest differences between the fast and the reference figures over every group.
int compare_algorithms(const std::vector<Observation>& obs,
                       const mad::datasets::StatsOptions& options) {
  using mad::datasets::GroupStats;
  const auto fast = mad::datasets::evaluate_agreement(obs, options);
  const auto oracle = mad::datasets::evaluate_agreement_reference(obs, options);
  double ranks = 0, plcc = 0, rmse = 0;
  std::string plcc_group, rmse_group;
  const auto gap = [](double a, double b) { return a == b ? 0.0 : std::abs(a - b); };
  for (std::size_t g = 0; g <= fast.per_type.size(); ++g) {
    const GroupStats& f = g ? fast.per_type[g - 1] : fast.overall;
    const GroupStats& o = g ? oracle.per_type[g - 1] : oracle.overall;
    for (auto m : {&GroupStats::srocc, &GroupStats::krocc})
      ranks = std::max({ranks, gap((f.*m).value, (o.*m).value), gap((f.*m).ci.lo, (o.*m).ci.lo),
                        gap((f.*m).ci.hi, (o.*m).ci.hi)});
    const double p = std::max(gap(f.plcc.ci.lo, o.plcc.ci.lo), gap(f.plcc.ci.hi, o.plcc.ci.hi));
    const double r = std::max(gap(f.rmse.ci.lo, o.rmse.ci.lo) / o.rmse.ci.lo,
                              gap(f.rmse.ci.hi, o.rmse.ci.hi) / o.rmse.ci.hi);
    if (p > plcc) plcc = p, plcc_group = o.name;
    if (r > rmse) rmse = r, rmse_group = o.name;
  }
  std::printf(
      "largest differences over %zu groups: SROCC/KROCC and their intervals %.3g, "
      "PLCC interval %.3g (%s), RMSE interval (relative) %.3g (%s)\n",
      fast.per_type.size() + 1, ranks, plcc, plcc_group.c_str(), rmse, rmse_group.c_str());
  return 0;
}

int positive(const char* option, const char* text) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (!*text || *end || v < 1 || v > 1000000) {
    std::fprintf(stderr, "stats_bench: %s takes a positive integer, not '%s'\n", option, text);
    std::exit(2);
  }
  return static_cast<int>(v);
}

}  // namespace

int main(int argc, char** argv) {
  int resamples = 1000, threads = 0, repeat = 3, refs = 81;
  bool reference = false, sigmoid = true, compare = false, synthetic_options = false;
  std::string results;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    const bool has_value = i + 1 < argc;
    if (!std::strcmp(a, "--reference")) {
      reference = true;
    } else if (!std::strcmp(a, "--compare")) {
      compare = true;
    } else if (has_value && !std::strcmp(a, "--resamples")) {
      resamples = positive(a, argv[++i]);
    } else if (has_value && !std::strcmp(a, "--threads")) {
      threads = positive(a, argv[++i]);
    } else if (has_value && !std::strcmp(a, "--repeat")) {
      repeat = positive(a, argv[++i]);
    } else if (has_value && !std::strcmp(a, "--results")) {
      results = argv[++i];
    } else if (has_value && !std::strcmp(a, "--refs")) {
      refs = positive(a, argv[++i]);
      synthetic_options = true;
    } else if (has_value && !std::strcmp(a, "--curve") &&
               (!std::strcmp(argv[i + 1], "sigmoid") || !std::strcmp(argv[i + 1], "exponential"))) {
      sigmoid = !std::strcmp(argv[++i], "sigmoid");
      synthetic_options = true;
    } else {
      std::fprintf(stderr,
                   "usage: stats_bench [--resamples N] [--threads T] [--repeat R] [--refs K] "
                   "[--curve sigmoid|exponential] [--reference] [--compare] [--results FILE]\n");
      return 2;
    }
  }
  if (!results.empty() && synthetic_options) {
    std::fprintf(stderr,
                 "stats_bench: --refs and --curve describe the synthetic data, which "
                 "--results replaces\n");
    return 2;
  }
  mad::set_thread_count(threads);
  std::vector<Observation> obs;
  try {
    obs = results.empty() ? kadid_shaped(refs, sigmoid, 7) : read_results(results);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "stats_bench: %s\n", e.what());
    return 1;
  }
  mad::datasets::StatsOptions options;
  options.bootstrap.resamples = resamples;
  const std::string data = results.empty() ? std::to_string(refs) + " refs, 25 types, " +
                                                 (sigmoid ? "sigmoid" : "exponential") + " curve"
                                           : "from " + results;
  std::printf("stats_bench: %zu pairs, %s, %d resamples, %d threads, %s\n", obs.size(),
              data.c_str(), resamples, mad::thread_count(),
              reference ? "reference algorithm" : "library algorithm");
  if (compare) return compare_algorithms(obs, options);
  for (int k = 0; k < repeat; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto s = reference ? mad::datasets::evaluate_agreement_reference(obs, options)
                             : mad::datasets::evaluate_agreement(obs, options);
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("run %d: %.3f s  (overall SROCC %.6f [%.6f, %.6f], PLCC %.6f [%.6f, %.6f])\n",
                k + 1, sec, s.overall.srocc.value, s.overall.srocc.ci.lo, s.overall.srocc.ci.hi,
                s.overall.plcc.value, s.overall.plcc.ci.lo, s.overall.plcc.ci.hi);
  }
  return 0;
}
