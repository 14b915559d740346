#include "datasets/results_settings.h"

#include <fstream>
#include <vector>

#include "common/error.h"
#include "datasets/dataset_io.h"
#include "mad/variants.h"

namespace mad::datasets {
namespace {

constexpr const char* kFirstLine = "# mad-settings 1";

// Each recorded setting: its key in the sidecar, the option that sets it, and its member.
struct Field {
  const char* key;
  const char* option;
  std::string RunSettings::*member;
};
const Field kFields[] = {
    {"mad_version", "--mad-version", &RunSettings::mad_version},
    {"input_class", "--input-class", &RunSettings::input_class},
    {"precision", "--precision", &RunSettings::precision},
    {"backend", "--backend", &RunSettings::backend},
    {"a5_variant", "--a5", &RunSettings::a5_variant},
    {"det_variant", "--det-variant", &RunSettings::det_variant},
};

}  // namespace

RunSettings run_settings(const ScoreOptions& o, Backend backend) {
  const bool gpu = backend == Backend::Cuda;
  // The CPU path has one precision and no variants; the CLI refuses them there. Variants are
  // recorded by the name that runs, so "" and the default's name resume each other.
  return {to_string(o.version),
          to_string(o.input_class),
          gpu ? to_string(o.precision) : "double",
          to_string(backend),
          gpu ? resolve_a5_variant(o.a5_variant) : "none",
          gpu ? resolve_detection_variant(o.det_variant) : "none"};
}

std::string settings_path(const std::string& results_path) {
  return results_path + ".settings";
}

void write_settings(const std::string& results_path, const RunSettings& s) {
  const std::string path = settings_path(results_path);
  std::ofstream out(path, std::ios::out | std::ios::trunc);
  out << kFirstLine << " (the settings that change a score of " << results_path << ")\n";
  for (const Field& f : kFields) out << f.key << "=" << s.*f.member << "\n";
  out.flush();
  if (!out) throw InputError("cannot write '" + path + "'");
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
    if (!known && !text.empty()) throw_at(path, lines[k].line, "unknown setting '" + text + "'");
  }
  for (std::size_t i = 0; i < std::size(kFields); ++i)
    if (!seen[i]) throw InputError(path + ": " + kFields[i].key + " is not recorded");
  return s;
}

void require_same_settings(const std::string& results_path, const RunSettings& now) {
  const std::optional<RunSettings> before = read_settings(results_path);
  if (!before)
    throw InvalidArgument("'" + results_path +
                          "' has no record of the settings it was made with (" +
                          settings_path(results_path) +
                          " is missing: an older mad, or the file was moved without it), so "
                          "--resume cannot check that its scores match this run's; pass --force "
                          "to score everything again into it, or write to another --out");
  for (const Field& f : kFields)
    if ((*before).*f.member != now.*f.member)
      throw InvalidArgument("'" + results_path + "' was made with " + f.option + " " +
                            (*before).*f.member + "; this run uses " + now.*f.member +
                            ": resume with the same setting, pass --force to replace the file, "
                            "or write to another --out");
}

}  // namespace mad::datasets
