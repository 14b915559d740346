// libFuzzer target: the `mad` command line (CLI11 over the subcommands of tools/cli_commands.h,
// wired as tools/mad_main.cpp wires them). The input is the argument list, one argument per
// line. Parse only: no action runs. A parse either succeeds or throws CLI::ParseError, whose
// message (help, version or error text) app.exit() must then format without failing; mad_main
// maps the latter to exit code 0 (help, version) or 2 (usage).
// Seeds: tests/fuzz/corpus/cli/; dictionary: tests/fuzz/cli.dict.
#include <CLI/CLI.hpp>

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_support.h"
#include "tools/cli_commands.h"
#include "tools/cli_eval.h"

namespace {

// Arguments from the input: one per line; at most 64 of them (a command line, not a file).
std::vector<std::string> split_arguments(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args(1, "mad");
  std::string cur;
  for (std::size_t i = 0; i < size && args.size() <= 64; ++i) {
    if (data[i] == '\n') {
      args.push_back(cur);
      cur.clear();
    } else {
      cur += static_cast<char>(data[i]);
    }
  }
  if (!cur.empty() && args.size() <= 64) args.push_back(cur);
  return args;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args = split_arguments(data, size);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  CLI::App app{"mad (fuzzed)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "mad 0.1.0");
  const std::vector<mad::cli::Subcommand> commands = {
      mad::cli::add_score_command(app), mad::cli::add_kernel_command(app),
      mad::cli::add_eval_command(app), mad::cli::add_bench_command(app)};
  try {
    app.parse(static_cast<int>(args.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    std::ostringstream out, err;
    app.exit(e, out, err);
    return 0;
  }
  int chosen = 0;
  for (const auto& c : commands) chosen += c.app && c.app->parsed() ? 1 : 0;
  mad::fuzz::require(chosen == 1, "a successful parse selects exactly one subcommand");
  return 0;
}
