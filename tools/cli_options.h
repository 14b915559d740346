// CLI11 checks for numeric options. CLI11 (2.1) reads integers with strtoll in base 0, so
// "017" would silently mean 15 and "0x10" 16, and reals with strtold, which also takes hex
// floats, "nan" and "inf". These checks accept only what a user means as a plain decimal, and
// run on the text before CLI11 converts it; ranges stay with the library's own validation
// (which names them) unless a subcommand has none.
#pragma once

#include <CLI/CLI.hpp>

namespace mad::cli {

// An optional sign and decimal digits ("15", "-3"; not "017", "0x10", "1e3" or "15.0").
CLI::Validator decimal_integer();
// A plain decimal real ("-0.1", "2", "5e-2", ".5"; not "0x1p-3", "nan" or "inf").
CLI::Validator decimal_number();

}  // namespace mad::cli
