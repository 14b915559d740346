// One worker of a run (mad/engine/engine_run.h): decodes its share of the jobs ahead on its own
// PairPrefetcher, scores them through its own BatchScorer (on its device when the backend uses
// devices) and hands each finished pair to the run's delivery. What it does differently for a
// backend comes from the backend's traits alone.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "mad/batch_scorer.h"
#include "mad/engine/engine_run.h"
#include "mad/engine/pair_prefetcher.h"

namespace mad {

class PairWorker {
 public:
  // `positions`: the job positions this worker scores, in order.
  PairWorker(EngineRun& run, int index, std::vector<std::size_t> positions);

  // Scores the worker's jobs. An exception is kept as the run's first error (rethrown by
  // score_pairs once every worker has ended) and stops the other workers.
  void run() noexcept;

 private:
  void score_all();
  // Decoding starts first, so it overlaps the device's start (context, plans, graphs).
  std::unique_ptr<PairPrefetcher> start_decoding();
  // Binds this thread to its device and records the device's line in the report.
  void bind_device();
  bool stopping();
  void deliver(std::vector<BatchScorer::Finished> finished);
  void add_figures(const BatchScorer& batch, const PairPrefetcher& prefetcher);

  EngineRun& run_;
  const int index_;
  const std::vector<std::size_t> positions_;
  double decode_wait_seconds_ = 0.0;
};

}  // namespace mad
