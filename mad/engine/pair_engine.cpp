#include "mad/engine/pair_engine.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <map>
#include <mutex>
#include <thread>

#include <unistd.h>

#include "common/allotment.h"
#include "common/error.h"
#include "common/gpu_info.h"
#include "common/parallel.h"
#include "common/progress_bar.h"
#include "mad/batch_scorer.h"
#include "mad/devices.h"
#include "mad/engine/pair_prefetcher.h"
#ifdef MAD_HAVE_CUDA
#include "mad/engine/pinned_copies.h"
#endif

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

// Hands finished pairs to the caller one at a time, in job order or as they come, and keeps the
// counts and the progress bar. Every call is made under the engine's lock.
class Delivery {
 public:
  Delivery(const std::vector<PairJob>& jobs, const EngineOptions& options,
           const std::function<void(const PairOutcome&)>& on_done, EngineReport& report)
      : jobs_(jobs),
        options_(options),
        on_done_(on_done),
        report_(report),
        own_bar_(options.shared_progress ? 0 : jobs.size(), "pairs/s",
                 options.shared_progress ? nullptr : options.progress),
        bar_(options.shared_progress ? *options.shared_progress : own_bar_) {}

  void accept(std::size_t position, BatchScorer::Finished finished, int worker) {
    if (!options_.in_order) {
      emit(position, finished, worker);
      return;
    }
    waiting_.emplace(position, Waiting{std::move(finished), worker});
    for (auto it = waiting_.begin(); it != waiting_.end() && it->first == next_;
         it = waiting_.erase(it), ++next_)
      emit(it->first, it->second.finished, it->second.worker);
  }
  void finish() {
    if (&bar_ == &own_bar_) bar_.finish();
  }

 private:
  struct Waiting {
    BatchScorer::Finished finished;
    int worker = 0;
  };

  void emit(std::size_t position, const BatchScorer::Finished& f, int worker) {
    PairOutcome o;
    o.id = jobs_[position].id;
    o.worker = worker;
    o.error = f.error;
    if (f.ok) o.result = &f.result;
    if (o.result && options_.non_finite_fails && !std::isfinite(o.result->mad)) {
      o.result = nullptr;
      o.error = "MAD is not finite";
    }
    ++(o.result ? report_.scored : report_.failed);
    if (!o.result) bar_.clear();
    on_done_(o);
    bar_.tick(o.result == nullptr);
  }

  const std::vector<PairJob>& jobs_;
  const EngineOptions& options_;
  const std::function<void(const PairOutcome&)>& on_done_;
  EngineReport& report_;
  ProgressBar own_bar_;  // unused (drawing nothing) when the caller shares its own
  ProgressBar& bar_;
  std::map<std::size_t, Waiting> waiting_;  // in job order: outcomes ahead of next_
  std::size_t next_ = 0;                    // the job position delivered next (in_order)
};

// Decoding is the CPU side of a GPU run: the cores a GPU worker does not hold (it spins while
// it waits for its GPU) decode, shared among the workers.
PrefetchDepth prefetch_depth(const EngineOptions& options, int workers, bool gpu) {
  PrefetchDepth d;
  const std::size_t budget = options.decode_memory_bytes > 0 ? options.decode_memory_bytes
                                                             : default_decode_memory_bytes();
  d.memory_budget_bytes = budget / static_cast<std::size_t>(std::max(1, workers));
  const auto cores = static_cast<std::size_t>(process_allotment().cpus);  // not the machine's
  const auto shared = static_cast<std::size_t>(std::max(1, workers));
  if (options.lookahead > 0) {
    d.max_pairs = d.initial_pairs = options.lookahead;
  } else {
    d.max_pairs = std::max<std::size_t>(4, 2 * cores / shared);
    // The workers' pools together have one thread a core (more would only take turns).
    const std::size_t free_cores = gpu && cores > 2 * shared ? cores - shared : cores;
    d.threads = std::max<std::size_t>(1, std::min(d.max_pairs, free_cores / shared));
  }
  // Asked for: exactly that many (PairPrefetcher's 0 means one per pair in flight).
  if (options.decode_threads > 0) d.threads = options.decode_threads;
  return d;
}

}  // namespace

std::size_t default_decode_memory_bytes() {
  constexpr std::size_t kGiB = std::size_t{1} << 30;
  // The process's memory: a cgroup's memory.max where it is below the host's (a Slurm job or a
  // container), which kills the process past it.
  const std::size_t memory = process_allotment().memory_bytes;
  if (memory == 0) return kGiB;
  // At most a quarter of it: 1 GiB of a 2 GiB container would leave too little to score in.
  return std::min(std::clamp(memory / 16, kGiB, 8 * kGiB), memory / 4);
}

double WorkerTiming::steady_pairs_per_second() const {
  if (pairs < 2 * kSteadyFrom || last_seconds <= steady_from_seconds) return 0.0;
  return static_cast<double>(pairs - kSteadyFrom) / (last_seconds - steady_from_seconds);
}

EngineReport plan_workers(const EngineOptions& options) {
  EngineReport plan;
  const BackendChoice choice =
      options.backend_choice ? *options.backend_choice : choose_backend(options.score.backend);
  plan.backend = choice.backend;
  plan.backend_reason = choice.reason;
  if (options.gpus < 0) throw InvalidArgument("--gpus must be 0 (all) or positive");
  if (options.workers_per_gpu < 1) throw InvalidArgument("--workers-per-gpu must be at least 1");
  if (plan.backend == Backend::Cpu) {
    if (options.gpus > 0)
      throw InvalidArgument(
          "--gpus needs the CUDA backend (this run uses the CPU backend: " + choice.reason + ")");
    if (options.workers_per_gpu > 1)
      throw InvalidArgument(
          "--workers-per-gpu needs the CUDA backend (this run uses the CPU "
          "backend: " +
          choice.reason + ")");
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
  plan.gpus = options.gpus > 0 ? options.gpus : std::max(1, visible);
  plan.workers = plan.gpus * options.workers_per_gpu;
  return plan;
}

EngineReport score_pairs(const std::vector<PairJob>& jobs, const EngineOptions& options,
                         const std::function<void(const PairOutcome&)>& on_done,
                         const std::function<bool()>& should_stop) {
  EngineReport report = plan_workers(options);
  const bool gpu = report.backend == Backend::Cuda;
  if (gpu) report.devices.assign(static_cast<std::size_t>(report.workers), "");
  ScoreOptions score_options = options.score;
  score_options.backend = report.backend;
  // --gpu-memory-limit is the process's on each GPU: its workers there share it evenly.
  score_options.gpu_memory_shares = options.workers_per_gpu;
  const auto lists = deal_by_reference(jobs, report.workers);

  std::mutex mutex;  // serialises delivery, the counters and the first error
  Delivery delivery(jobs, options, on_done, report);
  std::exception_ptr first_error;
  std::atomic<bool> stop{false};
  const auto start = std::chrono::steady_clock::now();
  report.worker_timing.assign(static_cast<std::size_t>(report.workers), WorkerTiming{});

  auto work = [&](int w) {
    try {
      // Decoding starts first, so it overlaps the device's start (context, plans, graphs).
      const auto& list = lists[static_cast<std::size_t>(w)];
      std::vector<PairPaths> paths;
      for (std::size_t j : list)
        paths.push_back({jobs[j].ref, jobs[j].dist, !jobs[j].error.empty()});
      PrefetchDepth depth = prefetch_depth(options, report.workers, gpu);
      std::function<void(SourceImage&)> prepare_distorted;
#ifdef MAD_HAVE_CUDA
      // Distorted colour images get a page-locked copy on the decoding thread, which the GPU
      // copies from: the scoring thread stages nothing (mad/engine/pinned_copies.h).
      std::shared_ptr<PinnedCopies> pinned;
      if (gpu) {
        // At most the decoding budget, and never more than 256 MiB of page-locked memory
        // (KADID-sized images need ~25 MiB; 10 4K images fit); the depth stays within it, but
        // at least 16 pairs (PrefetchDepth::pinned_bytes). Larger pools cost more than they
        // save, one H200 host, eval-goal's 4K set (issue 26): 512 MiB (21 4K images) took double
        // on two GPUs from 122 to 115 pairs/s (each worker's pool grows by cudaMallocHost calls
        // at its start) for no float gain; 2 GiB with 64 images ahead took float on one GPU from
        // 155 to 138 (each image's copy also costs its decoding thread 25 MB of copying).
        depth.pinned_bytes =
            std::min<std::size_t>(depth.memory_budget_bytes, std::size_t{256} << 20);
        pinned = std::make_shared<PinnedCopies>(depth.pinned_bytes);
        // With a page-locked copy the pageable samples are not read again: their buffer goes
        // back to this decoding thread for its next image (recycle_samples), instead of being
        // unmapped later by the worker and faulted in afresh by a decoder.
        prepare_distorted = [pinned](SourceImage& image) {
          pinned->attach(image);
          if (image.pinned_colour) recycle_samples(std::move(image.colour.samples));
        };
      }
#endif
      PairPrefetcher prefetcher(std::move(paths), depth, /*keep_8bit=*/gpu,
                                std::move(prepare_distorted));
      if (gpu) {
        // Consecutive workers on different devices: reference groups are dealt round-robin.
        const int device = w % report.gpus;
        select_gpu(device);
        const std::string name = gpu_device_description();
        std::lock_guard<std::mutex> lock(mutex);
        report.devices[static_cast<std::size_t>(w)] =
            "GPU " + std::to_string(device) + ": " + name +
            (report.workers > report.gpus ? " (worker " + std::to_string(w) + ")" : "");
      }
      // BatchScorer overlaps consecutive pairs on the GPU (one pair's upload with the previous
      // one's compute) and reuses the reference side while pairs share a reference. Its thread
      // spins while it waits for the GPU (CUDA's default): blocking on the GPU's interrupt
      // instead was measured slower on KADID-10k's shape (3369 against 4554 pairs/s in float,
      // H100 host, 2026-11-25), though spinning takes a core from the decoding pool.
      BatchScorer batch(score_options);
      auto deliver = [&](std::vector<BatchScorer::Finished> finished) {
        if (finished.empty()) return;
        const double now =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        for (auto& f : finished) {
          std::lock_guard<std::mutex> lock(mutex);
          WorkerTiming& t = report.worker_timing[static_cast<std::size_t>(w)];
          if (t.pairs == 0) t.first_seconds = now;
          if (++t.pairs == WorkerTiming::kSteadyFrom) t.steady_from_seconds = now;
          t.last_seconds = now;
          delivery.accept(list[f.tag], std::move(f), w);
        }
      };
      double waited = 0.0;  // this worker's time blocked on decoding
      for (std::size_t i = 0; i < list.size(); ++i) {
        {
          std::lock_guard<std::mutex> lock(mutex);  // should_stop sees on_done's effects
          if (stop.load() || (should_stop && should_stop())) break;
        }
        const auto wait_start = std::chrono::steady_clock::now();
        LoadedPair pair = prefetcher.next();
        waited +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - wait_start).count();
        const std::string& error = jobs[list[i]].error.empty() ? pair.error : jobs[list[i]].error;
        if (!error.empty())
          deliver(batch.submit_failed(i, error));
        else
          deliver(batch.submit(i, pair.ref, pair.dist));
      }
      deliver(batch.drain());
      std::lock_guard<std::mutex> lock(mutex);
      report.decode_wait_seconds += waited;
      report.gpu_wait_seconds += batch.gpu_wait_seconds();
      report.decoded_images += prefetcher.decoded_images();
      report.decode_seconds += prefetcher.decode_seconds();
      report.decode_threads += prefetcher.decode_threads();
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
    for (int w = 0; w < report.workers; ++w)
      threads.emplace_back([&work, w] {
        // A lone worker runs on the caller's thread, whose name stays the process's.
        name_this_thread("mad-worker-" + std::to_string(w));
        work(w);
      });
    for (auto& t : threads) t.join();
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  delivery.finish();
  if (first_error) std::rethrow_exception(first_error);
  return report;
}

}  // namespace mad
