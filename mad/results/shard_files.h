// The files `mad merge` joins: the --out files of the N shards of one `mad score --pairs LIST
// --shard I/N` or `mad eval DIR --shard I/N` run. The checks every merge makes live here; what
// a merged file holds is pairs_merge.h's for lists and datasets/eval_merge.h's for eval.
#pragma once

#include <string>
#include <vector>

#include "mad/results/results_file.h"
#include "mad/results/results_settings.h"

namespace mad::results {

struct ShardSet {
  RunSettings settings;  // the first file's; every file's agree but for the shard
  int count = 0;         // N
  bool eval = false;     // shards of `mad eval` (else of `mad score --pairs` or `mad video --pairs`)
  bool video = false;    // shards of `mad video --pairs` (rows of ResultsKind::VideoPairs)
};

// Reads the settings records of `paths` and checks that they are shards 1..N of one N, each
// given once, made with the same settings from the same list or dataset. Throws InputError
// naming the file and the difference ("shard 2/3 is missing", "--mad-version 2010 against
// 2011").
ShardSet check_shard_set(const std::vector<std::string>& paths);

// One row of a shard file: its fields (JSON Lines: the line as written), the file and the line.
struct ShardRow {
  std::vector<std::string> fields;
  std::string file;
  int line = 0;
};

// The format of a shard file: `csv_kind` when it begins with that kind's header, JsonLines when
// it begins with a JSON object, and `csv_kind` for an empty file (a shard without rows). Throws
// InputError for anything else.
ResultsKind shard_file_kind(const std::string& path, ResultsKind csv_kind);

// The rows of a shard file of `kind`, in file order. Throws InputError for a file that ends in
// a partly written row (an interrupted shard: resume it first) or a row of the wrong width.
std::vector<ShardRow> read_shard_rows(const std::string& path, ResultsKind kind);

// Throws InvalidArgument (exit 2) when `out` is one of `shards` (the same file however it is
// spelled): writing it would destroy a shard while it is read, --force or not.
void refuse_out_among_shards(const std::string& out, const std::vector<std::string>& shards);

// Throws InvalidArgument (exit 2) when `out` exists and `force` is false.
void refuse_existing_out(const std::string& out, bool force);

// The settings record of the merged file: the shards' without the shard.
void write_merged_settings(const std::string& out, const ShardSet& set);

}  // namespace mad::results
