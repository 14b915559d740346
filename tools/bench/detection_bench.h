// Timings of the CUDA detection stage for `mad bench` (STYLE rule 14), through the one GPU timer
// (gpu_timer_cuda.h: CUDA events around each measured launch sequence, warm-up runs first,
// every run synchronized). CUDA-free; implemented only in builds with the CUDA backend
// (detection_bench_cuda.cu).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/compute_target.h"
#include "detection/detection.h"
#include "tools/bench/measurement.h"

namespace mad::bench {

struct DetectionBenchOptions {
  int width = 512;
  int height = 512;
  Precision precision = Precision::Double;
  int warmup = 5;          // untimed runs before the measured ones
  int repetitions = 50;    // measured runs (>= 1)
  std::uint32_t seed = 1;  // the seeded random pair timed (content barely matters)
};

struct DetectionBenchTiming {
  std::string name;  // "<variant>/reference", "<variant>/error", "stage/..." (see below)
  Measurement time;  // time.runs = the options' repetitions
};

// Times, on one seeded random pair of the requested shape and precision:
//  * every block-statistics variant of the registry, its reference launch ("<name>/reference",
//    μ and σ_mod) and its error launch ("<name>/error", σ_err and ξ) separately;
//  * the whole default stage: "stage/prepare_reference", "stage/run_distorted" (score only,
//    the per-image cost under the dataset trick) and "stage/run_distorted+map".
// Synchronizes after every measured run (it is a benchmark). Throws InvalidArgument for bad
// options, GpuError for CUDA failures.
std::vector<DetectionBenchTiming> bench_detection_cuda(const DetectionBenchOptions& options);

}  // namespace mad::bench
