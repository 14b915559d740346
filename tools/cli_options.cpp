#include "tools/cli_options.h"

#include <regex>
#include <stdexcept>
#include <string>

#include "common/error.h"

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

void refuse_threads_on_cuda(const CLI::App& cmd, const BackendChoice& choice) {
  if (choice.backend == Backend::Cuda && given(cmd, "--threads"))
    throw InvalidArgument("--threads sets the CPU backend's threads; this run uses the CUDA backend (" +
                          choice.reason + "): drop --threads, or add --backend cpu");
}

void add_scoring_options(CLI::App& cmd, unsigned command) {
  for (const ScoringOption* row_of : scoring_options_of(command)) {
    const ScoringOption& row = *row_of;
    if (row.target == OptionTarget::Run) continue;  // bound to the run's variable: add_run_option
    const std::string help = std::string(row.help) + " [" + row.values + "]";
    // A row without a value name is a flag. The others are unbound: given_scoring_options reads
    // the text, the table's apply parses it (a whole-number range is checked here, as CLI11
    // reads it).
    CLI::Option* opt = *row.value_name ? cmd.add_option(row.cli, help)->type_name(row.value_name)
                                       : cmd.add_flag(row.cli, help);
    opt->group(row.group);
    if (*row.default_value) opt->default_str(row.default_value);
    if (row.max > row.min)
      opt->check(decimal_in_range(row.min, static_cast<unsigned long long>(row.max),
                                  row.range_hint));
  }
}

void add_run_option(CLI::App& cmd, const std::string& name, int& into) {
  const ScoringOption& row = scoring_option(name);
  CLI::Option* opt =
      cmd.add_option(row.cli, into, row.help)
          ->check(decimal_in_range(row.min, static_cast<unsigned long long>(row.max), row.range_hint))
          ->group(row.group);
  if (*row.default_value) opt->capture_default_str();  // else the help describes the default
}

void add_threads_option(CLI::App& cmd, int& into) {
  cmd.add_option("--threads", into, "CPU worker threads (default: the CPUs allotted)")
      ->check(decimal_in_range(1, 65536, "leave --threads out to use every core"))
      ->group("Scoring");
}

GivenOptions given_scoring_options(const CLI::App& cmd) {
  GivenOptions given;
  for (const ScoringOption& row : scoring_options()) {
    const CLI::Option* opt = cmd.get_option_no_throw(row.cli);
    if (opt && opt->count() > 0)
      given.emplace_back(&row, *row.value_name ? opt->results().back() : std::string("true"));
  }
  return given;
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
