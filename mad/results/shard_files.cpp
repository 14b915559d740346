#include "mad/results/shard_files.h"

#include <filesystem>
#include <fstream>
#include <optional>
#include <set>

#include "common/error.h"
#include "mad/results/csv.h"
#include "mad/results/text_file.h"
#include "mad/results/pairs_shard.h"
#include "mad/results/video_results.h"

namespace mad::results {
namespace {

bool ends_in_newline(const std::string& path) {
  std::ifstream tail(path, std::ios::binary | std::ios::ate);
  if (tail.tellg() <= 0) return true;
  tail.seekg(-1, std::ios::end);
  return tail.get() == '\n';
}

}  // namespace

ShardSet check_shard_set(const std::vector<std::string>& paths) {
  ShardSet set;
  std::set<int> seen;
  for (const auto& path : paths) {
    const std::optional<RunSettings> s = read_settings(path);
    if (!s || s->shard.empty())
      throw InputError("'" + path + "' was not made by mad score --pairs, mad video --pairs or mad eval with " +
                       "--shard I/N (" + settings_path(path) +
                       (s ? " records no shard)" : " is missing)"));
    const ShardSpec spec = parse_shard(s->shard);
    if (seen.empty()) {
      set.settings = *s;
      set.count = spec.count;
      set.video = s->dataset == kVideoPairsListDataset;
      set.eval = s->dataset != "pairs-list" && !set.video;
    }
    if (spec.count != set.count)
      throw InputError("'" + path + "' is shard " + s->shard + ", of another split than " +
                       paths.front() + " (" + set.settings.shard + ")");
    if (!seen.insert(spec.index).second)
      throw InputError("shard " + s->shard + " is given twice ('" + path + "')");
    const std::string diff = first_difference(*s, set.settings);
    if (!diff.empty())
      throw InputError("'" + path + "' differs from '" + paths.front() + "': " + diff);
  }
  for (int i = 1; i <= set.count; ++i)
    if (!seen.count(i))
      throw InputError("shard " + std::to_string(i) + "/" + std::to_string(set.count) +
                       " is missing: give all " + std::to_string(set.count) + " shard files");
  return set;
}

ResultsKind shard_file_kind(const std::string& path, ResultsKind csv_kind) {
  const auto lines = read_lines(path);
  if (lines.empty()) return csv_kind;
  const std::string first = trim(lines[0].text);
  if (!first.empty() && first.front() == '{') return ResultsKind::JsonLines;
  if (split_csv_line(lines[0].text) == results_header(csv_kind)) return csv_kind;
  throw InputError("'" + path + "' is neither a CSV results file of its --shard run (expected " +
                   "the header " + join_csv(results_header(csv_kind)) +
                   ") nor JSON Lines of mad score --json");
}

std::vector<ShardRow> read_shard_rows(const std::string& path, ResultsKind kind) {
  if (!ends_in_newline(path))
    throw InputError("'" + path +
                     "' ends in a partly written row (an interrupted shard): "
                     "finish it with --resume, then merge");
  const std::vector<std::string>& header = results_header(kind);
  std::vector<ShardRow> rows;
  const auto lines = read_lines(path);
  for (std::size_t k = header.empty() ? 0 : 1; k < lines.size(); ++k) {
    if (header.empty()) {  // JSON Lines: the line as it is
      if (!trim(lines[k].text).empty()) rows.push_back({{lines[k].text}, path, lines[k].line});
      continue;
    }
    std::vector<std::string> f = split_csv_line(lines[k].text);
    if (f.size() != header.size())
      throw_at(
          path, lines[k].line,
          "expected " + std::to_string(header.size()) + " fields, got " + std::to_string(f.size()));
    rows.push_back({std::move(f), path, lines[k].line});
  }
  return rows;
}

void refuse_out_among_shards(const std::string& out, const std::vector<std::string>& shards) {
  for (const std::string& shard : shards) {
    std::error_code ec;
    if (std::filesystem::equivalent(out, shard, ec) && !ec)
      throw InvalidArgument("the output '" + out + "' is one of the shard files it merges ('" +
                            shard + "'): write the merged file to another name");
  }
}

void refuse_existing_out(const std::string& out, bool force) {
  std::error_code ec;
  if (!force && std::filesystem::exists(out, ec))
    throw InvalidArgument("'" + out + "' exists: pass --force to replace it");
}

void write_merged_settings(const std::string& out, const ShardSet& set) {
  RunSettings merged = set.settings;
  merged.shard.clear();
  write_settings(out, merged);
}

}  // namespace mad::results
