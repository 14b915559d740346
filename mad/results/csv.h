// Minimal RFC-4180 CSV reading and writing (quoted fields, doubled quotes, CRLF tolerated),
// used by the pairs list, results files and dataset manifests.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace mad::results {

// Splits one CSV record. Throws InputError on an unterminated quoted field.
std::vector<std::string> split_csv_line(const std::string& line);
// Splits one hand-written record: spaces and tabs around a field are dropped, but a quoted
// field is kept exactly (`" a.png"` is " a.png"); a quote opens a quoted field only at the
// field's start, elsewhere it is an ordinary character (`it's "x".png`). Throws InputError on
// an unterminated quoted field or text after a closing quote.
std::vector<std::string> split_csv_line_trimmed(const std::string& line);
// Quotes a field when it contains a comma, quote, CR or LF, starts or ends with a space or a
// tab, or starts with '#', so that both splitters (and a reader that skips '#' comment lines)
// give it back unchanged.
std::string csv_escape(const std::string& field);
// Joins fields into one record (no line terminator).
std::string join_csv(const std::vector<std::string>& fields);
// Trims ASCII whitespace at both ends.
std::string trim(const std::string& s);

}  // namespace mad::results
