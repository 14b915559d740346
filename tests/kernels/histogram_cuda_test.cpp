// Every histogram CUDA variant against the CPU reference, exactly: each adversarial pattern
// at the issue's sizes plus 1xN and Nx1 strips, tight, odd-padded and 16-byte aligned padded
// pitches (the padding holds 0xEE, which must never be counted; the aligned pitch runs
// lane_private's dense form with a tail on odd widths), and two poisons in the bins. Skips
// without a device.
#include <gtest/gtest.h>

#include "kernels/histogram.h"
#include "kernels/histogram_patterns.h"
#include "tests/kernels/kernel_test_util.h"
#include "tests/support/test_support.h"

namespace mad::kernels {
namespace {

TEST(HistogramCuda, EveryVariantMatchesCpuOnAdversarialImages) {
  MAD_REQUIRE_GPU();
  std::vector<test::Size> sizes = test::issue_sizes();
  sizes.insert(sizes.end(), {{1, 1000}, {1000, 1}, {1, 4099}, {4099, 1}, {255, 257}});
  std::uint32_t seed =
      test::announce_seed("HistogramCuda.EveryVariantMatchesCpuOnAdversarialImages", 4701);
  long long runs = 0;
  for (const test::Size s : sizes)
    for (HistogramPattern pattern : all_histogram_patterns())
      for (std::ptrdiff_t pitch : {std::ptrdiff_t(s.width), std::ptrdiff_t(s.width) + 13,
                                   (std::ptrdiff_t(s.width) + 15) / 16 * 16 + 16}) {
        const Image<std::uint8_t> img =
            make_histogram_pattern(pattern, s.width, s.height, seed++, pitch);
        const Histogram expected = histogram_cpu(img.cview());
        for (const VariantInfo& v : histogram_variants().infos())
          for (std::uint8_t poison : test::kPoisons) {
            const Histogram actual = histogram_cuda(img.cview(), {v.name, poison});
            for (int b = 0; b < kHistogramBins; ++b)
              ASSERT_EQ(actual[b], expected[b])
                  << v.name << ' ' << histogram_pattern_name(pattern) << ' ' << test::size_name(s)
                  << " pitch " << pitch << " bin " << b << " poison " << int(poison);
            ++runs;
          }
      }
  std::cout << "AGREEMENT kernels histogram: " << runs
            << " variant runs (all variants x 6 adversarial patterns x 10 sizes x 3 pitches x 2 "
               "poisons) exact\n";
}

TEST(HistogramCuda, MonochromeExtremesAndFullImages) {
  MAD_REQUIRE_GPU();
  // Every pixel in bin 0 or bin 255, and a large image where one bin receives 2^24 counts.
  for (int value : {0, 255}) {
    const Image<std::uint8_t> img(4096, 4096, static_cast<std::uint8_t>(value));
    for (const VariantInfo& v : histogram_variants().infos()) {
      const Histogram h = histogram_cuda(img.cview(), {v.name, 0xA5});
      EXPECT_EQ(h[value], 1u << 24) << v.name;
      EXPECT_EQ(h[255 - value], 0u) << v.name;
    }
  }
}

}  // namespace
}  // namespace mad::kernels
