// Hands a run's finished pairs to the caller one at a time, in job order or as they come, and
// keeps the report's counts and the progress bar. Every call is made under the run's lock
// (mad/engine/engine_run.h).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <vector>

#include "common/progress_bar.h"
#include "mad/batch_scorer.h"
#include "mad/engine/pair_engine.h"

namespace mad {

class Delivery {
 public:
  Delivery(const std::vector<PairJob>& jobs, const EngineOptions& options,
           const std::function<void(const PairOutcome&)>& on_done, EngineReport& report);

  // The pair at job `position`, finished by `worker`.
  void accept(std::size_t position, BatchScorer::Finished finished, int worker);
  // Finishes the bar when it is the run's own.
  void finish();

 private:
  struct Waiting {
    BatchScorer::Finished finished;
    int worker = 0;
  };

  void emit(std::size_t position, const BatchScorer::Finished& f, int worker);

  const std::vector<PairJob>& jobs_;
  const EngineOptions& options_;
  const std::function<void(const PairOutcome&)>& on_done_;
  EngineReport& report_;
  ProgressBar own_bar_;  // unused (drawing nothing) when the caller shares its own
  ProgressBar& bar_;
  std::map<std::size_t, Waiting> waiting_;  // in job order: outcomes ahead of next_
  std::size_t next_ = 0;                    // the job position delivered next (in_order)
};

}  // namespace mad
