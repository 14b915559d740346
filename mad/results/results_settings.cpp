#include "mad/results/results_settings.h"

#include <array>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "common/error.h"
#include "mad/results/text_file.h"
#include "mad/scoring_options.h"

namespace mad::results {
namespace fs = std::filesystem;
namespace {

constexpr const char* kFirstLine = "# mad-settings 1";

// Each recorded setting: its key in the sidecar, the option that sets it, and its member.
// `optional` keys were added after the first sidecars: an older sidecar lacks them.
struct Field {
  const char* key;
  const char* option;
  std::string RunSettings::*member;
  bool optional = false;
};
const Field kFields[] = {
    {"mad_version", "--mad-version", &RunSettings::mad_version},
    {"input_class", "--input-class", &RunSettings::input_class},
    {"precision", "--precision", &RunSettings::precision},
    {"backend", "--backend", &RunSettings::backend},
    {"a5_variant", "--a5", &RunSettings::a5_variant},
    {"det_variant", "--det-variant", &RunSettings::det_variant},
    {"dataset", "", &RunSettings::dataset, true},
    {"dataset_folder", "", &RunSettings::dataset_folder, true},
    {"dataset_pairs", "", &RunSettings::dataset_pairs, true},
    {"dataset_manifest", "", &RunSettings::dataset_manifest, true},
    {"dataset_direction", "", &RunSettings::dataset_direction, true},
    {"dataset_scores", "", &RunSettings::dataset_scores, true},
    {"shard", "--shard", &RunSettings::shard, true},
    {"subband_transform", "--subband-transform", &RunSettings::subband_transform, true},
};

const Field* field_of(const std::string& key) {
  for (const Field& f : kFields)
    if (key == f.key) return &f;
  return nullptr;
}

std::string dataset_text(const RunSettings& s) {
  return s.dataset + " in " + s.dataset_folder + " (" + s.dataset_pairs + " pairs)";
}

std::string absolute_text(const std::string& folder) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(folder, ec), ec);
  if (ec) p = fs::path(folder);
  p = p.lexically_normal();
  if (!p.has_filename() && p.has_parent_path()) p = p.parent_path();  // "a/b/" is "a/b"
  return p.string();
}

}  // namespace

// --- The scoring options' keys and values: from their table (mad/scoring_options.h). ---

namespace {

// The table's option recorded under `key`, or null.
const ScoringOption* scoring_row_of(const std::string& key) {
  for (const ScoringOption& row : scoring_options())
    if (key == row.settings_key) return &row;
  return nullptr;
}

// The first scoring key kept in more_scoring whose values differ, as (option, a's, b's).
std::optional<std::array<std::string, 3>> more_scoring_difference(const RunSettings& a,
                                                                   const RunSettings& b) {
  for (const ScoringOption& row : scoring_options()) {
    if (!*row.settings_key || field_of(row.settings_key)) continue;
    const auto value = [&](const RunSettings& s) {
      const auto it = s.more_scoring.find(row.settings_key);
      return it == s.more_scoring.end() ? std::string() : it->second;
    };
    if (value(a) != value(b)) return std::array<std::string, 3>{row.cli, value(a), value(b)};
  }
  return std::nullopt;
}

}  // namespace

RunSettings run_settings(const ScoreOptions& o, Backend backend) {
  RunSettings s;
  for (const auto& [key, value] : recorded_settings(o, backend)) {
    if (const Field* f = field_of(key))
      s.*f->member = value;
    else
      s.more_scoring[key] = value;
  }
  return s;
}

// --- end of the table's part ---

void set_dataset(RunSettings& s, const std::string& layout, const std::string& folder,
                 std::size_t pairs) {
  s.dataset = layout;
  s.dataset_folder = absolute_text(folder);
  s.dataset_pairs = std::to_string(pairs);
}

std::string settings_path(const std::string& results_path) {
  return results_path + ".settings";
}

std::string default_results_name(const std::string& layout, const std::string& folder) {
  const std::string abs = absolute_text(folder);
  std::uint64_t h = 14695981039346656037ull;  // FNV-1a: stable across runs and builds
  for (unsigned char c : abs) h = (h ^ c) * 1099511628211ull;
  std::string name = fs::path(abs).filename().string();
  if (name.empty()) name = "root";
  for (char& c : name)  // a name that needs no quoting in a shell
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.') c = '_';
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08x", static_cast<unsigned>(h ^ (h >> 32)));
  return "results_" + layout + "_" + name + "_" + hex + ".csv";
}

std::vector<std::pair<std::string, std::string>> setting_rows(const RunSettings& s) {
  std::vector<std::pair<std::string, std::string>> rows;
  for (const Field& f : kFields)
    if (!f.optional || !(s.*f.member).empty()) rows.emplace_back(f.key, s.*f.member);
  for (const auto& [key, value] : s.more_scoring) rows.emplace_back(key, value);
  return rows;
}

void set_setting(RunSettings& s, const std::string& key, const std::string& value) {
  if (const Field* f = field_of(key))
    s.*f->member = value;
  else if (scoring_row_of(key))
    s.more_scoring[key] = value;
  else
    throw InvalidArgument("'" + key + "' is not a setting of a results file");
}

void write_settings(const std::string& results_path, const RunSettings& s) {
  const std::string path = settings_path(results_path);
  std::ofstream out(path, std::ios::out | std::ios::trunc);
  out << kFirstLine << " (the settings that change a score of " << results_path << ")\n";
  for (const auto& [key, value] : setting_rows(s)) out << key << "=" << value << "\n";
  out.flush();
  if (!out) throw InputError("cannot write '" + path + "': " + std::strerror(errno));
}

std::optional<RunSettings> read_settings(const std::string& results_path) {
  const std::string path = settings_path(results_path);
  if (!std::ifstream(path)) return std::nullopt;
  const auto lines = read_lines(path);
  if (lines.empty() || lines[0].text.rfind(kFirstLine, 0) != 0)
    throw InputError(path + ": not a settings file of mad (no '" + kFirstLine + "' line)");
  RunSettings s;
  std::vector<bool> seen(std::size(kFields), false);
  for (std::size_t k = 1; k < lines.size(); ++k) {
    const std::string& text = lines[k].text;
    const std::size_t eq = text.find('=');
    bool known = false;
    for (std::size_t i = 0; i < std::size(kFields) && eq != std::string::npos; ++i)
      if (text.compare(0, eq, kFields[i].key) == 0 && eq == std::string(kFields[i].key).size()) {
        s.*kFields[i].member = text.substr(eq + 1);
        seen[i] = known = true;
      }
    if (!known && eq != std::string::npos && scoring_row_of(text.substr(0, eq))) {
      s.more_scoring[text.substr(0, eq)] = text.substr(eq + 1);
      known = true;
    }
    if (!known && !text.empty()) throw_at(path, lines[k].line, "unknown setting '" + text + "'");
  }
  for (std::size_t i = 0; i < std::size(kFields); ++i)
    if (!seen[i] && !kFields[i].optional)
      throw InputError(path + ": " + kFields[i].key + " is not recorded");
  return s;
}

void require_same_settings(const std::string& results_path, const RunSettings& now,
                           const std::string& force, const std::string& out) {
  const std::optional<RunSettings> before = read_settings(results_path);
  const std::string proceed =
      ": pass " + force + " to score everything again into it, or write to another " + out;
  if (!before)
    throw InvalidArgument("'" + results_path +
                          "' has no record of the settings it was made with (" +
                          settings_path(results_path) +
                          " is missing: an older mad, or the file was moved without it), so "
                          "--resume cannot check that its scores match this run's" +
                          proceed);
  const auto shown = [](const std::string& v) { return v.empty() ? std::string("(none)") : v; };
  for (const Field& f : kFields)
    if (*f.option && (*before).*f.member != now.*f.member)
      throw InvalidArgument("'" + results_path + "' was made with " + f.option + " " +
                            shown((*before).*f.member) + "; this run uses " +
                            shown(now.*f.member) +
                            ": resume with the same setting, pass " + force +
                            " to replace the file, or write to another " + out);
  if (const auto d = more_scoring_difference(*before, now))
    throw InvalidArgument("'" + results_path + "' was made with " + (*d)[0] + " " +
                          shown((*d)[1]) + "; this run uses " + shown((*d)[2]) +
                          ": resume with the same setting, pass " + force +
                          " to replace the file, or write to another " + out);
  if (now.dataset.empty()) return;
  if (before->dataset.empty())
    throw InvalidArgument("'" + results_path +
                          "' does not record which dataset its rows belong to (made by an "
                          "older mad), so --resume cannot check that they are " +
                          dataset_text(now) + proceed);
  if (before->dataset != now.dataset || before->dataset_folder != now.dataset_folder ||
      before->dataset_pairs != now.dataset_pairs)
    throw InvalidArgument("'" + results_path + "' holds the rows of " + dataset_text(*before) +
                          "; this run reads " + dataset_text(now) +
                          ": --resume never mixes two datasets in one file; write to another "
                          "--out (or leave --out out: each dataset then has its own file)");
}

std::string first_difference(const RunSettings& a, const RunSettings& b) {
  for (const Field& f : kFields)
    if (*f.option && f.member != &RunSettings::shard && a.*f.member != b.*f.member)
      return std::string(f.option) + " " + a.*f.member + " against " + b.*f.member;
  if (const auto d = more_scoring_difference(a, b)) return (*d)[0] + " " + (*d)[1] + " against " + (*d)[2];
  if (a.dataset != b.dataset || a.dataset_folder != b.dataset_folder ||
      a.dataset_pairs != b.dataset_pairs)
    return "the dataset " + dataset_text(a) + " against " + dataset_text(b);
  if (a.dataset_manifest != b.dataset_manifest || a.dataset_direction != b.dataset_direction)
    return "the manifest " + a.dataset_manifest + " " + a.dataset_direction + " against " +
           b.dataset_manifest + " " + b.dataset_direction;
  return "";
}

}  // namespace mad::results
