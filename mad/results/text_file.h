// Text files read as numbered lines, with a file:line in every error: the results files, the
// pairs lists, the settings records, and (through datasets/dataset_io.h) the dataset readers.
#pragma once

#include <fstream>
#include <string>
#include <vector>

namespace mad::results {

// ASCII lower case (header names and file names are matched ignoring case).
std::string to_lower(std::string s);

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

// "FILE:LINE: message" as an InputError.
[[noreturn]] void throw_at(const std::string& file, int line, const std::string& message);
// The fields of `text`, one CSV line of `file` at `line`; a malformed one is an InputError
// that names the file and the line.
std::vector<std::string> split_csv_line_at(const std::string& file, int line,
                                           const std::string& text);

}  // namespace mad::results
