// The one way the CLI tests run the real `mad` binary (MAD_BINARY, set by tests/CMakeLists.txt
// for tools_tests).
#pragma once

#include <string>

#include "tests/support/test_support.h"

namespace mad::test {

// Runs `mad ARGS` through the shell (ARGS quoted by the caller) and captures stdout and stderr
// together.
inline CommandResult run_mad(const std::string& args) {
  return run_command(std::string(MAD_BINARY) + " " + args + " 2>&1");
}

}  // namespace mad::test
