// `mad`: score image pairs with MAD, run the preprocessing kernels, benchmark, evaluate.
// main() only wires the subcommands and maps exceptions to the documented exit codes.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>

#include "common/error.h"
#include "tools/cli_commands.h"

int main(int argc, char** argv) {
  CLI::App app{
      "mad: the Most Apparent Distortion image quality metric (Larson & Chandler), "
      "on the CPU and CUDA GPUs"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "mad 0.1.0");
  std::vector<mad::cli::Subcommand> commands = {
      mad::cli::add_score_command(app),
      mad::cli::add_kernel_command(app),
      mad::cli::add_bench_command(app),
      mad::cli::add_eval_command(app),
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? mad::kExitOk : mad::kExitUsage;
  }
  try {
    for (auto& c : commands)
      if (c.app && c.app->parsed()) return c.run();
    return mad::kExitUsage;
  } catch (const mad::Error& e) {
    std::fprintf(stderr, "mad: error: %s\n", e.what());
    return e.exit_code();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mad: internal error: %s\n", e.what());
    return mad::kExitFailure;
  }
}
