// The Wrap border of the 5x5 smoothing (kernels/smooth.h): the torus of seed 003, checked
// against hand-computed values and against the Clip rule away from the border.
#include <gtest/gtest.h>

#include "common/error.h"
#include "kernels/kernel_format.h"
#include "kernels/smooth.h"
#include "tests/kernels/kernel_test_util.h"

namespace mad::kernels {
namespace {

TEST(SmoothWrapCpu, BorderNames) {
  EXPECT_EQ(parse_smooth_border("clip"), SmoothBorder::Clip);
  EXPECT_EQ(parse_smooth_border("wrap"), SmoothBorder::Wrap);
  EXPECT_THROW(parse_smooth_border("zero"), InvalidArgument);
  EXPECT_STREQ(smooth_border_name(SmoothBorder::Wrap), "wrap");
  EXPECT_EQ(smooth_wrap_index(-1, 5), 4);
  EXPECT_EQ(smooth_wrap_index(-7, 3), 2);
  EXPECT_EQ(smooth_wrap_index(6, 5), 1);
}

// An impulse at (0, 0) of a 7x6 image: on the torus, pixel (y, x) gets weight
// w(dy, dx) / 35 where (dy, dx) is its wrapped offset from the impulse.
TEST(SmoothWrapCpu, ImpulseAtTheCornerWrapsToTheOppositeSides) {
  Image<std::uint8_t> img(7, 6, 0);
  img(0, 0) = 175;  // 175 * w / 35 = 5 * w, exact
  const Image<std::uint8_t> out = smooth_cpu(img.cview(), 1, SmoothBorder::Wrap);
  for (int y = 0; y < 6; ++y)
    for (int x = 0; x < 7; ++x) {
      const int dy = y <= 2 ? y : y - 6, dx = x <= 2 ? x : x - 7;
      const int expected =
          (dy >= -2 && dy <= 2 && dx >= -2 && dx <= 2) ? 5 * smooth_weight(dy, dx) : 0;
      EXPECT_EQ(out(y, x), expected) << y << ',' << x;
    }
}

// A 1x1 image wraps onto itself 25 times; a 2-pixel row onto its two pixels.
TEST(SmoothWrapCpu, ImagesSmallerThanTheFilter) {
  Image<std::uint8_t> one(1, 1, 200);
  EXPECT_EQ(smooth_cpu(one.cview(), 1, SmoothBorder::Wrap)(0, 0), 200);
  Image<std::uint8_t> two(2, 1);
  two(0, 0) = 0;
  two(0, 1) = 70;
  // Columns dx = -2..2 of pixel 0 are pixels 0,1,0,1,0; row weights sum per column 5,8,9,8,5
  // (rows wrap onto the same row): S = 70 * (8 + 8) = 1120, W = 35: 32.
  const Image<std::uint8_t> out = smooth_cpu(two.cview(), 1, SmoothBorder::Wrap);
  EXPECT_EQ(out(0, 0), 32);
  EXPECT_EQ(out(0, 1), 38);  // 70 * (5 + 9 + 5) = 1330 / 35 = 38
}

TEST(SmoothWrapCpu, EqualsClipAwayFromTheBorderAndDiffersOnIt) {
  for (const test::Size s : test::issue_sizes())
    for (int channels : {1, 3}) {
      if (s.width * s.height > 100000) continue;  // the CPU is the subject; small sizes suffice
      for (std::ptrdiff_t pitch : test::pitches_for(s.width * channels)) {
        const Image<std::uint8_t> img = test::random_bytes(s.width * channels, s.height, 77, pitch);
        const Image<std::uint8_t> clip = smooth_cpu(img.cview(), channels);
        const Image<std::uint8_t> wrap = smooth_cpu(img.cview(), channels, SmoothBorder::Wrap);
        for (int y = 2; y + 2 < s.height; ++y)
          for (int x = 2 * channels; x + 2 * channels < s.width * channels; ++x)
            ASSERT_EQ(clip(y, x), wrap(y, x)) << test::size_name(s) << ' ' << y << ',' << x;
      }
    }
}

TEST(SmoothWrapCpu, ConstantImagesStayConstant) {
  for (int channels : {1, 3, 4}) {
    Image<std::uint8_t> img(5 * channels, 3, 123);
    const Image<std::uint8_t> out = smooth_cpu(img.cview(), channels, SmoothBorder::Wrap);
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 5 * channels; ++x) EXPECT_EQ(out(y, x), 123);
  }
}

TEST(SmoothWrapCpu, RejectsBadInput) {
  Image<std::uint8_t> img(6, 2);
  EXPECT_THROW(smooth_cpu(img.cview(), 5, SmoothBorder::Wrap), InputError);
  EXPECT_THROW(smooth_cpu(img.cview(), 4, SmoothBorder::Wrap), InvalidArgument);
  Image<std::uint8_t> small(3, 2);
  EXPECT_THROW(smooth_cpu(img.cview(), 1, small.view(), SmoothBorder::Wrap), InvalidArgument);
}

TEST(SmoothWrapCpu, RegistryListsTheWrapVariants) {
  EXPECT_EQ(&smooth_variants(SmoothBorder::Clip), &smooth_variants());
  EXPECT_EQ(&smooth_variants(SmoothBorder::Wrap), &smooth_wrap_variants());
  EXPECT_EQ(smooth_wrap_variants().resolve(""), "padded");
  EXPECT_EQ(smooth_wrap_variants().resolve("direct"), "direct");
  EXPECT_THROW(smooth_wrap_variants().resolve("tile"), InvalidArgument);
  EXPECT_EQ(smooth_variants().resolve("tile_bank_conflict"), "tile_bank_conflict");
  EXPECT_EQ(smooth_variants().resolve("tile_bank_free"), "tile_bank_free");
  const std::string listing = format_variant_listing();
  EXPECT_NE(listing.find("smooth --border wrap:"), std::string::npos) << listing;
}

}  // namespace
}  // namespace mad::kernels
