// `mad merge OUT SHARDS...` for the shards of one `mad score --pairs LIST --shard I/N` run:
// every line of the list exactly once, with its pair, joined into OUT in list order and in the
// shards' format (CSV, or JSON Lines: their lines as written). The checks that every merge
// makes (shard_files.h) come first; the merge of `mad eval`'s shards is datasets/eval_merge.h.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "mad/results/shard_files.h"

namespace mad::results {

struct PairsMerge {
  std::size_t rows = 0, failed = 0;  // rows written, of which failed
};

// `set` is check_shard_set(shards) (shards of a list). Throws InputError naming the first line
// or row that breaks the rule above, InvalidArgument for an existing `out` without `force`.
PairsMerge merge_pairs_shards(const std::string& out, const std::vector<std::string>& shards,
                              bool force, const ShardSet& set);

}  // namespace mad::results
