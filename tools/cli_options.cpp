#include "tools/cli_options.h"

#include <regex>
#include <string>

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

}  // namespace mad::cli
