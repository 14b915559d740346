// What `mad` says to a person who types: help text without CLI11's type and validator noise,
// `mad help [SUBCOMMAND]`, and parse errors that name the word typed and suggest the nearest
// valid one ("unknown option '--thread'; did you mean '--threads'?").
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
class Error;
}  // namespace CLI

namespace mad::cli {

// Installs the help formatter on `root`; call before adding subcommands (they copy it).
void install_help_formatter(CLI::App& root);

// The candidate nearest to `word` by edit distance, when it is near enough to be a likely typo
// (or starts with `word`); nullopt otherwise.
std::optional<std::string> nearest(const std::string& word,
                                   const std::vector<std::string>& candidates);

// Handles what CLI11 cannot say well, before it parses: `mad help [SUB]` (prints the help,
// returns 0), and an unknown subcommand (prints the error with a suggestion, returns 2).
// nullopt when parsing should go on.
std::optional<int> handle_before_parse(CLI::App& root, int argc, char** argv);

// After CLI11 found words it did not expect: an option the chosen subcommand does not have,
// named as typed with a suggestion (returns 2); nullopt when the command line has no such
// option (CLI11's own message then stands). The values of known options are skipped.
std::optional<int> explain_unknown_option(CLI::App& root, int argc, char** argv);

}  // namespace mad::cli
