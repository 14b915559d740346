#include "datasets/eval_runner.h"

#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <thread>

#include "common/error.h"
#include "common/gpu_info.h"
#include "common/parallel.h"
#include "datasets/gpu_select.h"
#include "datasets/pair_prefetcher.h"
#include "mad/batch_scorer.h"

namespace mad::datasets {
namespace {

// Deals whole runs of equal reference paths to `workers` lists, round-robin.
std::vector<std::vector<const ScoreJob*>> deal_by_reference(const std::vector<ScoreJob>& jobs,
                                                            int workers) {
  std::vector<std::vector<const ScoreJob*>> out(static_cast<std::size_t>(workers));
  std::size_t group = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (i > 0 && jobs[i].ref != jobs[i - 1].ref) ++group;
    out[group % out.size()].push_back(&jobs[i]);
  }
  return out;
}

}  // namespace

RunnerReport plan_workers(const RunnerOptions& options) {
  RunnerReport plan;
  plan.backend = resolve_backend(options.score.backend);
  if (options.gpus < 0) throw InvalidArgument("--gpus must be 0 (all) or positive");
  if (plan.backend == Backend::Cpu) {
    if (options.gpus > 0)
      throw InvalidArgument("--gpus needs the CUDA backend (this run uses the CPU backend)");
    if (options.cpu_workers < 1) throw InvalidArgument("CPU workers must be at least 1");
    plan.workers = options.cpu_workers;
    for (int w = 0; w < plan.workers; ++w)
      plan.devices.push_back("cpu worker " + std::to_string(w) + ": up to " +
                             std::to_string(thread_count()) + " threads");
    return plan;
  }
  const int visible = gpu_count();
  if (options.gpus > visible)
    throw GpuError("--gpus " + std::to_string(options.gpus) + " but " + std::to_string(visible) +
                   " CUDA device(s) are visible");
  plan.workers = options.gpus > 0 ? options.gpus : std::max(1, visible);
  return plan;
}

RunnerReport score_jobs(const std::vector<ScoreJob>& jobs, const RunnerOptions& options,
                        const std::function<void(const PairOutcome&)>& on_done,
                        const std::function<bool()>& should_stop) {
  RunnerReport report = plan_workers(options);
  const bool gpu = report.backend == Backend::Cuda;
  if (gpu) report.devices.assign(static_cast<std::size_t>(report.workers), "");
  ScoreOptions score_options = options.score;
  score_options.backend = report.backend;
  const auto lists = deal_by_reference(jobs, report.workers);

  std::mutex mutex;  // serialises on_done, the counters and the first error
  std::exception_ptr first_error;
  std::atomic<bool> stop{false};
  const auto start = std::chrono::steady_clock::now();

  auto work = [&](int w) {
    try {
      if (gpu) {
        select_gpu(w);
        const std::string name = gpu_device_description();
        std::lock_guard<std::mutex> lock(mutex);
        report.devices[static_cast<std::size_t>(w)] = "GPU " + std::to_string(w) + ": " + name;
      }
      // BatchScorer overlaps consecutive pairs on the GPU (one pair's upload with the previous
      // one's compute) and reuses the reference side while pairs share a reference.
      BatchScorer batch(score_options);
      const auto& list = lists[static_cast<std::size_t>(w)];
      std::vector<PairPaths> paths;
      for (const ScoreJob* j : list) paths.push_back({j->ref, j->dist});
      PairPrefetcher prefetcher(std::move(paths), options.lookahead);
      auto deliver = [&](const std::vector<BatchScorer::Finished>& finished) {
        for (const auto& f : finished) {
          PairOutcome outcome;
          outcome.entry = list[f.tag]->entry;
          outcome.worker = w;
          outcome.error = f.error;
          if (f.ok) outcome.result = &f.result;
          std::lock_guard<std::mutex> lock(mutex);
          ++(outcome.result ? report.scored : report.failed);
          on_done(outcome);
        }
      };
      for (std::size_t i = 0; i < list.size(); ++i) {
        {
          std::lock_guard<std::mutex> lock(mutex);  // should_stop sees on_done's effects
          if (stop.load() || (should_stop && should_stop())) break;
        }
        LoadedPair pair = prefetcher.next();
        if (!pair.error.empty())
          deliver(batch.submit_failed(i, pair.error));
        else
          deliver(batch.submit(i, pair.ref, pair.dist));
      }
      deliver(batch.drain());
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex);
      if (!first_error) first_error = std::current_exception();
      stop = true;
    }
  };

  if (report.workers == 1) {
    work(0);
  } else {
    std::vector<std::thread> threads;
    for (int w = 0; w < report.workers; ++w) threads.emplace_back(work, w);
    for (auto& t : threads) t.join();
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (first_error) std::rethrow_exception(first_error);
  return report;
}

}  // namespace mad::datasets
