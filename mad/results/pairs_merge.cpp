#include "mad/results/pairs_merge.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "common/error.h"
#include "mad/results/pairs_list.h"

namespace mad::results {
namespace {

// What merging a list's rows needs of one row: its list line, its pair, and whether it failed.
struct PairsRow {
  int line = 0;
  std::string ref, dist;
  bool failed = false;
};

PairsRow key_of(const ShardRow& row, ResultsKind kind) {
  const auto& header = results_header(kind == ResultsKind::JsonLines ? ResultsKind::Pairs : kind);
  const auto at = [&](const char* name) {
    return row.fields[std::find(header.begin(), header.end(), name) - header.begin()];
  };
  if (kind != ResultsKind::JsonLines)
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

// Whether a shard's row names the path a list's row holds. A shard writes the list's field
// resolved against the list's folder as it was spelled where the shard ran (as a whole run
// does), shards of older builds the absolute form; the merge, perhaps run in another folder,
// reads the list by its absolute path. So a held path matches the absolute form, or ends in
// the field's own components (those below any leading "..").
bool names_list_path(const std::string& held, const std::string& absolute,
                     const std::string& field) {
  namespace fs = std::filesystem;
  if (held == absolute) return true;
  const fs::path f = fs::path(field).lexically_normal();
  if (f.is_absolute() || field.empty()) return false;
  std::vector<fs::path> tail;
  for (const fs::path& part : f)
    if (part != ".." || !tail.empty()) tail.push_back(part);
  const fs::path h = fs::path(held).lexically_normal();
  const std::vector<fs::path> parts(h.begin(), h.end());
  return parts.size() >= tail.size() &&
         std::equal(tail.rbegin(), tail.rend(), parts.rbegin());
}

}  // namespace

PairsMerge merge_pairs_shards(const std::string& out_path, const std::vector<std::string>& shards,
                              bool force, const ShardSet& set) {
  // Video rows are CSV only; a list of images has CSV or JSON Lines.
  const ResultsKind csv_kind = set.video ? ResultsKind::VideoPairs : ResultsKind::Pairs;
  std::optional<ResultsKind> kind;
  for (const auto& path : shards) {
    std::error_code ec;
    if (std::filesystem::file_size(path, ec) == 0 && !ec) continue;  // JSON Lines, no rows
    const auto k = shard_file_kind(path, csv_kind);
    if (kind && *kind != k)
      throw InputError("'" + path + "' and '" + shards.front() +
                       "' are of two formats (CSV "
                       "and JSON Lines): score every shard with the same --json or without it");
    kind = k;
  }
  if (!kind) kind = ResultsKind::JsonLines;  // every file empty: JSON Lines, no rows
  std::map<int, std::pair<ShardRow, PairsRow>> rows;
  for (const auto& path : shards)
    for (ShardRow& row : read_shard_rows(path, *kind)) {
      PairsRow key = key_of(row, *kind);
      const auto [it, fresh] = rows.emplace(key.line, std::pair{std::move(row), key});
      if (!fresh)
        throw InputError("line " + std::to_string(key.line) + " of the list has a row in both '" +
                         it->second.first.file + "' and '" + path + "': shards overlap");
    }
  const std::string list = set.settings.dataset_folder;
  std::size_t listed = 0, failed = 0;
  PairsListReader reader(list);
  for (PairRow row; reader.next(row); ++listed) {
    const auto it = rows.find(row.line);
    if (it == rows.end())
      throw InputError("line " + std::to_string(row.line) + " of " + list +
                       " has no row in the shard files");
    const PairsRow& held = it->second.second;
    if (!names_list_path(held.ref, row.ref, row.ref_field) ||
        !names_list_path(held.dist, row.dist, row.dist_field))
      throw InputError("line " + std::to_string(row.line) + " of " + list + " names " + row.ref +
                       ", " + row.dist + " but '" + it->second.first.file + "' holds " + held.ref +
                       ", " + held.dist + ": the list changed after the shards were scored");
  }
  if (listed != rows.size() || std::to_string(listed) != set.settings.dataset_pairs)
    throw InputError("the shard files hold " + std::to_string(rows.size()) + " rows for " + list +
                     ", which lists " + std::to_string(listed) + " pairs (" +
                     set.settings.dataset_pairs + " when the shards were scored)");
  refuse_existing_out(out_path, force);
  // Through a temporary of a unique name: with --force the old file stays whole until the
  // merged one is, and an existing OUT.tmp is never touched.
  ResultsWriter out = ResultsWriter::replacing(out_path, *kind);
  for (const auto& [line, row] : rows) {  // list order
    if (*kind == ResultsKind::JsonLines)
      out.write_line(row.first.fields[0]);
    else
      out.write(row.first.fields);
    failed += row.second.failed;
  }
  out.commit();
  write_merged_settings(out_path, set);
  return {rows.size(), failed};
}

}  // namespace mad::results
