// The A5 block-statistics kernels (spec §4.4) as seen from CUDA-free code: the variant table's
// names and notes (for `--list-variants` and `--a5`, in every build) and a CUDA-event timing
// entry for `mad bench` (CUDA builds only).
//
// The launch functions live in the CUDA registry (appearance/a5_variants_cuda.h), which holds
// one row per entry of kA5Variants, in the same order; a test checks the two agree.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "common/image.h"

namespace mad::appearance {

struct A5VariantInfo {
  const char* name;
  const char* note;
};

// Every A5 variant, the thesis forms first. The default is what the GPU stage runs unless
// told otherwise.
inline constexpr A5VariantInfo kA5Variants[] = {
    {"a5-original",
     "thesis form: one thread per block gathers its 256 samples into a private array, then "
     "mean and central moments"},
    {"a5-shared",
     "thesis shared-memory form: one 16x16 CTA per block, samples in shared [ty][tx], tree "
     "reductions of the sum and of the 2nd-4th central moments"},
    {"a5-direct",
     "CTA stages a subband tile + halo in shared memory once (modulus fused into the load); "
     "each thread computes 2 stacked blocks from it, direct two-pass over the 256 samples"},
    {"a5-fast",
     "two-pass statistics of the 4x4 tiles blocks share, computed once per CTA in shared "
     "memory and shifted exactly (binomial, Horner) to each block's own mean; 2 blocks per "
     "thread"},
};
inline constexpr int kA5VariantCount = sizeof(kA5Variants) / sizeof(kA5Variants[0]);
inline constexpr const char* kA5DefaultVariant = "a5-fast";

// "name  note" lines, the default marked with '*'. CUDA-free, for `--list-variants`.
inline std::string describe_a5_variants() {
  std::string out;
  for (const A5VariantInfo& v : kA5Variants) {
    out += (std::string(v.name) == kA5DefaultVariant) ? "* " : "  ";
    out += v.name;
    out += "  ";
    out += v.note;
    out += '\n';
  }
  return out;
}

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
  int runs = 0;
  double median_ms = 0, min_ms = 0, max_ms = 0;
  double input_bytes = 0;    // subband samples read once (lower bound on DRAM traffic)
  double sample_visits = 0;  // 2 passes x 256 samples x blocks x subbands
  double gvisits_per_s = 0;  // sample_visits / median time
};

#ifdef MAD_HAVE_CUDA
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

}  // namespace mad::appearance
