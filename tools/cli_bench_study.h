// `mad bench --list-studies` and `mad bench --study NAME[,NAME...]|all` (issue 11): the seeds'
// experiments re-run with the registered variants (tools/bench/study.h). Called by
// tools/cli_bench.cpp when either option is given.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace mad::cli {

struct StudyCliArgs {
  std::string studies;  // --study
  bool list = false;    // --list-studies
  bool quick = false;
  std::string format = "table", html;
};

// Refuses (InvalidArgument, exit 2) every option of `bench` that does not apply to studies,
// then lists or runs them; returns the exit code.
int run_study_command(const CLI::App& bench, const StudyCliArgs& args);

}  // namespace mad::cli
