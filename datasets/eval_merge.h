// `mad merge OUT SHARD_FILES...` for the shards of `mad eval DIR --shard I/N`: one results file
// in dataset order, then the statistics and the report, as one `mad eval` of the whole dataset
// writes them (eval_session.h's own code): the same points in the same order, so the same
// statistics for the same --bootstrap and --seed.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "datasets/eval_report.h"
#include "mad/results/shard_files.h"

namespace mad::datasets {

struct EvalMergeConfig {
  std::string out;                  // the merged results file
  std::vector<std::string> shards;  // the N shard files, any order
  bool overwrite = false;           // replace an existing `out` (otherwise refused)
  std::string json, html;           // summary outputs ("" = none)
  BootstrapOptions bootstrap;
  std::FILE* log = stderr;  // notes and missing images; null = silent
};

// `set` is check_shard_set(config.shards) (shards of eval). Reads the dataset again from the
// folder (and manifest) the shards recorded, and checks that every pair of it has exactly one
// row in the shard files, naming that pair, unless an image of the pair is missing (then it is
// counted and listed as a whole run lists it); throws InputError naming the first pair or row
// that breaks this, and InvalidArgument for an existing `out` without `overwrite`.
// The report counts the shards' rows as scored (score_seconds: the pairs' own times added up)
// and their workers as one per shard.
EvalReport merge_eval_shards(const EvalMergeConfig& config, const results::ShardSet& set);

}  // namespace mad::datasets
