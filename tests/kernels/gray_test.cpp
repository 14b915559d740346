// CPU reference of gray/darken: hand-computed values, the fixed-point kernel formula proved
// equal to #2's rgb_to_gray_matlab on every 8-bit triple, layouts and bad input.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "common/error.h"
#include "common/image_io.h"
#include "kernels/gray.h"
#include "kernels/gray_formula.h"
#include "tests/kernels/kernel_test_util.h"

namespace mad::kernels {
namespace {

struct Case {
  std::uint8_t r, g, b, expected;
};

Image<std::uint8_t> gray_of_pixels(const std::vector<Case>& cases, GrayWeighting w) {
  std::vector<std::uint8_t> rgb;
  for (const Case& c : cases) rgb.insert(rgb.end(), {c.r, c.g, c.b});
  const int n = static_cast<int>(cases.size());
  return gray_cpu(interleaved_rgb(ImageView<const std::uint8_t>(rgb.data(), 3 * n, 1), 3), w);
}

TEST(GrayCpu, MatlabWeightingHandComputed) {
  // Exact weighted sums (coefficients of spec §2), rounded half away from zero:
  const std::vector<Case> cases = {
      {0, 0, 0, 0},         {255, 0, 0, 76},  // 76.2287
      {0, 255, 0, 150},                       // 149.6960
      {0, 0, 255, 29},                        // 29.0753
      {100, 150, 200, 141},                   // 140.7542
      {1, 1, 1, 1},                           // 0.999999999999999
      {255, 255, 255, 255},                   // 254.99999999999974
      {255, 206, 117, 211},                   // 210.5000046, the triple closest to a tie
      {3, 7, 11, 6},                          // 6.2603
  };
  const Image<std::uint8_t> g = gray_of_pixels(cases, GrayWeighting::Matlab);
  for (std::size_t i = 0; i < cases.size(); ++i)
    EXPECT_EQ(g(0, static_cast<int>(i)), cases[i].expected) << "pixel " << i;
}

TEST(GrayCpu, DarkenHandComputed) {
  // g = 0.3R + 0.59G + 0.11B, out = floor(0.6 g + 0.5), in exact arithmetic:
  const std::vector<Case> cases = {
      {0, 0, 0, 0},          // 0.5
      {255, 255, 255, 153},  // 153.5
      {100, 150, 200, 84},   // 84.8
      {10, 20, 30, 11},      // 11.36
      {1, 0, 20, 2},         // exactly 2.0 (a float evaluation gives 1.99999..., i.e. 1)
  };
  const Image<std::uint8_t> g = gray_of_pixels(cases, GrayWeighting::Darken);
  for (std::size_t i = 0; i < cases.size(); ++i)
    EXPECT_EQ(g(0, static_cast<int>(i)), cases[i].expected) << "pixel " << i;
}

// The kernels' fixed-point MATLAB weighting equals #2's conversion on all 2^24 triples, and
// darken's integer form equals floor(0.6 (0.3R + 0.59G + 0.11B) + 0.5) in exact rationals.
TEST(GrayCpu, KernelFormulasExactOnEveryTriple) {
  long long matlab_bad = 0, darken_bad = 0;
  for (unsigned r = 0; r < 256; ++r)
    for (unsigned g = 0; g < 256; ++g)
      for (unsigned b = 0; b < 256; ++b) {
        if (gray_matlab_fixed(r, g, b) != rgb_to_gray_matlab(r, g, b)) ++matlab_bad;
        // 1000 * (0.6 * g + 0.5) = 6 * (30R + 59G + 11B) + 500, floored by integer division.
        const unsigned exact = (6 * (30 * r + 59 * g + 11 * b) + 500) / 1000;
        if (gray_darken_exact(r, g, b) != exact) ++darken_bad;
      }
  EXPECT_EQ(matlab_bad, 0);
  EXPECT_EQ(darken_bad, 0);
}

TEST(GrayCpu, LayoutsAndPitchesAgree) {
  const std::uint32_t seed = test::announce_seed("GrayCpu.LayoutsAndPitchesAgree", 4101);
  const int w = 13, h = 5;
  const Image<std::uint8_t> rgba = test::random_bytes(4 * w, h, seed, 4 * w + 7);
  // The same pixels as tight RGB and as three planes.
  Image<std::uint8_t> rgb(3 * w, h);
  std::vector<std::uint8_t> planes(3 * w * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 3; ++c) {
        rgb(y, 3 * x + c) = rgba(y, 4 * x + c);
        planes[c * w * h + y * w + x] = rgba(y, 4 * x + c);
      }
  for (GrayWeighting weighting : {GrayWeighting::Matlab, GrayWeighting::Darken}) {
    const Image<std::uint8_t> expected = gray_cpu(interleaved_rgb(rgb.cview(), 3), weighting);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const std::uint8_t r = rgb(y, 3 * x), g = rgb(y, 3 * x + 1), b = rgb(y, 3 * x + 2);
        ASSERT_EQ(expected(y, x), weighting == GrayWeighting::Matlab ? rgb_to_gray_matlab(r, g, b)
                                                                     : gray_darken_exact(r, g, b));
      }
    EXPECT_TRUE(test::images_equal(expected.cview(),
                                   gray_cpu(interleaved_rgb(rgba.cview(), 4), weighting).cview()));
    EXPECT_TRUE(test::images_equal(
        expected.cview(), gray_cpu(planar_rgb(planes.data(), w, h, w, w * h), weighting).cview()));
    // A padded output pitch: the padding is left alone.
    Image<std::uint8_t> padded(w, h, 0x77, w + 3);
    gray_cpu(interleaved_rgb(rgb.cview(), 3), weighting, padded.view());
    EXPECT_TRUE(test::images_equal(expected.cview(), padded.cview()));
    for (int y = 0; y < h; ++y) EXPECT_EQ(padded.row(y)[w], 0x77);
  }
}

TEST(GrayCpu, RejectsBadInput) {
  const std::vector<std::uint8_t> px(64, 1);
  for (int channels : {1, 2, 5})
    EXPECT_THROW(
        interleaved_rgb(ImageView<const std::uint8_t>(px.data(), 2 * channels, 2), channels),
        InputError)
        << channels << " channels";
  EXPECT_THROW(interleaved_rgb(ImageView<const std::uint8_t>(px.data(), 0, 2), 3), InputError);
  EXPECT_THROW(interleaved_rgb(ImageView<const std::uint8_t>(px.data(), 6, 0), 3), InputError);
  EXPECT_THROW(interleaved_rgb(ImageView<const std::uint8_t>(px.data(), 7, 2), 3), InvalidArgument);
  EXPECT_THROW(planar_rgb(px.data(), 4, 4, 4, 15), InvalidArgument);  // planes overlap
  EXPECT_THROW(planar_rgb(px.data(), 4, 4, 3, 16), InvalidArgument);  // pitch < width
  try {
    interleaved_rgb(ImageView<const std::uint8_t>(px.data(), 2, 2), 1);
    ADD_FAILURE() << "a gray image was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("got 1 channel"), std::string::npos) << e.what();
  }
  Image<std::uint8_t> wrong(3, 2);
  EXPECT_THROW(gray_cpu(interleaved_rgb(ImageView<const std::uint8_t>(px.data(), 6, 2), 3),
                        GrayWeighting::Matlab, wrong.view()),
               InvalidArgument);
}

}  // namespace
}  // namespace mad::kernels
