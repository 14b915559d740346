// KADID-10k layout (format in datasets/dataset_readers.h).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iterator>

#include "common/error.h"
#include "datasets/dataset_io.h"
#include "datasets/dataset_readers.h"

namespace mad::datasets {
namespace fs = std::filesystem;

namespace {

// Distortion types in the order of the KADID-10k paper (Lin, Hosu & Saupe 2019, Table 1).
constexpr const char* kKadidTypes[] = {"Gaussian blur",
                                       "lens blur",
                                       "motion blur",
                                       "color diffusion",
                                       "color shift",
                                       "color quantization",
                                       "color saturation 1",
                                       "color saturation 2",
                                       "JPEG2000",
                                       "JPEG",
                                       "white noise",
                                       "white noise in color component",
                                       "impulse noise",
                                       "multiplicative noise",
                                       "denoise",
                                       "brighten",
                                       "darken",
                                       "mean shift",
                                       "jitter",
                                       "non-eccentricity patch",
                                       "pixelate",
                                       "quantization",
                                       "color block",
                                       "high sharpen",
                                       "contrast change"};

int column(const std::vector<std::string>& header, const std::string& name) {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (to_lower(trim(header[i])) == name) return static_cast<int>(i);
  return -1;
}

}  // namespace

std::string kadid_type_name(int type) {
  if (type < 1 || type > static_cast<int>(std::size(kKadidTypes)))
    return "type " + std::to_string(type);
  return kKadidTypes[type - 1];
}

Dataset read_kadid(const std::string& root) {
  const std::string file = find_child(root, "dmos.csv");
  if (file.empty()) throw InputError("KADID-10k layout: no dmos.csv in '" + root + "'");
  const std::string images_dir = child_folder_name(root, "images");
  const FolderIndex images((fs::path(root) / images_dir).string());

  Dataset d = empty_dataset(DatasetKind::Kadid10k, root, "DMOS", /*higher_is_better=*/true);
  d.notes.push_back("KADID-10k's 'dmos' is a mean opinion on 1..5: higher = better");
  int dist_col = -1, ref_col = -1, score_col = -1;
  for (const auto& l : read_lines(file)) {
    if (trim(l.text).empty()) continue;
    const std::vector<std::string> f = split_csv_line_at(file, l.line, l.text);
    if (dist_col < 0) {  // the header
      dist_col = column(f, "dist_img");
      ref_col = column(f, "ref_img");
      score_col = column(f, "dmos");
      if (dist_col < 0 || ref_col < 0 || score_col < 0)
        throw_at(file, l.line,
                 "expected a header with dist_img, ref_img and dmos, got '" + l.text + "'");
      continue;
    }
    const std::size_t need = static_cast<std::size_t>(std::max({dist_col, ref_col, score_col})) + 1;
    if (f.size() < need)
      throw_at(file, l.line,
               "expected " + std::to_string(need) + " fields, got " + std::to_string(f.size()));
    DatasetEntry e;
    const std::string dist = trim(f[dist_col]), ref = trim(f[ref_col]);
    if (dist.empty() || ref.empty()) throw_at(file, l.line, "empty image name");
    e.subjective = parse_number(f[score_col], file, l.line, "dmos");
    e.dist = images.resolve(dist);
    e.ref = images.resolve(ref);
    e.dist_name = images_dir + "/" + fs::path(e.dist).filename().string();
    e.ref_name = images_dir + "/" + fs::path(e.ref).filename().string();
    int r = 0, t = 0, lv = 0;
    if (std::sscanf(to_lower(dist).c_str(), "i%d_%d_%d", &r, &t, &lv) == 3) {
      char num[8];
      std::snprintf(num, sizeof num, "%02d ", t);
      e.type = num + kadid_type_name(t);
      e.level = std::to_string(lv);
    }
    e.line = l.line;
    d.entries.push_back(std::move(e));
  }
  if (dist_col < 0) throw InputError(file + ": empty (expected a header and one row per image)");
  if (d.entries.empty()) throw InputError(file + ": no rows after the header");
  return d;
}

}  // namespace mad::datasets
