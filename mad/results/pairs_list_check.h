// The up-front check of a pairs list (`mad score --pairs LIST`): every row is read before
// anything is scored (no image is decoded, so a list of 10^6 rows takes a second), and a list
// with a malformed row is refused naming each bad line, rather than turning the row into a
// failed one hours into the run. A list whose first pairs' relative paths lead nowhere from the
// list's folder (the documented rule) but do from the working folder is refused with that hint.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace mad::results {

// Each malformed line as "LIST:LINE: why", in list order.
using BadLineSink = std::function<void(const std::string&)>;

struct PairsListSummary {
  std::size_t pairs = 0;  // rows that name a pair
  bool header = false;    // the first row was a header
};

// Reads the whole list at `path` in flat memory. Each malformed row (one column, an
// unterminated quote, extra columns, an empty path) goes to `bad` as it is found; then, if
// there was any, throws InputError (exit 3) counting them. With no `bad`, the lines are named
// in the exception's message instead. Checks the files of the first kSampledPairs pairs only
// (the hint needs no more, and a long list is not stat'ed row by row). Throws InputError as
// PairsListReader for a list that cannot be read or whose first row is neither a header nor
// two paths.
PairsListSummary check_pairs_list(const std::string& path, const BadLineSink& bad = {});

// How many of the first pairs have their files looked up for the working-folder hint.
constexpr std::size_t kSampledPairs = 8;

}  // namespace mad::results
