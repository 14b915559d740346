// Escaping of text for the HTML reports (mad eval --html, mad bench --html).
#pragma once

#include <string>

namespace mad {

// `text` with &, <, > and " as entities: safe in element content and in double-quoted
// attributes. With `apostrophe`, ' becomes &#39; too (for single-quoted attributes).
inline std::string html_escape(const std::string& text, bool apostrophe = false) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += apostrophe ? "&#39;" : "'"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace mad
