#include "mad/results/pairs_list_check.h"

#include <filesystem>
#include <vector>

#include "common/error.h"
#include "mad/results/pairs_list.h"

namespace mad::results {
namespace fs = std::filesystem;

namespace {

bool exists(const std::string& p) {
  std::error_code ec;
  return fs::exists(p, ec);
}

// The sample of the list's first pairs: whether any of their relative paths reaches a file
// from the list's folder, and the first one that reaches one from the working folder instead.
struct PathSample {
  std::size_t seen = 0;
  bool resolves = false;
  std::string field, resolved;  // the first relative path found only from the working folder

  void add(const PairRow& row) {
    if (seen++ >= kSampledPairs) return;
    for (const auto& [field_text, path] : {std::pair{&row.ref_field, &row.ref},
                                           std::pair{&row.dist_field, &row.dist}}) {
      if (fs::path(*field_text).is_absolute()) continue;
      if (exists(*path))
        resolves = true;
      else if (this->field.empty() && *path != *field_text && exists(*field_text)) {
        this->field = *field_text;
        resolved = *path;
      }
    }
  }
};

}  // namespace

PairsListSummary check_pairs_list(const std::string& path, const BadLineSink& bad) {
  PairsListReader list(path);
  PairsListSummary summary;
  PathSample sample;
  std::size_t bad_lines = 0;
  std::string named;  // the bad lines, when no sink takes them
  for (PairRow row; list.next(row);) {
    if (row.error.empty()) {
      ++summary.pairs;
      sample.add(row);
      continue;
    }
    ++bad_lines;
    const std::string line = path + ":" + std::to_string(row.line) + ": " + row.error;
    if (bad)
      bad(line);
    else
      named += "\n  " + line;
  }
  summary.header = list.had_header();
  if (bad_lines > 0)
    throw InputError(path + ": " + std::to_string(bad_lines) +
                     (bad_lines == 1 ? " malformed line" : " malformed lines") +
                     (bad ? " (named above)" : ":" + named) +
                     "; each row needs a reference and a distorted path, in the first row's "
                     "columns; nothing was scored");
  if (!sample.resolves && !sample.field.empty()) {
    const std::string folder = fs::path(path).parent_path().string();
    throw InputError(path + ": the list's relative paths lead nowhere from its folder ('" +
                     sample.resolved + "' does not exist) but do from the working folder ('" +
                     sample.field + "'): relative paths in a pairs list resolve against the "
                     "list's folder (" + folder + "); write them relative to it, or absolute");
  }
  return summary;
}

}  // namespace mad::results
