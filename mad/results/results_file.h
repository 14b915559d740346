// results.csv of `mad eval` and the --out of `mad score --pairs`: one row per scored pair,
// written and flushed as soon as the pair is known, so an interrupted run loses nothing and
// `--resume` can skip what is done.
//
// Eval columns: result_csv_header() (ref, dist, mad, hi, lo, sig, width, height, backend,
// mad_version, seconds, error, backend_reason) followed by subjective, type, level. `ref` and
// `dist` hold the dataset's names (relative to its folder), which key the rows for --resume.
// `mad score --pairs` writes result_csv_header() alone, or JSON Lines (one object per pair with
// ref, dist and mad, or error). `mad score --pairs` rows end with `line`, the row's line in the
// list, which keys them for --resume (a list may name one pair on several lines). Files of
// older versions, without backend_reason or line, still read.
#pragma once

#include <cstddef>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mad/result.h"
#include "mad/results/replacement_file.h"

namespace mad::results {

enum class ResultsKind {
  Eval,       // mad eval's results.csv
  Pairs,      // mad score --pairs --out FILE (CSV)
  JsonLines,  // mad score --pairs --json --out FILE
  VideoPairs, // mad video --pairs --out FILE: one row per clip pair (video_results.h)
};

const std::vector<std::string>& eval_csv_header();
// The header line's fields of a kind (empty for JSON Lines).
const std::vector<std::string>& results_header(ResultsKind kind);

// What a `mad eval` row adds to a result: the dataset's subjective score, distortion type and
// level of the pair.
struct EvalPairFields {
  double subjective = 0.0;
  std::string type, level;
};

// The row of one pair of `mad eval`: `result` null for a failure, with `error` saying why.
std::vector<std::string> eval_csv_row(const std::string& ref, const std::string& dist,
                                      const ScoreResult* result, const std::string& error,
                                      const std::string& backend_reason,
                                      const EvalPairFields& pair);

// The row of `mad score --pairs`: result_csv_row's fields, then the list's line.
std::vector<std::string> pairs_csv_row(const std::string& ref, const std::string& dist,
                                       const ScoreResult* result, const std::string& error,
                                       const std::string& backend_reason, int line);

struct FinishedRow {
  std::vector<std::string> fields;  // as read (in today's columns), for rewriting the file; JSON
                                    // Lines: the line
  double mad = 0.0;                 // VideoPairs: the clip's mean MAD (mad_mean)
  std::string mad_version, backend;
  std::string ref, dist;  // as written
  int line = 0;           // the pairs list's line (mad score --pairs); 0 when not recorded
};

using PairKey = std::pair<std::string, std::string>;  // (ref name, dist name)

struct ResultsLog {
  std::vector<FinishedRow> rows;            // rows with a score, in file order
  std::map<PairKey, std::size_t> finished;  // the first row of each pair (index into rows)
  std::size_t failed_rows = 0;              // rows with an error: retried on resume
  std::size_t duplicate_rows = 0;           // later rows of an already finished pair (kept)
  bool dropped_partial_line = false;        // a last line cut short by an interruption

  // The first finished row of (ref, dist); null when there is none.
  const FinishedRow* find(const PairKey& key) const;
};

// Reads a results.csv written by `mad eval`. Throws InputError "FILE:LINE: ..." for a foreign
// header, a row with the wrong field count (except an unterminated last line, which an
// interrupted write leaves and which is dropped), or a score that is not a number.
ResultsLog read_results_file(const std::string& path, ResultsKind kind = ResultsKind::Eval);

// Appends rows to results.csv, one flushed line each. A failed write throws InputError naming
// the file and the system's reason ("No space left on device"); the rows before it stay whole.
class ResultsWriter {
 public:
  // Fresh file: refuses (InvalidArgument, exit 2: --resume or --force decide) to replace an
  // existing non-empty file unless `overwrite`.
  // `resume` and `force` are how the front door spells those switches in the refusal.
  static ResultsWriter create(const std::string& path, bool overwrite,
                              ResultsKind kind = ResultsKind::Eval,
                              const std::string& resume = "--resume",
                              const std::string& force = "--force");
  // Resume: rewrites the file with its header and every finished row, in file order (failed
  // rows are retried, a partial last line is dropped) through a temporary file of a unique
  // name (replacement_file.h) and a rename, then appends.
  static ResultsWriter resume(const std::string& path, const ResultsLog& log,
                              ResultsKind kind = ResultsKind::Eval);

  // A file written whole (mad merge's): the header and rows go to a temporary file of a unique
  // name beside `path`, which commit() renames over it; `path` is untouched until then, and
  // the temporary is removed when the writer is dropped uncommitted.
  static ResultsWriter replacing(const std::string& path, ResultsKind kind);
  void commit();

  void write(const std::vector<std::string>& fields);  // one CSV row
  void write_line(const std::string& line);            // one line as it is (JSON Lines)
  const std::string& path() const { return path_; }

 private:
  ResultsWriter(std::string path, std::ios::openmode mode);
  std::string path_;
  std::ofstream out_;
  std::optional<ReplacementFile> pending_;  // replacing(): the temporary, until commit()
};

}  // namespace mad::results
