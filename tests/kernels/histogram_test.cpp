// CPU reference of the histogram: hand-computed counts, the adversarial patterns' known
// shapes, padding never counted, bad input.
#include <gtest/gtest.h>

#include <numeric>

#include "common/error.h"
#include "kernels/histogram.h"
#include "kernels/histogram_patterns.h"
#include "tests/kernels/kernel_test_util.h"

namespace mad::kernels {
namespace {

std::uint64_t total(const Histogram& h) {
  return std::accumulate(h.begin(), h.end(), std::uint64_t{0});
}
int nonzero_bins(const Histogram& h) {
  return static_cast<int>(
      std::count_if(h.begin(), h.end(), [](std::uint32_t c) { return c != 0; }));
}

TEST(HistogramCpu, HandComputed) {
  // 3x2 image {0 0 255 / 7 7 7} with 2 padding bytes per row that must not be counted.
  Image<std::uint8_t> img(3, 2, 0x42, 5);
  img(0, 0) = 0, img(0, 1) = 0, img(0, 2) = 255;
  img(1, 0) = 7, img(1, 1) = 7, img(1, 2) = 7;
  const Histogram h = histogram_cpu(img.cview());
  EXPECT_EQ(h[0], 2u);
  EXPECT_EQ(h[7], 3u);
  EXPECT_EQ(h[255], 1u);
  EXPECT_EQ(h[0x42], 0u);
  EXPECT_EQ(total(h), 6u);
  EXPECT_EQ(nonzero_bins(h), 3);
}

TEST(HistogramCpu, OnePixel) {
  Image<std::uint8_t> img(1, 1, 200);
  const Histogram h = histogram_cpu(img.cview());
  EXPECT_EQ(h[200], 1u);
  EXPECT_EQ(total(h), 1u);
}

TEST(HistogramCpu, PatternShapes) {
  const std::uint32_t seed = test::announce_seed("HistogramCpu.PatternShapes", 4201);
  const int w = 2560, h = 9;  // 2560 = 10 * 256 columns, so column patterns divide evenly
  const auto hist = [&](HistogramPattern p) {
    return histogram_cpu(make_histogram_pattern(p, w, h, seed, w + 5).cview());
  };
  const Histogram mono = hist(HistogramPattern::Monochrome);
  EXPECT_EQ(mono[seed % 256], static_cast<std::uint32_t>(w * h));
  EXPECT_EQ(nonzero_bins(mono), 1);
  const Histogram s256 = hist(HistogramPattern::Stripes256);  // x mod 256: 10 columns per value
  for (int v = 0; v < 256; ++v) EXPECT_EQ(s256[v], static_cast<std::uint32_t>(10 * h)) << v;
  const Histogram s20 = hist(HistogramPattern::Stripes20);  // 8-pixel stripes, 20 values, 0..255
  EXPECT_EQ(nonzero_bins(s20), 20);
  EXPECT_EQ(s20[0], static_cast<std::uint32_t>(8 * 16 * h));  // 2560 / 160 = 16 cycles
  EXPECT_EQ(s20[255], static_cast<std::uint32_t>(8 * 16 * h));
  const Histogram gh = hist(HistogramPattern::GradientHorizontal);
  EXPECT_EQ(nonzero_bins(gh), 256);
  EXPECT_EQ(gh[0], static_cast<std::uint32_t>(h * 6));  // round(255 x / 2559) == 0 for x <= 5
  const Histogram gv = histogram_cpu(
      make_histogram_pattern(HistogramPattern::GradientVertical, 3, 256, seed).cview());
  for (int v = 0; v < 256; ++v) EXPECT_EQ(gv[v], 3u) << v;  // one row per value
  for (HistogramPattern p : all_histogram_patterns())
    EXPECT_EQ(total(hist(p)), std::uint64_t(w) * h) << histogram_pattern_name(p);
  const Histogram random = hist(HistogramPattern::UniformRandom);
  EXPECT_EQ(nonzero_bins(random), 256);  // an empty bin has probability ~256 e^-90
}

TEST(HistogramCpu, RejectsEmpty) {
  EXPECT_THROW(histogram_cpu(ImageView<const std::uint8_t>()), InputError);
  const std::uint8_t px = 0;
  EXPECT_THROW(histogram_cpu(ImageView<const std::uint8_t>(&px, 0, 1)), InputError);
}

}  // namespace
}  // namespace mad::kernels
