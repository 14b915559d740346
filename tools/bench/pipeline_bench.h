// End-to-end timing of the whole MAD pipeline for `mad bench` (issue 3/5 goals): per-pair time
// on the GPU with upload included and decode excluded, batch throughput with and without a
// shared reference, device memory, and the CPU path for comparison. CUDA-free; without a GPU
// only the CPU rows are produced. Host clock throughout (cpu_timer.h): a scorer call is
// synchronous, and its upload and read-back belong to the time.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "mad/options.h"
#include "tools/bench/measurement.h"

namespace mad::bench {

struct PipelineBenchOptions {
  std::vector<std::pair<int, int>> sizes = {{512, 384}, {512, 512}, {1080, 800}, {1920, 1080}};
  std::vector<Precision> precisions = {Precision::Double, Precision::Float};
  int warmup_runs = 3;
  int timed_runs = 20;   // single-pair timings: median of these
  int batch_pairs = 64;  // pairs per batch measurement
  // Input pairs rotated so caches and reuse do not flatter. Not a multiple of the slots per
  // shape (mad/backends/cuda_backend.cu), or a batch slot would see one reference again and again.
  int distinct_inputs = 5;
  // Time the GPU rows: the run's one choice of a backend (BenchConfig::gpu, from
  // choose_backend where `mad bench` starts), never probed again here.
  bool gpu = false;
  bool cpu = true;  // also time the CPU path (all threads and one thread)
  int cpu_runs = 3;
  std::string a5_variant;  // "" = default
  // Subband transform (appearance/subband_transform.h) of the GPU rows: "" = the shape's
  // default; a name adds "-<name>" to the rows' mode.
  std::string subband_transform;
};

struct PipelineBenchRow {
  std::string backend;    // "cuda" or "cpu"
  std::string mode;       // "single", "batch-distinct-refs", "batch-shared-ref", "cpu-all-threads",
                          // "cpu-1-thread"; GPU modes end in "-<transform>" when one is named
  std::string precision;  // "double" / "float"
  int width = 0, height = 0;
  Measurement time;                       // per pair
  double pairs_per_s = 0;                 // 1000 / time.median_ms
  std::size_t device_bytes = 0;           // peak device memory of the scorer (GPU rows)
  std::size_t device_bytes_per_pair = 0;  // one slot's memory (GPU rows)
};

std::vector<PipelineBenchRow> bench_pipeline(const PipelineBenchOptions& options);

}  // namespace mad::bench
