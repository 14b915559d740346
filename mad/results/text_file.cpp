#include "mad/results/text_file.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "common/error.h"
#include "mad/results/csv.h"

namespace mad::results {

std::string to_lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

LineReader::LineReader(const std::string& path) : path_(path), in_(path, std::ios::binary) {
  if (!in_) throw InputError("cannot open '" + path + "'");
}

bool LineReader::next(NumberedLine& line) {
  if (!std::getline(in_, line.text)) {
    if (in_.bad()) throw InputError("error while reading '" + path_ + "'");
    return false;
  }
  line.line = ++line_no_;
  if (!line.text.empty() && line.text.back() == '\r') line.text.pop_back();
  if (line.line == 1 && line.text.rfind("\xEF\xBB\xBF", 0) == 0) line.text.erase(0, 3);
  return true;
}

std::vector<NumberedLine> read_lines(const std::string& path) {
  LineReader reader(path);
  return collect<NumberedLine>(reader);
}

void throw_at(const std::string& file, int line, const std::string& message) {
  throw InputError(file + ":" + std::to_string(line) + ": " + message);
}

std::vector<std::string> split_csv_line_at(const std::string& file, int line,
                                           const std::string& text) {
  try {
    return split_csv_line(text);
  } catch (const InputError& e) {
    throw_at(file, line, e.what());
  }
}

double parse_number(const std::string& text, const std::string& file, int line,
                    const std::string& what) {
  const std::string t = trim(text);
  if (t.empty()) throw_at(file, line, what + " is empty");
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  // strtod accepts "nan", "inf" and hex floats; a subjective score is none of these.
  const bool plain = t.find_first_of("xXnNiI") == std::string::npos;
  if (end != t.c_str() + t.size() || errno == ERANGE || !std::isfinite(v) || !plain)
    throw_at(file, line, what + " '" + t + "' is not a number");
  return v;
}

}  // namespace mad::results
