// CLI11 checks for numeric options. CLI11 (2.1) reads integers with strtoll in base 0, so
// "017" would silently mean 15 and "0x10" 16, and reals with strtold, which also takes hex
// floats, "nan" and "inf". These checks accept only what a user means as a plain decimal, and
// run on the text before CLI11 converts it; ranges stay with the library's own validation
// (which names them) unless a subcommand has none.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "mad/score.h"
#include "mad/scoring_options.h"

namespace mad::cli {

// An optional sign and decimal digits ("15", "-3"; not "017", "0x10", "1e3" or "15.0").
CLI::Validator decimal_integer();
// A plain decimal real ("-0.1", "2", "5e-2", ".5"; not "0x1p-3", "nan" or "inf").
CLI::Validator decimal_number();
// A decimal integer (as decimal_integer) in [min, max]; outside, the message gives the range and
// `hint` (what to do instead, e.g. "leave it out to use every core").
CLI::Validator decimal_in_range(long long min, unsigned long long max, const std::string& hint);

// True when the user gave option `name` (e.g. "--threads") to `cmd`.
bool given(const CLI::App& cmd, const std::string& name);
// Refuses --threads (the CPU backend's threads) when `cmd` was given it and `choice` runs on
// CUDA: InvalidArgument (exit 2) saying why CUDA runs and what to do. The one wording of
// `mad score` and `mad video`.
void refuse_threads_on_cuda(const CLI::App& cmd, const BackendChoice& choice);

// Registers the table's options (mad/scoring_options.h) that `command` (one CommandBits bit)
// takes, run options aside, on `cmd`: --backend, --mad-version, --input-class, --precision, the
// GPU variants, --gpu-memory-limit, ... and for `mad video` its Video and Input rows, with the
// table's help, group and default. given_scoring_options reads what the user gave.
void add_scoring_options(CLI::App& cmd, unsigned command = kScoreCommand);
// Registers the table's run option `name` ("--gpus") on `cmd`, bound to `into`, with its range.
void add_run_option(CLI::App& cmd, const std::string& name, int& into);
// --threads N, the CPU backend's threads (common/parallel.h's set_thread_count), bound to
// `into`, in help group "Scoring": one wording and range for every command that takes it.
void add_threads_option(CLI::App& cmd, int& into);
// The table's options given on `cmd`, with their text, in table order.
GivenOptions given_scoring_options(const CLI::App& cmd);
// An option whose value is a file's path, shown as FILE in help group `group` (never empty:
// CLI11 hides the options of the empty group).
template <class T>
CLI::Option* add_file_option(CLI::App& cmd, const std::string& name, T& into,
                             const std::string& help, const std::string& group) {
  return cmd.add_option(name, into, help)->type_name("FILE")->group(group);
}

// --bootstrap N and --seed S of the statistics (`mad eval`, `mad merge` of eval shards), in
// option group `group`, their defaults those of `resamples` and `seed` as passed.
void add_statistics_options(CLI::App& cmd, int& resamples, std::uint64_t& seed,
                            const std::string& group);

}  // namespace mad::cli
