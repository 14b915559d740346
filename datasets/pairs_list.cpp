#include "datasets/pairs_list.h"

#include <algorithm>
#include <filesystem>

#include "common/error.h"
#include "datasets/csv.h"

namespace mad::datasets {
namespace fs = std::filesystem;

namespace {
std::string resolve(const fs::path& base, const std::string& p) {
  const fs::path path(p);
  return (path.is_absolute() ? path : base / path).lexically_normal().string();
}
}  // namespace

PairsListReader::PairsListReader(const std::string& path)
    : lines_(path), base_(fs::path(path).parent_path()) {}

bool PairsListReader::next(PairRow& row) {
  NumberedLine line;
  while (lines_.next(line)) {
    const std::string t = trim(line.text);
    if (t.empty() || t[0] == '#') continue;
    row = PairRow{};
    row.line = line.line;
    std::vector<std::string> f;
    try {
      f = split_csv_line_trimmed(t);
    } catch (const InputError& e) {
      row.error = e.what();
      return true;
    }
    if (!header_seen_) {
      header_seen_ = true;
      const auto r = std::find_if(f.begin(), f.end(), [](auto& s) { return to_lower(s) == "ref"; });
      const auto d =
          std::find_if(f.begin(), f.end(), [](auto& s) { return to_lower(s) == "dist"; });
      if (r != f.end() && d != f.end()) {
        ref_col_ = static_cast<int>(r - f.begin());
        dist_col_ = static_cast<int>(d - f.begin());
        continue;
      }
    }
    const int need = std::max(ref_col_, dist_col_) + 1;
    if (static_cast<int>(f.size()) < need || f[ref_col_].empty() || f[dist_col_].empty()) {
      row.error = "expected a reference and a distorted path";
    } else {
      row.ref = resolve(base_, f[ref_col_]);
      row.dist = resolve(base_, f[dist_col_]);
    }
    return true;
  }
  return false;
}

std::vector<PairRow> read_pairs_list(const std::string& path) {
  PairsListReader reader(path);
  return collect<PairRow>(reader);
}

}  // namespace mad::datasets
