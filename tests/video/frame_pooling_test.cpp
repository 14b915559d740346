// The pooled figures of mad video (mad/video/frame_pooling.h): vmaf's harmonic mean and numpy's
// default (linear) percentiles, checked against values worked by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "mad/video/frame_pooling.h"

namespace mad {
namespace {

TEST(FramePooling, FiguresOfFiveValues) {
  // Given out of order: pooling sorts for the percentiles, sums in the order given.
  const PooledFigure f = pool_frames({4, 1, 10, 3, 2});
  EXPECT_EQ(f.count, 5);
  EXPECT_EQ(f.min, 1);
  EXPECT_EQ(f.max, 10);
  EXPECT_DOUBLE_EQ(f.mean, 4);
  // vmaf's: 1 / mean(1 / (x + 1)) - 1.
  EXPECT_DOUBLE_EQ(f.harmonic_mean,
                   5.0 / (1.0 / 5 + 1.0 / 2 + 1.0 / 11 + 1.0 / 4 + 1.0 / 3) - 1.0);
  // numpy.percentile([1, 2, 3, 4, 10], [1, 5, 50, 95]) = 1.04, 1.2, 3, 8.8.
  EXPECT_DOUBLE_EQ(f.p1, 1.04);
  EXPECT_DOUBLE_EQ(f.p5, 1.2);
  EXPECT_DOUBLE_EQ(f.p50, 3);
  EXPECT_DOUBLE_EQ(f.p95, 8.8);
}

TEST(FramePooling, HarmonicMeanStaysFiniteWithAFrameOfZero) {
  const PooledFigure f = pool_frames({0, 0, 3});
  EXPECT_DOUBLE_EQ(f.harmonic_mean, 3.0 / (1 + 1 + 0.25) - 1.0);
}

TEST(FramePooling, OneValueIsEveryFigure) {
  const PooledFigure f = pool_frames({7.5});
  for (double v : {f.min, f.max, f.mean, f.harmonic_mean, f.p1, f.p5, f.p50, f.p95})
    EXPECT_DOUBLE_EQ(v, 7.5);
}

TEST(FramePooling, NoValuesAreNaN) {
  const PooledFigure f = pool_frames({});
  EXPECT_EQ(f.count, 0);
  EXPECT_TRUE(std::isnan(f.mean));
  EXPECT_TRUE(std::isnan(f.p50));
}

TEST(FramePooling, NamedFiguresInTheLogsOrder) {
  const auto named = named_figures(pool_frames({1, 2}));
  ASSERT_EQ(named.size(), 8u);
  EXPECT_EQ(named[0].first, "min");
  EXPECT_EQ(named[3].first, "harmonic_mean");
  EXPECT_EQ(named[7].first, "p95");
  EXPECT_DOUBLE_EQ(named[7].second, 1.95);
}

}  // namespace
}  // namespace mad
