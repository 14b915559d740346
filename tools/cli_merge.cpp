// `mad merge OUT SHARD_FILES...`: joins the --out files of the N shards of one `mad score
// --pairs LIST --shard I/N` run (CSV or JSON Lines) into one results file in list order, or of
// one `mad eval DIR --shard I/N` run into one results file in dataset order with the statistics
// and the report (datasets/eval_merge.h). The checks shared by both are in
// datasets/shard_files.h: shards 1..N of one N, each once, with the same settings and the same
// list or dataset; here, for lists, every line of the list exactly once with its pair.
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
#include "datasets/pairs_list.h"
#include "datasets/shard_files.h"
#include "tools/cli_commands.h"
#include "tools/cli_options.h"
#include "tools/cli_stdout.h"

namespace mad::cli {
namespace {

struct MergeArgs {
  std::string out, json, html;
  std::vector<std::string> shards;
  bool force = false, quiet = false;
  int resamples = datasets::BootstrapOptions{}.resamples;
  std::uint64_t seed = datasets::BootstrapOptions{}.seed;
};

// What merging a list's rows needs of one row: its list line, its pair, and whether it failed.
struct PairsRow {
  int line = 0;
  std::string ref, dist;
  bool failed = false;
};

PairsRow key_of(const datasets::ShardRow& row, datasets::ResultsKind kind) {
  const auto& header = datasets::results_header(datasets::ResultsKind::Pairs);
  const auto at = [&](const char* name) {
    return row.fields[std::find(header.begin(), header.end(), name) - header.begin()];
  };
  if (kind == datasets::ResultsKind::Pairs)
    return {std::atoi(at("line").c_str()), at("ref"), at("dist"), !at("error").empty()};
  nlohmann::json j = nlohmann::json::parse(row.fields[0], nullptr, false);
  if (!j.is_object() || !j.contains("line") || !j["line"].is_number_integer() ||
      !j.contains("ref") || !j["ref"].is_string() || !j.contains("dist") || !j["dist"].is_string())
    throw InputError(row.file + ":" + std::to_string(row.line) +
                     ": not a row of mad score --pairs --json --shard (an object with line, ref "
                     "and dist)");
  return {j["line"].get<int>(), j["ref"].get<std::string>(), j["dist"].get<std::string>(),
          j.contains("error")};
}

// The shards of a list: every line of it exactly once, with its pair; OUT in list order, in
// the shards' format (CSV, or JSON Lines: their lines as written).
int merge_pairs(const MergeArgs& a, const datasets::ShardSet& set) {
  std::optional<datasets::ResultsKind> kind;
  for (const auto& path : a.shards) {
    std::error_code ec;
    if (std::filesystem::file_size(path, ec) == 0 && !ec) continue;  // JSON Lines, no rows
    const auto k = datasets::shard_file_kind(path, datasets::ResultsKind::Pairs);
    if (kind && *kind != k)
      throw InputError("'" + path + "' and '" + a.shards.front() +
                       "' are of two formats (CSV "
                       "and JSON Lines): score every shard with the same --json or without it");
    kind = k;
  }
  if (!kind) kind = datasets::ResultsKind::JsonLines;  // every file empty: JSON Lines, no rows
  std::map<int, std::pair<datasets::ShardRow, PairsRow>> rows;
  for (const auto& path : a.shards)
    for (datasets::ShardRow& row : datasets::read_shard_rows(path, *kind)) {
      PairsRow key = key_of(row, *kind);
      const auto [it, fresh] = rows.emplace(key.line, std::pair{std::move(row), key});
      if (!fresh)
        throw InputError("line " + std::to_string(key.line) + " of the list has a row in both '" +
                         it->second.first.file + "' and '" + path + "': shards overlap");
    }
  const std::string list = set.settings.dataset_folder;
  std::size_t listed = 0, failed = 0;
  datasets::PairsListReader reader(list);
  for (datasets::PairRow row; reader.next(row); ++listed) {
    const auto it = rows.find(row.line);
    if (it == rows.end())
      throw InputError("line " + std::to_string(row.line) + " of " + list +
                       " has no row in the shard files");
    const PairsRow& held = it->second.second;
    if (held.ref != row.ref || held.dist != row.dist)
      throw InputError("line " + std::to_string(row.line) + " of " + list + " names " + row.ref +
                       ", " + row.dist + " but '" + it->second.first.file + "' holds " + held.ref +
                       ", " + held.dist + ": the list changed after the shards were scored");
  }
  if (listed != rows.size() || std::to_string(listed) != set.settings.dataset_pairs)
    throw InputError("the shard files hold " + std::to_string(rows.size()) + " rows for " + list +
                     ", which lists " + std::to_string(listed) + " pairs (" +
                     set.settings.dataset_pairs + " when the shards were scored)");
  datasets::refuse_existing_out(a.out, a.force);
  datasets::ResultsWriter out = datasets::ResultsWriter::create(a.out, true, *kind);
  for (const auto& [line, row] : rows) {  // list order
    if (*kind == datasets::ResultsKind::JsonLines)
      out.write_line(row.first.fields[0]);
    else
      out.write(row.first.fields);
    failed += row.second.failed;
  }
  datasets::write_merged_settings(a.out, set);
  if (!a.quiet)
    std::fprintf(stderr, "mad merge: %zu rows of %d shards in %s (%zu failed)\n", rows.size(),
                 set.count, a.out.c_str(), failed);
  return failed ? kExitPartial : kExitOk;
}

int merge_eval(const MergeArgs& a, const datasets::ShardSet& set) {
  datasets::EvalMergeConfig c;
  c.out = a.out;
  c.shards = a.shards;
  c.overwrite = a.force;
  c.json = a.json;
  c.html = a.html;
  c.bootstrap.resamples = a.resamples;
  c.bootstrap.seed = a.seed;
  if (a.quiet) c.log = nullptr;
  require_writable(a.json, "--json");  // before the bootstrap's work, not after it
  require_writable(a.html, "--html");
  const datasets::EvalReport report = datasets::merge_eval_shards(c, set);
  std::cout << datasets::report_to_text(report);
  flush_standard_output();  // the report is the result: lost, it is an error
  if (!a.quiet)
    std::fprintf(stderr, "mad merge: %zu rows of %d shards in %s, in dataset order\n",
                 report.counts.scored_now + report.counts.failed_now, set.count, a.out.c_str());
  return datasets::exit_code_for(report);
}

int run_merge(const CLI::App& cmd, const MergeArgs& a) {
  const datasets::ShardSet set = datasets::check_shard_set(a.shards);
  if (!set.eval)
    for (const char* name : {"--bootstrap", "--seed", "--json", "--html"})
      if (given(cmd, name))
        throw InvalidArgument(std::string(name) +
                              " applies to the statistics of mad eval's "
                              "shards; these are shards of mad score --pairs, which have none");
  return set.eval ? merge_eval(a, set) : merge_pairs(a, set);
}

}  // namespace

Subcommand add_merge_command(CLI::App& root) {
  auto args = std::make_shared<MergeArgs>();
  CLI::App* cmd = root.add_subcommand(
      "merge",
      "Join the --out files of mad score --pairs LIST --shard I/N (in list order) or of "
      "mad eval DIR --shard I/N (in dataset order, with the statistics) into one");
  cmd->add_option("OUT", args->out,
                  "The merged results file, and OUT.settings beside it (the shards' settings)")->required()->type_name("FILE");
  cmd->add_option("SHARD_FILES", args->shards, "The N shard files, in any order")
      ->required()
      ->type_name("FILE");
  cmd->add_flag("--force", args->force,
                "Replace an existing OUT and the files beside --html (eval shards)");
  cmd->add_flag("-q,--quiet", args->quiet,
                "No summary or notes on stderr (eval: the report "
                "still prints)");
  cmd->add_option("--json", args->json, "Eval shards: write the summary as JSON")
      ->type_name("FILE")
      ->group("Statistics (eval shards)");
  cmd->add_option("--html", args->html,
                  "Eval shards: write the HTML report, and beside it, X being FILE without "
                  "its extension, X.figure.svg (the figure), X.types.csv and X.types.tex (the "
                  "table); existing ones are refused without --force")
      ->type_name("FILE")
      ->group("Statistics (eval shards)");
  add_statistics_options(*cmd, args->resamples, args->seed, "Statistics (eval shards)");
  return {cmd, [args, cmd] { return run_merge(*cmd, *args); }};
}

}  // namespace mad::cli
