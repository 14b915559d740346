// Every gray/darken CUDA variant against the CPU reference, exactly: both weightings, every
// layout (RGB, RGBA, planar) with tight and odd-padded pitches, the issue's sizes, two output
// poisons; and all 2^24 RGB triples in one image. Skips without a device.
#include <gtest/gtest.h>

#include <vector>

#include "kernels/gray.h"
#include "tests/kernels/kernel_test_util.h"
#include "tests/support/test_support.h"

namespace mad::kernels {
namespace {


TEST(GrayCuda, EveryVariantMatchesCpuExactly) {
  MAD_REQUIRE_GPU();
  long long runs = 0;
  std::uint32_t seed = test::announce_seed("GrayCuda.EveryVariantMatchesCpuExactly", 4601);
  for (const test::Size s : test::issue_sizes()) {
    for (const test::RgbInput& in : test::rgb_inputs_for(s, seed)) {
      for (GrayWeighting w : {GrayWeighting::Matlab, GrayWeighting::Darken}) {
        const Image<std::uint8_t> expected = gray_cpu(in.view, w);
        for (const VariantInfo& v : gray_variants().infos())
          for (std::uint8_t poison : test::kPoisons) {
            // An odd-padded output pitch as well, so output rows are unaligned too.
            Image<std::uint8_t> actual(s.width, s.height, 0x33,
                                       s.width + (poison == test::kPoisons[0] ? 0 : 5));
            gray_cuda(in.view, w, actual.view(), {v.name, poison});
            ASSERT_TRUE(test::images_equal(expected.cview(), actual.cview()))
                << v.name << (w == GrayWeighting::Matlab ? " gray " : " darken ")
                << test::size_name(s) << ' ' << in.name << " poison " << int(poison);
            ++runs;
          }
      }
    }
    seed += 10;
  }
  std::cout
      << "AGREEMENT kernels gray/darken: " << runs
      << " variant runs (all variants x layouts x sizes x poisons) bit-identical to the CPU\n";
}

TEST(GrayCuda, EveryRgbTripleMatchesCpu) {
  MAD_REQUIRE_GPU();
  // A 4096 x 4096 image whose pixel i is the triple (i >> 16, (i >> 8) & 255, i & 255).
  std::vector<std::uint8_t> rgb(3u << 24);
  for (std::uint32_t i = 0; i < (1u << 24); ++i) {
    rgb[3 * i] = static_cast<std::uint8_t>(i >> 16);
    rgb[3 * i + 1] = static_cast<std::uint8_t>(i >> 8);
    rgb[3 * i + 2] = static_cast<std::uint8_t>(i);
  }
  const RgbView8 view =
      interleaved_rgb(ImageView<const std::uint8_t>(rgb.data(), 3 * 4096, 4096), 3);
  for (GrayWeighting w : {GrayWeighting::Matlab, GrayWeighting::Darken}) {
    const Image<std::uint8_t> expected = gray_cpu(view, w);
    for (const VariantInfo& v : gray_variants().infos())
      EXPECT_TRUE(test::images_equal(expected.cview(), gray_cuda(view, w, {v.name, 0x5A}).cview()))
          << v.name;
  }
  if (!HasFailure())
    std::cout << "AGREEMENT kernels gray/darken: all 2^24 RGB triples bit-identical to the CPU for "
                 "every variant\n";
}

// Checked before any device work, so it runs (and must pass) without a GPU too.
TEST(GrayCuda, UnknownVariantIsRejected) {
  const std::vector<std::uint8_t> px(12, 9);
  const RgbView8 view = interleaved_rgb(ImageView<const std::uint8_t>(px.data(), 6, 2), 3);
  EXPECT_THROW(gray_cuda(view, GrayWeighting::Matlab, {"no_such_variant", 0}), InvalidArgument);
}

}  // namespace
}  // namespace mad::kernels
