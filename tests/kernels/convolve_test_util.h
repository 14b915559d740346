// Helpers of the convolution tests (CPU and CUDA): seeded random float images and a bitwise
// float image comparison. Header-only (the test folder compiles only *_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>

#include "common/image.h"

namespace mad::kernels::test {

// Uniform floats in [lo, hi); `pitch` (0 = width) pads rows with NaN, which a read of the
// padding would spread into the output.
inline Image<float> random_floats(int width, int height, std::uint32_t seed,
                                  std::ptrdiff_t pitch = 0, float lo = -100.0f,
                                  float hi = 255.0f) {
  Image<float> img(width, height, std::numeric_limits<float>::quiet_NaN(), pitch);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) img(y, x) = dist(rng);
  return img;
}

inline std::uint32_t float_bits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

// Bit-for-bit equality of two float images; on failure names the first difference.
inline ::testing::AssertionResult floats_identical(ImageView<const float> expected,
                                                   ImageView<const float> actual) {
  if (expected.width != actual.width || expected.height != actual.height)
    return ::testing::AssertionFailure() << "shape differs";
  long long bad = 0;
  std::ostringstream first;
  first.precision(9);
  for (int y = 0; y < expected.height; ++y)
    for (int x = 0; x < expected.width; ++x)
      if (float_bits(expected(y, x)) != float_bits(actual(y, x)) && bad++ == 0)
        first << "first at (y=" << y << ", x=" << x << "): expected " << expected(y, x)
              << ", got " << actual(y, x);
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << bad << " differing elements; " << first.str();
}

}  // namespace mad::kernels::test
