// The general convolution's CPU reference (kernels/convolve.h): the seed's filter, the filter and
// block-shape checks, the zero-padding border rule, and agreement with the 5x5 smoothing away
// from the borders (where the two border rules do not matter).
#include <gtest/gtest.h>

#include <cmath>

#include "common/error.h"
#include "kernels/convolve.h"
#include "kernels/smooth.h"
#include "tests/kernels/convolve_test_util.h"
#include "tests/kernels/kernel_test_util.h"

namespace mad::kernels {
namespace {

TEST(Convolve, SeedFilterFiveIsTheSmoothingFilter) {
  const ConvolveFilter f = seed_filter(5);
  ASSERT_EQ(f.size, 5);
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx)
      EXPECT_EQ(f.weights[(dy + 2) * 5 + dx + 2], smooth_weight(dy, dx)) << dy << ',' << dx;
  EXPECT_EQ(convolve_weight_sum(f), kSmoothWeightSum);
  EXPECT_EQ(seed_filter(1).weights, std::vector<float>{1.0f});
  EXPECT_EQ(seed_filter(3).weights, (std::vector<float>{1, 1, 1, 1, 2, 1, 1, 1, 1}));
  const ConvolveFilter f17 = seed_filter(17);
  EXPECT_EQ(f17.weights[8 * 17 + 8], 9.0f);  // the centre: 1 + distance 8 to the edge
  EXPECT_EQ(f17.weights[0], 1.0f);
  const ConvolveFilter n5 = seed_filter_float(5);
  EXPECT_EQ(n5.weights[12], 3.0f / 35.0f);
}

TEST(Convolve, RefusesBadFilters) {
  for (int size : {0, 2, 4, 18, 19, -1}) {
    EXPECT_THROW(seed_filter(size), InvalidArgument) << size;
    EXPECT_THROW(validate_convolve_filter({size, std::vector<float>(size > 0 ? size * size : 0, 1)},
                                          false),
                 InvalidArgument)
        << size;
  }
  EXPECT_THROW(validate_convolve_filter({3, std::vector<float>(8, 1)}, false), InvalidArgument);
  EXPECT_THROW(validate_convolve_filter({1, {NAN}}, false), InvalidArgument);
  EXPECT_THROW(validate_convolve_filter({1, {INFINITY}}, false), InvalidArgument);
  EXPECT_NO_THROW(validate_convolve_filter({1, {-0.5f}}, false));
  EXPECT_THROW(validate_convolve_filter({1, {-1.0f}}, true), InvalidArgument);
  EXPECT_THROW(validate_convolve_filter({1, {0.5f}}, true), InvalidArgument);
  EXPECT_THROW(validate_convolve_filter({1, {0.0f}}, true), InvalidArgument);  // T = 0
  EXPECT_THROW(validate_convolve_filter({1, {float(kConvolveMaxWeightSum + 1)}}, true),
               InvalidArgument);
  EXPECT_NO_THROW(validate_convolve_filter({1, {float(kConvolveMaxWeightSum)}}, true));
}

TEST(Convolve, RefusesBadBlockShapes) {
  EXPECT_NO_THROW(validate_block_shape({32, 32}, true, 17, 4));
  EXPECT_NO_THROW(validate_block_shape({1024, 1}, false, 17, 4));
  EXPECT_THROW(validate_block_shape({32, 64}, false, 5, 4), InvalidArgument);  // 2048 threads
  EXPECT_THROW(validate_block_shape({0, 4}, false, 5, 4), InvalidArgument);
  EXPECT_THROW(validate_block_shape({4, -1}, false, 5, 4), InvalidArgument);
  // (1024 + 16) x 17 floats = 70720 bytes of tile: over 48 KiB; as bytes it fits.
  EXPECT_THROW(validate_block_shape({1024, 1}, true, 17, 4), InvalidArgument);
  EXPECT_NO_THROW(validate_block_shape({1024, 1}, true, 17, 1));
}

TEST(Convolve, ZeroPaddingAndNoRenormalization) {
  // A 2x2 image of ones under a 3x3 box of ones: every output sees 4 inside taps.
  Image<float> ones(2, 2, 1.0f), out(2, 2);
  convolve_cpu(ones.cview(), {3, std::vector<float>(9, 1.0f)}, out.view());
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 2; ++x) EXPECT_EQ(out(y, x), 4.0f);
  // 8-bit: the same image of 200s, T = 9: round(4 * 200 / 9) = round(88.9) = 89.
  Image<std::uint8_t> b(2, 2, 200), bout(2, 2);
  convolve_cpu(b.cview(), {3, std::vector<float>(9, 1.0f)}, bout.view());
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 2; ++x) EXPECT_EQ(bout(y, x), 89);
  // 1x1 image, 17x17 seed filter: only the centre tap (9 of T = 969) is inside.
  Image<std::uint8_t> one(1, 1, 255), one_out(1, 1);
  const ConvolveFilter f17 = seed_filter(17);
  convolve_cpu(one.cview(), f17, one_out.view());
  EXPECT_EQ(convolve_weight_sum(f17), 969);
  EXPECT_EQ(one_out(0, 0), 2);  // round(2295 / 969) = round(2.37)
}

TEST(Convolve, IdentityFilterCopiesAndPitchesAreRespected) {
  const Image<float> img = test::random_floats(61, 47, 11, 70);
  Image<float> out(61, 47, -7.0f, 64);
  convolve_cpu(img.cview(), {1, {1.0f}}, out.view());
  EXPECT_TRUE(test::floats_identical(img.cview(), out.cview()));
  for (int y = 0; y < 47; ++y)
    for (int x = 61; x < 64; ++x) ASSERT_EQ(out.row(y)[x], -7.0f);  // padding untouched
  // A 3x3 filter with only its centre set is the identity too: the zero taps add +-0.
  std::vector<float> centre(9, 0.0f);
  centre[4] = 1.0f;
  convolve_cpu(img.cview(), {3, centre}, out.view());
  EXPECT_TRUE(test::floats_identical(img.cview(), out.cview()));
}

TEST(Convolve, EightBitMatchesSmoothingAwayFromTheBorders) {
  const Image<std::uint8_t> img = test::random_bytes(61, 47, 5, 64);
  Image<std::uint8_t> out(61, 47);
  convolve_cpu(img.cview(), seed_filter(5), out.view());
  const Image<std::uint8_t> smooth = smooth_cpu(img.cview(), 1);
  int border_diffs = 0;
  for (int y = 0; y < 47; ++y)
    for (int x = 0; x < 61; ++x) {
      const bool interior = y >= 2 && y < 45 && x >= 2 && x < 59;
      if (interior)
        ASSERT_EQ(out(y, x), smooth(y, x)) << y << ',' << x;
      else
        border_diffs += out(y, x) != smooth(y, x);
    }
  EXPECT_GT(border_diffs, 0);  // zero padding darkens the borders; smooth renormalizes
}

// The float sum against a double one: within the bound of n^2 rounded additions.
TEST(Convolve, FloatIsCloseToDoubleSum) {
  const Image<float> img = test::random_floats(40, 30, 21);
  const ConvolveFilter f = seed_filter_float(9);
  Image<float> out(40, 30);
  convolve_cpu(img.cview(), f, out.view());
  for (int y = 0; y < 30; ++y)
    for (int x = 0; x < 40; ++x) {
      double sum = 0, mag = 0;
      for (int dy = 0; dy < 9; ++dy)
        for (int dx = 0; dx < 9; ++dx) {
          const int sy = y + dy - 4, sx = x + dx - 4;
          if (sy < 0 || sy >= 30 || sx < 0 || sx >= 40) continue;
          const double p = double(f.weights[dy * 9 + dx]) * img(sy, sx);
          sum += p;
          mag += std::abs(p);
        }
      ASSERT_LE(std::abs(out(y, x) - sum), 82 * 0x1p-24 * mag) << y << ',' << x;
    }
}

TEST(Convolve, RefusesEmptyAndMismatchedImages) {
  Image<float> img(4, 4), small(3, 4);
  EXPECT_THROW(convolve_cpu(img.cview(), seed_filter(3), small.view()), InvalidArgument);
  Image<float> empty(0, 0);
  EXPECT_THROW(convolve_cpu(empty.cview(), seed_filter(3), empty.view()), InputError);
  Image<std::uint8_t> b(4, 4), bo(4, 4);
  EXPECT_THROW(convolve_cpu(b.cview(), seed_filter_float(3), bo.view()), InvalidArgument);
}

}  // namespace
}  // namespace mad::kernels
