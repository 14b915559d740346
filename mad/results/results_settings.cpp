#include "mad/results/results_settings.h"

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
#include "mad/variants.h"

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

RunSettings run_settings(const ScoreOptions& o, Backend backend) {
  const bool gpu = backend == Backend::Cuda;
  // The CPU path has one precision and no variants; the CLI refuses them there. Variants are
  // recorded by the name that runs, so "" and the default's name resume each other.
  RunSettings s;
  s.mad_version = to_string(o.version);
  s.input_class = to_string(o.input_class);
  s.precision = gpu ? to_string(o.precision) : "double";
  s.backend = to_string(backend);
  s.a5_variant = gpu ? resolve_a5_variant(o.a5_variant) : "none";
  s.det_variant = gpu ? resolve_detection_variant(o.det_variant) : "none";
  s.subband_transform = !gpu                          ? "none"
                        : o.subband_transform.empty() ? "default"
                                                      : resolve_subband_transform_name(o.subband_transform);
  return s;
}

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
  return rows;
}

void set_setting(RunSettings& s, const std::string& key, const std::string& value) {
  const Field* f = field_of(key);
  if (!f) throw InvalidArgument("'" + key + "' is not a setting of a results file");
  s.*f->member = value;
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
    const Field* f = eq == std::string::npos ? nullptr : field_of(text.substr(0, eq));
    if (f) {
      s.*f->member = text.substr(eq + 1);
      seen[f - kFields] = true;
    } else if (!text.empty()) {
      throw_at(path, lines[k].line, "unknown setting '" + text + "'");
    }
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
  if (a.dataset != b.dataset || a.dataset_folder != b.dataset_folder ||
      a.dataset_pairs != b.dataset_pairs)
    return "the dataset " + dataset_text(a) + " against " + dataset_text(b);
  if (a.dataset_manifest != b.dataset_manifest || a.dataset_direction != b.dataset_direction)
    return "the manifest " + a.dataset_manifest + " " + a.dataset_direction + " against " +
           b.dataset_manifest + " " + b.dataset_direction;
  return "";
}

}  // namespace mad::results
