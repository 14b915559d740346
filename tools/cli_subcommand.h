// The frame every `mad` subcommand shares. CLI11 binds each option to a field of the command's
// arguments, and the action reads them after parsing, long after add_*_command has returned: so
// the arguments live on the heap, owned jointly by the options' bindings and the action. That
// rule, the registration and the action's shape are written here once; a command supplies its
// arguments' type, a function that registers its options and a function that runs it.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <string>

#include "tools/cli_commands.h"

namespace mad::cli {

// Registers subcommand `name` (`description` in --help) on `root`; add_options(cmd, args) binds
// its options to a fresh Args. The action returned runs run(cmd, args) once CLI11 has filled
// them, and returns its exit code.
template <class Args>
Subcommand make_subcommand(CLI::App& root, const std::string& name,
                           const std::string& description,
                           void (*add_options)(CLI::App* cmd, Args* args),
                           int (*run)(const CLI::App& cmd, const Args& args)) {
  auto args = std::make_shared<Args>();
  CLI::App* cmd = root.add_subcommand(name, description);
  add_options(cmd, args.get());
  return {cmd, [cmd, args, run] { return run(*cmd, *args); }};
}

}  // namespace mad::cli
