// `mad eval`: score an IQA dataset in its published layout and report agreement with the
// subjective scores (datasets/eval_session.h does the work).
#pragma once

#include "tools/cli_commands.h"

namespace mad::cli {

Subcommand add_eval_command(CLI::App& root);  // tools/cli_eval.cpp

}  // namespace mad::cli
