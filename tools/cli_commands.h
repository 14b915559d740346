// The `mad` executable's subcommands. Each add_*_command registers its CLI11 subcommand (with
// options bound to its own state) on the root app and returns the action main() runs when that
// subcommand was chosen. Actions return a process exit code (common/error.h) and may throw
// mad::Error, which main() maps to its exit code.
#pragma once

#include <functional>

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

}  // namespace mad::cli
