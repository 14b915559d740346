// The engine that scores many pairs, behind both `mad score --pairs` and `mad eval`: one worker
// per GPU (or CPU workers, each of which itself uses every core), each decoding ahead with its
// own PairPrefetcher and scoring through its own BatchScorer (overlapped slots, reference side
// reused while pairs share a reference, spec §11). Outcomes reach the caller one at a time,
// never concurrently, in job order or in completion order, with a progress bar.
//
// Jobs should come grouped by reference: whole runs of one reference path are dealt
// round-robin to the workers, so each worker still sees a reference's pairs in a row.
#pragma once

#include <cstddef>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "common/progress_bar.h"
#include "mad/score.h"

namespace mad {

struct PairJob {
  std::size_t id = 0;     // caller's index, passed back in the outcome
  std::string ref, dist;  // image paths
  std::string error;      // non-empty: failed already (e.g. a malformed list row); delivered
                          // in its place with this error, nothing decoded
};

struct EngineOptions {
  // The run's backend, chosen once where the command starts (choose_backend): the engine and
  // its scorers choose nothing again.
  explicit EngineOptions(BackendChoice choice) : backend_choice(std::move(choice)) {}
  BackendChoice backend_choice;
  ScoreOptions score;  // score.backend is not read: backend_choice is the run's backend
  int gpus = 0;        // CUDA devices used: 0 = every visible device
  // CUDA backend: workers sharing each device, each with its own scorer, slots and host
  // thread. With more than one, a pair's host work (staging, launching, collecting,
  // delivering) runs beside another worker's, and their pairs overlap on the device.
  int workers_per_gpu = 1;
  int cpu_workers = 1;  // CPU backend: scorers run side by side (each also splits its
                        // pair over all cores; several help with small images)
  // Pairs decoded ahead per worker. 0: enough to keep every core decoding (twice the
  // allotted CPUs, common/allotment.h, shared among the workers, at least 4), fewer when large pairs would
  // exceed decode_memory_bytes (PrefetchDepth).
  std::size_t lookahead = 0;
  // Decoding threads per worker (`mad eval --decode-threads`), exactly. 0: the cores the GPU
  // workers do not hold (a CPU run: all cores), shared among the workers, at most as many as
  // pairs may be in flight.
  std::size_t decode_threads = 0;
  // Host bytes the decoded pairs ahead may take, over all workers. 0: 1/16 of the process's
  // memory, between 1 and 8 GiB (default_decode_memory_bytes).
  std::size_t decode_memory_bytes = 0;
  // Deliver outcomes in job order (a later job's outcome waits for the earlier ones). Off:
  // in completion order. With one worker both are the job order.
  bool in_order = false;
  // A non-finite MAD is delivered as a failed pair ("MAD is not finite").
  bool non_finite_fails = false;
  // Progress bar over all jobs (drawn only on a terminal); null: none. It is cleared before a
  // failed outcome is delivered, so the caller may print the failure.
  std::FILE* progress = nullptr;
  // A caller's bar to tick instead (one bar over several score_pairs calls, e.g. a long list
  // scored in chunks); `progress` is then unused and the caller finishes the bar.
  ProgressBar* shared_progress = nullptr;
};

struct PairOutcome {
  std::size_t id = 0;
  const ScoreResult* result = nullptr;  // null when the pair failed; valid during the call
  std::string error;                    // why it failed (decode error, size mismatch, ...)
  int worker = 0;
};

// When one worker's pairs came back from its scorer, on the run's clock (seconds since
// score_pairs began): its start (the CUDA context, plans and graphs, the first decodes, the
// slots filling) and its steady rate apart, which the run's one rate mixes (issue 26: two GPUs
// against one on a short set of large pairs).
struct WorkerTiming {
  // Steady from this many finished pairs on: past the slots' filling and the first captures.
  static constexpr std::size_t kSteadyFrom = 32;
  std::size_t pairs = 0;             // outcomes this worker's scorer returned, failed ones too
  double first_seconds = 0.0;        // at its first
  double steady_from_seconds = 0.0;  // at its kSteadyFrom-th (0 until then)
  double last_seconds = 0.0;         // at its last
  // Pairs per second after its kSteadyFrom-th; 0 when it returned fewer than 2 kSteadyFrom
  // (too few to tell a rate from the start).
  double steady_pairs_per_second() const;
};

struct EngineReport {
  Backend backend = Backend::Cpu;  // resolved
  std::string backend_reason;      // why (BackendChoice::reason)
  int workers = 0;
  int gpus = 0;                        // CUDA devices used (workers / workers_per_gpu)
  std::vector<std::string> devices;    // one line per worker (GPU name, or "cpu: N threads")
  std::size_t scored = 0, failed = 0;  // outcomes delivered
  double seconds = 0.0;                // wall time from the first decode to the last outcome
  // Time the workers spent waiting for a decoded pair, summed over workers: near `seconds`
  // times the workers, decoding is what limits the run; near 0, scoring is.
  double decode_wait_seconds = 0.0;
  // Time the workers were blocked on the GPU (collecting a pair it had not finished), summed:
  // near `seconds` times the workers, the GPU is what limits the run. 0 on the CPU backend.
  // What is left of a worker's time is its own host work (staging, launching, delivering).
  double gpu_wait_seconds = 0.0;
  // Images decoded, the time their decoding took summed over the decoding threads, and those
  // threads (all workers): decode_seconds / decode_threads near `seconds` means every decoding
  // thread was busy the whole run.
  std::size_t decoded_images = 0;
  double decode_seconds = 0.0;
  std::size_t decode_threads = 0;
  std::vector<WorkerTiming> worker_timing;  // one per worker
};

// The backend and worker count for `options` (throws GpuError when --gpus asks for more devices
// than are visible, InvalidArgument for --gpus or --workers-per-gpu on a backend without
// devices, or a cpu_workers below 1).
EngineReport plan_workers(const EngineOptions& options);

// 1/16 of the process's memory (the host's, or its cgroup's memory.max where that is lower:
// common/allotment.h), clamped to 1..8 GiB and to at most a quarter of it (1 GiB where it
// cannot be read). Large
// frames need it: a 3840x2160 RGB pair decodes to 50 MB, and with 1 GiB split over two GPU
// workers each could hold only 10 pairs ahead while 30 decoding threads at ~120 ms an image
// could feed far more (on 2 H200s, 4K double spent 3.1 s of its 5.4 s waiting on decoding).
std::size_t default_decode_memory_bytes();

// Scores every job. `on_done` is called once per delivered job, never concurrently, from worker
// threads. A GpuError (a broken device would fail every later pair) stops all workers and is
// rethrown after they finish; per-pair input errors are delivered and the run goes on.
// `should_stop` (optional) is polled before each pair, under the same lock as `on_done`;
// returning true ends the run early (in job order, outcomes waiting for an earlier job that
// was never scored are then dropped).
EngineReport score_pairs(const std::vector<PairJob>& jobs, const EngineOptions& options,
                         const std::function<void(const PairOutcome&)>& on_done,
                         const std::function<bool()>& should_stop = {});

}  // namespace mad
