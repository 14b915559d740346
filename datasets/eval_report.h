// What one `mad eval` run found, and its three renderings: a JSON summary, a plain-text table
// for the terminal and a self-contained HTML report (inline SVG, no scripts, no network).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/allotment.h"
#include "datasets/iqa_stats.h"

namespace mad::datasets {

struct EvalSettings {
  std::string mad_version, backend, precision, input_class, a5_variant;
  int workers = 1;
  std::vector<std::string> devices;  // one line per worker
  BootstrapOptions bootstrap;
  std::string results_file;
  std::string backend_reason, det_variant;  // BackendChoice::reason; "" = default variant
};

struct EvalCounts {
  std::size_t entries = 0;          // pairs the dataset lists
  std::size_t finished_before = 0;  // found in results.csv by --resume
  std::size_t scored_now = 0;
  std::size_t failed_now = 0;       // decode errors, size problems (listed in failures)
  std::size_t missing_images = 0;   // image files absent (listed in missing)
  std::size_t skipped_missing = 0;  // pairs not scored because an image is absent
  std::size_t not_run = 0;          // left for later by --limit
};

struct EvalFailure {
  std::string ref, dist, error;
};

// One worker's pairs on the run's clock (mad/engine/pair_engine.h, WorkerTiming): its start and its
// steady rate apart.
struct EvalWorkerTiming {
  std::size_t pairs = 0;
  double first_seconds = 0.0, last_seconds = 0.0;
  double steady_pairs_per_second = 0.0;  // after its steady_from_pair-th; 0: too few pairs
};

struct EvalReport {
  std::string dataset;     // "tid2013", ...
  std::string root;        // the dataset folder
  std::string score_name;  // "MOS", "DMOS", ...
  bool higher_is_better = true;
  std::string started;  // local time the run began, "YYYY-MM-DD HH:MM:SS"
  EvalSettings settings;
  EvalCounts counts;
  double score_seconds = 0.0;        // wall time of the scoring (this run's pairs only)
  double decode_wait_seconds = 0.0;  // of which the workers waited on decoding (summed)
  double gpu_wait_seconds = 0.0;     // and on the GPU (summed; mad/engine/pair_engine.h)
  std::size_t decoded_images = 0;    // decoded in this run, and the decoding time summed over
  double decode_seconds = 0.0;       // the decode_threads threads (mad/engine/pair_engine.h)
  std::size_t decode_threads = 0;
  // What the run was allotted (CPUs and memory: common/allotment.h) and what it sized from it:
  // each worker's scoring threads and the decoding's memory budget (in the JSON's settings).
  // None for `mad merge`, which scores nothing.
  std::optional<Allotment> allotment;
  int scoring_threads = 0;
  std::size_t decode_memory_bytes = 0;
  std::vector<EvalWorkerTiming> worker_timing;  // one per worker (empty: not measured)
  std::size_t steady_from_pair = 0;             // WorkerTiming::kSteadyFrom
  double stats_seconds = 0.0;                   // statistics and bootstrap
  std::vector<std::string> notes;
  std::vector<std::string> missing;  // missing image names, dataset order
  std::vector<EvalFailure> failures;
  std::vector<Observation> points;  // every pair with a score, this run's and resumed ones
  bool have_stats = false;          // false with fewer than two scored pairs, or for a shard
  EvalStats stats;
  std::string shard;  // "I/N" for one shard of the dataset (counts.entries: its pairs); "" = all
  // A dataset written by `mad eval --make-synthetic` (synthetic_dataset.h): its subjective
  // scores are invented, and every rendering says so, so that its statistics never pass for a
  // real dataset's.
  bool synthetic = false;
};

// Pairs per second of this run's scoring (0 when nothing was scored).
double pairs_per_second(const EvalReport& r);
// The workers' steady rates summed: what the run does once started, against its start (0 when
// a worker scored too few pairs to have one).
double steady_pairs_per_second(const EvalReport& r);

// The sign convention in one sentence, for every rendering.
std::string sign_convention(const EvalReport& r);

// {dataset, settings, run, sign_convention, overall, per_type, missing_images, failures};
// NaN statistics become null.
nlohmann::json report_to_json(const EvalReport& r);

// The summary printed at the end of a run: counts, timing and the statistics table.
std::string report_to_text(const EvalReport& r);

// A complete HTML document: scatter of MAD against the subjective score with the fitted
// logistic, the per-type table, the settings and the timing.
std::string report_to_html(const EvalReport& r);

// The report's figure as an SVG element (MAD against the subjective score, coloured by type,
// the pooled logistic fit thick and each type's thin in its colour); "" without points.
std::string scatter_svg(const EvalReport& r);

// For a paper (eval_report_paper.cpp): the figure as a standalone SVG file, and the agreement
// table (overall, then each type: pairs, references, each statistic with its 95% interval) as
// CSV (RFC 4180, full precision, NaN as an empty field) and as a LaTeX tabular (booktabs rules,
// 3 decimals). Without statistics the tables have their header only.
std::string report_figure_svg(const EvalReport& r);
std::string report_table_csv(const EvalReport& r);
std::string report_table_latex(const EvalReport& r);

// The statistics' groups, overall first, then each type; empty without statistics.
std::vector<const GroupStats*> report_groups(const EvalReport& r);

// Every group's interval_warning (iqa_stats.h), overall first; empty without statistics.
std::vector<std::string> interval_warnings(const EvalReport& r);
// Every group's warnings about its logistic fit, overall first; empty without statistics: fewer
// pairs than kFewestTrustedFitPairs (logistic_fit.h) under a fitted curve, or a fitted curve
// that is not monotone over the group's MAD range (from r.points).
std::vector<std::string> fit_warnings(const EvalReport& r);
// What the renderings warn of: interval_warnings, then fit_warnings.
std::vector<std::string> report_warnings(const EvalReport& r);

// What every rendering of a synthetic dataset's report says of its scores.
inline constexpr const char* kSyntheticScores =
    "the subjective scores are invented (a synthetic dataset of mad eval --make-synthetic), so "
    "these statistics measure nothing about MAD";
// The report's title: "MAD on <dataset>", with "(synthetic: invented scores)" for a synthetic
// dataset.
std::string report_title(const EvalReport& r);

// "0.9123" for finite values, "-" for NaN (tables).
std::string format_stat(double v, int decimals = 4);

}  // namespace mad::datasets
