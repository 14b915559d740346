#include "datasets/dataset_io.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "common/error.h"

namespace mad::datasets {
namespace fs = std::filesystem;

FolderIndex::FolderIndex(const std::string& folder) : folder_(folder) {
  std::error_code ec;
  exists_ = fs::is_directory(folder, ec);
  if (!exists_) return;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    exact_.emplace(name, name);
  }
  // exact_ is sorted, so among names that differ only in case the first in byte order wins,
  // which keeps the lookup deterministic.
  for (const auto& [name, _] : exact_) lowered_.emplace(to_lower(name), name);
}

std::string FolderIndex::resolve(const std::string& name) const {
  auto it = exact_.find(name);
  if (it == exact_.end()) {
    auto lo = lowered_.find(to_lower(name));
    if (lo != lowered_.end()) return (fs::path(folder_) / lo->second).string();
  }
  return (fs::path(folder_) / name).string();
}

bool FolderIndex::contains(const std::string& name) const {
  return exact_.count(name) || lowered_.count(to_lower(name));
}

std::vector<std::string> FolderIndex::names() const {
  std::vector<std::string> out;
  for (const auto& [name, _] : exact_) out.push_back(name);
  return out;
}

std::string find_child(const std::string& root, const std::string& name) {
  const FolderIndex index(root);
  return index.contains(name) ? index.resolve(name) : std::string();
}

std::string child_folder_name(const std::string& root, const std::string& name) {
  const std::string found = find_child(root, name);
  return found.empty() ? name : fs::path(found).filename().string();
}

std::vector<std::string> split_whitespace(const std::string& s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    const std::size_t b = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (i > b) out.push_back(s.substr(b, i - b));
  }
  return out;
}

}  // namespace mad::datasets
