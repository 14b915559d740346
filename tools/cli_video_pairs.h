// `mad video --pairs LIST --out FILE`: many clip pairs, one results row each (issue 40 item 5),
// under `mad score --pairs`'s rules: --resume, --shard I/N, `mad merge` (mad/results/).
// tools/cli_video.cpp registers these options on `mad video` and hands a list's run to
// run_video_pairs; the one-pair command is untouched otherwise.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <string>

namespace mad::cli {

struct VideoPairsArgs {
  std::string list, out, shard;
  bool resume = false;
};

// Registers --pairs, --out, --shard and --resume on mad video's `cmd`.
std::shared_ptr<VideoPairsArgs> add_video_pairs_options(CLI::App& cmd);

// Scores the list of `a`. mad video's own --force, --quiet and --threads apply (read from
// `cmd`); REF and DIST, the per-frame logs and --width/--height/--pixel-format are refused (a
// raw clip's format is the list's columns).
int run_video_pairs(const CLI::App& cmd, const VideoPairsArgs& a);

// Without --pairs: refuses --out, --shard and --resume (they belong to a list's run).
void refuse_video_pairs_options(const CLI::App& cmd);

}  // namespace mad::cli
