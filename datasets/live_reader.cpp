// LIVE Release 2 layout (format in datasets/dataset_readers.h; .mat reading in live_mat.cpp).
#include <cstdio>
#include <filesystem>
#include <map>

#include "common/error.h"
#include "datasets/dataset_io.h"
#include "datasets/dataset_readers.h"
#include "datasets/live_mat.h"

namespace mad::datasets {
namespace fs = std::filesystem;

namespace {

// The distortion folders in the order the score vectors run over them, with the image counts
// of the release (used only when a folder's info.txt is absent).
struct LiveFolder {
  const char* name;
  int published_count;
};
constexpr LiveFolder kFolders[] = {
    {"jp2k", 227}, {"jpeg", 233}, {"wn", 174}, {"gblur", 174}, {"fastfading", 174}};

struct InfoLine {
  std::string ref, param;
  int line = 0;
};

// info.txt: "REF imgN.bmp PARAM" per line (the img token is recognised in any position).
std::map<int, InfoLine> read_info(const std::string& file) {
  std::map<int, InfoLine> out;
  for (const auto& l : read_lines(file)) {
    const auto tok = split_whitespace(l.text);
    if (tok.empty()) continue;
    int n = 0, img_at = -1;
    for (std::size_t i = 0; i < tok.size() && img_at < 0; ++i) {
      int used = 0;
      if (std::sscanf(to_lower(tok[i]).c_str(), "img%d.bmp%n", &n, &used) == 1 &&
          used == static_cast<int>(tok[i].size()) && n > 0)
        img_at = static_cast<int>(i);
    }
    if (img_at < 0) throw_at(file, l.line, "expected 'REF imgN.bmp PARAM', got '" + l.text + "'");
    InfoLine info;
    info.line = l.line;
    for (std::size_t i = 0; i < tok.size(); ++i) {
      if (static_cast<int>(i) == img_at) continue;
      if (info.ref.empty() && to_lower(tok[i]).find(".bmp") != std::string::npos)
        info.ref = tok[i];
      else if (info.param.empty())
        info.param = tok[i];
    }
    if (!out.emplace(n, info).second)
      throw_at(file, l.line, "img" + std::to_string(n) + " listed twice");
  }
  return out;
}

std::string required_file(const std::string& root, const char* name) {
  const std::string p = find_child(root, name);
  if (p.empty()) throw InputError(std::string("LIVE layout: no ") + name + " in '" + root + "'");
  return p;
}

}  // namespace

bool live_mat_supported() {
  return mat_files_supported();
}

Dataset read_live(const std::string& root) {
  const std::string realigned = find_child(root, "dmos_realigned.mat");
  const std::string dmos_file = realigned.empty() ? required_file(root, "dmos.mat") : realigned;
  const std::string names_file = required_file(root, "refnames_all.mat");
  if (!mat_files_supported())
    throw InputError("LIVE layout: " + mat_unsupported_message(dmos_file));

  // The realigned release names its vector dmos_new; the first release dmos.
  const std::vector<double> dmos =
      read_mat_numbers(dmos_file, mat_has_variable(dmos_file, "dmos_new") ? "dmos_new" : "dmos");
  // orgs flags the reference images scored against themselves; dmos_realigned.mat may lack it.
  std::vector<double> orgs;
  const std::string plain = find_child(root, "dmos.mat");
  if (mat_has_variable(dmos_file, "orgs"))
    orgs = read_mat_numbers(dmos_file, "orgs");
  else if (!plain.empty() && mat_has_variable(plain, "orgs"))
    orgs = read_mat_numbers(plain, "orgs");
  const std::vector<std::string> refnames = read_mat_strings(names_file, "refnames_all");
  if (refnames.size() != dmos.size() || (!orgs.empty() && orgs.size() != dmos.size()))
    throw InputError("LIVE layout: " + std::to_string(dmos.size()) + " scores, " +
                     std::to_string(orgs.size()) + " orgs flags and " +
                     std::to_string(refnames.size()) + " reference names; they must agree");

  const std::string refs_dir = child_folder_name(root, "refimgs");
  const FolderIndex refs((fs::path(root) / refs_dir).string());
  Dataset d = empty_dataset(DatasetKind::Live, root, "DMOS", /*higher_is_better=*/false);
  std::size_t offset = 0, skipped = 0;
  for (const auto& folder : kFolders) {
    const std::string dir = child_folder_name(root, folder.name);
    const FolderIndex images((fs::path(root) / dir).string());
    const std::string info_file = images.contains("info.txt") ? images.resolve("info.txt") : "";
    std::map<int, InfoLine> info;
    int count = folder.published_count;
    if (!info_file.empty()) {
      info = read_info(info_file);
      count = info.empty() ? 0 : info.rbegin()->first;
    }
    if (offset + count > dmos.size())
      throw InputError("LIVE layout: the folders hold more images than the " +
                       std::to_string(dmos.size()) + " scores of " + dmos_file);
    for (int n = 1; n <= count; ++n) {
      const std::size_t idx = offset + static_cast<std::size_t>(n) - 1;
      auto it = info.find(n);
      if (it != info.end() && !it->second.ref.empty() &&
          to_lower(it->second.ref) != to_lower(refnames[idx]))
        throw_at(info_file, it->second.line,
                 "img" + std::to_string(n) + " has reference '" + it->second.ref +
                     "' but refnames_all says '" + refnames[idx] + "'");
      if (!orgs.empty() && orgs[idx] != 0) {
        ++skipped;
        continue;
      }
      DatasetEntry e;
      e.dist = images.resolve("img" + std::to_string(n) + ".bmp");
      e.ref = refs.resolve(refnames[idx]);
      e.dist_name = dir + "/" + fs::path(e.dist).filename().string();
      e.ref_name = refs_dir + "/" + fs::path(e.ref).filename().string();
      e.subjective = dmos[idx];
      e.type = folder.name;
      if (it != info.end()) e.level = it->second.param;
      e.line = it != info.end() ? it->second.line : 0;
      d.entries.push_back(std::move(e));
    }
    offset += static_cast<std::size_t>(count);
  }
  if (offset != dmos.size())
    throw InputError("LIVE layout: the five folders hold " + std::to_string(offset) +
                     " images but " + dmos_file + " has " + std::to_string(dmos.size()) +
                     " scores");
  if (skipped)
    d.notes.push_back("skipped " + std::to_string(skipped) + " reference copies (orgs = 1)");
  if (orgs.empty()) d.notes.push_back("no orgs flags found: every image is scored");
  return d;
}

}  // namespace mad::datasets
