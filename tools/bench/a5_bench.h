// CUDA-event timing of the A5 block-statistics variants (appearance/a5_variants.h) for
// `mad bench` (CUDA builds only), through the one GPU timer (gpu_timer_cuda.h): every run
// synchronized, no L2 flush (the 40 subbands of a pair span several times the L2).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "appearance/a5_variants.h"
#include "common/image.h"
#include "tools/bench/measurement.h"

namespace mad::bench {

struct A5BenchOptions {
  bool single_precision = false;      // time the float instantiation instead of double
  int warmup_runs = 3;                // launches before timing starts (clocks, caches, modules)
  int timed_runs = 21;                // the median of these is reported
  std::vector<std::string> variants;  // empty: every registered variant
};

struct A5BenchResult {
  std::string variant;
  std::string precision;  // "double" or "float"
  int width = 0, height = 0;
  int subbands = 0;        // subbands per launch (all of them: one launch per run)
  std::size_t blocks = 0;  // 16x16 blocks per subband
  Measurement time;
  double input_bytes = 0;    // subband samples read once (lower bound on DRAM traffic)
  double sample_visits = 0;  // 2 passes x 256 samples x blocks x subbands
  double gvisits_per_s = 0;  // sample_visits / time.median_ms
};

// The mean-only forms (appearance::a5_mean_variants(), the thesis's Table 9 measurement) on one
// subband: the 16x16 block means, stride 4, alone.
struct A5MeanBenchResult {
  std::string variant;
  std::string precision;  // "double" or "float"
  int width = 0, height = 0;
  std::size_t blocks = 0;  // 16x16 blocks of the subband
  Measurement time;
};

// The thesis's Table 9 time (ms; one 512x512 float subband, Tesla K40) of a mean-only form, or
// 0 for a name it does not list.
inline double thesis_table9_ms(const std::string& variant) {
  if (variant == "a5-original") return 1.000512;
  if (variant == "a5-shared-loop") return 1.623392;
  if (variant == "a5-shared-unrolled") return 0.928031;
  if (variant == "a5-shared-unrolled-cf") return 0.757984;
  return 0;
}

#ifdef MAD_HAVE_CUDA
// Times each selected mean-only variant (options.variants names rows of a5_mean_variants();
// empty: all) on `subband`, with CUDA events like a5_bench. Synchronises; throws
// InvalidArgument for unknown names or an empty subband, GpuError on CUDA failures.
std::vector<A5MeanBenchResult> a5_mean_bench(ImageView<const double> subband,
                                             const A5BenchOptions& options);

// Times each selected variant on `subbands` (equally sized real images, e.g. subband
// magnitudes), all in one launch per run, with CUDA events: warm-up, then the median of the
// timed runs. Uploads the data once; synchronises (it is a benchmark). Throws InvalidArgument
// for unknown variant names or unequal shapes, GpuError on CUDA failures.
std::vector<A5BenchResult> a5_bench(const std::vector<ImageView<const double>>& subbands,
                                    const A5BenchOptions& options);

// The spec's workload: the 40 subband magnitudes |EO_{s,o}| of a pair (20 each of ref and
// dst, computed by the CPU path), then a5_bench on them.
std::vector<A5BenchResult> a5_bench_pair(ImageView<const double> ref, ImageView<const double> dst,
                                         const A5BenchOptions& options);
#endif

}  // namespace mad::bench
