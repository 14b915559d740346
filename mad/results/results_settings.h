// The settings a results file was made with, kept beside it in FILE.settings so that --resume
// never mixes scores that differ: the MAD version, the input class, the precision, the backend
// kind and the GPU variants (on the GPU, variants agree to ~1e-12 but not bit for bit), and,
// for `mad eval`, the dataset the rows belong to (its layout, folder and pair count), so that
// one results file never holds two datasets' rows.
//
// The sidecar is a few `key=value` lines under a `# mad-settings 1` line. A results file with
// finished rows and no sidecar (written by an older mad) has unknown settings: --resume is
// refused and --force starts over. A sidecar of an older mad without the dataset keys is
// refused by an eval --resume in the same way.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mad/options.h"

namespace mad::results {

struct RunSettings {
  std::string mad_version, input_class, precision, backend;  // as to_string writes them
  std::string a5_variant, det_variant;                       // "default" when not named
  // --subband-transform: the name given, "default" without it (the stage picks per shape and
  // precision), "none" on the CPU.
  std::string subband_transform;
  // The dataset of a `mad eval` run (empty for `mad score --pairs`, whose rows carry their
  // list's line numbers instead): layout name, absolute folder, pairs listed.
  std::string dataset, dataset_folder, dataset_pairs;
  // `mad eval` with --manifest, --higher-is-better or --lower-is-better: the manifest's absolute
  // path and "higher-is-better" or "lower-is-better" ("" when not given), so that `mad merge`
  // reads the dataset of its shards as they read it.
  std::string dataset_manifest, dataset_direction;
  // "invented" for a dataset of `mad eval --make-synthetic` (synthetic_dataset.h), "" otherwise:
  // its rows' subjective scores measure nothing, and the record says so wherever it travels.
  std::string dataset_scores;
  // `--shard I/N`: "I/N" ("" = the whole list or dataset). `mad score --pairs` then records its
  // list as the dataset "pairs-list", so that `mad merge` can check the shards against it.
  std::string shard;
  // Scoring options of the table (mad/scoring_options.h) whose settings key has no member
  // above: key -> value, written, read and compared like the members.
  std::map<std::string, std::string> more_scoring;
};

// The settings of a run of `options` on the resolved `backend`.
RunSettings run_settings(const ScoreOptions& options, Backend backend);
// Adds the identity of a dataset of `layout` in `folder` with `pairs` pairs.
void set_dataset(RunSettings& settings, const std::string& layout, const std::string& folder,
                 std::size_t pairs);

// FILE.settings for results file FILE.
std::string settings_path(const std::string& results_path);

// The results file `mad eval` writes when --out is not given, in the working folder:
// results_<layout>_<folder name>_<8 hex digits of the folder's absolute path>.csv, so that
// two datasets never share one (and the same dataset finds its file again to resume).
std::string default_results_name(const std::string& layout, const std::string& folder);

// Writes the sidecar of `results_path` (replacing it). Throws InputError when it cannot.
void write_settings(const std::string& results_path, const RunSettings& settings);
// The sidecar's settings; nullopt when there is none. Throws InputError for a malformed one.
std::optional<RunSettings> read_settings(const std::string& results_path);

// Throws InvalidArgument unless the sidecar of `results_path` records `now`: the message names
// the first difference ("results.csv was made with --precision float; this run uses double";
// "results.csv holds the rows of kadid10k in /data/a (1000 pairs); this run reads ...") or
// says the settings are unknown, and how to proceed.
// `force` and `out` are how the front door spells those switches in the advice.
void require_same_settings(const std::string& results_path, const RunSettings& now,
                           const std::string& force = "--force", const std::string& out = "--out");

// Sets the setting recorded under `key` (the sidecar's key: "mad_version", "precision", ...)
// to `value`; throws InvalidArgument for a key the record does not have. A front door that
// names its settings as (key, value) rows (the Python module) fills a RunSettings with it.
void set_setting(RunSettings& settings, const std::string& key, const std::string& value);
// The settings as the sidecar's (key, value) rows, in its order (optional ones left out when
// empty, as the sidecar leaves them out).
std::vector<std::pair<std::string, std::string>> setting_rows(const RunSettings& settings);

// The first setting in which `a` and `b` differ, as "--precision float against double" (the
// dataset as "the list /a (9 pairs) against /b (9 pairs)"); "" when they agree. The shard is
// not compared; an eval dataset's manifest and score direction are.
std::string first_difference(const RunSettings& a, const RunSettings& b);

}  // namespace mad::results
