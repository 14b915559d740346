#include "mad/results/csv.h"

#include <algorithm>

#include "common/error.h"

namespace mad::results {
namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t';
}

}  // namespace

std::vector<std::string> split_csv_line(const std::string& raw) {
  std::string line = raw;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  std::vector<std::string> fields;
  std::string cur;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < line.size() && line[i + 1] == '"') {
          cur += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        cur += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (quoted) throw InputError("unterminated quoted field");
  fields.push_back(cur);
  return fields;
}

std::vector<std::string> split_csv_line_trimmed(const std::string& raw) {
  std::string line = raw;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  std::vector<std::string> fields;
  std::size_t i = 0;
  for (;;) {
    while (i < line.size() && is_blank(line[i])) ++i;
    std::string field;
    if (i < line.size() && line[i] == '"') {
      for (++i;; ++i) {
        if (i >= line.size()) throw InputError("unterminated quoted field");
        if (line[i] != '"') {
          field += line[i];
        } else if (i + 1 < line.size() && line[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          break;
        }
      }
      for (++i; i < line.size() && is_blank(line[i]); ++i) {
      }
      if (i < line.size() && line[i] != ',')
        throw InputError("text after the closing quote of field " +
                         std::to_string(fields.size() + 1));
    } else {
      const std::size_t end = std::min(line.find(',', i), line.size());
      field = line.substr(i, end - i);
      field.erase(field.find_last_not_of(" \t") + 1);
      i = end;
    }
    fields.push_back(field);
    if (i >= line.size()) return fields;
    ++i;  // the comma
  }
}

std::string csv_escape(const std::string& field) {
  const bool padded = !field.empty() && (is_blank(field.front()) || is_blank(field.back()));
  if (field.find_first_of(",\"\r\n") == std::string::npos && !padded &&
      (field.empty() || field.front() != '#'))
    return field;
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string join_csv(const std::vector<std::string>& fields) {
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) out += ',';
    out += csv_escape(fields[i]);
  }
  return out;
}

std::string trim(const std::string& s) {
  const char* ws = " \t\r\n";
  const auto b = s.find_first_not_of(ws);
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

}  // namespace mad::results
