// The standard output as a result channel: what a subcommand prints there (a score, a report,
// a JSON document) is its result, so a write that fails is an error with the system's reason
// (exit 3), never a silent exit 0 (`mad score ... > /dev/full`).
#pragma once

namespace mad::cli {

// Called by main() before anything is printed: a standard output that is not a terminal gets a
// buffer of 1 MiB, so a result is written by the flushes below, which keep the system's reason
// of a failure (a write that fails inside a full small buffer loses it). Terminals keep their
// line buffering.
void prepare_standard_output();

// Flushes the standard output now; throws InputError "cannot write the standard output: REASON"
// when that fails. Subcommands call it where their result must be out before they go on.
void flush_standard_output();

// Called by main() with the subcommand's exit code: flushes and closes the standard output and
// returns 3 (kExitInput) with the message on stderr when anything written to it was lost;
// `rc` otherwise, and also when the run had already failed (it said why; 5, some pairs failed,
// is not such a failure: lost output turns it into 3).
int finish_standard_output(int rc);

}  // namespace mad::cli
