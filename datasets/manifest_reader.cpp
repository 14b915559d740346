// The generic CSV manifest (format in datasets/dataset_readers.h).
#include <algorithm>
#include <filesystem>

#include "common/error.h"
#include "datasets/dataset_io.h"
#include "datasets/dataset_readers.h"

namespace mad::datasets {
namespace fs = std::filesystem;

namespace {

bool parse_bool(const std::string& v, bool& out) {
  const std::string s = to_lower(trim(v));
  if (s == "true" || s == "yes" || s == "1") return out = true, true;
  if (s == "false" || s == "no" || s == "0") return out = false, true;
  return false;
}

struct Columns {
  int ref = -1, dist = -1, score = -1, type = -1, level = -1;
  std::string score_name;
};

Columns find_columns(const std::vector<std::string>& header) {
  Columns c;
  for (std::size_t i = 0; i < header.size(); ++i) {
    const std::string h = to_lower(header[i]);
    const int k = static_cast<int>(i);
    if (h == "ref" || h == "reference")
      c.ref = k;
    else if (h == "dist" || h == "distorted")
      c.dist = k;
    else if (h == "score" || h == "mos" || h == "dmos")
      c.score = k, c.score_name = header[i];
    else if (h == "type")
      c.type = k;
    else if (h == "level")
      c.level = k;
  }
  return c;
}

std::string resolve(const fs::path& base, const std::string& p) {
  const fs::path path(p);
  return (path.is_absolute() ? path : base / path).lexically_normal().string();
}

}  // namespace

Dataset read_manifest(const std::string& manifest, std::optional<bool> higher_is_better) {
  const fs::path base = fs::path(manifest).parent_path();
  Dataset d;
  d.kind = DatasetKind::Csv;
  d.root = base.string();
  std::optional<bool> declared;
  Columns c;
  bool header = false;
  for (const auto& l : read_lines(manifest)) {
    const std::string t = trim(l.text);
    if (t.empty()) continue;
    if (t[0] == '#') {
      // "# higher_is_better: false" declares the score's direction.
      const auto colon = t.find(':');
      if (colon != std::string::npos &&
          to_lower(trim(t.substr(1, colon - 1))) == "higher_is_better") {
        bool v = false;
        if (!parse_bool(t.substr(colon + 1), v))
          throw_at(manifest, l.line, "higher_is_better must be true or false");
        declared = v;
      }
      continue;
    }
    std::vector<std::string> f = split_csv_line_at(manifest, l.line, t);
    for (auto& s : f) s = trim(s);
    if (!header) {
      c = find_columns(f);
      if (c.ref < 0 || c.dist < 0 || c.score < 0)
        throw_at(
            manifest, l.line,
            "expected a header naming ref, dist and score (or mos/dmos), got '" + l.text + "'");
      header = true;
      continue;
    }
    const int need = std::max({c.ref, c.dist, c.score, c.type, c.level}) + 1;
    if (static_cast<int>(f.size()) < need)
      throw_at(manifest, l.line,
               "expected " + std::to_string(need) + " fields, got " + std::to_string(f.size()));
    DatasetEntry e;
    if (f[c.ref].empty() || f[c.dist].empty()) throw_at(manifest, l.line, "empty image path");
    e.ref_name = f[c.ref];
    e.dist_name = f[c.dist];
    e.ref = resolve(base, e.ref_name);
    e.dist = resolve(base, e.dist_name);
    e.subjective = parse_number(f[c.score], manifest, l.line, c.score_name);
    if (c.type >= 0) e.type = f[c.type];
    if (c.level >= 0) e.level = f[c.level];
    e.line = l.line;
    d.entries.push_back(std::move(e));
  }
  if (!header)
    throw InputError(manifest + ": empty (expected a header naming ref, dist and score)");
  if (d.entries.empty()) throw InputError(manifest + ": no rows after the header");
  if (higher_is_better) {
    d.higher_is_better = *higher_is_better;
  } else if (declared) {
    d.higher_is_better = *declared;
  } else {
    throw InvalidArgument(manifest +
                          ": say whether a higher score means better quality: add the "
                          "line '# higher_is_better: true' (MOS) or 'false' (DMOS) before the "
                          "header, or pass --higher-is-better / --lower-is-better");
  }
  d.score_name = c.score_name;
  return d;
}

}  // namespace mad::datasets
