// `mad`: score image pairs with MAD, run the preprocessing kernels, benchmark, evaluate, score
// clips frame by frame (`mad video`).
// main() only wires the subcommands and maps exceptions to the documented exit codes
// (common/error.h; docs/cli.md "Exit codes"): 2 for the command line, 3 for input, 4 for the
// GPU, 5 when some pairs failed, 1 for an internal error; 3 too when the standard output
// could not be written (tools/cli_stdout.h).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>

#include "common/error.h"
#include "tools/cli_commands.h"
#include "tools/cli_help.h"
#include "tools/cli_stdout.h"

namespace {

int run_mad(int argc, char** argv) {
  CLI::App app{
      "mad: the Most Apparent Distortion image quality metric (Larson & Chandler), "
      "on the CPU and CUDA GPUs",
      "mad"};
  mad::cli::install_help_formatter(app);
  app.require_subcommand(1);
  app.set_version_flag("--version", "mad 0.1.0");
  app.footer("Run 'mad help SUBCOMMAND' or 'mad SUBCOMMAND --help' for its options.\n");
  const std::vector<mad::cli::Subcommand> commands = mad::cli::add_commands(app, argc, argv);
  if (const auto rc = mad::cli::handle_before_parse(app, argc, argv)) return *rc;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (dynamic_cast<const CLI::ExtrasError*>(&e))  // words CLI11 did not expect
      if (const auto rc = mad::cli::explain_unknown_option(app, argc, argv)) return *rc;
    const int rc = app.exit(e);
    return rc == 0 ? mad::kExitOk : mad::kExitUsage;
  }
  try {
    for (const auto& c : commands)
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

}  // namespace

// Every subcommand's output, help text included, is checked once it is all written.
int main(int argc, char** argv) {
  mad::cli::prepare_standard_output();
  return mad::cli::finish_standard_output(run_mad(argc, argv));
}
