// Inputs of the A5 timing tests (a5_bench, a5_mean_bench): seeded random subbands with views
// of them, and the options of a quick timing. CUDA-only header, for *_cuda_test.cpp.
#pragma once

#include <cstdint>
#include <vector>

#include "tests/appearance/a5_check_cuda.h"
#include "tools/bench/a5_bench.h"

namespace mad::bench::a5_bench_test {

// Seeded random subbands of one shape (a5_check_cuda.h) and views of them (a5_bench's input).
struct Subbands {
  std::vector<Image<double>> images;
  std::vector<ImageView<const double>> views;
};
inline Subbands random_subbands(int width, int height, std::uint32_t seed) {
  Subbands s{appearance::a5_test::random_subbands(appearance::a5_test::Shape{width, height}, seed),
             {}};
  for (const auto& img : s.images) s.views.push_back(img.cview());
  return s;
}

// One warm-up run and three timed runs: enough to exercise the timer, fast in a test.
inline A5BenchOptions quick_options() {
  A5BenchOptions options;
  options.warmup_runs = 1;
  options.timed_runs = 3;
  return options;
}

}  // namespace mad::bench::a5_bench_test
