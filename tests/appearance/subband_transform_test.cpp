// The subband-transform registry and the fused transform's shape rules (CUDA-free: runs in CI).
#include "appearance/subband_transform.h"

#include <gtest/gtest.h>

#include <vector>

#include "common/error.h"

namespace mad::appearance {
namespace {

TEST(SubbandTransform, RadicesMultiplyBackAndRefuseOtherPrimes) {
  EXPECT_EQ(subband_fft::radices(512), (std::vector<int>{8, 8, 8}));
  EXPECT_EQ(subband_fft::radices(384), (std::vector<int>{8, 8, 2, 3}));
  EXPECT_EQ(subband_fft::radices(1080), (std::vector<int>{8, 3, 3, 3, 5}));
  EXPECT_EQ(subband_fft::radices(36), (std::vector<int>{4, 3, 3}));
  for (int n : {34, 35, 49, 257, 333, 1031})
    EXPECT_TRUE(subband_fft::radices(n).empty()) << n;
  for (int n = 2; n <= 5000; ++n) {
    const std::vector<int> r = subband_fft::radices(n);
    if (r.empty()) continue;
    long long product = 1;
    for (int x : r) product *= x;
    ASSERT_EQ(product, n);
  }
}

TEST(SubbandTransform, SupportFollowsFactorsAndSharedMemory) {
  EXPECT_TRUE(fused_subband_transform_supports(512, 384, true));
  EXPECT_TRUE(fused_subband_transform_supports(1920, 1080, true));
  EXPECT_TRUE(fused_subband_transform_supports(3840, 2160, true));
  EXPECT_TRUE(fused_subband_transform_supports(3840, 2160, false));
  EXPECT_FALSE(fused_subband_transform_supports(34, 34, true));  // 34 = 2 x 17
  EXPECT_FALSE(fused_subband_transform_supports(257, 333, false));
  // 8K: a column pass over 4320 rows needs 270 KiB of shared memory.
  EXPECT_FALSE(fused_subband_transform_supports(7680, 4320, true));
  EXPECT_FALSE(fused_subband_transform_supports(7680, 4320, false));
}

TEST(SubbandTransform, LinesGetNOver8ThreadsAndCtasStayWithin1024) {
  using namespace subband_fft;
  EXPECT_EQ(threads_per_line(384), 48);  // not rounded up to 64: none idle at radix 8
  EXPECT_EQ(threads_per_line(1080), 135);
  EXPECT_EQ(threads_per_line(36), 32);
  EXPECT_EQ(threads_per_line(3840), 256);
  for (const int n : {36, 384, 512, 1080, 1920, 2048, 2160})  // column heights
    for (const bool dp : {false, true}) {
      const int lines = column_lines(n, dp);
      ASSERT_GT(lines, 0) << n;
      EXPECT_LE(lines * threads_per_line(n), 1024) << n << (dp ? " double" : " float");
    }
}

TEST(SubbandTransform, ResolveFallsBackOnlyWhenNotAsked) {
  // The default: fused in float while its CTAs are small, else cufft (measured).
  EXPECT_EQ(resolve_subband_transform(std::nullopt, 512, 512, false), SubbandTransform::Fused);
  EXPECT_EQ(resolve_subband_transform(std::nullopt, 36, 40, false), SubbandTransform::Fused);
  EXPECT_EQ(resolve_subband_transform(std::nullopt, 34, 34, false), SubbandTransform::Cufft);  // 17
  EXPECT_EQ(resolve_subband_transform(std::nullopt, 1920, 1080, false), SubbandTransform::Fused);
  EXPECT_EQ(resolve_subband_transform(std::nullopt, 3840, 2160, false), SubbandTransform::Cufft);
  EXPECT_EQ(resolve_subband_transform(std::nullopt, 512, 512, true), SubbandTransform::Cufft);
  EXPECT_EQ(resolve_subband_transform(SubbandTransform::Fused, 512, 512, true), SubbandTransform::Fused);
  EXPECT_EQ(resolve_subband_transform(std::nullopt, 34, 34, true), SubbandTransform::Cufft);
  EXPECT_EQ(resolve_subband_transform(SubbandTransform::Cufft, 512, 512, false), SubbandTransform::Cufft);
  EXPECT_EQ(resolve_subband_transform(SubbandTransform::Fused, 512, 384, false), SubbandTransform::Fused);
  EXPECT_THROW(resolve_subband_transform(SubbandTransform::Fused, 257, 333, true), InvalidArgument);
  EXPECT_EQ(subband_transforms().default_name(), "cufft");
}

}  // namespace
}  // namespace mad::appearance
