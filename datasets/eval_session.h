// One `mad eval` run as library code (the CLI only parses options and prints): read the
// dataset, list missing images, resume from results.csv, score the rest grouped by reference on
// every worker, write each row as soon as it is known, then compute the statistics and write
// the JSON summary and HTML report.
#pragma once

#include <cstdio>
#include <functional>
#include <string>
#include <utility>

#include "datasets/dataset.h"
#include "datasets/eval_report.h"
#include "datasets/eval_report_files.h"
#include "mad/engine/pair_engine.h"
#include "mad/results/pairs_shard.h"

namespace mad::datasets {

struct EvalConfig {
  // `backend`: the run's backend, chosen where the command starts (choose_backend).
  explicit EvalConfig(BackendChoice backend) : runner(std::move(backend)) {}
  std::string dir;               // dataset folder
  std::string dataset = "auto";  // a DatasetKind name or "auto" (detect)
  ReadOptions read;              // manifest, score direction
  std::string out;          // results file; "" = default_results_name (mad/results)
  bool resume = false;     // skip pairs already in `out`
  bool overwrite = false;  // replace an existing `out` (otherwise refused)
  std::string json, html;  // summary outputs ("" = none)
  EngineOptions runner;    // its progress and non_finite_fails are set by run_evaluation
  std::size_t limit = 0;   // score at most this many new pairs (0 = all)
  BootstrapOptions bootstrap;
  std::FILE* log = stderr;  // progress bar, notes, missing images; null = silent
  // Shard I of N of the dataset's pairs (pairs_shard.h: a reference's pairs stay together,
  // shares balanced by pixels): only its pairs are scored, the shard is recorded in the
  // settings record, and no statistics are computed (json and html must be empty; `mad merge`
  // of all N shards writes them).
  results::ShardSpec shard;
  // Called with the results file's path once it is open and before the first pair is scored
  // (the CLI points its interrupt message at it); may be empty.
  std::function<void(const std::string&)> on_results_file;
};

// Runs the evaluation. Throws InputError / InvalidArgument for an unreadable dataset or
// results file and GpuError for a failing device; per-pair problems are counted in the report.
EvalReport run_evaluation(const EvalConfig& config);

// kExitOk, or kExitPartial when pairs failed or images were missing (common/error.h).
int exit_code_for(const EvalReport& report);

// The parts of a run that `mad merge` of eval shards (datasets/eval_merge.h) shares with it.
// The dataset's layout, folder, score direction and notes, started now; its pairs counted.
EvalReport start_report(const Dataset& dataset);
// Points (the pairs with a finite `mad`, in dataset order) and the statistics of `r`.
void add_statistics(EvalReport& r, const Dataset& dataset, const std::vector<double>& mad,
                    const BootstrapOptions& bootstrap);

}  // namespace mad::datasets
