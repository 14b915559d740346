// CSIQ layout (format and the expected export of csiq.DMOS.xlsx in datasets/dataset_readers.h).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "common/error.h"
#include "datasets/dataset_io.h"
#include "datasets/dataset_readers.h"

namespace mad::datasets {
namespace fs = std::filesystem;

namespace {

struct CsiqType {
  const char* folder;  // under dst_imgs/, also the type label
  const char* tag;     // in the file name <image>.<TAG>.<lev>.png
};

// dst_type as written in the sheet (lower case, spaces and '/' dropped) -> folder and tag.
bool csiq_type(const std::string& sheet_value, CsiqType& out) {
  std::string k;
  for (char c : to_lower(sheet_value))
    if (c != ' ' && c != '/' && c != '_' && c != '-') k += c;
  static const std::map<std::string, CsiqType> kTypes = {
      {"noise", {"awgn", "AWGN"}},        {"awgn", {"awgn", "AWGN"}},
      {"jpeg", {"jpeg", "JPEG"}},         {"jpeg2000", {"jpeg2000", "jpeg2000"}},
      {"jp2k", {"jpeg2000", "jpeg2000"}}, {"fnoise", {"fnoise", "fnoise"}},
      {"1fnoise", {"fnoise", "fnoise"}},  {"pinknoise", {"fnoise", "fnoise"}},
      {"blur", {"blur", "BLUR"}},         {"contrast", {"contrast", "contrast"}}};
  auto it = kTypes.find(k);
  if (it == kTypes.end()) return false;
  out = it->second;
  return true;
}

// The DMOS sheet: the only .csv at the root, or the one whose name mentions dmos.
std::string find_sheet(const std::string& root) {
  std::vector<std::string> csvs;
  std::error_code ec;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
    if (to_lower(it->path().extension().string()) == ".csv") csvs.push_back(it->path().string());
  std::sort(csvs.begin(), csvs.end());
  if (csvs.size() > 1) {
    std::vector<std::string> dmos;
    for (const auto& c : csvs)
      if (to_lower(fs::path(c).filename().string()).find("dmos") != std::string::npos)
        dmos.push_back(c);
    if (dmos.size() == 1) return dmos[0];
    throw InputError("CSIQ layout: several CSV files in '" + root +
                     "'; name the DMOS sheet with --manifest FILE");
  }
  if (csvs.empty())
    throw InputError("CSIQ layout: no CSV export of the DMOS sheet in '" + root +
                     "' (export csiq.DMOS.xlsx's sheet as CSV with the columns image, "
                     "dst_type, dst_lev, dmos)");
  return csvs[0];
}

}  // namespace

Dataset read_csiq(const std::string& root, const std::string& sheet_arg) {
  const std::string sheet = sheet_arg.empty() ? find_sheet(root) : sheet_arg;
  const std::string src_dir = child_folder_name(root, "src_imgs");
  const std::string dst_dir = child_folder_name(root, "dst_imgs");
  const FolderIndex refs((fs::path(root) / src_dir).string());
  const FolderIndex dst_root((fs::path(root) / dst_dir).string());
  std::map<std::string, FolderIndex> type_folders;  // one listing per distortion folder

  Dataset d = empty_dataset(DatasetKind::Csiq, root, "DMOS", /*higher_is_better=*/false);
  int col[4] = {-1, -1, -1, -1};  // image, dst_type, dst_lev, dmos
  const char* names[4] = {"image", "dst_type", "dst_lev", "dmos"};
  bool header = false;
  for (const auto& l : read_lines(sheet)) {
    if (trim(l.text).empty()) continue;
    std::vector<std::string> f = split_csv_line_at(sheet, l.line, l.text);
    for (auto& s : f) s = trim(s);
    if (!header) {
      for (int k = 0; k < 4; ++k)
        for (std::size_t i = 0; i < f.size(); ++i)
          if (to_lower(f[i]) == names[k]) col[k] = static_cast<int>(i);
      if (*std::min_element(col, col + 4) < 0)
        throw_at(sheet, l.line,
                 "expected a header with image, dst_type, dst_lev and dmos, got '" + l.text + "'");
      header = true;
      continue;
    }
    const std::size_t need = static_cast<std::size_t>(*std::max_element(col, col + 4)) + 1;
    if (f.size() < need)
      throw_at(sheet, l.line,
               "expected " + std::to_string(need) + " fields, got " + std::to_string(f.size()));
    const std::string image = f[col[0]];
    if (image.empty()) throw_at(sheet, l.line, "empty image name");
    CsiqType type;
    if (!csiq_type(f[col[1]], type))
      throw_at(sheet, l.line,
               "unknown dst_type '" + f[col[1]] +
                   "' (expected noise, jpeg, jpeg 2000, fnoise, blur or contrast)");
    const double lev = parse_number(f[col[2]], sheet, l.line, "dst_lev");
    // Bounded before the conversion to long below (undefined beyond long's range); CSIQ's
    // levels are 1..5.
    if (lev != std::floor(lev) || lev < 1 || lev > 1e6)
      throw_at(sheet, l.line, "dst_lev must be a positive integer");
    DatasetEntry e;
    e.subjective = parse_number(f[col[3]], sheet, l.line, "dmos");
    e.type = type.folder;
    e.level = std::to_string(static_cast<long>(lev));
    auto it = type_folders.find(type.folder);
    if (it == type_folders.end()) {
      const std::string found = dst_root.contains(type.folder)
                                    ? dst_root.resolve(type.folder)
                                    : (fs::path(dst_root.folder()) / type.folder).string();
      it = type_folders.emplace(type.folder, FolderIndex(found)).first;
    }
    e.dist = it->second.resolve(image + "." + type.tag + "." + e.level + ".png");
    e.ref = refs.resolve(image + ".png");
    const std::string type_dir = fs::path(it->second.folder()).filename().string();
    e.dist_name = dst_dir + "/" + type_dir + "/" + fs::path(e.dist).filename().string();
    e.ref_name = src_dir + "/" + fs::path(e.ref).filename().string();
    e.line = l.line;
    d.entries.push_back(std::move(e));
  }
  if (!header) throw InputError(sheet + ": empty (expected the DMOS sheet exported as CSV)");
  if (d.entries.empty()) throw InputError(sheet + ": no rows after the header");
  d.notes.push_back("CSIQ DMOS sheet: " + fs::path(sheet).filename().string());
  return d;
}

}  // namespace mad::datasets
