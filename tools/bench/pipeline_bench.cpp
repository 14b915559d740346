#include "mad/pipeline_bench.h"

#include <algorithm>
#include <chrono>
#include <memory>

#include "common/gpu_info.h"
#include "common/parallel.h"
#include "mad/batch_scorer.h"
#include "mad/bench_images.h"
#include "mad/gpu_scorer.h"
#include "mad/score.h"

namespace mad {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

void summarize(std::vector<double> ms, PipelineBenchRow& row) {
  std::sort(ms.begin(), ms.end());
  row.runs = static_cast<int>(ms.size());
  row.min_ms = ms.front();
  row.max_ms = ms.back();
  row.median_ms =
      ms.size() % 2 ? ms[ms.size() / 2] : 0.5 * (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]);
  row.pairs_per_s = row.median_ms > 0 ? 1000.0 / row.median_ms : 0.0;
}

// One pair at a time, synchronously: upload + both stages + read-back of the two sums.
PipelineBenchRow bench_gpu_single(const std::vector<BenchPair>& pairs, Precision p,
                                  const PipelineBenchOptions& o) {
  GpuScorer gpu(p, o.a5_variant);
  PipelineBenchRow row;
  row.backend = "cuda";
  row.mode = "single";
  row.precision = to_string(p);
  row.width = pairs[0].ref.pixels.width();
  row.height = pairs[0].ref.pixels.height();
  std::vector<double> ms;
  for (int i = 0; i < o.warmup_runs + o.timed_runs; ++i) {
    // Rotating distinct pairs, and a reference that differs from the previous run's, so the
    // reference side is always recomputed.
    const BenchPair& pair = pairs[i % pairs.size()];
    const auto t0 = Clock::now();
    gpu.run(gpu_input(pair.ref), gpu_input(pair.dst), true, false);
    if (i >= o.warmup_runs) ms.push_back(ms_since(t0));
  }
  summarize(ms, row);
  row.device_bytes = gpu.device_bytes();
  row.device_bytes_per_pair = gpu.device_bytes();
  return row;
}

// A batch through BatchScorer (overlapped slots). shared_ref: every pair uses one reference
// (the dataset case), else references rotate.
PipelineBenchRow bench_gpu_batch(const std::vector<BenchPair>& pairs, Precision p, bool shared_ref,
                                 const PipelineBenchOptions& o) {
  ScoreOptions so;
  so.backend = Backend::Cuda;
  so.precision = p;
  so.a5_variant = o.a5_variant;
  BatchScorer batch(so);
  std::vector<std::shared_ptr<const GrayImage>> refs, dsts;
  for (const auto& bp : pairs) {
    refs.push_back(std::make_shared<GrayImage>(bp.ref));
    dsts.push_back(std::make_shared<GrayImage>(bp.dst));
  }
  auto run_batch = [&](int n) {
    for (int i = 0; i < n; ++i) {
      const std::size_t k = static_cast<std::size_t>(i) % pairs.size();
      batch.submit(i, shared_ref ? refs[0] : refs[k], dsts[k]);
    }
    batch.drain();
  };
  run_batch(o.warmup_runs * 2);
  PipelineBenchRow row;
  row.backend = "cuda";
  row.mode = shared_ref ? "batch-shared-ref" : "batch-distinct-refs";
  row.precision = to_string(p);
  row.width = pairs[0].ref.pixels.width();
  row.height = pairs[0].ref.pixels.height();
  std::vector<double> per_pair;
  for (int rep = 0; rep < 3; ++rep) {
    const auto t0 = Clock::now();
    run_batch(o.batch_pairs);
    per_pair.push_back(ms_since(t0) / o.batch_pairs);
  }
  summarize(per_pair, row);
  row.device_bytes = batch.device_bytes();
  return row;
}

PipelineBenchRow bench_cpu(const BenchPair& pair, int threads, const PipelineBenchOptions& o) {
  set_thread_count(threads);  // 0 = all cores
  ScoreOptions so;
  so.backend = Backend::Cpu;
  Scorer scorer(so);
  PipelineBenchRow row;
  row.backend = "cpu";
  row.mode = threads == 1 ? "cpu-1-thread" : "cpu-all-threads";
  row.precision = "double";
  row.width = pair.ref.pixels.width();
  row.height = pair.ref.pixels.height();
  scorer.score(pair.ref, pair.dst);  // warm-up: FFT plans, CSF cache
  std::vector<double> ms;
  for (int i = 0; i < std::max(1, o.cpu_runs); ++i) {
    const auto t0 = Clock::now();
    scorer.score(pair.ref, pair.dst);
    ms.push_back(ms_since(t0));
  }
  summarize(ms, row);
  set_thread_count(0);
  return row;
}

}  // namespace

std::vector<PipelineBenchRow> bench_pipeline(const PipelineBenchOptions& o) {
  std::vector<PipelineBenchRow> rows;
  const bool gpu = gpu_backend_compiled() && gpu_device_available();
  for (const auto& [w, h] : o.sizes) {
    std::vector<BenchPair> pairs;
    for (int i = 0; i < std::max(2, o.distinct_inputs); ++i)
      pairs.push_back(make_bench_pair(w, h, 1000u + static_cast<std::uint32_t>(i)));
    if (gpu) {
      for (Precision p : o.precisions) {
        rows.push_back(bench_gpu_single(pairs, p, o));
        rows.push_back(bench_gpu_batch(pairs, p, false, o));
        rows.push_back(bench_gpu_batch(pairs, p, true, o));
      }
    }
    if (o.cpu) {
      rows.push_back(bench_cpu(pairs[0], 0, o));
      rows.push_back(bench_cpu(pairs[0], 1, o));
    }
  }
  return rows;
}

}  // namespace mad
