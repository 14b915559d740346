// `mad merge OUT SHARD_FILES...`: joins the --out files of the N shards of one `mad score
// --pairs LIST --shard I/N` run (CSV or JSON Lines) into one results file in list order, or of
// one `mad eval DIR --shard I/N` run into one results file in dataset order with the statistics
// and the report (datasets/eval_merge.h). The checks shared by both are in
// mad/results/shard_files.h: shards 1..N of one N, each once, with the same settings and the
// same list or dataset; a list's merge is mad/results/pairs_merge.h.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "common/error.h"
#include "common/text_file.h"
#include "datasets/eval_merge.h"
#include "datasets/eval_session.h"
#include "mad/results/pairs_merge.h"
#include "mad/results/shard_files.h"
#include "tools/cli_commands.h"
#include "tools/cli_options.h"
#include "tools/cli_report_args.h"
#include "tools/cli_subcommand.h"
#include "tools/cli_stdout.h"

namespace mad::cli {
namespace {

struct MergeArgs : ReportArgs {
  std::vector<std::string> shards;
};

// What `mad merge` does, as mad --help lists it.
constexpr const char* kSummary =
    "Join the --out files of mad score --pairs LIST --shard I/N (in list order) or of "
    "mad eval DIR --shard I/N (in dataset order, with the statistics) into one";

// The shards of a list, merged by the results room; the count of rows and failures told here.
int merge_pairs(const MergeArgs& a, const results::ShardSet& set) {
  const results::PairsMerge merged = results::merge_pairs_shards(a.out, a.shards, a.force, set);
  if (!a.quiet)
    std::fprintf(stderr, "mad merge: %zu rows of %d shards in %s (%zu failed)\n", merged.rows,
                 set.count, a.out.c_str(), merged.failed);
  return merged.failed ? kExitPartial : kExitOk;
}

int merge_eval(const MergeArgs& a, const results::ShardSet& set) {
  datasets::EvalMergeConfig c;
  c.shards = a.shards;
  apply_report_args(a, c);
  const datasets::EvalReport report = datasets::merge_eval_shards(c, set);
  std::cout << datasets::report_to_text(report);
  flush_standard_output();  // the report is the result: lost, it is an error
  if (!a.quiet)
    std::fprintf(stderr, "mad merge: %zu rows of %d shards in %s, in dataset order\n",
                 report.counts.scored_now + report.counts.failed_now, set.count, a.out.c_str());
  return datasets::exit_code_for(report);
}

int run_merge(const CLI::App& cmd, const MergeArgs& a) {
  results::refuse_out_among_shards(a.out, a.shards);
  const results::ShardSet set = results::check_shard_set(a.shards);
  if (!set.eval)
    for (const char* name : {"--bootstrap", "--seed", "--json", "--html"})
      if (given(cmd, name))
        throw InvalidArgument(std::string(name) +
                              " applies to the statistics of mad eval's "
                              "shards; these are shards of mad score --pairs, which have none");
  return set.eval ? merge_eval(a, set) : merge_pairs(a, set);
}

void add_options(CLI::App* cmd, MergeArgs* args) {
  cmd->add_option("OUT", args->out,
                  "The merged results file, and OUT.settings beside it (the shards' settings)")
      ->required()
      ->type_name("FILE");
  cmd->add_option("SHARD_FILES", args->shards, "The N shard files, in any order")
      ->required()
      ->type_name("FILE");
  cmd->add_flag("--force", args->force,
                "Replace an existing OUT and the files beside --html (eval shards)");
  cmd->add_flag("-q,--quiet", args->quiet,
                "No summary or notes on stderr (eval: the report "
                "still prints)");
  const std::string statistics = "Statistics (eval shards)";
  add_file_option(*cmd, "--json", args->json, "Eval shards: write the summary as JSON", statistics);
  add_file_option(*cmd, "--html", args->html,
                  "Eval shards: write the HTML report, and beside it, X being FILE without "
                  "its extension, X.figure.svg (the figure), X.types.csv and X.types.tex (the "
                  "table); existing ones are refused without --force",
                  statistics);
  add_statistics_options(*cmd, args->resamples, args->seed, statistics);
}

}  // namespace

Subcommand add_merge_command(CLI::App& root) {
  return make_subcommand<MergeArgs>(root, "merge", kSummary, add_options, run_merge);
}

}  // namespace mad::cli
