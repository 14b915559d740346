// Every variant of every kernel once on small odd-shaped images with tight (unaligned) and
// padded pitches: the set tools/gpu-check.sh runs under compute-sanitizer memcheck and
// racecheck ('*Sanitizer*'), where an out-of-bounds access or a shared-memory race fails the
// run. Results are still compared with the CPU. Skips without a device.
#include <gtest/gtest.h>

#include <algorithm>

#include "kernels/gray.h"
#include "kernels/gray_histogram.h"
#include "kernels/histogram.h"
#include "kernels/nick.h"
#include "kernels/smooth.h"
#include "tests/kernels/kernel_test_util.h"
#include "tests/support/test_support.h"

namespace mad::kernels {
namespace {

TEST(KernelsCudaSanitizer, EveryVariantOnSmallImages) {
  MAD_REQUIRE_GPU();
  std::uint32_t seed = test::announce_seed("KernelsCudaSanitizer.EveryVariantOnSmallImages", 5001);
  for (const test::Size s : {test::Size{7, 3}, test::Size{61, 47}, test::Size{37, 70}}) {
    // Tight, odd-padded and 16-byte aligned pitches (the last runs the aligned forms: smooth
    // `strip` copies rows by 16-byte chunks, the last one partial).
    const std::ptrdiff_t row = 3 * s.width;
    for (std::ptrdiff_t pitch : {row, row + 13, (row + 15) / 16 * 16}) {
      const Image<std::uint8_t> rgb = test::random_bytes(3 * s.width, s.height, seed++, pitch);
      const RgbView8 view = interleaved_rgb(rgb.cview(), 3);
      const Image<std::uint8_t> gray = gray_cpu(view, GrayWeighting::Matlab);
      for (const VariantInfo& v : gray_variants().infos())
        EXPECT_TRUE(test::images_equal(
            gray.cview(), gray_cuda(view, GrayWeighting::Matlab, {v.name, 0x5A}).cview()))
            << "gray " << v.name;
      for (const VariantInfo& v : histogram_variants().infos())
        EXPECT_EQ(histogram_cuda(gray.cview(), {v.name, 0x5A}), histogram_cpu(gray.cview()))
            << "histogram " << v.name;
      for (const VariantInfo& v : gray_histogram_variants().infos()) {
        Image<std::uint8_t> fused(s.width, s.height);
        EXPECT_EQ(gray_histogram_cuda(view, GrayWeighting::Matlab, fused.view(), {v.name, 0x5A}),
                  histogram_cpu(gray.cview()))
            << "gray+histogram " << v.name;
        EXPECT_TRUE(test::images_equal(gray.cview(), fused.cview())) << "gray+histogram " << v.name;
      }
      for (const SmoothBorder border : {SmoothBorder::Clip, SmoothBorder::Wrap}) {
        const Image<std::uint8_t> smooth = smooth_cpu(rgb.cview(), 3, border);
        for (const VariantInfo& v : smooth_variants(border).infos())
          EXPECT_TRUE(test::images_equal(
              smooth.cview(), smooth_cuda(rgb.cview(), 3, {v.name, 0x5A}, border).cview()))
              << "smooth " << smooth_border_name(border) << " " << v.name;
      }
      const NickParams params{std::min(s.width, s.height), -0.15};
      const Image<std::uint8_t> mask = nick_cpu(gray.cview(), params);
      for (const VariantInfo& v : nick_variants().infos())
        EXPECT_TRUE(test::images_equal(mask.cview(),
                                       nick_cuda(gray.cview(), params, {v.name, 0x5A}).cview()))
            << "nick " << v.name;
    }
  }
}

// smoothing `strip`'s interior loop (kernels/smooth_strip_cuda.cu) runs only in warps that are
// neither a row's first nor its last and in strips away from the top and bottom, which the small
// images above never have. 1100 samples make warps 1..3 interior, 40 rows make strips 1..3
// interior; 1, 3 and 4 channels, each row's pitch rounded up to 16 bytes (the staged form's
// condition: tight for 4 channels, padded for 1 and 3).
TEST(KernelsCudaSanitizer, SmoothStripInteriorLoop) {
  MAD_REQUIRE_GPU();
  std::uint32_t seed = test::announce_seed("KernelsCudaSanitizer.SmoothStripInteriorLoop", 5301);
  for (int channels : {1, 3, 4}) {
    const int row = 1100 * channels;
    const std::ptrdiff_t pitch = (row + 15) / 16 * 16;
    const Image<std::uint8_t> img = test::random_bytes(row, 40, seed++, pitch);
    Image<std::uint8_t> actual(row, 40, 0x33, pitch);
    smooth_cuda(img.cview(), channels, actual.view(), CudaRunOptions{"strip", 0x5A});
    EXPECT_TRUE(test::images_equal(smooth_cpu(img.cview(), channels).cview(), actual.cview()))
        << "channels " << channels;
  }
}

}  // namespace
}  // namespace mad::kernels
