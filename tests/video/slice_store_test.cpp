// The spatiotemporal slices (mad/video/slice_store.h, shared/stmad-spec.md §5.1): positions
// 8k+4, column slices H x T and row slices T x W (not transposed), native samples kept.
#include <gtest/gtest.h>

#include <cstdint>

#include "common/error.h"
#include "mad/video/slice_store.h"

namespace mad::video {
namespace {

// A frame whose sample at (y, x) of frame t encodes all three, so a misplaced one shows.
LumaFrame coded_frame(int width, int height, int t, int bit_depth) {
  LumaFrame f;
  f.width = width;
  f.height = height;
  f.bit_depth = bit_depth;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const int code = 1000 * t + 10 * y + x;  // frame, row and column in one number
      if (bit_depth <= 8)
        f.samples8.push_back(static_cast<std::uint8_t>((7 * t + 3 * y + x) & 0xFF));
      else
        f.samples16.push_back(static_cast<std::uint16_t>(code & 0xFFFF));
    }
  return f;
}

TEST(StmadSlices, PositionsAreEightKPlusFour) {
  EXPECT_EQ(slice_position(0), 4);
  EXPECT_EQ(slice_position(1), 12);
  EXPECT_EQ(slice_position(6), 52);
}

// 45 x 38 (neither a multiple of 8): 5 column slices (the last at x = 36), 4 row slices (the
// last at y = 28), built from all rows and columns (no crop).
TEST(StmadSlices, ShapesAndSamplesOfADeepClip) {
  const int W = 45, H = 38, T = 5;
  SliceStore store(W, H);
  for (int t = 0; t < T; ++t) store.add(coded_frame(W, H, t, 10));
  EXPECT_EQ(store.frames(), T);
  ASSERT_EQ(store.column_slices(), 5);
  ASSERT_EQ(store.row_slices(), 4);
  const LumaFrame col = store.column_slice(4);
  EXPECT_EQ(col.width, T);
  EXPECT_EQ(col.height, H);
  EXPECT_EQ(col.bit_depth, 10);
  ASSERT_EQ(col.samples16.size(), static_cast<std::size_t>(T * H));
  for (int y = 0; y < H; ++y)
    for (int t = 0; t < T; ++t)
      EXPECT_EQ(col.samples16[y * T + t], 1000 * t + 10 * y + 36) << y << "," << t;
  const LumaFrame row = store.row_slice(3);
  EXPECT_EQ(row.width, W);
  EXPECT_EQ(row.height, T);
  for (int t = 0; t < T; ++t)
    for (int x = 0; x < W; ++x)
      EXPECT_EQ(row.samples16[t * W + x], 1000 * t + 10 * 28 + x) << t << "," << x;
}

TEST(StmadSlices, EightBitSamplesStayEightBit) {
  const int W = 40, H = 34, T = 3;
  SliceStore store(W, H);
  for (int t = 0; t < T; ++t) store.add(coded_frame(W, H, t, 8));
  const LumaFrame col = store.column_slice(1), row = store.row_slice(2);
  EXPECT_TRUE(col.samples16.empty());
  ASSERT_EQ(col.samples8.size(), static_cast<std::size_t>(H * T));
  EXPECT_EQ(col.samples8[5 * T + 2], (7 * 2 + 3 * 5 + 12) & 0xFF);
  EXPECT_EQ(row.samples8[1 * W + 7], (7 * 1 + 3 * 20 + 7) & 0xFF);
}

TEST(StmadSlices, RefusesAFrameOfAnotherSizeOrDepth) {
  SliceStore store(40, 34);
  store.add(coded_frame(40, 34, 0, 8));
  EXPECT_THROW(store.add(coded_frame(41, 34, 1, 8)), InputError);
  EXPECT_THROW(store.add(coded_frame(40, 34, 1, 10)), InputError);
}

}  // namespace
}  // namespace mad::video
