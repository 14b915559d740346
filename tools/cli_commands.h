// The `mad` executable's subcommands. Each add_*_command registers its CLI11 subcommand (with
// options bound to its own state) on the root app and returns the action main() runs when that
// subcommand was chosen. Actions return a process exit code (common/error.h) and may throw
// mad::Error, which main() maps to its exit code.
#pragma once

#include <cstring>
#include <functional>
#include <vector>

namespace CLI {
class App;
}

namespace mad::cli {

using CommandAction = std::function<int()>;

struct Subcommand {
  CLI::App* app = nullptr;
  CommandAction run;
};

Subcommand add_score_command(CLI::App& root);   // tools/cli_score.cpp
Subcommand add_kernel_command(CLI::App& root);  // tools/cli_kernel.cpp
Subcommand add_bench_command(CLI::App& root);   // tools/cli_bench.cpp
Subcommand add_eval_command(CLI::App& root);    // tools/cli_eval.cpp
Subcommand add_merge_command(CLI::App& root);   // tools/cli_merge.cpp
Subcommand add_video_command(CLI::App& root);   // tools/cli_video.cpp

// Every subcommand, in the order `mad help` lists them.
struct CommandEntry {
  const char* name;
  Subcommand (*add)(CLI::App& root);
};
inline constexpr CommandEntry kCommands[] = {
    {"score", add_score_command}, {"kernel", add_kernel_command}, {"bench", add_bench_command},
    {"eval", add_eval_command},   {"merge", add_merge_command},   {"video", add_video_command},
};

// Registers on `root` the subcommand that the word right after `mad` names, and no other: a
// command then builds only its own options and runs none of the others' code (the walk of one
// pair, docs/architecture.md). Anything else (`mad help`, an unknown word, options before the
// subcommand, nothing) registers them all, for the help, the suggestions and CLI11's own
// messages, which list or search every subcommand.
inline std::vector<Subcommand> add_commands(CLI::App& root, int argc, const char* const* argv) {
  const char* word = argc > 1 ? argv[1] : "";
  for (const CommandEntry& c : kCommands)
    if (std::strcmp(word, c.name) == 0) return {c.add(root)};
  std::vector<Subcommand> all;
  for (const CommandEntry& c : kCommands) all.push_back(c.add(root));
  return all;
}

}  // namespace mad::cli
