#include "tools/bench/pipeline_bench.h"

#include <algorithm>
#include <memory>
#include <string>

#include "common/error.h"
#include "common/parallel.h"
#include "mad/batch_scorer.h"
#include "mad/score.h"
#include "mad/variants.h"
#include "tools/bench/bench_images.h"
#include "tools/bench/cpu_timer.h"

namespace mad::bench {
namespace {

// "" for the default subband transform, "-<name>" for a named one (the rows' mode).
std::string mode_suffix(const PipelineBenchOptions& o) {
  return o.subband_transform.empty() ? "" : "-" + o.subband_transform;
}

void set_time(PipelineBenchRow& row, const Measurement& m) {
  row.time = m;
  row.pairs_per_s = m.median_ms > 0 ? 1000.0 / m.median_ms : 0.0;
}

// The CUDA backend's options for one precision and the bench's variants.
ScoreOptions gpu_options(Precision p, const PipelineBenchOptions& o) {
  ScoreOptions so;
  so.backend = Backend::Cuda;
  so.precision = p;
  so.a5_variant = pick_variant(VariantFamily::A5, o.a5_variant);
  so.subband_transform = pick_variant(VariantFamily::SubbandTransform, o.subband_transform);
  return so;
}

// One pair at a time, synchronously: upload + both stages + read-back of the two sums.
PipelineBenchRow bench_gpu_single(const std::vector<BenchPair>& pairs, Precision p,
                                  const PipelineBenchOptions& o) {
  // A batch of depth one, as mad::Scorer and `mad score REF DIST` run.
  BatchScorer gpu(gpu_options(p, o), ResolvedBackend(Backend::Cuda));
  PipelineBenchRow row;
  row.backend = "cuda";
  row.mode = "single" + mode_suffix(o);
  row.precision = to_string(p);
  row.width = pairs[0].ref.pixels.width();
  row.height = pairs[0].ref.pixels.height();
  // Rotating distinct pairs, and a reference that differs from the previous run's, so the
  // reference side is always recomputed.
  set_time(row, time_host(o.warmup_runs, o.timed_runs, [&](int i) {
             const BenchPair& pair = pairs[i % pairs.size()];
             gpu.score_one(pair.ref, pair.dst);
           }));
  row.device_bytes = gpu.device_bytes();
  row.device_bytes_per_pair = gpu.device_bytes();
  return row;
}

// A batch through BatchScorer (overlapped slots). shared_ref: every pair uses one reference
// (the dataset case), else references rotate.
PipelineBenchRow bench_gpu_batch(const std::vector<BenchPair>& pairs, Precision p, bool shared_ref,
                                 const PipelineBenchOptions& o) {
  BatchScorer batch(gpu_options(p, o), ResolvedBackend(Backend::Cuda));
  std::vector<std::shared_ptr<const GrayImage>> refs, dsts;
  for (const auto& bp : pairs) {
    refs.push_back(std::make_shared<GrayImage>(bp.ref));
    dsts.push_back(std::make_shared<GrayImage>(bp.dst));
  }
  // The rotation runs on across batches: slots take pairs in turn across them too.
  std::size_t submitted = 0;
  auto run_batch = [&](int n) {
    for (int i = 0; i < n; ++i, ++submitted) {
      const std::size_t k = submitted % pairs.size();
      batch.submit(i, shared_ref ? refs[0] : refs[k], dsts[k]);
    }
    batch.drain();
  };
  run_batch(o.warmup_runs * 2);
  const std::size_t reuses_before = batch.reference_reuses();
  PipelineBenchRow row;
  row.backend = "cuda";
  row.mode = std::string(shared_ref ? "batch-shared-ref" : "batch-distinct-refs") + mode_suffix(o);
  row.precision = to_string(p);
  row.width = pairs[0].ref.pixels.width();
  row.height = pairs[0].ref.pixels.height();
  set_time(row, per_item(time_host(0, 3, [&](int) { run_batch(o.batch_pairs); }), o.batch_pairs));
  // Slots take pairs in turn: when the rotation of inputs is a multiple of the slot count, each
  // slot sees one reference again and again, and "distinct" would flatter like "shared".
  if (!shared_ref && batch.reference_reuses() != reuses_before)
    throw Error("batch-distinct-refs: a slot reused its reference (" +
                std::to_string(pairs.size()) +
                " rotated inputs against the slots per shape): the figure would flatter");
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
  // One warm-up call: FFT plans, CSF cache.
  set_time(row, time_host(1, std::max(1, o.cpu_runs),
                          [&](int) { (void)scorer.score(pair.ref, pair.dst); }));
  set_thread_count(0);
  return row;
}

}  // namespace

std::vector<PipelineBenchRow> bench_pipeline(const PipelineBenchOptions& o) {
  std::vector<PipelineBenchRow> rows;
  const bool gpu = o.gpu;
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

}  // namespace mad::bench
