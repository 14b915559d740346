// tools/cli_commands.h add_commands: a command line that names its subcommand registers that one
// alone (the other commands' code stays out of the walk of one pair, docs/architecture.md), and
// every other command line registers them all, so that `mad help`, the suggestions for an unknown
// word and CLI11's messages still see every subcommand.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "tools/cli_commands.h"

namespace mad::cli {
namespace {

std::vector<std::string> registered(std::vector<const char*> argv) {
  CLI::App root{"test", "mad"};
  const std::vector<Subcommand> actions =
      add_commands(root, static_cast<int>(argv.size()), argv.data());
  std::vector<std::string> names;
  for (const CLI::App* sub : root.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(sub->get_name());
  EXPECT_EQ(actions.size(), names.size());
  return names;
}

const std::vector<std::string> kAll = {"score", "kernel", "bench", "eval", "merge", "video"};

TEST(AddCommands, TheNamedSubcommandAloneIsRegistered) {
  EXPECT_EQ(registered({"mad", "score", "ref.png", "dist.png", "--backend", "cuda"}),
            std::vector<std::string>{"score"});
  EXPECT_EQ(registered({"mad", "eval", "data"}), std::vector<std::string>{"eval"});
  EXPECT_EQ(registered({"mad", "video", "--help"}), std::vector<std::string>{"video"});
}

TEST(AddCommands, EveryOtherCommandLineRegistersThemAllInHelpOrder) {
  for (const std::vector<const char*>& argv :
       {std::vector<const char*>{"mad"}, {"mad", "help"}, {"mad", "help", "score"},
        {"mad", "scor", "ref.png"}, {"mad", "--version"}, {"mad", "--help", "score"},
        {"mad", "Score"}}) {
    SCOPED_TRACE(argv.size() > 1 ? argv[1] : "(none)");
    EXPECT_EQ(registered(argv), kAll);
  }
}

}  // namespace
}  // namespace mad::cli
