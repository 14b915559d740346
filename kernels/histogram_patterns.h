// The seeds' adversarial images for histogram kernels (issue 4, kernel 2), shared by the tests
// and `mad bench`. The names are the seeds'; the exact geometry below is ours. They stress the
// atomics differently: uniform random spreads the increments; gradients and wide stripes make
// neighbouring threads hit the same few bins; a monochrome image sends every increment to one bin.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/image.h"

namespace mad::kernels {

enum class HistogramPattern {
  UniformRandom,       // independent uniform values 0..255 (seeded)
  GradientHorizontal,  // ramp over columns: round(255 x / (width - 1)); constant per column
  GradientVertical,    // ramp over rows: round(255 y / (height - 1)); constant along a row
  Stripes256,          // 1-pixel vertical stripes cycling through all values: x mod 256
  Stripes20,           // 8-pixel vertical stripes cycling through 20 values 0, 13, .., 255
  Monochrome,          // every pixel the same value, seed mod 256
};

const char* histogram_pattern_name(HistogramPattern pattern);
std::vector<HistogramPattern> all_histogram_patterns();

// A width x height image of `pattern` with rows of `pitch` bytes (0 = width); padding bytes
// are filled with 0xEE, which no count may include.
Image<std::uint8_t> make_histogram_pattern(HistogramPattern pattern, int width, int height,
                                           std::uint32_t seed, std::ptrdiff_t pitch = 0);

}  // namespace mad::kernels
