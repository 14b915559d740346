// Deterministic image pairs for benchmarks: a textured 8-bit reference (several sinusoids,
// edges and seeded noise, so FFTs and statistics see realistic, non-constant data) and a
// distorted version (seeded noise plus a 3x3 blur), at any size.
#pragma once

#include <cstdint>

#include "common/image_io.h"

namespace mad::bench {

struct BenchPair {
  GrayImage ref, dst;
};

BenchPair make_bench_pair(int width, int height, std::uint32_t seed);

}  // namespace mad::bench
