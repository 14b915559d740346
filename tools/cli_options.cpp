#include "tools/cli_options.h"

#include <regex>
#include <stdexcept>
#include <string>

#include "common/error.h"
#include "mad/memory_limits.h"

namespace mad::cli {
namespace {

CLI::Validator matching(const std::regex& pattern, const std::string& what) {
  return CLI::Validator(
      [pattern, what](std::string& text) -> std::string {
        if (std::regex_match(text, pattern)) return {};
        return "'" + text + "' is not " + what;
      },
      what);
}

}  // namespace

CLI::Validator decimal_integer() {
  // A leading zero is refused rather than read as octal or as decimal: "017" is ambiguous.
  static const std::regex pattern("[-+]?(0|[1-9][0-9]*)");
  return matching(pattern, "a decimal integer");
}

CLI::Validator decimal_number() {
  static const std::regex pattern("[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?");
  return matching(pattern, "a decimal number");
}

CLI::Validator decimal_in_range(long long min, unsigned long long max, const std::string& hint) {
  const std::string range = "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
  const CLI::Validator decimal = decimal_integer();
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        const std::string not_decimal = decimal(text);
        if (!not_decimal.empty()) return not_decimal;
        bool inside = false;
        try {
          if (text[0] == '-') {
            inside = min < 0 && std::stoll(text) >= min;
          } else {
            const unsigned long long v = std::stoull(text);
            inside = v <= max && (min <= 0 || v >= static_cast<unsigned long long>(min));
          }
        } catch (const std::out_of_range&) {
        }
        if (inside) return {};
        return "'" + text + "' is outside " + range + (hint.empty() ? "" : ": " + hint);
      },
      "INT in " + range);
}

bool given(const CLI::App& cmd, const std::string& name) {
  const CLI::Option* opt = cmd.get_option_no_throw(name);
  return opt && opt->count() > 0;
}

std::string why_cpu(const BackendChoice& choice) {
  if (choice.requested) return "--backend cpu was given";
  return choice.compiled ? "no CUDA device was found" : "this build has no CUDA backend";
}

namespace {

// The options that only the CUDA backend honours, and what each does there.
struct GpuOnlyOption {
  const char* name;
  const char* what;
};
constexpr GpuOnlyOption kGpuOnlyOptions[] = {{"--a5", "picks a GPU kernel"},
                                             {"--det-variant", "picks a GPU kernel"},
                                             {"--subband-transform", "picks a GPU transform"},
                                             {"--gpu-memory-limit", "limits GPU memory"}};

}  // namespace

bool gpu_option_given(const CLI::App& cmd, Precision precision) {
  if (precision == Precision::Float) return true;
  for (const auto& o : kGpuOnlyOptions)
    if (given(cmd, o.name)) return true;
  return false;
}

void refuse_gpu_options_on_cpu(const CLI::App& cmd, const BackendChoice& choice,
                               Precision precision) {
  if (choice.backend != Backend::Cpu) return;
  const std::string because = "; this run uses the CPU because " + why_cpu(choice);
  const std::string or_gpu = choice.requested  ? ", or use --backend cuda on a machine with a GPU"
                             : choice.compiled ? ", or run where a CUDA device is visible"
                                               : ", or use a build with the CUDA backend";
  if (precision == Precision::Float)
    throw InvalidArgument("--precision float needs the CUDA backend" + because +
                          " (the CPU computes in double: drop --precision float" + or_gpu + ")");
  for (const auto& o : kGpuOnlyOptions)
    if (given(cmd, o.name))
      throw InvalidArgument(std::string(o.name) + " " + o.what + " and needs the CUDA backend" +
                            because + " (drop " + o.name + or_gpu + ")");
}

void add_scoring_options(CLI::App& cmd, ScoringArgs& into, const GpuOptionHelp& gpu_help) {
  cmd.add_option("--backend", into.backend, "auto | cpu | cuda")
      ->capture_default_str()
      ->group("Scoring");
  cmd.add_option("--mad-version", into.version,
                 "2011 (x200 on d_detect, the final release) | 2010 (April 2010)")
      ->capture_default_str()
      ->group("Scoring");
  cmd.add_option("--input-class", into.input_class,
                 "auto | uint8 | double (uint8: 255 takes the luminance of 254, as the original "
                 "on imread arrays)")
      ->capture_default_str()
      ->group("Scoring");
  cmd.add_option("--precision", into.precision, "GPU arithmetic: double (faithful) | float (fast)")
      ->capture_default_str()
      ->group("Scoring");
  cmd.add_option("--a5", into.a5, gpu_help.a5)->type_name("VARIANT")->group("GPU only");
  cmd.add_option("--det-variant", into.det_variant, gpu_help.det_variant)
      ->type_name("VARIANT")
      ->group("GPU only");
  cmd.add_option("--subband-transform", into.subband_transform,
                 "fused | cufft: how the appearance stage forms its subbands (default: fused "
                 "in float where its CTAs fit 96 KiB (measured no slower), else cufft; fused "
                 "refuses sides with a prime factor above 5); scores agree within 1e-12")
      ->type_name("NAME")
      ->group("GPU only");
  cmd.add_option("--gpu-memory-limit", into.gpu_memory_limit, gpu_help.gpu_memory_limit)
      ->type_name("SIZE")
      ->group("GPU only");
}

ScoreOptions to_score_options(const ScoringArgs& args) {
  ScoreOptions o;
  o.backend = parse_backend(args.backend);
  o.version = parse_mad_version(args.version);
  o.input_class = parse_input_class(args.input_class);
  o.precision = parse_precision(args.precision);
  o.a5_variant = args.a5;
  o.det_variant = args.det_variant;
  o.subband_transform = args.subband_transform;
  if (!args.gpu_memory_limit.empty()) o.gpu_memory_limit = parse_memory_size(args.gpu_memory_limit);
  return o;
}

void add_statistics_options(CLI::App& cmd, int& resamples, std::uint64_t& seed,
                            const std::string& group) {
  cmd.add_option("--bootstrap", resamples, "Bootstrap resamples (by reference image)")
      ->capture_default_str()
      ->check(decimal_in_range(1, 10000000, "1000 is the default"))
      ->group(group);
  cmd.add_option("--seed", seed, "Bootstrap seed")
      ->capture_default_str()
      ->check(decimal_in_range(0, std::numeric_limits<std::uint64_t>::max(), "any 64-bit seed"))
      ->group(group);
}

}  // namespace mad::cli
