// MATLAB rgb2gray on 8-bit pixels (spec §2, §14): weights 0.298936021293775 / 0.587043074451121
// / 0.114020904255103, rounded half away from zero to uint8.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "common/image_io.h"

namespace mad {
namespace {

// The weights scaled by 1e15 are integers, so the exact decimal value of the weighted sum is
// an integer over 1e15: an oracle free of floating-point rounding.
constexpr std::int64_t kRedE15 = 298936021293775;
constexpr std::int64_t kGreenE15 = 587043074451121;
constexpr std::int64_t kBlueE15 = 114020904255103;
constexpr std::int64_t kOneE15 = 1000000000000000;

int exact_gray(int r, int g, int b) {
  const std::int64_t sum = kRedE15 * r + kGreenE15 * g + kBlueE15 * b;
  const std::int64_t rounded = (sum + kOneE15 / 2) / kOneE15;  // half away from zero (sum >= 0)
  return rounded > 255 ? 255 : static_cast<int>(rounded);
}

long double long_double_sum(int r, int g, int b) {
  return 0.298936021293775L * r + 0.587043074451121L * g + 0.114020904255103L * b;
}

TEST(RgbToGray, HandComputedPixels) {
  // Exact decimal sums (computed with Python's decimal module) in the comments.
  EXPECT_EQ(rgb_to_gray_matlab(0, 0, 0), 0);
  EXPECT_EQ(rgb_to_gray_matlab(255, 0, 0), 76);       // 76.228685429912625
  EXPECT_EQ(rgb_to_gray_matlab(0, 255, 0), 150);      // 149.695983985035855
  EXPECT_EQ(rgb_to_gray_matlab(0, 0, 255), 29);       // 29.075330585051265
  EXPECT_EQ(rgb_to_gray_matlab(255, 255, 255), 255);  // 254.999999999999745
  EXPECT_EQ(rgb_to_gray_matlab(1, 1, 1), 1);          // 0.999999999999999
  EXPECT_EQ(rgb_to_gray_matlab(128, 128, 128), 128);  // 127.999999999999872
  EXPECT_EQ(rgb_to_gray_matlab(100, 150, 200), 141);  // 140.754244148066250
  EXPECT_EQ(rgb_to_gray_matlab(12, 34, 56), 30);      // 29.931867425149182
  EXPECT_EQ(rgb_to_gray_matlab(200, 100, 50), 124);   // 124.192556916622250
}

// The weighted sums closest to a .5 tie over all 2^24 pixels (found by exhaustive search with
// the integer oracle): 4.6e-6 above and below. They must round away from / towards the
// integer exactly as the long-double sum says.
TEST(RgbToGray, NearestTiesRoundLikeLongDouble) {
  struct Case {
    int r, g, b, expected;
  };
  const Case cases[] = {
      {255, 206, 117, 211},  // 210.500004564690602
      {254, 205, 116, 210},  // 209.500004564690...
      {0, 49, 138, 44},      // 44.499995435309143
      {1, 50, 139, 45},      // 45.4999954353091...
  };
  for (const Case& c : cases) {
    const long double v = long_double_sum(c.r, c.g, c.b);
    const long double frac = v - std::floor(v);
    EXPECT_NEAR(static_cast<double>(frac), 0.5, 1e-5) << c.r << "," << c.g << "," << c.b;
    const int from_long_double = static_cast<int>(std::floor(v + 0.5L));
    EXPECT_EQ(from_long_double, c.expected);
    EXPECT_EQ(rgb_to_gray_matlab(static_cast<std::uint8_t>(c.r), static_cast<std::uint8_t>(c.g),
                                 static_cast<std::uint8_t>(c.b)),
              c.expected)
        << c.r << "," << c.g << "," << c.b;
  }
}

// Every one of the 2^24 pixels against the exact integer oracle.
TEST(RgbToGray, ExhaustiveAgainstExactDecimalSum) {
  long mismatches = 0;
  for (int r = 0; r < 256; ++r)
    for (int g = 0; g < 256; ++g)
      for (int b = 0; b < 256; ++b) {
        const int got =
            rgb_to_gray_matlab(static_cast<std::uint8_t>(r), static_cast<std::uint8_t>(g),
                               static_cast<std::uint8_t>(b));
        if (got != exact_gray(r, g, b) && ++mismatches <= 5)
          ADD_FAILURE() << "(" << r << "," << g << "," << b << "): got " << got << ", exact "
                        << exact_gray(r, g, b);
      }
  EXPECT_EQ(mismatches, 0);
}

// Gray pixels stay gray: the weights sum to 0.999999999999999, never enough to change a value.
TEST(RgbToGray, GrayIsPreserved) {
  for (int v = 0; v < 256; ++v) {
    const auto u = static_cast<std::uint8_t>(v);
    EXPECT_EQ(rgb_to_gray_matlab(u, u, u), v);
  }
}

}  // namespace
}  // namespace mad
