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

// Why a run uses the CPU, as the end of a sentence: "--backend cpu was given", "no CUDA device
// was found" or "this build has no CUDA backend".
std::string why_cpu(const BackendChoice& choice);

// True when the user asked for something only the CUDA backend does: --precision float, --a5,
// --det-variant or --gpu-memory-limit.
bool gpu_option_given(const CLI::App& cmd, Precision precision);

// The options that choose how MAD scores, shared by `mad score` and `mad eval`, as given.
struct ScoringArgs {
  std::string backend = "auto", version = "2011", input_class = "auto", precision = "double";
  std::string a5, det_variant, subband_transform, gpu_memory_limit;  // the GPU-only ones
};
// The GPU-only options' help lines: each subcommand words them for its own --help.
struct GpuOptionHelp {
  std::string a5;
  std::string det_variant;
  std::string gpu_memory_limit;
};
// Registers --backend, --mad-version, --input-class, --precision, then --a5, --det-variant and
// --gpu-memory-limit on `cmd`: one place for their names and values (the GPU-only names are
// the ones gpu_option_given() and refuse_gpu_options_on_cpu() look for).
void add_scoring_options(CLI::App& cmd, ScoringArgs& into, const GpuOptionHelp& gpu_help);
// --bootstrap N and --seed S of the statistics (`mad eval`, `mad merge` of eval shards), in
// option group `group`, their defaults those of `resamples` and `seed` as passed.
void add_statistics_options(CLI::App& cmd, int& resamples, std::uint64_t& seed,
                            const std::string& group);
// The score options they select; InvalidArgument (exit 2) names a bad value.
ScoreOptions to_score_options(const ScoringArgs& args);

// The GPU-only options of `mad score` and `mad eval`: refused (InvalidArgument, exit 2) when
// the run uses the CPU, each with why the CPU runs and what to do. --precision double is the
// CPU's own precision and passes.
void refuse_gpu_options_on_cpu(const CLI::App& cmd, const BackendChoice& choice,
                               Precision precision);

}  // namespace mad::cli
