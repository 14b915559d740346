#include "tools/bench/bench_images.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "mad/score.h"

namespace mad::bench {

BenchPair make_bench_pair(int width, int height, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> phase(0.0, 6.283185307179586);
  std::normal_distribution<double> noise(0.0, 1.0);
  const double p1 = phase(rng), p2 = phase(rng), p3 = phase(rng);
  Image<double> ref(width, height), dst(width, height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      double v = 120.0 + 50.0 * std::sin(x * 0.031 + p1) * std::cos(y * 0.023 + p2) +
                 25.0 * std::sin((x + 2 * y) * 0.11 + p3) + ((x / 37 + y / 29) % 2 ? 20.0 : -20.0) +
                 6.0 * noise(rng);
      ref(y, x) = std::clamp(std::round(v), 0.0, 255.0);
    }
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      double sum = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          sum += ref(std::clamp(y + dy, 0, height - 1), std::clamp(x + dx, 0, width - 1));
      dst(y, x) = std::clamp(std::round(sum / 9.0 + 4.0 * noise(rng)), 0.0, 255.0);
    }
  BenchPair p;
  p.ref = make_gray_image(std::move(ref));
  p.dst = make_gray_image(std::move(dst));
  return p;
}

}  // namespace mad::bench
