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
#include <string>

#include "mad/results/pairs_list.h"
#include "mad/results/results_file.h"
#include "mad/results/results_settings.h"
#include "mad/result.h"

namespace mad::results {

// The text of one row of `mad score --pairs` (without its newline): the CSV row of
// pairs_csv_row, or with `json` the object of result_object and the list's `line`.
std::string pairs_row_text(bool json, int line, const std::string& ref, const std::string& dist,
                           const ScoreResult* r, const std::string& error,
                           const std::string& backend_reason);

// How a refusal names the switches (and how a front door that is not the command line, the
// Python module, says them).
struct PairsOutputWords {
  std::string resume = "--resume", force = "--force", out = "--out";
};

struct PairsOutputOptions {
  std::string out;  // "" = standard output
  bool json = false, resume = false, force = false, quiet = false;
  PairsOutputWords words;
  // The rows' kind without `json`: Pairs (mad score --pairs) or VideoPairs (mad video --pairs,
  // whose rows the caller makes with video_csv_row and hands to write_line).
  ResultsKind csv_kind = ResultsKind::Pairs;
};

class PairsOutput {
 public:
  // Reads the file a --resume continues and checks its settings; writes nothing yet.
  PairsOutput(const PairsOutputOptions& options, const results::RunSettings& settings);

  // The first pass over the list, row by row: true when `row` already has its finished row.
  // Throws InvalidArgument when that row names another pair (the list changed).
  bool take_finished(const results::PairRow& row);
  // After the first pass: refuses a file with rows for lines the list lacks, then writes the
  // header (or rewrites the resumed file) and the settings record.
  void open(const std::string& list_path);

  bool finished(int line) const { return done_lines_.count(line) > 0; }
  // The finished row take_finished found for the list's `line` (null when none): a resumed
  // run's score of that line, as the file holds it.
  const FinishedRow* finished_row(int line) const;
  void write(int line, const std::string& ref, const std::string& dist, const ScoreResult* r,
             const std::string& error, const std::string& backend_reason);
  // One row's text as pairs_row_text gives it, flushed (a caller that makes rows elsewhere).
  void write_line(const std::string& line);
  // Closes the file (its rows are already flushed); nothing is written after this.
  void close() { file_.reset(); }

 private:

  PairsOutputOptions options_;
  results::RunSettings settings_;
  results::ResultsLog previous_;
  std::map<int, std::size_t> by_line_;                // finished rows with a line
  std::map<results::PairKey, std::size_t> by_pair_;  // older rows without one: how many left
  std::map<int, std::size_t> done_lines_;  // line -> its finished row (index into previous_)
  std::optional<results::ResultsWriter> file_;
};

}  // namespace mad::results
