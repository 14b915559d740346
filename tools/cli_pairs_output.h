// Where the rows of `mad score --pairs` go: standard output, a fresh --out, or a resumed one.
//
// A resumed file's finished rows are keyed by their place in the list (the `line` column), not
// by the pair: a list may name one pair on several lines, and each line gets its row. Before
// anything is scored, every finished row must match its line of the list (same reference and
// distorted path), or the run is refused as made from another list. Rows of files written
// before the `line` column are matched by pair, one row per occurrence. No finished row is
// ever dropped; failed rows are scored again.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "datasets/pairs_list.h"
#include "datasets/results_file.h"
#include "datasets/results_settings.h"
#include "mad/score.h"

namespace mad::cli {

// One result as mad score's JSON writes it (ref, dist, backend_reason; error for a failure).
nlohmann::json result_object(const std::string& ref, const std::string& dist, const ScoreResult* r,
                             const std::string& error, const std::string& backend_reason);

struct PairsOutputOptions {
  std::string out;  // "" = standard output
  bool json = false, resume = false, force = false, quiet = false;
};

class PairsOutput {
 public:
  // Reads the file a --resume continues and checks its settings; writes nothing yet.
  PairsOutput(const PairsOutputOptions& options, const datasets::RunSettings& settings);

  // The first pass over the list, row by row: true when `row` already has its finished row.
  // Throws InvalidArgument when that row names another pair (the list changed).
  bool take_finished(const datasets::PairRow& row);
  // After the first pass: refuses a file with rows for lines the list lacks, then writes the
  // header (or rewrites the resumed file) and the settings record.
  void open(const std::string& list_path);

  bool finished(int line) const { return done_lines_.count(line) > 0; }
  void write(int line, const std::string& ref, const std::string& dist, const ScoreResult* r,
             const std::string& error, const std::string& backend_reason);

 private:
  void print(const std::string& line);

  PairsOutputOptions options_;
  datasets::RunSettings settings_;
  datasets::ResultsLog previous_;
  std::map<int, std::size_t> by_line_;                // finished rows with a line
  std::map<datasets::PairKey, std::size_t> by_pair_;  // older rows without one: how many left
  std::set<int> done_lines_;
  std::optional<datasets::ResultsWriter> file_;
};

}  // namespace mad::cli
