// `mad merge OUT SHARD_FILES...`: joins the --out files of `mad score --pairs LIST --shard I/N`
// into one results file in list order, after checking that the shards are 1..N of one N, were
// made with the same settings from the same list, and cover every line of the list exactly
// once with the pair that line names.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <filesystem>
#include <map>
#include <memory>
#include <set>

#include "common/error.h"
#include "datasets/csv.h"
#include "datasets/dataset_io.h"
#include "datasets/pairs_list.h"
#include "datasets/pairs_shard.h"
#include "datasets/results_file.h"
#include "datasets/results_settings.h"
#include "tools/cli_commands.h"

namespace mad::cli {
namespace {

struct MergeArgs {
  std::string out;
  std::vector<std::string> shards;
  bool force = false;
};

struct ShardRow {
  std::vector<std::string> fields;
  std::string file;
};

// The rows of one shard file by list line; refuses a file cut short (an interrupted shard:
// resume it first) or of another format.
void read_shard(const std::string& path, std::map<int, ShardRow>& rows) {
  const std::vector<std::string>& header = datasets::results_header(datasets::ResultsKind::Pairs);
  const auto lines = datasets::read_lines(path);
  std::ifstream tail(path, std::ios::binary | std::ios::ate);
  if (tail.tellg() > 0) {
    tail.seekg(-1, std::ios::end);
    if (tail.get() != '\n')
      throw InputError("'" + path + "' ends in a partly written row (an interrupted shard): "
                       "finish it with mad score ... --resume, then merge");
  }
  if (lines.empty() || datasets::split_csv_line(lines[0].text) != header)
    throw InputError("'" + path + "' is not a CSV results file of mad score --pairs --shard "
                     "(expected the header " + datasets::join_csv(header) + ")");
  for (std::size_t k = 1; k < lines.size(); ++k) {
    std::vector<std::string> f = datasets::split_csv_line(lines[k].text);
    if (f.size() != header.size())
      datasets::throw_at(path, lines[k].line, "expected " + std::to_string(header.size()) +
                                                  " fields, got " + std::to_string(f.size()));
    const int line = std::atoi(f.back().c_str());
    const auto [it, fresh] = rows.emplace(line, ShardRow{std::move(f), path});
    if (!fresh)
      throw InputError("line " + std::to_string(line) + " of the list has a row in both '" +
                       it->second.file + "' and '" + path + "': shards overlap");
  }
}

int run_merge(const MergeArgs& a) {
  // The settings of every shard: one N, each I once, the same settings and list.
  std::optional<datasets::RunSettings> first;
  std::set<int> seen;
  int count = 0;
  for (const auto& path : a.shards) {
    const auto s = datasets::read_settings(path);
    if (!s || s->shard.empty())
      throw InputError("'" + path + "' was not made by mad score --pairs --shard I/N (" +
                       datasets::settings_path(path) + (s ? " records no shard)" : " is missing)"));
    const datasets::ShardSpec spec = datasets::parse_shard(s->shard);
    if (!first) {
      first = *s;
      count = spec.count;
    }
    if (spec.count != count)
      throw InputError("'" + path + "' is shard " + s->shard + ", of another split than " +
                       a.shards.front() + " (" + first->shard + ")");
    if (!seen.insert(spec.index).second)
      throw InputError("shard " + s->shard + " is given twice ('" + path + "')");
    const std::string diff = datasets::first_difference(*s, *first);
    if (!diff.empty())
      throw InputError("'" + path + "' differs from '" + a.shards.front() + "': " + diff);
  }
  for (int i = 1; i <= count; ++i)
    if (!seen.count(i))
      throw InputError("shard " + std::to_string(i) + "/" + std::to_string(count) +
                       " is missing: give all " + std::to_string(count) + " shard files");
  std::map<int, ShardRow> rows;
  for (const auto& path : a.shards) read_shard(path, rows);
  // Every line of the list exactly once, with its pair.
  const std::string list = first->dataset_folder;
  std::size_t listed = 0, failed = 0;
  datasets::PairsListReader reader(list);
  for (datasets::PairRow row; reader.next(row); ++listed) {
    const auto it = rows.find(row.line);
    if (it == rows.end())
      throw InputError("line " + std::to_string(row.line) + " of " + list +
                       " has no row in the shard files");
    if (it->second.fields[0] != row.ref || it->second.fields[1] != row.dist)
      throw InputError("line " + std::to_string(row.line) + " of " + list + " names " + row.ref +
                       ", " + row.dist + " but '" + it->second.file + "' holds " +
                       it->second.fields[0] + ", " + it->second.fields[1] +
                       ": the list changed after the shards were scored");
  }
  if (listed != rows.size() || std::to_string(listed) != first->dataset_pairs)
    throw InputError("the shard files hold " + std::to_string(rows.size()) + " rows for " + list +
                     ", which lists " + std::to_string(listed) + " pairs (" +
                     first->dataset_pairs + " when the shards were scored)");
  std::error_code ec;
  if (!a.force && std::filesystem::exists(a.out, ec))
    throw InvalidArgument("'" + a.out + "' exists: pass --force to replace it");
  datasets::ResultsWriter out =
      datasets::ResultsWriter::create(a.out, true, datasets::ResultsKind::Pairs);
  const int error_col = static_cast<int>(
      std::find(datasets::results_header(datasets::ResultsKind::Pairs).begin(),
                datasets::results_header(datasets::ResultsKind::Pairs).end(), "error") -
      datasets::results_header(datasets::ResultsKind::Pairs).begin());
  for (const auto& [line, row] : rows) {  // list order
    out.write(row.fields);
    failed += !row.fields[error_col].empty();
  }
  datasets::RunSettings merged = *first;
  merged.shard.clear();
  datasets::write_settings(a.out, merged);
  std::fprintf(stderr, "mad merge: %zu rows of %d shards in %s (%zu failed)\n", rows.size(), count,
               a.out.c_str(), failed);
  return failed ? kExitPartial : kExitOk;
}

}  // namespace

Subcommand add_merge_command(CLI::App& root) {
  auto args = std::make_shared<MergeArgs>();
  CLI::App* cmd = root.add_subcommand(
      "merge", "Join the --out files of mad score --pairs LIST --shard I/N into one, in list order");
  cmd->add_option("OUT", args->out, "The merged results file")->required()->type_name("FILE");
  cmd->add_option("SHARD_FILES", args->shards, "The N shard files, in any order")
      ->required()
      ->type_name("FILE");
  cmd->add_flag("--force", args->force, "Replace an existing OUT");
  return {cmd, [args] { return run_merge(*args); }};
}

}  // namespace mad::cli
