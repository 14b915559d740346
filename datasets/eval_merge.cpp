#include "datasets/eval_merge.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "common/error.h"
#include "datasets/dataset.h"
#include "datasets/dataset_io.h"
#include "datasets/eval_session.h"

namespace mad::datasets {
namespace {

std::size_t column(const char* name) {
  const auto& h = results::eval_csv_header();
  return std::find(h.begin(), h.end(), name) - h.begin();
}

// The dataset as the shards read it: their layout, folder, manifest and score direction.
Dataset read_shards_dataset(const results::RunSettings& s) {
  ReadOptions read;
  read.manifest = s.dataset_manifest;
  if (!s.dataset_direction.empty())
    read.higher_is_better = s.dataset_direction == "higher-is-better";
  Dataset d = read_dataset(s.dataset_folder, parse_dataset_kind(s.dataset), read);
  if (std::to_string(d.entries.size()) != s.dataset_pairs)
    throw InputError("the dataset " + s.dataset + " in " + s.dataset_folder + " lists " +
                     std::to_string(d.entries.size()) + " pairs, and " + s.dataset_pairs +
                     " when the shards were scored: it changed; score the shards again");
  return d;
}

// Every shard row by its pair (a dataset that names one pair twice has a row for each).
using RowsByPair = std::map<results::PairKey, std::vector<results::ShardRow>>;
RowsByPair read_rows(const std::vector<std::string>& shards) {
  RowsByPair rows;
  for (const auto& path : shards) {
    if (results::shard_file_kind(path, results::ResultsKind::Eval) != results::ResultsKind::Eval)
      throw InputError("'" + path + "' is JSON Lines, not a results file of mad eval");
    for (results::ShardRow& row : results::read_shard_rows(path, results::ResultsKind::Eval)) {
      auto& same = rows[{row.fields[column("ref")], row.fields[column("dist")]}];
      if (!same.empty() && same.front().file != path)
        throw InputError("the pair " + row.fields[column("ref")] + ", " +
                         row.fields[column("dist")] + " has a row in both '" + same.front().file +
                         "' and '" + path + "': shards overlap");
      same.push_back(std::move(row));
    }
  }
  return rows;
}

}  // namespace

EvalReport merge_eval_shards(const EvalMergeConfig& cfg, const results::ShardSet& set) {
  const results::RunSettings& s = set.settings;
  check_report_files(cfg.out, cfg.json, cfg.html, cfg.overwrite);
  const Dataset d = read_shards_dataset(s);
  RowsByPair rows = read_rows(cfg.shards);
  std::vector<bool> missing_image(d.entries.size(), false);
  const std::vector<MissingImage> missing = find_missing_images(d);
  for (const auto& m : missing) missing_image[m.entry] = true;

  EvalReport r = start_report(d);
  r.settings = {s.mad_version, s.backend, s.precision, s.input_class, s.a5_variant, set.count, {},
                cfg.bootstrap, cfg.out,   "",          s.det_variant};
  // Dataset order: each pair takes its next row (a pair named twice, its second row if any).
  std::vector<const results::ShardRow*> ordered;
  std::vector<double> mad(d.entries.size(), std::nan(""));
  std::map<results::PairKey, std::size_t> taken;
  for (std::size_t i = 0; i < d.entries.size(); ++i) {
    const DatasetEntry& e = d.entries[i];
    const auto it = rows.find({e.ref_name, e.dist_name});
    if (it == rows.end()) {
      if (missing_image[i]) {
        ++r.counts.skipped_missing;
        continue;
      }
      throw InputError("the pair " + e.ref_name + ", " + e.dist_name + " of " + s.dataset_folder +
                       " has no row in the shard files: its shard did not finish (--limit, or "
                       "an interruption); finish it with --resume, then merge");
    }
    const std::size_t k = std::min(taken[it->first]++, it->second.size() - 1);
    const results::ShardRow& row = it->second[k];
    ordered.push_back(&row);
    r.settings.backend_reason = row.fields[column("backend_reason")];
    const std::string& seconds = row.fields[column("seconds")];  // empty in a failed row
    if (!seconds.empty()) r.score_seconds += parse_number(seconds, row.file, row.line, "seconds");
    if (!row.fields[column("error")].empty()) {
      r.failures.push_back({e.ref_name, e.dist_name, row.fields[column("error")]});
      continue;
    }
    mad[i] = parse_number(row.fields[column("mad")], row.file, row.line, "mad");
    ++r.counts.scored_now;
  }
  for (const auto& [pair, list] : rows)
    if (!taken.count(pair))
      throw InputError("'" + list.front().file + "' holds a row for " + pair.first + ", " +
                       pair.second + ", which " + s.dataset_folder + " does not list");
  std::set<std::string> seen;
  for (const auto& m : missing)  // listed as a whole run lists them: those of skipped pairs
    if (!taken.count({d.entries[m.entry].ref_name, d.entries[m.entry].dist_name}) &&
        seen.insert(m.path).second)
      r.missing.push_back(m.path);
  r.counts.missing_images = r.missing.size();
  r.counts.failed_now = r.failures.size();
  r.notes.push_back("merged from " + std::to_string(set.count) +
                    " shard files: the scoring time is the pairs' own times added up");

  results::refuse_existing_out(cfg.out, cfg.overwrite);
  // Through a temporary of a unique name, as a list's merge (an existing OUT.tmp is left alone).
  results::ResultsWriter out =
      results::ResultsWriter::replacing(cfg.out, results::ResultsKind::Eval);
  for (const results::ShardRow* row : ordered) out.write(row->fields);
  out.commit();
  results::write_merged_settings(cfg.out, set);
  add_statistics(r, d, mad, cfg.bootstrap);
  write_report_files(r, cfg.json, cfg.html, cfg.log);
  if (!r.missing.empty() && cfg.log) {
    std::fprintf(cfg.log, "mad merge: missing images (%zu):\n", r.missing.size());
    for (const auto& m : r.missing) std::fprintf(cfg.log, "mad merge:   %s\n", m.c_str());
  }
  return r;
}

}  // namespace mad::datasets
