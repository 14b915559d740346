#include "mad/results/pairs_list.h"

#include <algorithm>
#include <filesystem>

#include "common/error.h"
#include "mad/results/csv.h"

namespace mad::results {
namespace fs = std::filesystem;

namespace {

// The header names of the two columns, as IQA tools and datasets spell them.
constexpr const char* kRefNames[] = {"ref",      "reference",      "ref_path",
                                     "ref_image", "reference_path", "reference_image"};
constexpr const char* kDistNames[] = {"dist",       "distorted",      "dis",
                                      "dist_path",  "dist_image",     "distorted_path",
                                      "distorted_image"};
// A raw clip's columns (mad video --pairs), as vmaf's and ffmpeg's options name them.
constexpr const char* kWidthNames[] = {"width", "w"};
constexpr const char* kHeightNames[] = {"height", "h"};
constexpr const char* kFormatNames[] = {"pixel_format", "pix_fmt", "pixel-format"};

template <std::size_t N>
int find_column(const std::vector<std::string>& fields, const char* const (&names)[N]) {
  for (std::size_t i = 0; i < fields.size(); ++i)
    for (const char* n : names)
      if (to_lower(fields[i]) == n) return static_cast<int>(i);
  return -1;
}

// A field that names a file: it has an extension or a folder. A header word has neither.
bool looks_like_path(const std::string& f) {
  return f.find('/') != std::string::npos || f.find('\\') != std::string::npos ||
         fs::path(f).has_extension();
}

std::string columns_text(const std::vector<std::string>& fields) {
  std::string s = std::to_string(fields.size()) + (fields.size() == 1 ? " column" : " columns");
  for (std::size_t i = 0; i < fields.size(); ++i) s += (i ? ", '" : ": '") + fields[i] + "'";
  return s;
}

std::string resolve(const fs::path& base, const std::string& p) {
  const fs::path path(p);
  return (path.is_absolute() ? path : base / path).lexically_normal().string();
}

}  // namespace

PairsListReader::PairsListReader(const std::string& path)
    : path_(path), lines_(path), base_(fs::path(path).parent_path()) {}

std::vector<std::string> PairsListReader::split(const std::string& text) const {
  if (!tabs_) return split_csv_line_trimmed(text);
  std::vector<std::string> f;
  std::size_t start = 0;
  for (std::size_t tab; (tab = text.find('\t', start)) != std::string::npos; start = tab + 1)
    f.push_back(trim(text.substr(start, tab - start)));
  f.push_back(trim(text.substr(start)));
  return f;
}

bool PairsListReader::settle_columns(const std::vector<std::string>& f, int line) {
  settled_ = true;
  columns_ = f.size();
  const int r = find_column(f, kRefNames), d = find_column(f, kDistNames);
  if (r >= 0 && d >= 0) {
    ref_col_ = r;
    dist_col_ = d;
    width_col_ = find_column(f, kWidthNames);
    height_col_ = find_column(f, kHeightNames);
    format_col_ = find_column(f, kFormatNames);
    return true;
  }
  if (f.size() >= 2 && looks_like_path(f[0]) && looks_like_path(f[1])) return false;
  throw InputError(path_ + ":" + std::to_string(line) + ": found " + columns_text(f) +
                   (tabs_ ? " (tab-separated)" : "") +
                   "; a pairs list needs a header naming its reference and distorted columns "
                   "(ref,dist or reference,distorted) or, without a header, two columns of "
                   "image paths (ref.png,dist.png)");
}

bool PairsListReader::next(PairRow& row) {
  NumberedLine line;
  while (lines_.next(line)) {
    const std::string t = trim(line.text);
    if (t.empty() || t[0] == '#') continue;
    row = PairRow{};
    row.line = line.line;
    std::vector<std::string> f;
    if (!settled_) tabs_ = t.find('\t') != std::string::npos && t.find(',') == std::string::npos;
    try {
      f = split(t);
    } catch (const InputError& e) {
      if (!settled_) throw InputError(path_ + ":" + std::to_string(line.line) + ": " + e.what());
      row.error = std::string(e.what()) + " in '" + t + "'";
      row.ref = t;  // the raw line: the row stays identifiable in the results
      return true;
    }
    if (!settled_ && settle_columns(f, line.line)) {
      header_ = true;
      continue;
    }
    const int need = std::max(ref_col_, dist_col_) + 1;
    if (static_cast<int>(f.size()) > ref_col_) row.ref = row.ref_field = f[ref_col_];
    if (static_cast<int>(f.size()) > dist_col_) row.dist = row.dist_field = f[dist_col_];
    // Extra fields that are empty ("a.png,b.png,") lose nothing; others would be dropped.
    const bool extra = std::any_of(f.begin() + static_cast<long>(std::min(columns_, f.size())),
                                   f.end(), [](const std::string& x) { return !x.empty(); });
    if (static_cast<int>(f.size()) < need || row.ref.empty() || row.dist.empty()) {
      row.error = "expected a reference and a distorted path, found " + columns_text(f);
    } else if (extra) {
      row.error = "found " + columns_text(f) + " where the list's first row has " +
                  std::to_string(columns_) + ": the extra ones would be dropped";
    } else {
      row.ref = resolve(base_, row.ref);
      row.dist = resolve(base_, row.dist);
    }
    const auto field = [&](int col) {
      return col >= 0 && col < static_cast<int>(f.size()) ? f[col] : std::string();
    };
    row.width = field(width_col_);
    row.height = field(height_col_);
    row.pixel_format = field(format_col_);
    return true;
  }
  return false;
}

std::vector<PairRow> read_pairs_list(const std::string& path) {
  PairsListReader reader(path);
  return collect<PairRow>(reader);
}

}  // namespace mad::results
