// The `mad score --pairs LIST` input: one (reference, distorted) pair per row.
//
// The list's shape is settled by its first row (blank lines and lines starting with '#' are
// skipped) before anything is scored:
// - a header naming the two columns, in any order, other columns ignored, any case: `ref` or
//   `reference` (also ref_path, ref_image, reference_path, reference_image) and `dist` or
//   `distorted` (also dis, dist_path, dist_image, distorted_path, distorted_image);
// - or no header: the first two columns are the paths (a first row whose first two fields
//   look like paths, with an extension or a folder; others are taken for an unknown header).
// Fields are split by commas (split_csv_line_trimmed, csv.h), or by tabs when the
// first row holds tabs and no comma (tab-separated fields are trimmed of spaces, not quoted).
// `mad video --pairs` lists of raw clips add width, height and pixel_format (also pix_fmt):
// named in the header, or without a header the third to fifth columns. They are returned as
// written; the video command checks them (mad score ignores them).
// Anything else (one column, an unknown header) is refused with InputError naming the columns
// found. Relative paths resolve against the list's folder. The first row also settles the
// list's width: a later row with more non-empty fields is malformed (its extra columns would be
// dropped). A later malformed row does not stop the list: it is returned with its error and
// its raw fields, so the caller can report it and go on (pairs_list_check.h refuses a list
// with any such row before scoring).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "mad/results/text_file.h"

namespace mad::results {

struct PairRow {
  int line = 0;       // 1-based line number in the list
  std::string ref;    // resolved path (a malformed row: the raw field, or the raw line)
  std::string dist;   // resolved path (a malformed row: the raw field, if any)
  std::string error;  // non-empty for a malformed row
  // The two paths as the list spells them (before resolving): what a whole run and its shards
  // have in common, and where a wrongly placed list's hint comes from.
  std::string ref_field, dist_field;
  // A raw clip's frame size and format, as written ("" when the list has no such column or the
  // row leaves it empty).
  std::string width, height, pixel_format;
};

// The rows of a pairs list one at a time, in memory that does not grow with the list (a list
// of 10^6 rows streams). Paths may hold spaces, commas, quotes and any UTF-8 when quoted as
// csv_escape writes them; a UTF-8 BOM is ignored. Throws InputError when the list cannot be
// opened or read, or its first row is neither a known header nor two paths.
class PairsListReader {
 public:
  explicit PairsListReader(const std::string& path);
  // The next pair (or malformed row); false at the end of the list.
  bool next(PairRow& row);
  // True once the first row was a header (then a list of no pair is "header-only").
  bool had_header() const { return header_; }

 private:
  std::vector<std::string> split(const std::string& text) const;
  // Reads the first row: its columns, or the refusal naming them. True when it was a header.
  bool settle_columns(const std::vector<std::string>& fields, int line);

  std::string path_;
  LineReader lines_;
  std::filesystem::path base_;
  int ref_col_ = 0, dist_col_ = 1;
  std::size_t columns_ = 0;  // the first row's fields
  int width_col_ = 2, height_col_ = 3, format_col_ = 4;  // -1: the header has no such column
  bool settled_ = false, tabs_ = false, header_ = false;
};

// Every row of the list, as PairsListReader gives them.
std::vector<PairRow> read_pairs_list(const std::string& path);

}  // namespace mad::results
