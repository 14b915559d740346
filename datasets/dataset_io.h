// Small helpers shared by the dataset readers: case-insensitive file lookup (the published
// datasets spell the same name in different cases, e.g. TID2013 lists "I01_01_1.bmp" for the
// file i01_01_1.bmp), strict number parsing with a file:line in every error, and text files read
// as numbered lines.
#pragma once

#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace mad::datasets {

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

std::string to_lower(std::string s);

// Case-insensitive lookup of `name` directly inside `root` (a file or folder); "" when absent.
std::string find_child(const std::string& root, const std::string& name);
// The folder `name` of a published layout as spelled inside `root` ("Images" for "images"), or
// `name` itself when absent: entry names are built from it, and a missing folder is reported
// under the name the layout expects.
std::string child_folder_name(const std::string& root, const std::string& name);

struct NumberedLine {
  int line = 0;      // 1-based
  std::string text;  // trailing CR removed, otherwise as read
};
// The lines of a text file one at a time, in constant memory: trailing CR removed, a UTF-8 BOM
// on the first line dropped. Throws InputError naming the file when it cannot be opened or
// read.
class LineReader {
 public:
  explicit LineReader(const std::string& path);
  // The next line; false at the end of the file.
  bool next(NumberedLine& line);

 private:
  std::string path_;
  std::ifstream in_;
  int line_no_ = 0;
};

// Everything a streaming reader (LineReader, PairsListReader) gives, in order.
template <class Item, class Reader>
std::vector<Item> collect(Reader& reader) {
  std::vector<Item> items;
  Item item;
  while (reader.next(item)) items.push_back(item);
  return items;
}

// Every line of a text file, as LineReader gives them.
std::vector<NumberedLine> read_lines(const std::string& path);

// Parses a whole field as a finite double ("5.51", "-1e-3"); throws InputError
// "FILE:LINE: WHAT 'TEXT' is not a number" otherwise.
double parse_number(const std::string& text, const std::string& file, int line,
                    const std::string& what);

// Splits on runs of spaces and tabs.
std::vector<std::string> split_whitespace(const std::string& s);

// "FILE:LINE: message" as an InputError.
[[noreturn]] void throw_at(const std::string& file, int line, const std::string& message);
// The fields of `text`, one CSV line of `file` at `line`; a malformed one is an InputError
// that names the file and the line.
std::vector<std::string> split_csv_line_at(const std::string& file, int line,
                                           const std::string& text);

}  // namespace mad::datasets
