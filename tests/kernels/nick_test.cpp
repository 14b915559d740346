// CPU reference of Nick binarization: hand-computed masks (including exact ties and the even
// window placement), the integral-image sums against direct window sums, parameter and input
// validation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/error.h"
#include "kernels/nick.h"
#include "tests/kernels/kernel_test_util.h"

namespace mad::kernels {
namespace {

Image<std::uint8_t> from_rows(const std::vector<std::vector<int>>& rows) {
  Image<std::uint8_t> img(static_cast<int>(rows[0].size()), static_cast<int>(rows.size()));
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) img(y, x) = static_cast<std::uint8_t>(rows[y][x]);
  return img;
}

void expect_mask(const Image<std::uint8_t>& mask, const std::vector<std::vector<int>>& expected) {
  EXPECT_TRUE(test::images_equal(from_rows(expected).cview(), mask.cview()));
}

TEST(NickCpu, DecisionHandComputed) {
  // Window {19, 5, 29, 43}: m = 24, S2 = 3076, (3076 - 576) / 4 = 625, sqrt = 25,
  // T = 24 - 0.2 * 25 = 19 exactly (also in double), so p = 19 is a tie: not above T.
  EXPECT_EQ(nick_decide(19, 96, 3076, 4, -0.2), 0);
  EXPECT_EQ(nick_decide(20, 96, 3076, 4, -0.2), 255);
  // Window {9, 3, 11, 17}: m = 10, (500 - 100) / 4 = 100, T = 10 - 0.1 * 10 = 9: another tie.
  EXPECT_EQ(nick_decide(9, 40, 500, 4, -0.1), 0);
  EXPECT_EQ(nick_decide(10, 40, 500, 4, -0.1), 255);
  // All-zero window: T = 0 + k * 0 = 0; p = 0 is not above it.
  EXPECT_EQ(nick_decide(0, 0, 0, 9, -0.2), 0);
  // Flat window of 10s: T = 10 - 0.1 * sqrt((900 - 100) / 9) = 9.057; p = 10 is above.
  EXPECT_EQ(nick_decide(10, 90, 900, 9, -0.1), 255);
  // One pixel: S2 - m^2 = 0 exactly, T = p, never above.
  EXPECT_EQ(nick_decide(43, 43, 1849, 1, -0.2), 0);
}

TEST(NickCpu, MaskHandComputedOddWindow) {
  // w = 3, k = -0.1; thresholds computed by hand from the clipped windows:
  //   (0,0) {10,200,10,10}: m = 57.5, T = 57.5 - 0.1 sqrt((40300 - 3306.25) / 4) = 47.88 -> 0
  //   (0,1) six pixels incl. 200: m = 41.67, T = 33.63 -> 200 is above          -> 255
  //   (1,1) all nine: m = 31.11, T = 24.46                                        -> 0
  //   (2,2) {10,10,10,10}: m = 10, T = 10 - 0.1 sqrt((400 - 100) / 4) = 9.134     -> 255
  //   (2,1) six 10s: m = 10, T = 10 - 0.1 sqrt((600 - 100) / 6) = 9.087           -> 255
  const Image<std::uint8_t> img = from_rows({{10, 200, 10}, {10, 10, 10}, {10, 10, 10}});
  expect_mask(nick_cpu(img.cview(), {3, -0.1}), {{0, 255, 0}, {0, 0, 0}, {255, 255, 255}});
}

TEST(NickCpu, EvenWindowCoversTheNextRowAndColumn) {
  // w = 2: the window of (y, x) is rows y..y+1, columns x..x+1 (MATLAB's centre for even
  // sizes). Pixel (1,1) = 1 with zeros below and right: T = 0.25 - 0.1 sqrt(0.9375 / 4) =
  // 0.2016 -> 255. Under the other placement its window would hold the 255 and give 0.
  const Image<std::uint8_t> img = from_rows({{255, 0, 0}, {0, 1, 0}, {0, 0, 0}});
  expect_mask(nick_cpu(img.cview(), {2, -0.1}), {{255, 0, 0}, {0, 255, 0}, {0, 0, 0}});
}

TEST(NickCpu, SeedPlacementCentresAnEvenWindow) {
  // Seed 002 takes w / 2 on each side (lines 289-292): at w = 2, (1,1)'s window is the whole
  // image, holding the 255: T = 28.44 - 0.1 sqrt((65026 - 809.1) / 9) = 20.0 -> 0. (0,0)'s is
  // {255,0 / 0,1}: T = 64 - 0.1 sqrt((65026 - 4096) / 4) = 51.66 -> 255; zeros stay 0.
  const Image<std::uint8_t> img = from_rows({{255, 0, 0}, {0, 1, 0}, {0, 0, 0}});
  const NickParams seed{2, -0.1, NickPlacement::Seed};
  expect_mask(nick_cpu(img.cview(), seed), {{255, 0, 0}, {0, 0, 0}, {0, 0, 0}});
  // An even w under the seed's placement is the odd w + 1 under ours; odd w are placed alike.
  EXPECT_EQ(nick_before(seed), 1);
  EXPECT_EQ(nick_after(seed), 1);
  EXPECT_EQ(nick_before(NickParams{2, -0.1}), 0);
  EXPECT_EQ(nick_before(NickParams{7, -0.1, NickPlacement::Seed}), nick_before(NickParams{7}));
  EXPECT_EQ(parse_nick_placement("seed"), NickPlacement::Seed);
  EXPECT_STREQ(nick_placement_name(NickPlacement::Matlab), "matlab");
  EXPECT_THROW(parse_nick_placement("centre"), InvalidArgument);
}

TEST(NickCpu, TieMaskHandComputed) {
  // (0,0)'s window is the whole image: T = 19 exactly, p = 19 -> 0 (tie). The others:
  // (0,1) {5,43} T = 18.90; (1,0) {29,43} T = 30.72; (1,1) {43} T = 43: none above.
  const Image<std::uint8_t> img = from_rows({{19, 5}, {29, 43}});
  expect_mask(nick_cpu(img.cview(), {2, -0.2}), {{0, 0}, {0, 0}});
}

// Direct window sums, the plain O(w^2) definition, to check the integral-image path.
Image<std::uint8_t> nick_direct(const Image<std::uint8_t>& img, const NickParams& p) {
  Image<std::uint8_t> out(img.width(), img.height());
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) {
      std::uint64_t s = 0, s2 = 0;
      std::uint32_t n = 0;
      for (int yy = std::max(0, y - nick_before(p));
           yy <= std::min(img.height() - 1, y + nick_after(p)); ++yy)
        for (int xx = std::max(0, x - nick_before(p));
             xx <= std::min(img.width() - 1, x + nick_after(p)); ++xx) {
          s += img(yy, xx);
          s2 += img(yy, xx) * img(yy, xx);
          ++n;
        }
      out(y, x) = nick_decide(img(y, x), s, s2, n, p.k);
    }
  return out;
}

TEST(NickCpu, IntegralSumsEqualDirectSums) {
  const std::uint32_t seed = test::announce_seed("NickCpu.IntegralSumsEqualDirectSums", 4401);
  int run = 0;
  for (const test::Size s : {test::Size{7, 3}, test::Size{61, 47}, test::Size{40, 101}}) {
    for (int window : {2, 3, 4, 7, 15, 101}) {
      if (window > s.width || window > s.height) continue;
      for (double k : {-0.2, -0.137, -0.01}) {
        const Image<std::uint8_t> img =
            test::random_bytes(s.width, s.height, seed + run++, s.width + 3);
        EXPECT_TRUE(test::images_equal(nick_direct(img, {window, k}).cview(),
                                       nick_cpu(img.cview(), {window, k}).cview()))
            << test::size_name(s) << " w=" << window << " k=" << k;
      }
    }
  }
}

// The seed's window loop (nick_cpu_window_loop) is the oracle of small cases: it gives the
// test's own direct sums and the integral-image reference bit for bit, under both placements;
// and the seed's even w equals our w + 1.
TEST(NickCpu, WindowLoopEqualsIntegralUnderBothPlacements) {
  const std::uint32_t seed =
      test::announce_seed("NickCpu.WindowLoopEqualsIntegralUnderBothPlacements", 4402);
  int run = 0;
  for (const test::Size s : {test::Size{7, 3}, test::Size{34, 34}, test::Size{61, 47},
                             test::Size{40, 101}, test::Size{101, 102}})
    for (int window : {2, 3, 4, 7, 16, 33, 64, 100, 101}) {
      if (window > s.width || window > s.height) continue;
      for (const NickPlacement placement : {NickPlacement::Matlab, NickPlacement::Seed})
        for (double k : {-0.2, -0.01}) {
          const Image<std::uint8_t> img =
              test::random_bytes(s.width, s.height, seed + run++, s.width + 5);
          const NickParams p{window, k, placement};
          Image<std::uint8_t> loop(s.width, s.height);
          nick_cpu_window_loop(img.cview(), p, loop.view());
          const std::string what = test::size_name(s) + " w=" + std::to_string(window) + " " +
                                   nick_placement_name(placement);
          EXPECT_TRUE(test::images_equal(nick_cpu(img.cview(), p).cview(), loop.cview())) << what;
          EXPECT_TRUE(test::images_equal(nick_direct(img, p).cview(), loop.cview())) << what;
          if (placement == NickPlacement::Seed && window % 2 == 0 && window + 1 <= s.width &&
              window + 1 <= s.height)
            EXPECT_TRUE(
                test::images_equal(nick_cpu(img.cview(), {window + 1, k}).cview(), loop.cview()))
                << what;
        }
    }
  Image<std::uint8_t> wrong(3, 3);
  const Image<std::uint8_t> img(4, 4, 9);
  EXPECT_THROW(nick_cpu_window_loop(img.cview(), {2, -0.1}, wrong.view()), InvalidArgument);
  EXPECT_THROW(nick_cpu_window_loop(img.cview(), {5, -0.1}, Image<std::uint8_t>(4, 4).view()),
               InputError);
}

TEST(NickCpu, ValidatesParameters) {
  EXPECT_NO_THROW(validate_nick_params({2, -0.2}));
  EXPECT_NO_THROW(validate_nick_params({101, -0.01}));
  for (int window : {-3, 0, 1, 102})
    EXPECT_THROW(validate_nick_params({window, -0.1}), InvalidArgument) << window;
  for (double k : {-0.21, -0.0099, 0.0, 0.1, std::numeric_limits<double>::quiet_NaN()})
    EXPECT_THROW(validate_nick_params({15, k}), InvalidArgument) << k;
}

TEST(NickCpu, RejectsBadInput) {
  const Image<std::uint8_t> img(20, 10, 5);
  EXPECT_NO_THROW(nick_cpu(img.cview(), {10, -0.1}));
  try {
    nick_cpu(img.cview(), {11, -0.1});
    ADD_FAILURE() << "an 11x11 window was accepted on a 20x10 image";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("larger than"), std::string::npos) << e.what();
  }
  const Image<std::uint8_t> one(1, 1, 5);
  EXPECT_THROW(nick_cpu(one.cview(), {2, -0.1}), InputError);  // no legal window fits 1x1
  EXPECT_THROW(nick_cpu(ImageView<const std::uint8_t>(), {2, -0.1}), InputError);
  EXPECT_THROW(nick_cpu(img.cview(), {2, 0.5}), InvalidArgument);
  Image<std::uint8_t> wrong(19, 10);
  EXPECT_THROW(nick_cpu(img.cview(), {3, -0.1}, wrong.view()), InvalidArgument);
}

}  // namespace
}  // namespace mad::kernels
