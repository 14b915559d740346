// Scoring options as a front door hands them to the library (mad/scoring_options.h), written in
// tests as (CLI spelling, text) pairs: the tests of the option table and of mad/video's options.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "mad/scoring_options.h"

namespace mad::test {

using OptionTexts = std::vector<std::pair<std::string, std::string>>;

// The rows named by their CLI spelling, each with its text as the command line gave it.
inline GivenOptions given(const OptionTexts& options) {
  GivenOptions out;
  for (const auto& [cli, value] : options) out.emplace_back(&scoring_option(cli), value);
  return out;
}

// `read` (apply_scoring_options, video_options, ...) refuses each of `bad`, an option and its
// text as a command line writes them ("--subsample=0"), given alone, with InvalidArgument.
template <class Read>
void expect_each_refused(Read read, const std::vector<std::string>& bad) {
  for (const std::string& option : bad) {
    const std::size_t eq = option.find('=');
    EXPECT_THROW(read(given({{option.substr(0, eq), option.substr(eq + 1)}})), InvalidArgument)
        << option;
  }
}

}  // namespace mad::test
