// Map and pooling (spec §3.8) on the original's own inputs, so only this step is tested.
#include "detection/detection_map.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "common/error.h"
#include "tests/detection/rocket_pair.h"

namespace mad::detection {
namespace {

// η = ξ·D_loc is one multiplication of the original's own inputs: bit-equal.
constexpr double kProductExact = 0.0;
// RMS of 68,224 squares summed in a different order than MATLAB's: a few ulps relative.
constexpr double kPoolRelTol = 1e-14;

TEST(DetectionMap, RocketMapAndScoreFromReferenceInputs) {
  const Image<double> msk = test::load_reference_map("hi_06_msk");
  const Image<double> lmse = test::load_reference_map("hi_07_lmse");
  const BlockGrid grid(msk.width(), msk.height());
  std::vector<double> xi(grid.count());
  for (int i = 0; i < grid.rows; ++i)
    for (int j = 0; j < grid.cols; ++j)
      xi[static_cast<std::size_t>(i) * grid.cols + j] = msk(4 * i, 4 * j);
  Image<double> map(msk.width(), msk.height(), -1.0);
  detection_map_cpu(grid, xi.data(), lmse.cview(), map.view());
  const Image<double> expected = test::load_reference_map("hi_08_map");
  EXPECT_LE(test::max_abs_diff(map.cview(), expected.cview()), kProductExact);
  const double hi = 7.6349873846403638;  // tests/data/reference/maps/scores.txt
  EXPECT_NEAR(pool_detection_cpu(map.cview()), hi, hi * kPoolRelTol);
}

TEST(DetectionMap, ZeroOutsideTilesAndCropCount) {
  // 37x41: tiles cover rows 0..23 and columns 0..27 (P = 6 and 7); everything else is 0 even
  // where D_loc is not. The crop is rows 16..19, columns 16..23: (37-33)(41-33) = 32 pixels.
  const int w = 41, h = 37;
  const BlockGrid grid(w, h);
  ASSERT_EQ(grid.rows, 6);
  ASSERT_EQ(grid.cols, 7);
  std::vector<double> xi(grid.count(), 2.0);
  Image<double> lmse(w, h, 3.0), map(w, h, -1.0);
  detection_map_cpu(grid, xi.data(), lmse.cview(), map.view());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      EXPECT_EQ(map(y, x), (y < 24 && x < 28) ? 6.0 : 0.0) << y << "," << x;
  EXPECT_EQ(pool_detection_cpu(map.cview()), 6.0);
  // Only crop pixels count: a value outside the crop (row 15) changes nothing.
  map(15, 20) = 1e6;
  map(20, 24) = 1e6;  // column 24 is the first one dropped on the right (41-17)
  EXPECT_EQ(pool_detection_cpu(map.cview()), 6.0);
  map(19, 23) = 0.0;  // the last pooled pixel
  EXPECT_DOUBLE_EQ(pool_detection_cpu(map.cview()), std::sqrt(36.0 * 31 / 32));
}

TEST(DetectionMap, ShapesAreChecked) {
  const BlockGrid grid(40, 40);
  std::vector<double> xi(grid.count());
  Image<double> lmse(40, 41), map(40, 40);
  EXPECT_THROW(detection_map_cpu(grid, xi.data(), lmse.cview(), map.view()), InvalidArgument);
}

}  // namespace
}  // namespace mad::detection
