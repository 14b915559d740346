// Scores a list of pairs with one worker per GPU (or one CPU worker, which itself uses every
// core), each worker with its own mad::Scorer and its own decode-ahead PairPrefetcher.
//
// Jobs should come grouped by reference (datasets::order_by_reference): whole reference groups
// are dealt round-robin to the workers, so each worker still sees a reference's pairs in a row
// and its GPU scorer reuses the reference side between them. Results are handed to the caller
// as they finish, one at a time, in completion order.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "mad/score.h"

namespace mad::datasets {

struct ScoreJob {
  std::size_t entry = 0;  // caller's index, passed back in the outcome
  std::string ref, dist;  // image paths
};

struct RunnerOptions {
  ScoreOptions score;         // backend Auto resolves as in mad::Scorer
  int gpus = 0;               // CUDA workers: 0 = every visible device
  int cpu_workers = 1;        // CPU backend: scorers run side by side (each also splits its
                              // pair over all cores; several help with small images)
  std::size_t lookahead = 4;  // pairs decoded ahead per worker
};

struct PairOutcome {
  std::size_t entry = 0;
  const ScoreResult* result = nullptr;  // null when the pair failed
  std::string error;                    // why it failed (decode error, size mismatch, ...)
  int worker = 0;
};

struct RunnerReport {
  Backend backend = Backend::Cpu;  // resolved
  int workers = 0;
  std::vector<std::string> devices;  // one line per worker (GPU name, or "cpu: N threads")
  std::size_t scored = 0, failed = 0;
  double seconds = 0.0;  // wall time from the first decode to the last result
};

// The resolved backend and worker count for `options` (throws GpuError when --gpus asks for
// more devices than are visible, InvalidArgument for --gpus with the CPU backend or a
// cpu_workers below 1).
RunnerReport plan_workers(const RunnerOptions& options);

// Scores every job. `on_done` is called once per job, never concurrently, from worker threads.
// A GpuError (a broken device would fail every later pair) stops all workers and is rethrown
// after they finish; per-pair input errors are reported through `on_done` and the run goes on.
// `should_stop` (optional) is polled before each pair, under the same lock as `on_done`;
// returning true ends the run early.
RunnerReport score_jobs(const std::vector<ScoreJob>& jobs, const RunnerOptions& options,
                        const std::function<void(const PairOutcome&)>& on_done,
                        const std::function<bool()>& should_stop = {});

}  // namespace mad::datasets
