#include "datasets/pairs_shard.h"

#include <stb/stb_image.h>

#include <algorithm>
#include <regex>

#include "common/error.h"
#include "datasets/pairs_list.h"

namespace mad::datasets {

ShardSpec parse_shard(const std::string& text) {
  static const std::regex form("([1-9][0-9]{0,5})/([1-9][0-9]{0,5})");
  std::smatch m;
  ShardSpec s;
  if (std::regex_match(text, m, form)) {
    s.index = std::stoi(m[1]);
    s.count = std::stoi(m[2]);
  }
  if (s.count < 1 || s.count > 100000 || s.index > s.count)
    throw InvalidArgument("--shard '" + text +
                          "' is not I/N with 1 <= I <= N <= 100000 (e.g. --shard 3/8: the third "
                          "of eight shards)");
  return s;
}

std::string to_string(const ShardSpec& s) {
  return s.whole() ? "" : std::to_string(s.index) + "/" + std::to_string(s.count);
}

ShardPlan::ShardPlan(const std::string& list_path, int shards) : load_(shards, 0.0) {
  struct Group {
    std::string ref;
    std::size_t pairs = 0;
    double pixels = -1;  // of the reference; -1 = header unreadable
  };
  std::vector<Group> groups;
  std::unordered_map<std::string, std::size_t> index;
  PairsListReader list(list_path);
  for (PairRow row; list.next(row); ++rows_) {
    const auto [it, fresh] = index.emplace(row.ref, groups.size());
    if (fresh) groups.push_back({row.ref});
    ++groups[it->second].pairs;
  }
  std::vector<double> known;
  for (Group& g : groups) {
    int w = 0, h = 0, c = 0;
    if (stbi_info(g.ref.c_str(), &w, &h, &c) && w > 0 && h > 0) {
      g.pixels = static_cast<double>(w) * h;
      known.push_back(g.pixels);
    }
  }
  double fallback = 1;
  if (!known.empty()) {
    std::nth_element(known.begin(), known.begin() + known.size() / 2, known.end());
    fallback = known[known.size() / 2];
  }
  std::vector<std::size_t> order(groups.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto weight = [&](std::size_t i) {
    return (groups[i].pixels < 0 ? fallback : groups[i].pixels) * groups[i].pairs;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return weight(a) > weight(b); });
  for (std::size_t i : order) {
    const std::size_t lightest = std::min_element(load_.begin(), load_.end()) - load_.begin();
    load_[lightest] += weight(i);
    shard_of_ref_[groups[i].ref] = static_cast<int>(lightest) + 1;
  }
}

int ShardPlan::shard_of(const std::string& ref) const {
  const auto it = shard_of_ref_.find(ref);
  if (it == shard_of_ref_.end())
    throw InputError("the pairs list changed while it was read (reference '" + ref +
                     "' was not in it)");
  return it->second;
}

}  // namespace mad::datasets
