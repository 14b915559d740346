// What a stopped run kept. Ctrl-C (SIGINT) or a scheduler's SIGTERM ends a long `mad score
// --pairs` or `mad eval` run at once; every row written before it is flushed and stays. The
// handler says so: "mad: interrupted: N rows kept in X.csv; run the same command with
// --resume" (N counted in the file itself, complete lines only), then ends the process by the
// same signal, so the shell and job schedulers still see a run killed by it.
#pragma once

#include <string>

namespace mad::cli {

// Reports interrupts against the results file `path` (`header`: its first line names the
// columns and is not a row). An empty path: the rows went to standard output, and the message
// says that they are complete there but cannot be resumed. Call again to point at another file.
void report_interrupts(const std::string& path, bool header);
// Reports interrupts with a message of the run's own (`mad video`: which logs keep the frames
// scored so far): "mad: interrupted: MESSAGE". Replaces a report_interrupts before it.
void report_interrupts_saying(const std::string& message);

}  // namespace mad::cli
