#include "datasets/dataset_io.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "common/error.h"
#include "datasets/csv.h"

namespace mad::datasets {
namespace fs = std::filesystem;

std::string to_lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

FolderIndex::FolderIndex(const std::string& folder) : folder_(folder) {
  std::error_code ec;
  exists_ = fs::is_directory(folder, ec);
  if (!exists_) return;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    exact_.emplace(name, name);
  }
  // exact_ is sorted, so among names that differ only in case the first in byte order wins,
  // which keeps the lookup deterministic.
  for (const auto& [name, _] : exact_) lowered_.emplace(to_lower(name), name);
}

std::string FolderIndex::resolve(const std::string& name) const {
  auto it = exact_.find(name);
  if (it == exact_.end()) {
    auto lo = lowered_.find(to_lower(name));
    if (lo != lowered_.end()) return (fs::path(folder_) / lo->second).string();
  }
  return (fs::path(folder_) / name).string();
}

bool FolderIndex::contains(const std::string& name) const {
  return exact_.count(name) || lowered_.count(to_lower(name));
}

std::vector<std::string> FolderIndex::names() const {
  std::vector<std::string> out;
  for (const auto& [name, _] : exact_) out.push_back(name);
  return out;
}

std::string find_child(const std::string& root, const std::string& name) {
  const FolderIndex index(root);
  return index.contains(name) ? index.resolve(name) : std::string();
}

std::string child_folder_name(const std::string& root, const std::string& name) {
  const std::string found = find_child(root, name);
  return found.empty() ? name : fs::path(found).filename().string();
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

std::vector<std::string> split_whitespace(const std::string& s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    const std::size_t b = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (i > b) out.push_back(s.substr(b, i - b));
  }
  return out;
}

}  // namespace mad::datasets
