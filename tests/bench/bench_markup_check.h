// Test helpers for `mad bench` outputs: an XHTML-style well-formedness check of the HTML
// report (every element closed and properly nested, no stray '<' inside a tag) and a CSV
// line splitter that honours quoted cells.
#pragma once

#include <cctype>
#include <string>
#include <vector>

namespace mad::test {

// "" when `markup` is well formed in the XHTML sense, else a description of the first fault.
inline std::string markup_fault(const std::string& markup) {
  std::vector<std::string> open;
  std::size_t i = 0;
  while ((i = markup.find('<', i)) != std::string::npos) {
    if (markup.compare(i, 4, "<!--") == 0) {
      i = markup.find("-->", i);
      if (i == std::string::npos) return "unterminated comment";
      continue;
    }
    const std::size_t end = markup.find('>', i);
    if (end == std::string::npos) return "unterminated tag at offset " + std::to_string(i);
    const std::string tag = markup.substr(i + 1, end - i - 1);
    i = end + 1;
    if (tag.empty()) return "empty tag";
    if (tag.find('<') != std::string::npos) return "'<' inside tag <" + tag + ">";
    if (tag[0] == '!') continue;  // <!DOCTYPE html>
    const bool closing = tag[0] == '/';
    const bool self_closing = tag.back() == '/';
    std::size_t n = closing ? 1 : 0;
    std::string name;
    while (n < tag.size() && (std::isalnum(static_cast<unsigned char>(tag[n])) || tag[n] == '-'))
      name += tag[n++];
    if (name.empty()) return "tag without a name: <" + tag + ">";
    if (closing) {
      if (open.empty() || open.back() != name)
        return "</" + name + "> closes " +
               (open.empty() ? std::string("nothing") : "<" + open.back() + ">");
      open.pop_back();
    } else if (!self_closing) {
      open.push_back(name);
    }
  }
  return open.empty() ? "" : "<" + open.back() + "> is never closed";
}

// Splits one CSV line into cells ("" quotes a quote inside a quoted cell).
inline std::vector<std::string> csv_cells(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      cells.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      cells.emplace_back();
    } else {
      cells.back() += c;
    }
  }
  return cells;
}

}  // namespace mad::test
