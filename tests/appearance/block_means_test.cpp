// The CPU block means (appearance/block_means.h), the reference of the mean-only A5 forms:
// exact on inputs whose sums are exact, the block grid's edges, a padded pitch.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "appearance/block_means.h"
#include "common/error.h"

namespace mad::appearance {
namespace {

TEST(BlockMeansCpu, LinearRampGivesTheBlockCentre) {
  // a(y, x) = x + 1000 y: every block's mean is the value at its centre (+7.5, +7.5), exactly
  // (integer sums far below 2^53).
  const int w = 61, h = 47;
  Image<double> a(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) a(y, x) = x + 1000.0 * y;
  const BlockGrid grid(w, h);
  ASSERT_EQ(grid.cols, 12);
  ASSERT_EQ(grid.rows, 8);
  const std::ptrdiff_t pitch = grid.cols + 3;
  std::vector<double> mean(pitch * grid.rows, -1.0);
  subband_block_means_cpu(a.cview(), grid, mean.data(), pitch);
  for (int by = 0; by < grid.rows; ++by)
    for (int bx = 0; bx < grid.cols; ++bx)
      EXPECT_EQ(mean[by * pitch + bx], (4 * bx + 7.5) + 1000.0 * (4 * by + 7.5)) << by << "," << bx;
  for (int by = 0; by < grid.rows; ++by)
    for (std::ptrdiff_t bx = grid.cols; bx < pitch; ++bx)
      EXPECT_EQ(mean[by * pitch + bx], -1.0) << "wrote into the row padding";
}

TEST(BlockMeansCpu, SixteenBySixteenIsOneBlock) {
  Image<double> a(16, 16);
  double sum = 0;
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 16; ++x) sum += (a(y, x) = (x * 7 + y * 3) % 11);
  double mean = -1;
  subband_block_means_cpu(a.cview(), BlockGrid(16, 16), &mean, 1);
  EXPECT_EQ(mean, sum / 256);
}

TEST(BlockMeansCpu, BelowSixteenWritesNothingAndShapesMustAgree) {
  Image<double> a(15, 40);
  double mean = -1;
  subband_block_means_cpu(a.cview(), BlockGrid(15, 40), &mean, 1);
  EXPECT_EQ(mean, -1);
  EXPECT_THROW(subband_block_means_cpu(a.cview(), BlockGrid(16, 40), &mean, 1), InvalidArgument);
}

}  // namespace
}  // namespace mad::appearance
