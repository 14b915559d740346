// Minimal RFC-4180 CSV reading and writing (quoted fields, doubled quotes, CRLF tolerated),
// used by the pairs list, results files and dataset manifests.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace mad::datasets {

// Splits one CSV record. Throws InputError on an unterminated quoted field.
std::vector<std::string> split_csv_line(const std::string& line);
// Quotes a field when it contains a comma, quote, CR or LF.
std::string csv_escape(const std::string& field);
// Joins fields into one record (no line terminator).
std::string join_csv(const std::vector<std::string>& fields);
// Trims ASCII whitespace at both ends.
std::string trim(const std::string& s);

}  // namespace mad::datasets
