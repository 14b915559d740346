// The settings a results file was made with, kept beside it in FILE.settings so that --resume
// never mixes scores that differ: the MAD version, the input class, the precision, the backend
// kind and the GPU variants (on the GPU, variants agree to ~1e-12 but not bit for bit).
//
// The sidecar is a few `key=value` lines under a `# mad-settings 1` line. A results file with
// finished rows and no sidecar (written by an older mad) has unknown settings: --resume is
// refused and --force starts over.
#pragma once

#include <optional>
#include <string>

#include "mad/options.h"

namespace mad::datasets {

struct RunSettings {
  std::string mad_version, input_class, precision, backend;  // as to_string writes them
  std::string a5_variant, det_variant;                       // "default" when not named
};

// The settings of a run of `options` on the resolved `backend`.
RunSettings run_settings(const ScoreOptions& options, Backend backend);

// FILE.settings for results file FILE.
std::string settings_path(const std::string& results_path);

// Writes the sidecar of `results_path` (replacing it). Throws InputError when it cannot.
void write_settings(const std::string& results_path, const RunSettings& settings);
// The sidecar's settings; nullopt when there is none. Throws InputError for a malformed one.
std::optional<RunSettings> read_settings(const std::string& results_path);

// Throws InvalidArgument unless the sidecar of `results_path` records `now`: the message names
// the first difference ("results.csv was made with --precision float; this run uses double")
// or says the settings are unknown, and how to proceed.
void require_same_settings(const std::string& results_path, const RunSettings& now);

}  // namespace mad::datasets
