// score_pairs in named steps: plan the workers from the backend's traits, deal the jobs to them
// by reference, run one PairWorker each (mad/engine/pair_worker.h), then close the report.
// Nothing here knows which backend runs: what differs comes from its traits
// (mad/backends/pair_backend.h).
#include "mad/engine/pair_engine.h"

#include <algorithm>
#include <string>
#include <thread>

#include "common/error.h"
#include "common/parallel.h"
#include "mad/devices.h"
#include "mad/engine/engine_run.h"
#include "mad/engine/pair_worker.h"

namespace mad {
namespace {

// Deals whole runs of equal reference paths to `workers` lists of job positions, round-robin.
std::vector<std::vector<std::size_t>> deal_by_reference(const std::vector<PairJob>& jobs,
                                                        int workers) {
  std::vector<std::vector<std::size_t>> out(static_cast<std::size_t>(workers));
  std::size_t group = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (i > 0 && jobs[i].ref != jobs[i - 1].ref) ++group;
    out[group % out.size()].push_back(i);
  }
  return out;
}

// The scoring options every worker's scorer takes.
ScoreOptions worker_score_options(const EngineOptions& options, const BackendMaker& backend) {
  ScoreOptions score = options.score;
  score.backend = backend.backend;
  // --gpu-memory-limit is the process's on each device: its workers there share it evenly.
  if (backend.traits.uses_devices) score.gpu_memory_shares = options.workers_per_gpu;
  return score;
}

// Host workers: --cpu-workers of them (each scorer also splits its pair over every core).
void plan_host_workers(const EngineOptions& options, const std::string& reason,
                       EngineReport& plan) {
  if (options.gpus > 0)
    throw InvalidArgument("--gpus needs the CUDA backend (this run uses the CPU backend: " +
                          reason + ")");
  if (options.workers_per_gpu > 1)
    throw InvalidArgument("--workers-per-gpu needs the CUDA backend (this run uses the CPU "
                          "backend: " + reason + ")");
  if (options.cpu_workers < 1) throw InvalidArgument("CPU workers must be at least 1");
  plan.workers = options.cpu_workers;
  for (int w = 0; w < plan.workers; ++w)
    plan.devices.push_back("cpu worker " + std::to_string(w) + ": up to " +
                           std::to_string(thread_count()) + " threads");
}

// Device workers: --workers-per-gpu on each of --gpus devices; their lines are filled in as
// each binds to its device.
void plan_device_workers(const EngineOptions& options, EngineReport& plan) {
  const int visible = gpu_count();
  if (options.gpus > visible)
    throw GpuError("--gpus " + std::to_string(options.gpus) + " but " + std::to_string(visible) +
                   " CUDA device(s) are visible");
  plan.gpus = options.gpus > 0 ? options.gpus : std::max(1, visible);
  plan.workers = plan.gpus * options.workers_per_gpu;
  plan.devices.assign(static_cast<std::size_t>(plan.workers), "");
}

// Runs every worker: a lone one on the caller's thread (whose name stays the process's), more
// on threads of their own.
void run_workers(EngineRun& run, const std::vector<std::vector<std::size_t>>& lists) {
  std::vector<PairWorker> workers;
  for (int w = 0; w < run.report.workers; ++w)
    workers.emplace_back(run, w, lists[static_cast<std::size_t>(w)]);
  if (workers.size() == 1) {
    workers[0].run();
    return;
  }
  std::vector<std::thread> threads;
  for (int w = 0; w < run.report.workers; ++w)
    threads.emplace_back([&workers, w] {
      name_this_thread("mad-worker-" + std::to_string(w));
      workers[static_cast<std::size_t>(w)].run();
    });
  for (auto& t : threads) t.join();
}

}  // namespace

double WorkerTiming::steady_pairs_per_second() const {
  if (pairs < 2 * kSteadyFrom || last_seconds <= steady_from_seconds) return 0.0;
  return static_cast<double>(pairs - kSteadyFrom) / (last_seconds - steady_from_seconds);
}

EngineRun::EngineRun(const std::vector<PairJob>& jobs_, const EngineOptions& options_,
                     const BackendMaker& backend_, EngineReport& report_,
                     const std::function<void(const PairOutcome&)>& on_done,
                     const std::function<bool()>& should_stop_)
    : jobs(jobs_),
      options(options_),
      backend(backend_),
      score(worker_score_options(options_, backend_)),
      should_stop(should_stop_),
      start(std::chrono::steady_clock::now()),
      report(report_),
      delivery(jobs_, options_, on_done, report_) {}

double EngineRun::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

EngineReport plan_workers(const EngineOptions& options, const BackendMaker& backend) {
  EngineReport plan;
  plan.backend = backend.backend;
  plan.backend_reason = options.backend_choice.reason;
  if (options.gpus < 0) throw InvalidArgument("--gpus must be 0 (all) or positive");
  if (options.workers_per_gpu < 1) throw InvalidArgument("--workers-per-gpu must be at least 1");
  if (backend.traits.uses_devices)
    plan_device_workers(options, plan);
  else
    plan_host_workers(options, plan.backend_reason, plan);
  return plan;
}

EngineReport plan_workers(const EngineOptions& options) {
  return plan_workers(options, backend_maker(options.backend_choice.backend));
}

EngineReport score_pairs_on(const BackendMaker& backend, const std::vector<PairJob>& jobs,
                            const EngineOptions& options,
                            const std::function<void(const PairOutcome&)>& on_done,
                            const std::function<bool()>& should_stop) {
  EngineReport report = plan_workers(options, backend);
  report.worker_timing.assign(static_cast<std::size_t>(report.workers), WorkerTiming{});
  EngineRun run(jobs, options, backend, report, on_done, should_stop);
  run_workers(run, deal_by_reference(jobs, report.workers));
  report.seconds = run.seconds();
  run.delivery.finish();
  if (run.first_error) std::rethrow_exception(run.first_error);
  return report;
}

EngineReport score_pairs(const std::vector<PairJob>& jobs, const EngineOptions& options,
                         const std::function<void(const PairOutcome&)>& on_done,
                         const std::function<bool()>& should_stop) {
  return score_pairs_on(backend_maker(options.backend_choice.backend), jobs, options, on_done,
                        should_stop);
}

}  // namespace mad
