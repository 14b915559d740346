// The `mad score --pairs LIST.csv` input: one (reference, distorted) pair per row.
//
// Columns are found by a header naming `ref` and `dist` (any order, other columns ignored);
// without such a header the first two columns are used. Relative paths resolve against the
// list's folder. Blank lines and lines starting with '#' are skipped; fields are split by
// split_csv_line_trimmed (datasets/csv.h). A malformed row does not stop the list: it is
// returned with its error so the caller can report it and go on.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "datasets/dataset_io.h"

namespace mad::datasets {

struct PairRow {
  int line = 0;       // 1-based line number in the list
  std::string ref;    // resolved path
  std::string dist;   // resolved path
  std::string error;  // non-empty for a malformed row
};

// The rows of a pairs list one at a time, in memory that does not grow with the list (a list
// of 10^6 rows streams). Paths may hold spaces, commas, quotes and any UTF-8 when quoted as
// csv_escape writes them; a UTF-8 BOM is ignored. Throws InputError when the list cannot be
// opened or read.
class PairsListReader {
 public:
  explicit PairsListReader(const std::string& path);
  // The next pair (or malformed row); false at the end of the list.
  bool next(PairRow& row);

 private:
  LineReader lines_;
  std::filesystem::path base_;
  int ref_col_ = 0, dist_col_ = 1;
  bool header_seen_ = false;
};

// Every row of the list, as PairsListReader gives them.
std::vector<PairRow> read_pairs_list(const std::string& path);

}  // namespace mad::datasets
