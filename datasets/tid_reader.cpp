// TID2013 / TID2008 layout (format in datasets/dataset_readers.h).
#include <algorithm>
#include <cstdio>
#include <iterator>
#include <filesystem>
#include <map>
#include <tuple>

#include "common/error.h"
#include "datasets/dataset_io.h"
#include "datasets/dataset_readers.h"

namespace mad::datasets {
namespace fs = std::filesystem;

namespace {

// Distortion types in the order of the TID2013 paper (Ponomarenko et al. 2015, Table 1);
// TID2008 has the first 17 with the same numbers.
constexpr const char* kTidTypes[] = {"additive Gaussian noise",
                                     "additive noise in color components",
                                     "spatially correlated noise",
                                     "masked noise",
                                     "high frequency noise",
                                     "impulse noise",
                                     "quantization noise",
                                     "Gaussian blur",
                                     "image denoising",
                                     "JPEG compression",
                                     "JPEG2000 compression",
                                     "JPEG transmission errors",
                                     "JPEG2000 transmission errors",
                                     "non eccentricity pattern noise",
                                     "local block-wise distortions",
                                     "mean shift",
                                     "contrast change",
                                     "change of color saturation",
                                     "multiplicative Gaussian noise",
                                     "comfort noise",
                                     "lossy compression of noisy images",
                                     "color quantization with dither",
                                     "chromatic aberrations",
                                     "sparse sampling and reconstruction"};

// "01" .. "99", wider numbers as they are (TID numbers references and types with two digits).
std::string two_digits(int v) {
  return (v < 10 ? "0" : "") + std::to_string(v);
}

struct TidName {
  int ref = 0, type = 0, level = 0;
  std::string ext;  // ".bmp" as spelled
};

// "I01_01_1.bmp" in any case; false for anything else.
bool parse_tid_name(const std::string& name, TidName& out) {
  int ref = 0, type = 0, level = 0, used = 0;
  if (std::sscanf(to_lower(name).c_str(), "i%d_%d_%d%n", &ref, &type, &level, &used) != 3)
    return false;
  const std::string rest = name.substr(static_cast<std::size_t>(used));
  if (!rest.empty() && rest[0] != '.') return false;
  if (ref <= 0 || type <= 0 || level <= 0) return false;
  out = {ref, type, level, rest};
  return true;
}

struct TidFolders {
  std::string root;
  FolderIndex refs, dists;
  std::string ref_dir, dist_dir;  // names as found ("reference_images")
};

TidFolders open_folders(const std::string& root) {
  TidFolders f;
  f.root = root;
  f.ref_dir = child_folder_name(root, "reference_images");
  f.dist_dir = child_folder_name(root, "distorted_images");
  f.refs = FolderIndex((fs::path(root) / f.ref_dir).string());
  f.dists = FolderIndex((fs::path(root) / f.dist_dir).string());
  if (!f.dists.exists()) throw InputError("TID layout: '" + f.dists.folder() + "' is missing");
  return f;
}

DatasetEntry make_entry(const TidFolders& f, const std::string& dist_name, const TidName& n,
                        double mos, int line) {
  const std::string ref_name = "I" + two_digits(n.ref) + (n.ext.empty() ? ".bmp" : n.ext);
  DatasetEntry e;
  e.dist = f.dists.resolve(dist_name);
  e.ref = f.refs.resolve(ref_name);
  // Names as they are on disk when present, so results.csv keys survive a re-read.
  e.dist_name = f.dist_dir + "/" + fs::path(e.dist).filename().string();
  e.ref_name = f.ref_dir + "/" + fs::path(e.ref).filename().string();
  e.subjective = mos;
  e.type = two_digits(n.type) + " " + tid_type_name(n.type);
  e.level = std::to_string(n.level);
  e.line = line;
  return e;
}

void read_with_names(const TidFolders& f, const std::string& file, Dataset& d) {
  for (const auto& l : read_lines(file)) {
    const auto tok = split_whitespace(l.text);
    if (tok.empty()) continue;
    if (tok.size() != 2) throw_at(file, l.line, "expected 'MOS NAME', got '" + l.text + "'");
    const double mos = parse_number(tok[0], file, l.line, "MOS");
    TidName n;
    if (!parse_tid_name(tok[1], n))
      throw_at(file, l.line, "'" + tok[1] + "' is not a TID name like I01_01_1.bmp");
    d.entries.push_back(make_entry(f, tok[1], n, mos, l.line));
  }
}

// mos.txt alone: the scores follow the names sorted by (reference, type, level). The grid is
// the dataset's published one when the count matches, else the one the folder spans.
void read_without_names(const TidFolders& f, const std::string& file, DatasetKind kind,
                        Dataset& d) {
  std::vector<std::pair<int, double>> scores;  // (line, MOS)
  for (const auto& l : read_lines(file)) {
    const auto tok = split_whitespace(l.text);
    if (tok.empty()) continue;
    if (tok.size() != 1) throw_at(file, l.line, "expected one MOS per line, got '" + l.text + "'");
    scores.emplace_back(l.line, parse_number(tok[0], file, l.line, "MOS"));
  }
  std::map<std::tuple<int, int, int>, std::pair<std::string, TidName>> present;
  int refs = 0, types = 0, levels = 0;
  for (const auto& name : f.dists.names()) {
    TidName n;
    if (!parse_tid_name(name, n)) continue;
    present.emplace(std::make_tuple(n.ref, n.type, n.level), std::make_pair(name, n));
    refs = std::max(refs, n.ref);
    types = std::max(types, n.type);
    levels = std::max(levels, n.level);
  }
  const bool is2013 = kind == DatasetKind::Tid2013;
  const int pub_types = is2013 ? 24 : 17, pub_levels = is2013 ? 5 : 4;
  if (scores.size() == static_cast<std::size_t>(25 * pub_types * pub_levels)) {
    refs = 25;
    types = pub_types;
    levels = pub_levels;
  }
  const std::size_t grid = static_cast<std::size_t>(refs) * types * levels;
  if (grid != scores.size())
    throw InputError(file + ": " + std::to_string(scores.size()) + " scores but " + f.dist_dir +
                     "/ spans " + std::to_string(refs) + " references x " + std::to_string(types) +
                     " types x " + std::to_string(levels) + " levels = " + std::to_string(grid) +
                     " images; without mos_with_names.txt the two must agree");
  std::size_t k = 0;
  for (int r = 1; r <= refs; ++r)
    for (int t = 1; t <= types; ++t)
      for (int lv = 1; lv <= levels; ++lv, ++k) {
        auto it = present.find({r, t, lv});
        TidName n{r, t, lv, ".bmp"};
        if (it != present.end()) n = it->second.second;
        const std::string dist = it != present.end() ? it->second.first
                                                     : "i" + two_digits(r) + "_" + two_digits(t) +
                                                           "_" + std::to_string(lv) + ".bmp";
        d.entries.push_back(make_entry(f, dist, n, scores[k].second, scores[k].first));
      }
  d.notes.push_back("mos.txt matched to the " + std::to_string(refs) + "x" + std::to_string(types) +
                    "x" + std::to_string(levels) + " grid of names (reference, type, level)");
}

}  // namespace

std::string tid_type_name(int type) {
  if (type < 1 || type > static_cast<int>(std::size(kTidTypes)))
    return "type " + std::to_string(type);
  return kTidTypes[type - 1];
}

Dataset read_tid(const std::string& root, DatasetKind kind) {
  const TidFolders f = open_folders(root);
  Dataset d = empty_dataset(kind, root, "MOS", /*higher_is_better=*/true);
  const std::string with_names = find_child(root, "mos_with_names.txt");
  const std::string plain = find_child(root, "mos.txt");
  if (!with_names.empty())
    read_with_names(f, with_names, d);
  else if (!plain.empty())
    read_without_names(f, plain, kind, d);
  else
    throw InputError("TID layout: neither mos_with_names.txt nor mos.txt in '" + root + "'");
  if (d.entries.empty()) throw InputError("TID layout: the score file lists no images");
  return d;
}

}  // namespace mad::datasets
