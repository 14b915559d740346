// CPU reference of the 5x5 triangular smoothing: hand-computed values (interior, edges,
// corners, the half-up rounding), the closed-form border weight sum, channels, bad input.
#include <gtest/gtest.h>

#include "common/error.h"
#include "kernels/smooth.h"
#include "tests/kernels/kernel_test_util.h"

namespace mad::kernels {
namespace {

TEST(SmoothCpu, FilterWeights) {
  int sum = 0;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx) sum += smooth_weight(dy, dx);
  EXPECT_EQ(sum, kSmoothWeightSum);
  EXPECT_EQ(smooth_weight(0, 0), 3);
  EXPECT_EQ(smooth_weight(-1, 1), 2);
  EXPECT_EQ(smooth_weight(2, -1), 1);
  EXPECT_EQ(smooth_weight(0, -2), 1);
}

// The float rounding of the staged GPU form equals the integer rule for every interior sum.
TEST(SmoothCpu, FloatRoundingBy35MatchesIntegerRoundingForEverySum) {
  int mismatches = 0;
  for (int s = 0; s <= kSmoothWeightSum * 255; ++s)
    if (smooth_round35_float(s) != smooth_round(s, kSmoothWeightSum)) ++mismatches;
  EXPECT_EQ(mismatches, 0);
  // The rule is sharp: the half-way points S = 35 k + 17 / 18 round down / up.
  EXPECT_EQ(smooth_round35_float(17), 0);
  EXPECT_EQ(smooth_round35_float(18), 1);
  EXPECT_EQ(smooth_round35_float(8925), 255);
  // The proof's premises: 2^23 x scale = 239674.5 and bias + 239674.5 = 2^23, both exact.
  EXPECT_EQ(kSmoothRound35Base * kSmoothRound35Scale, 239674.5f);
  EXPECT_EQ(kSmoothRound35Bias + kSmoothRound35Base * kSmoothRound35Scale, kSmoothRound35Base);
}

TEST(SmoothCpu, ImpulseHandComputed) {
  // 5x5 zeros with 35 in the centre: each output is 35 w / W rounded half up, where w is the
  // weight linking the pixel to the centre and W the weight sum inside the image.
  Image<std::uint8_t> img(5, 5, 0);
  img(2, 2) = 35;
  const Image<std::uint8_t> out = smooth_cpu(img.cview(), 1);
  EXPECT_EQ(out(2, 2), 3);  // 105 / 35 = 3
  EXPECT_EQ(out(0, 0), 3);  // 35 / 14 = 2.5, half up -> 3  (W = 3+2+1 + 2+2+1 + 1+1+1)
  EXPECT_EQ(out(4, 4), 3);  // the same at the opposite corner
  EXPECT_EQ(out(1, 1), 3);  // 70 / 26 = 2.69               (W = 35 - 5 - 5 + 1)
  EXPECT_EQ(out(0, 2), 2);  // 35 / 22 = 1.59               (W = 9 + 8 + 5)
  EXPECT_EQ(out(2, 0), 2);
  EXPECT_EQ(out(2, 1), 2);  // 70 / 30 = 2.33               (W = 35 - 5)
}

TEST(SmoothCpu, TinyImagesHandComputed) {
  Image<std::uint8_t> one(1, 1, 77);
  EXPECT_EQ(smooth_cpu(one.cview(), 1)(0, 0), 77);  // W = 3, S = 3 p
  Image<std::uint8_t> pair(2, 1);
  pair(0, 0) = 10, pair(0, 1) = 20;
  const Image<std::uint8_t> out = smooth_cpu(pair.cview(), 1);
  EXPECT_EQ(out(0, 0), 14);  // (3*10 + 2*20) / 5
  EXPECT_EQ(out(0, 1), 16);  // (2*10 + 3*20) / 5
}

TEST(SmoothCpu, ConstantImagesStayConstant) {
  for (const test::Size s : test::issue_sizes()) {
    if (s.width * s.height > 100000) continue;
    Image<std::uint8_t> img(s.width, s.height, 201);
    const Image<std::uint8_t> out = smooth_cpu(img.cview(), 1);
    EXPECT_TRUE(test::images_equal(img.cview(), out.cview())) << test::size_name(s);
  }
}

TEST(SmoothCpu, ClosedFormWeightSumMatchesDirectSum) {
  for (int h = 1; h <= 7; ++h)
    for (int w = 1; w <= 7; ++w)
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          int direct = 0;
          for (int dy = -2; dy <= 2; ++dy)
            for (int dx = -2; dx <= 2; ++dx)
              if (y + dy >= 0 && y + dy < h && x + dx >= 0 && x + dx < w)
                direct += smooth_weight(dy, dx);
          ASSERT_EQ(smooth_weight_sum_at(y, x, h, w), direct)
              << w << "x" << h << " at " << y << "," << x;
        }
}

TEST(SmoothCpu, ChannelsAreIndependent) {
  const std::uint32_t seed = test::announce_seed("SmoothCpu.ChannelsAreIndependent", 4301);
  const int w = 23, h = 11;
  for (int channels = 2; channels <= 4; ++channels) {
    const Image<std::uint8_t> img =
        test::random_bytes(w * channels, h, seed + channels, w * channels + 3);
    const Image<std::uint8_t> out = smooth_cpu(img.cview(), channels);
    for (int c = 0; c < channels; ++c) {
      Image<std::uint8_t> plane(w, h);
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) plane(y, x) = img(y, x * channels + c);
      const Image<std::uint8_t> expected = smooth_cpu(plane.cview(), 1);
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
          ASSERT_EQ(out(y, x * channels + c), expected(y, x)) << channels << " channels, c=" << c;
    }
  }
}

TEST(SmoothCpu, RejectsBadInput) {
  const std::vector<std::uint8_t> px(60, 1);
  EXPECT_THROW(smooth_cpu(ImageView<const std::uint8_t>(px.data(), 5, 2), 0), InputError);
  EXPECT_THROW(smooth_cpu(ImageView<const std::uint8_t>(px.data(), 10, 2), 5), InputError);
  EXPECT_THROW(smooth_cpu(ImageView<const std::uint8_t>(px.data(), 0, 2), 1), InputError);
  EXPECT_THROW(smooth_cpu(ImageView<const std::uint8_t>(px.data(), 7, 2), 3), InvalidArgument);
  Image<std::uint8_t> wrong(4, 2);
  EXPECT_THROW(smooth_cpu(ImageView<const std::uint8_t>(px.data(), 5, 2), 1, wrong.view()),
               InvalidArgument);
}

}  // namespace
}  // namespace mad::kernels
