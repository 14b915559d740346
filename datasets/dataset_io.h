// Small helpers shared by the dataset readers: case-insensitive file lookup (the published
// datasets spell the same name in different cases, e.g. TID2013 lists "I01_01_1.bmp" for the
// file i01_01_1.bmp). Text files read as numbered lines, strict number parsing and CSV fields
// are the results room's (mad/results/text_file.h, csv.h), named here for the readers.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "mad/results/csv.h"
#include "mad/results/text_file.h"

namespace mad::datasets {

using results::collect;
using results::csv_escape;
using results::join_csv;
using results::LineReader;
using results::NumberedLine;
using results::parse_number;
using results::read_lines;
using results::split_csv_line;
using results::split_csv_line_at;
using results::split_csv_line_trimmed;
using results::throw_at;
using results::to_lower;
using results::trim;

// The files of one folder, found by exact name first and then ignoring ASCII case.
class FolderIndex {
 public:
  FolderIndex() = default;
  // A missing folder gives an empty index (its images are then reported missing).
  explicit FolderIndex(const std::string& folder);
  const std::string& folder() const { return folder_; }
  bool exists() const { return exists_; }
  // The path of `name` in the folder; when absent, folder/name (which does not exist).
  std::string resolve(const std::string& name) const;
  // True when `name` is present (in any case).
  bool contains(const std::string& name) const;
  // The names present, sorted.
  std::vector<std::string> names() const;

 private:
  std::string folder_;
  bool exists_ = false;
  std::map<std::string, std::string> exact_;    // name -> name
  std::map<std::string, std::string> lowered_;  // lower(name) -> name (first in sorted order)
};

// Case-insensitive lookup of `name` directly inside `root` (a file or folder); "" when absent.
std::string find_child(const std::string& root, const std::string& name);
// The folder `name` of a published layout as spelled inside `root` ("Images" for "images"), or
// `name` itself when absent: entry names are built from it, and a missing folder is reported
// under the name the layout expects.
std::string child_folder_name(const std::string& root, const std::string& name);

// Splits on runs of spaces and tabs.
std::vector<std::string> split_whitespace(const std::string& s);

}  // namespace mad::datasets
