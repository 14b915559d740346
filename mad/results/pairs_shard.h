// `mad score --pairs LIST --shard I/N` and `mad eval DIR --shard I/N`: which rows of a pairs list
// (or which pairs of a dataset) shard I of N scores.
//
// Rows that share a reference stay in one shard (its decode is then shared), and shards are
// balanced by pixels, not rows: each reference's group weighs its pairs times the reference's
// width x height (read from the file's header; a file whose header cannot be read weighs as
// the median of those that can, or 1), and groups are dealt heaviest first to the lightest
// shard (ties: the lower shard, then the group first seen in the list). The plan depends on
// the list and the images only, so every shard of a job array computes the same one.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

namespace mad::results {

struct ShardSpec {
  int index = 0;  // 1-based; 0 = the whole list
  int count = 0;
  bool whole() const { return count == 0; }
};

// "I/N" with 1 <= I <= N <= 100000; InvalidArgument (exit 2) otherwise, with the form.
ShardSpec parse_shard(const std::string& text);
std::string to_string(const ShardSpec& shard);  // "I/N", or "" for the whole list

class ShardPlan {
 public:
  // Reads the list (and its references' headers) once. Throws InputError as PairsListReader.
  ShardPlan(const std::string& list_path, int shards);
  // The same plan for pairs whose references are `refs` (one path per pair, in dataset order):
  // `mad eval`'s entries, which share the list's rule.
  ShardPlan(const std::vector<std::string>& refs, int shards);
  // The shard (1-based) of a row whose reference is `ref` (PairRow::ref).
  int shard_of(const std::string& ref) const;
  std::size_t rows() const { return rows_; }
  const std::vector<double>& pixels() const { return load_; }  // per shard

 private:
  struct Group {
    std::string ref;
    std::size_t pairs = 0;
  };
  void add(const std::string& ref);  // one pair, in list order
  void deal();                       // after the last add: weigh the groups and deal them
  std::vector<Group> groups_;
  std::unordered_map<std::string, std::size_t> group_of_ref_;
  std::unordered_map<std::string, int> shard_of_ref_;
  std::vector<double> load_;
  std::size_t rows_ = 0;
};

}  // namespace mad::results
