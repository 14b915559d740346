#include "datasets/pairs_list.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "common/error.h"
#include "datasets/csv.h"

namespace mad::datasets {
namespace fs = std::filesystem;

namespace {
std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}
std::string resolve(const fs::path& base, const std::string& p) {
  const fs::path path(p);
  return (path.is_absolute() ? path : base / path).lexically_normal().string();
}
}  // namespace

std::vector<PairRow> read_pairs_list(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot open pairs list '" + path + "'");
  const fs::path base = fs::path(path).parent_path();
  std::vector<PairRow> rows;
  std::string line;
  int line_no = 0;
  int ref_col = 0, dist_col = 1;
  bool header_seen = false;
  while (std::getline(in, line)) {
    ++line_no;
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    PairRow row;
    row.line = line_no;
    std::vector<std::string> f;
    try {
      f = split_csv_line(t);
    } catch (const InputError& e) {
      row.error = e.what();
      rows.push_back(row);
      continue;
    }
    for (auto& s : f) s = trim(s);
    if (!header_seen) {
      header_seen = true;
      const auto r = std::find_if(f.begin(), f.end(), [](auto& s) { return lower(s) == "ref"; });
      const auto d = std::find_if(f.begin(), f.end(), [](auto& s) { return lower(s) == "dist"; });
      if (r != f.end() && d != f.end()) {
        ref_col = static_cast<int>(r - f.begin());
        dist_col = static_cast<int>(d - f.begin());
        continue;
      }
    }
    const int need = std::max(ref_col, dist_col) + 1;
    if (static_cast<int>(f.size()) < need || f[ref_col].empty() || f[dist_col].empty()) {
      row.error = "expected a reference and a distorted path";
    } else {
      row.ref = resolve(base, f[ref_col]);
      row.dist = resolve(base, f[dist_col]);
    }
    rows.push_back(row);
  }
  if (in.bad()) throw InputError("error while reading pairs list '" + path + "'");
  return rows;
}

}  // namespace mad::datasets
