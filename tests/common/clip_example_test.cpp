// The worked example clip of shared/stmad-spec.md §11 (tests/support/stmad_example_clip.h):
// its first pixels and the md5 of its four files are the spec's, so the generator and the
// writers produce the spec's bytes, and the clip readers are then checked on those files.
#include <gtest/gtest.h>

#include <vector>

#include "tests/support/stmad_example_clip.h"
#include "tests/support/test_support.h"

namespace mad::test {
namespace {

std::vector<int> first_pixels(const LumaFrame& f, int row) {
  std::vector<int> out;
  for (int x = 0; x < 8; ++x)
    out.push_back(f.samples8[static_cast<std::size_t>(row) * f.width + x]);
  return out;
}

TEST(StmadExampleClip, FirstPixelsAreTheSpecs) {
  const LumaFrame r = stmad_example_ref_frame(0);
  const LumaFrame d = stmad_example_dist_frame(0);
  EXPECT_EQ(first_pixels(r, 0), (std::vector<int>{124, 125, 126, 112, 113, 99, 104, 109}));
  EXPECT_EQ(first_pixels(r, 1), (std::vector<int>{129, 115, 116, 117, 103, 108, 98, 103}));
  EXPECT_EQ(first_pixels(d, 0), (std::vector<int>{104, 105, 106, 92, 125, 111, 116, 121}));
  EXPECT_EQ(first_pixels(d, 1), (std::vector<int>{109, 95, 96, 97, 115, 120, 110, 115}));
}

TEST(StmadExampleClip, FilesHaveTheSpecsMd5) {
  using C = StmadExampleClip;
  const auto dir = fresh_scratch_dir("stmad_example_clip");
  const std::string ref_yuv = (dir / "ref.yuv").string(), dist_yuv = (dir / "dist.yuv").string();
  const std::string ref_y4m = (dir / "ref.y4m").string(), dist_y4m = (dir / "dist.y4m").string();
  write_yuv420p(ref_yuv, stmad_example_ref_clip());
  write_yuv420p(dist_yuv, stmad_example_dist_clip());
  write_y4m420(ref_y4m, stmad_example_ref_clip(), C::kY4mHeader);
  write_y4m420(dist_y4m, stmad_example_dist_clip(), C::kY4mHeader);
  EXPECT_EQ(file_md5(ref_yuv), C::kRefYuvMd5);
  EXPECT_EQ(file_md5(dist_yuv), C::kDistYuvMd5);
  EXPECT_EQ(file_md5(ref_y4m), C::kRefY4mMd5);
  EXPECT_EQ(file_md5(dist_y4m), C::kDistY4mMd5);
}

}  // namespace
}  // namespace mad::test
