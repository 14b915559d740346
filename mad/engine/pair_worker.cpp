#include "mad/engine/pair_worker.h"

#include <string>
#include <thread>
#include <utility>

#include "common/allotment.h"
#include "common/gpu_info.h"
#include "mad/devices.h"
#include "mad/engine/pinned_copies.h"
#include "mad/engine/prefetch_plan.h"

namespace mad {

PairWorker::PairWorker(EngineRun& run, int index, std::vector<std::size_t> positions)
    : run_(run), index_(index), positions_(std::move(positions)) {}

void PairWorker::run() noexcept {
  try {
    score_all();
  } catch (...) {
    std::lock_guard<std::mutex> lock(run_.mutex);
    if (!run_.first_error) run_.first_error = std::current_exception();
    run_.stop = true;
  }
}

std::unique_ptr<PairPrefetcher> PairWorker::start_decoding() {
  std::vector<PairPaths> paths;
  for (std::size_t j : positions_) {
    const PairJob& job = run_.jobs[j];
    paths.push_back({job.ref, job.dist, !job.error.empty()});
  }
  const BackendTraits& traits = run_.backend.traits;
  // The CPUs this process is allotted (affinity, cgroup quota), not the machine's.
  const PrefetchDepth depth = prefetch_depth(run_.options, run_.report.workers, traits,
                                             static_cast<std::size_t>(process_allotment().cpus));
  std::function<void(SourceImage&)> prepare_distorted;
  if (depth.pinned_bytes > 0) {
    // Distorted colour images get a page-locked copy on the decoding thread, which the device
    // copies from: the scoring thread stages nothing (mad/engine/pinned_copies.h). The pageable
    // samples are then not read again: their buffer goes back to this decoding thread for its
    // next image (recycle_samples), instead of being unmapped later by the worker and faulted
    // in afresh by a decoder.
    auto pinned = std::make_shared<PinnedCopies>(depth.pinned_bytes);
    prepare_distorted = [pinned](SourceImage& image) {
      pinned->attach(image);
      if (image.pinned_colour) recycle_samples(std::move(image.colour.samples));
    };
  }
  return std::make_unique<PairPrefetcher>(std::move(paths), depth, traits.takes_8bit_samples,
                                          std::move(prepare_distorted));
}

void PairWorker::bind_device() {
  // Consecutive workers on different devices: reference groups are dealt round-robin.
  const int gpus = run_.report.gpus, workers = run_.report.workers;
  const int device = index_ % gpus;
  select_gpu(device);
  const std::string name = gpu_device_description();
  std::lock_guard<std::mutex> lock(run_.mutex);
  run_.report.devices[static_cast<std::size_t>(index_)] =
      "GPU " + std::to_string(device) + ": " + name +
      (workers > gpus ? " (worker " + std::to_string(index_) + ")" : "");
}

bool PairWorker::stopping() {
  std::lock_guard<std::mutex> lock(run_.mutex);  // should_stop sees on_done's effects
  return run_.stop.load() || (run_.should_stop && run_.should_stop());
}

void PairWorker::deliver(std::vector<BatchScorer::Finished> finished) {
  if (finished.empty()) return;
  const double now = run_.seconds();
  for (auto& f : finished) {
    std::lock_guard<std::mutex> lock(run_.mutex);
    WorkerTiming& t = run_.report.worker_timing[static_cast<std::size_t>(index_)];
    if (t.pairs == 0) t.first_seconds = now;
    if (++t.pairs == WorkerTiming::kSteadyFrom) t.steady_from_seconds = now;
    t.last_seconds = now;
    run_.delivery.accept(positions_[f.tag], std::move(f), index_);
  }
}

void PairWorker::score_all() {
  const std::unique_ptr<PairPrefetcher> prefetcher = start_decoding();
  if (run_.backend.traits.uses_devices) bind_device();
  // BatchScorer overlaps consecutive pairs on a device (one pair's upload with the previous
  // one's compute) and reuses the reference side while pairs share a reference.
  BatchScorer batch(run_.score, run_.backend.make(run_.score));
  for (std::size_t i = 0; i < positions_.size(); ++i) {
    if (stopping()) break;
    const auto wait_start = std::chrono::steady_clock::now();
    LoadedPair pair = prefetcher->next();
    decode_wait_seconds_ +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wait_start).count();
    const std::string& listed = run_.jobs[positions_[i]].error;
    const std::string& error = listed.empty() ? pair.error : listed;
    if (!error.empty())
      deliver(batch.submit_failed(i, error));
    else
      deliver(batch.submit(i, pair.ref, pair.dist));
  }
  deliver(batch.drain());
  add_figures(batch, *prefetcher);
}

void PairWorker::add_figures(const BatchScorer& batch, const PairPrefetcher& prefetcher) {
  std::lock_guard<std::mutex> lock(run_.mutex);
  EngineReport& r = run_.report;
  r.decode_wait_seconds += decode_wait_seconds_;
  r.gpu_wait_seconds += batch.gpu_wait_seconds();
  r.decoded_images += prefetcher.decoded_images();
  r.decode_seconds += prefetcher.decode_seconds();
  r.decode_threads += prefetcher.decode_threads();
}

}  // namespace mad
