// One score_pairs call as its workers (mad/engine/pair_worker.h) share it: the jobs, the options,
// the backend, the report they fill in and the delivery they hand pairs to. Also score_pairs on
// a given backend maker, which tests call with fake backends of chosen traits.
#pragma once

#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <mutex>
#include <vector>

#include "mad/backends/pair_backend.h"
#include "mad/engine/delivery.h"
#include "mad/engine/pair_engine.h"

namespace mad {

struct EngineRun {
  EngineRun(const std::vector<PairJob>& jobs, const EngineOptions& options,
            const BackendMaker& backend, EngineReport& report,
            const std::function<void(const PairOutcome&)>& on_done,
            const std::function<bool()>& should_stop);

  // Seconds since the run began.
  double seconds() const;

  const std::vector<PairJob>& jobs;
  const EngineOptions& options;
  const BackendMaker& backend;
  const ScoreOptions score;  // what each worker's scorer takes
  const std::function<bool()>& should_stop;
  const std::chrono::steady_clock::time_point start;
  std::atomic<bool> stop{false};  // a worker failed: the others end after their current pair
  std::mutex mutex;               // guards what follows
  EngineReport& report;
  Delivery delivery;
  std::exception_ptr first_error;
};

// The workers and devices for `options` on a backend with `traits` (plan_workers' rules).
EngineReport plan_workers(const EngineOptions& options, const BackendMaker& backend);

// score_pairs on `backend` rather than the one options.backend_choice names.
EngineReport score_pairs_on(const BackendMaker& backend, const std::vector<PairJob>& jobs,
                            const EngineOptions& options,
                            const std::function<void(const PairOutcome&)>& on_done,
                            const std::function<bool()>& should_stop);

}  // namespace mad
