// Block statistics (spec §3.3-3.5): the rocket maps of the original, brute-force checks of the
// 8x8 min-std candidates and their edge availability rule.
#include "detection/block_stats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "tests/detection/rocket_pair.h"

namespace mad::detection {
namespace {

// Statistics of 256 (or 64) samples of magnitude <= 1.5, summed in a possibly different order
// than the original's C loops: ~1e-16 relative per value; the spec's map bound is 1e-11.
constexpr double kStatTol = 1e-14;
// Brute force below sums integer-valued images: every sum (means are dyadic: /64, /256) is
// exact in any order, so the two must agree bit for bit.
constexpr double kBruteTol = 0.0;

// Block statistics of the original's own CSF-filtered images, so only this step is tested.
DetectionBlockStats rocket_stats() {
  const Image<double> ref = test::load_reference_map("hi_03_csf_ref");
  const Image<double> dst = test::load_reference_map("hi_03_csf_dst");
  Image<double> err(ref.width(), ref.height());
  error_image_cpu(ref.cview(), dst.cview(), err.view());
  return detection_block_stats_cpu(ref.cview(), err.cview());
}

TEST(BlockStats, RocketMapsMatchReference) {
  const DetectionBlockStats st = rocket_stats();
  ASSERT_EQ(st.grid.rows, 80);  // floor((333-16)/4)+1
  ASSERT_EQ(st.grid.cols, 61);  // floor((257-16)/4)+1
  const struct {
    const std::vector<double>* blocks;
    const char* name;
  } cases[] = {{&st.mean_ref, "hi_04_mean_ref"},
               {&st.std_err, "hi_04_std_err"},
               {&st.std_min_ref, "hi_04_stdmin_ref"}};
  for (const auto& c : cases) {
    const Image<double> mine = test::tiles_of(*c.blocks, st.grid);
    const Image<double> expected = test::load_reference_map(c.name);
    const double err = test::max_abs_diff(mine.cview(), expected.cview());
    EXPECT_LE(err, kStatTol) << c.name;
    RecordProperty(c.name, std::to_string(err));
  }
}

// Unbiased std of the side x side window at (y0, x0), straight from the definition.
double brute_std(const Image<double>& img, int y0, int x0, int side) {
  double sum = 0;
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x) sum += img(y0 + y, x0 + x);
  const double mean = sum / (side * side);
  double ssd = 0;
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x)
      ssd += (img(y0 + y, x0 + x) - mean) * (img(y0 + y, x0 + x) - mean);
  return std::sqrt(ssd / (side * side - 1));
}

// σ_mod by the spec's wording: s8 at (p_r,p_c) always; +4 down if p_r+5 <= M-16; +4 right if
// p_c+5 <= N-16; the diagonal if both.
double brute_min_std(const Image<double>& img, int pr, int pc) {
  const int m = img.height(), n = img.width();
  const bool down = pr + 5 <= m - 16, right = pc + 5 <= n - 16;
  double best = brute_std(img, pr, pc, 8);
  if (down) best = std::min(best, brute_std(img, pr + 4, pc, 8));
  if (right) best = std::min(best, brute_std(img, pr, pc + 4, 8));
  if (down && right) best = std::min(best, brute_std(img, pr + 4, pc + 4, 8));
  return best;
}

TEST(BlockStats, MinStdMatchesBruteForceOnSmallShapes) {
  // 37x41: (n-16) mod 4 = 1; 36x40: (n-16) mod 4 = 0, where the last grid row/column exists
  // but is not a candidate of the one before it.
  for (auto [w, h] : {std::pair{41, 37}, std::pair{40, 36}, std::pair{43, 39}}) {
    const Image<double> img = test::random_image(w, h, 77u + w);
    Image<double> zero(w, h);
    const DetectionBlockStats st = detection_block_stats_cpu(img.cview(), zero.cview());
    for (int i = 0; i < st.grid.rows; ++i)
      for (int j = 0; j < st.grid.cols; ++j) {
        const std::size_t b = static_cast<std::size_t>(i) * st.grid.cols + j;
        EXPECT_NEAR(st.std_min_ref[b], brute_min_std(img, 4 * i, 4 * j), kBruteTol)
            << w << "x" << h << " block " << i << "," << j;
        EXPECT_EQ(st.std_err[b], 0.0);
      }
  }
}

TEST(BlockStats, EdgeAvailabilityRule) {
  EXPECT_TRUE(min_std_next_available(16, 37));   // 21 <= 21
  EXPECT_FALSE(min_std_next_available(16, 36));  // 21 > 20, though a block starts at 20
  EXPECT_FALSE(min_std_next_available(20, 37));
  EXPECT_TRUE(min_std_next_available(492, 513));
  EXPECT_FALSE(min_std_next_available(492, 512));
}

TEST(BlockStats, FlatWindowReachesOnlyAvailableBlocks) {
  // A flat 8x8 window at the last grid row (row 20) and, separately, the last grid column
  // (column 24 for width 40). s8 = 0 there, so σ_mod = 0 exactly for the blocks that may use
  // it; for 36x40 the block one step above/left must NOT see it; for 37x41 it must.
  for (const bool odd : {false, true}) {
    const int w = odd ? 41 : 40, h = odd ? 37 : 36;
    Image<double> img = test::random_image(w, h, 4242u);
    for (int y = 20; y < 28; ++y)
      for (int x = 0; x < 8; ++x) img(y, x) = 100.0;
    for (int y = 0; y < 8; ++y)
      for (int x = 24; x < 32; ++x) img(y, x) = 100.0;
    Image<double> zero(w, h);
    const DetectionBlockStats st = detection_block_stats_cpu(img.cview(), zero.cview());
    const auto at = [&](int i, int j) {
      return st.std_min_ref[static_cast<std::size_t>(i) * st.grid.cols + j];
    };
    EXPECT_EQ(at(5, 0), 0.0);  // own window
    EXPECT_EQ(at(0, 6), 0.0);
    if (odd) {
      EXPECT_EQ(at(4, 0), 0.0) << "row 20 is a candidate of block row 16 when M = 37";
      EXPECT_EQ(at(0, 5), 0.0) << "column 24 is a candidate of block column 20 when N = 41";
    } else {
      EXPECT_GT(at(4, 0), 0.0) << "row 20 is not a candidate of block row 16 when M = 36";
      EXPECT_GT(at(0, 5), 0.0) << "column 24 is not a candidate of block column 20 when N = 40";
    }
  }
}

TEST(BlockStats, MeanAndErrorStdOnKnownBlock) {
  // A ramp error image: within each 16x16 block the error takes 0..255 once, so σ_err =
  // sqrt(Σ(k-127.5)²/255) = sqrt(256·(256²-1)/12/255), and a constant reference has μ = c.
  const int w = 16, h = 16;
  Image<double> ref(w, h, 0.75), err(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) err(y, x) = 16 * y + x;
  const DetectionBlockStats st = detection_block_stats_cpu(ref.cview(), err.cview());
  ASSERT_EQ(st.grid.count(), 1u);
  EXPECT_EQ(st.mean_ref[0], 0.75);
  EXPECT_DOUBLE_EQ(st.std_err[0], std::sqrt(256.0 * (256.0 * 256.0 - 1) / 12.0 / 255.0));
  EXPECT_EQ(st.std_min_ref[0], 0.0);
}

TEST(BlockStats, TooSmallGivesEmptyGridAndShapesAreChecked) {
  Image<double> a(15, 20), b(15, 20), c(16, 20);
  EXPECT_EQ(detection_block_stats_cpu(a.cview(), b.cview()).grid.count(), 0u);
  EXPECT_THROW(detection_block_stats_cpu(a.cview(), c.cview()), InvalidArgument);
  Image<double> e(15, 20);
  EXPECT_THROW(error_image_cpu(a.cview(), c.cview(), e.view()), InvalidArgument);
}

TEST(BlockStats, ErrorImageIsDstMinusRef) {
  Image<double> r(3, 2, 1.5), d(3, 2, 4.0, 5), e(3, 2, 0.0, 4);
  d(1, 2) = -1.0;
  error_image_cpu(r.cview(), d.cview(), e.view());
  EXPECT_EQ(e(0, 0), 2.5);
  EXPECT_EQ(e(1, 2), -2.5);
}

}  // namespace
}  // namespace mad::detection
