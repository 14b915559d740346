// The `mad score --pairs LIST.csv` input: one (reference, distorted) pair per row.
//
// Columns are found by a header naming `ref` and `dist` (any order, other columns ignored);
// without such a header the first two columns are used. Relative paths resolve against the
// list's folder. Blank lines and lines starting with '#' are skipped. A malformed row does not
// stop the list: it is returned with its error so the caller can report it and go on.
#pragma once

#include <string>
#include <vector>

namespace mad::datasets {

struct PairRow {
  int line = 0;       // 1-based line number in the list
  std::string ref;    // resolved path
  std::string dist;   // resolved path
  std::string error;  // non-empty for a malformed row
};

// Throws InputError when the list itself cannot be read.
std::vector<PairRow> read_pairs_list(const std::string& path);

}  // namespace mad::datasets
