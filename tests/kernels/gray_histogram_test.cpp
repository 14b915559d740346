// The fused gray+histogram's CPU reference and registry (kernels/gray_histogram.h): it is
// gray_cpu followed by histogram_cpu, and the registry's default is the seed's adopted shape.
#include <gtest/gtest.h>

#include "kernels/gray_histogram.h"
#include "tests/kernels/kernel_test_util.h"

namespace mad::kernels {
namespace {

TEST(GrayHistogramCpu, IsGrayThenHistogram) {
  std::uint32_t seed = test::announce_seed("GrayHistogramCpu.IsGrayThenHistogram", 4951);
  for (const test::Size s : test::issue_sizes())
    for (const test::RgbInput& in : test::rgb_inputs_for(s, seed++))
      for (GrayWeighting w : {GrayWeighting::Matlab, GrayWeighting::Darken}) {
        const Image<std::uint8_t> expected = gray_cpu(in.view, w);
        Image<std::uint8_t> gray(s.width, s.height, 0x33, s.width + 5);
        const Histogram bins = gray_histogram_cpu(in.view, w, gray.view());
        ASSERT_TRUE(test::images_equal(expected.cview(), gray.cview())) << in.name;
        ASSERT_EQ(bins, histogram_cpu(expected.cview())) << in.name;
        std::uint64_t total = 0;
        for (std::uint32_t c : bins) total += c;
        ASSERT_EQ(total, static_cast<std::uint64_t>(s.width) * s.height);
      }
}

TEST(GrayHistogramVariants, DefaultIsTheSeedsAdoptedShape) {
  EXPECT_EQ(gray_histogram_variants().default_name(), "shared_warp_fixed_60x45");
  EXPECT_EQ(gray_histogram_variants().infos().size(), 8u);
  EXPECT_THROW(gray_histogram_variants().find("no_such"), InvalidArgument);
}

}  // namespace
}  // namespace mad::kernels
