#include "datasets/dataset.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <unordered_map>

#include "common/error.h"
#include "datasets/dataset_io.h"
#include "datasets/dataset_readers.h"

namespace mad::datasets {
namespace fs = std::filesystem;

namespace {
struct KindName {
  DatasetKind kind;
  const char* name;
};
constexpr KindName kKinds[] = {
    {DatasetKind::Tid2013, "tid2013"},   {DatasetKind::Tid2008, "tid2008"},
    {DatasetKind::Kadid10k, "kadid10k"}, {DatasetKind::Csiq, "csiq"},
    {DatasetKind::Live, "live"},         {DatasetKind::Csv, "csv"}};

std::vector<std::string> csv_files_at_root(const std::string& root) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
    if (to_lower(it->path().extension().string()) == ".csv")
      names.push_back(it->path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

constexpr const char* kLayoutsLookedFor =
    "looked for TID's mos_with_names.txt + distorted_images/, KADID-10k's dmos.csv + images/, "
    "CSIQ's src_imgs/ + dst_imgs/, LIVE's refnames_all.mat + refimgs/, and a CSV manifest "
    "named manifest.csv";

// --manifest names a file as every other path does: from the working folder. A name that is
// only found inside DIR (where older versions looked) is refused with the path that works.
std::string manifest_path(const std::string& root, const std::string& manifest) {
  std::error_code ec;
  if (fs::exists(manifest, ec)) return manifest;
  const fs::path in_root = fs::path(root) / manifest;
  if (fs::path(manifest).is_relative() && fs::exists(in_root, ec))
    throw InputError("--manifest '" + manifest +
                     "' does not exist in the working folder (--manifest is read from the "
                     "working folder, as any other path); did you mean --manifest '" +
                     in_root.string() + "'?");
  throw InputError("--manifest '" + manifest + "' does not exist");
}

// TID2008 has 17 distortion types at 4 levels; any type above 17 or level above 4 is TID2013.
DatasetKind tid_generation(const std::string& root) {
  const std::string dist = find_child(root, "distorted_images");
  for (const auto& name : FolderIndex(dist).names()) {
    int ref = 0, type = 0, level = 0;
    if (std::sscanf(to_lower(name).c_str(), "i%d_%d_%d", &ref, &type, &level) == 3 &&
        (type > 17 || level > 4))
      return DatasetKind::Tid2013;
  }
  return DatasetKind::Tid2008;
}
}  // namespace

DatasetKind parse_dataset_kind(const std::string& name) {
  const std::string n = to_lower(name);
  for (const auto& k : kKinds)
    if (n == k.name) return k.kind;
  if (n == "kadid" || n == "kadid-10k") return DatasetKind::Kadid10k;
  throw InvalidArgument("unknown dataset '" + name +
                        "'; expected tid2013, tid2008, kadid10k, csiq, live or csv");
}

Dataset empty_dataset(DatasetKind kind, const std::string& root, const std::string& score_name,
                      bool higher_is_better) {
  return Dataset{kind, root, score_name, higher_is_better, /*entries=*/{}, /*notes=*/{}};
}

std::string to_string(DatasetKind kind) {
  for (const auto& k : kKinds)
    if (k.kind == kind) return k.name;
  return "?";
}

DatasetKind detect_dataset_kind(const std::string& root) {
  std::error_code ec;
  if (fs::exists(root, ec) && !fs::is_directory(root, ec))
    throw InputError("'" + root +
                     "' is a file, not a dataset folder: mad eval DIR takes the folder a "
                     "dataset was unpacked into (for a CSV manifest: mad eval FOLDER --dataset "
                     "csv --manifest FILE)");
  if (!fs::is_directory(root, ec)) throw InputError("dataset folder '" + root + "' does not exist");
  const auto has = [&](const char* name) { return !find_child(root, name).empty(); };
  if ((has("mos_with_names.txt") || has("mos.txt")) && has("distorted_images"))
    return tid_generation(root);
  if (has("dmos.csv") && has("images")) return DatasetKind::Kadid10k;
  if (has("src_imgs") && has("dst_imgs")) return DatasetKind::Csiq;
  if (has("refnames_all.mat") || (has("refimgs") && has("fastfading"))) return DatasetKind::Live;
  if (has("manifest.csv")) return DatasetKind::Csv;
  const std::vector<std::string> csv = csv_files_at_root(root);
  if (!csv.empty())
    throw InputError("cannot tell which dataset '" + root + "' holds (" + kLayoutsLookedFor +
                     "): it holds " + csv.front() +
                     (csv.size() > 1 ? " and " + std::to_string(csv.size() - 1) + " other CSV file(s)"
                                     : std::string()) +
                     " but none of those layouts; if " + csv.front() +
                     " is a manifest (ref,dist,score columns), run: mad eval '" + root +
                     "' --dataset csv --manifest '" + (fs::path(root) / csv.front()).string() + "'");
  throw InputError("cannot tell which dataset '" + root + "' holds (" + kLayoutsLookedFor +
                   ", and found none); name it with --dataset");
}

Dataset read_dataset(const std::string& root, DatasetKind kind, const ReadOptions& options) {
  // Options a layout would ignore are refused rather than dropped.
  if (options.higher_is_better && kind != DatasetKind::Csv)
    throw InvalidArgument(
        "--higher-is-better and --lower-is-better apply to a CSV manifest "
        "(--dataset csv); " +
        to_string(kind) + " fixes its own score direction: drop the option");
  if (!options.manifest.empty() && kind != DatasetKind::Csv && kind != DatasetKind::Csiq)
    throw InvalidArgument(
        "--manifest applies to --dataset csv (a manifest) or csiq (its DMOS "
        "sheet), but this run reads " +
        to_string(kind) + ": drop --manifest, or name --dataset csv");
  switch (kind) {
    case DatasetKind::Tid2013:
    case DatasetKind::Tid2008: return read_tid(root, kind);
    case DatasetKind::Kadid10k: return read_kadid(root);
    case DatasetKind::Csiq:
      return read_csiq(root, options.manifest.empty() ? std::string()
                                                      : manifest_path(root, options.manifest));
    case DatasetKind::Live: return read_live(root);
    case DatasetKind::Csv: {
      std::string manifest = options.manifest;
      if (manifest.empty()) {
        manifest = find_child(root, "manifest.csv");
        if (manifest.empty())
          throw InvalidArgument("--dataset csv needs --manifest FILE (or DIR/manifest.csv), "
                                "and '" + root + "' holds no manifest.csv");
      } else {
        manifest = manifest_path(root, manifest);
      }
      Dataset d = read_manifest(manifest, options.higher_is_better);
      d.root = root;
      return d;
    }
  }
  throw InvalidArgument("unknown dataset kind");
}

std::vector<MissingImage> find_missing_images(const Dataset& dataset) {
  std::vector<MissingImage> out;
  std::unordered_map<std::string, bool> exists;  // references repeat: stat each file once
  const auto present = [&](const std::string& p) {
    auto it = exists.find(p);
    if (it != exists.end()) return it->second;
    std::error_code ec;
    const bool e = fs::is_regular_file(p, ec);
    exists.emplace(p, e);
    return e;
  };
  for (std::size_t i = 0; i < dataset.entries.size(); ++i) {
    const auto& e = dataset.entries[i];
    if (!present(e.ref)) out.push_back({i, e.ref_name});
    if (!present(e.dist)) out.push_back({i, e.dist_name});
  }
  return out;
}

std::vector<std::size_t> order_by_reference(const std::vector<DatasetEntry>& entries) {
  std::unordered_map<std::string, std::size_t> group_of;
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    auto [it, fresh] = group_of.emplace(entries[i].ref, groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(i);
  }
  std::vector<std::size_t> order;
  order.reserve(entries.size());
  for (const auto& g : groups) order.insert(order.end(), g.begin(), g.end());
  return order;
}

}  // namespace mad::datasets
