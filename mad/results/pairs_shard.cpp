#include "mad/results/pairs_shard.h"

#ifdef MAD_HAVE_STB
#include <stb/stb_image.h>
#endif

#include <algorithm>
#include <regex>

#include "common/error.h"
#include "mad/results/pairs_list.h"

namespace mad::results {

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
  PairsListReader list(list_path);
  for (PairRow row; list.next(row);) add(row.ref);
  deal();
}

ShardPlan::ShardPlan(const std::vector<std::string>& refs, int shards) : load_(shards, 0.0) {
  for (const std::string& ref : refs) add(ref);
  deal();
}

void ShardPlan::add(const std::string& ref) {
  const auto [it, fresh] = group_of_ref_.emplace(ref, groups_.size());
  if (fresh) groups_.push_back({ref});
  ++groups_[it->second].pairs;
  ++rows_;
}

void ShardPlan::deal() {
  std::vector<double> pixels(groups_.size(), -1);  // of the reference; -1 = header unreadable
  std::vector<double> known;
  for (std::size_t i = 0; i < groups_.size(); ++i) {
    int w = 0, h = 0;
#ifdef MAD_HAVE_STB
    int c = 0;
    if (!stbi_info(groups_[i].ref.c_str(), &w, &h, &c)) w = h = 0;
#endif
    // Without stb (a build that left BMP/PNM out) every header counts as unreadable: the
    // shards are then dealt by pair counts alone.
    if (w > 0 && h > 0) {
      pixels[i] = static_cast<double>(w) * h;
      known.push_back(pixels[i]);
    }
  }
  double fallback = 1;
  if (!known.empty()) {
    std::nth_element(known.begin(), known.begin() + known.size() / 2, known.end());
    fallback = known[known.size() / 2];
  }
  std::vector<std::size_t> order(groups_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto weight = [&](std::size_t i) {
    return (pixels[i] < 0 ? fallback : pixels[i]) * groups_[i].pairs;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return weight(a) > weight(b); });
  for (std::size_t i : order) {
    const std::size_t lightest = std::min_element(load_.begin(), load_.end()) - load_.begin();
    load_[lightest] += weight(i);
    shard_of_ref_[groups_[i].ref] = static_cast<int>(lightest) + 1;
  }
  groups_.clear();  // only shard_of_ref_ is needed from here on
  group_of_ref_.clear();
}

int ShardPlan::shard_of(const std::string& ref) const {
  const auto it = shard_of_ref_.find(ref);
  if (it == shard_of_ref_.end())
    throw InputError("the pairs list changed while it was read (reference '" + ref +
                     "' was not in it)");
  return it->second;
}

}  // namespace mad::results
