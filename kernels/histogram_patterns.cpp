#include "kernels/histogram_patterns.h"

#include <random>

#include "common/enum_names.h"
#include "common/error.h"

namespace mad::kernels {

namespace {
constexpr EnumName<HistogramPattern> kPatterns[] = {
    {HistogramPattern::UniformRandom, "uniform_random"},
    {HistogramPattern::GradientHorizontal, "gradient_horizontal"},
    {HistogramPattern::GradientVertical, "gradient_vertical"},
    {HistogramPattern::Stripes256, "stripes_256"},
    {HistogramPattern::Stripes20, "stripes_20"},
    {HistogramPattern::Monochrome, "monochrome"}};
}  // namespace

const char* histogram_pattern_name(HistogramPattern pattern) {
  return enum_name(kPatterns, pattern);
}

std::vector<HistogramPattern> all_histogram_patterns() {
  return enum_values(kPatterns);
}

Image<std::uint8_t> make_histogram_pattern(HistogramPattern pattern, int width, int height,
                                           std::uint32_t seed, std::ptrdiff_t pitch) {
  if (width <= 0 || height <= 0) throw InvalidArgument("histogram pattern: empty size");
  Image<std::uint8_t> img(width, height, 0xEE, pitch);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> uniform(0, 255);
  // round(255 pos / (size - 1)), 0 for a single row or column.
  auto ramp = [](long long pos, long long size) {
    return size > 1 ? static_cast<int>((510 * pos + (size - 1)) / (2 * (size - 1))) : 0;
  };
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      int v = 0;
      switch (pattern) {
        case HistogramPattern::UniformRandom: v = uniform(rng); break;
        case HistogramPattern::GradientHorizontal: v = ramp(x, width); break;
        case HistogramPattern::GradientVertical: v = ramp(y, height); break;
        case HistogramPattern::Stripes256: v = x % 256; break;
        case HistogramPattern::Stripes20: v = ((x / 8) % 20 * 255 + 9) / 19; break;
        case HistogramPattern::Monochrome: v = static_cast<int>(seed % 256); break;
      }
      img(y, x) = static_cast<std::uint8_t>(v);
    }
  }
  return img;
}

}  // namespace mad::kernels
