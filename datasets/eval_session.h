// One `mad eval` run as library code (the CLI only parses options and prints): read the
// dataset, list missing images, resume from results.csv, score the rest grouped by reference on
// every worker, write each row as soon as it is known, then compute the statistics and write
// the JSON summary and HTML report.
#pragma once

#include <cstdio>
#include <string>

#include "datasets/dataset.h"
#include "datasets/eval_report.h"
#include "mad/pair_engine.h"

namespace mad::datasets {

struct EvalConfig {
  std::string dir;               // dataset folder
  std::string dataset = "auto";  // a DatasetKind name or "auto" (detect)
  ReadOptions read;              // manifest, score direction
  std::string out;          // results file; "" = default_results_name (results_settings.h)
  bool resume = false;     // skip pairs already in `out`
  bool overwrite = false;  // replace an existing `out` (otherwise refused)
  std::string json, html;  // summary outputs ("" = none)
  EngineOptions runner;    // its progress and non_finite_fails are set by run_evaluation
  std::size_t limit = 0;   // score at most this many new pairs (0 = all)
  BootstrapOptions bootstrap;
  std::FILE* log = stderr;  // progress bar, notes, missing images; null = silent
};

// Runs the evaluation. Throws InputError / InvalidArgument for an unreadable dataset or
// results file and GpuError for a failing device; per-pair problems are counted in the report.
EvalReport run_evaluation(const EvalConfig& config);

// kExitOk, or kExitPartial when pairs failed or images were missing (common/error.h).
int exit_code_for(const EvalReport& report);

}  // namespace mad::datasets
