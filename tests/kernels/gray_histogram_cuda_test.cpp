// Every fused gray+histogram CUDA variant (seed 000 §7) against gray_cpu followed by
// histogram_cpu, exactly: both weightings, every RGB layout with tight and odd-padded pitches,
// the issue's sizes, a padded gray pitch, two poisons in the gray plane and the bins; and a
// monochrome 4096x4096 image whose one bin reaches 2^24. Skips without a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/gray_histogram.h"
#include "tests/kernels/kernel_test_util.h"
#include "tests/support/test_support.h"

namespace mad::kernels {
namespace {

constexpr std::uint8_t kPoisons[] = {0x5A, 0xA5};

TEST(GrayHistogramCuda, EveryVariantMatchesGrayThenHistogram) {
  MAD_REQUIRE_GPU();
  long long runs = 0;
  std::uint32_t seed =
      test::announce_seed("GrayHistogramCuda.EveryVariantMatchesGrayThenHistogram", 4901);
  for (const test::Size s : test::issue_sizes()) {
    for (const test::RgbInput& in : test::rgb_inputs_for(s, seed)) {
      for (GrayWeighting w : {GrayWeighting::Matlab, GrayWeighting::Darken}) {
        const Image<std::uint8_t> expected_gray = gray_cpu(in.view, w);
        const Histogram expected_bins = histogram_cpu(expected_gray.cview());
        for (const VariantInfo& v : gray_histogram_variants().infos())
          for (std::uint8_t poison : kPoisons) {
            Image<std::uint8_t> gray(s.width, s.height, 0x33,
                                     s.width + (poison == kPoisons[0] ? 0 : 5));
            const Histogram bins = gray_histogram_cuda(in.view, w, gray.view(), {v.name, poison});
            const std::string what = v.name + (w == GrayWeighting::Matlab ? " gray " : " darken ") +
                                     test::size_name(s) + ' ' + in.name + " poison " +
                                     std::to_string(poison);
            ASSERT_TRUE(test::images_equal(expected_gray.cview(), gray.cview())) << what;
            for (int b = 0; b < kHistogramBins; ++b)
              ASSERT_EQ(bins[b], expected_bins[b]) << what << " bin " << b;
            ++runs;
          }
      }
    }
    seed += 10;
  }
  std::cout << "AGREEMENT kernels gray+histogram: " << runs
            << " fused variant runs (all variants x layouts x sizes x poisons): gray plane and "
               "bins equal gray_cpu + histogram_cpu\n";
}

TEST(GrayHistogramCuda, MonochromeFillsOneBin) {
  MAD_REQUIRE_GPU();
  // 4096 x 4096 planar pixels of (200, 100, 50): 2^24 counts in one bin, far more pixels per
  // thread than the fixed 60x45 grid's threads.
  const int side = 4096;
  std::vector<std::uint8_t> planes(3u * side * side);
  std::fill(planes.begin(), planes.begin() + side * side, 200);
  std::fill(planes.begin() + side * side, planes.begin() + 2 * side * side, 100);
  std::fill(planes.begin() + 2 * side * side, planes.end(), 50);
  const RgbView8 view =
      planar_rgb(planes.data(), side, side, side, static_cast<std::ptrdiff_t>(side) * side);
  for (GrayWeighting w : {GrayWeighting::Matlab, GrayWeighting::Darken}) {
    Image<std::uint8_t> expected(side, side);
    const Histogram expected_bins = gray_histogram_cpu(view, w, expected.view());
    for (const VariantInfo& v : gray_histogram_variants().infos()) {
      Image<std::uint8_t> gray(side, side);
      EXPECT_EQ(gray_histogram_cuda(view, w, gray.view(), {v.name, 0xA5}), expected_bins) << v.name;
      EXPECT_TRUE(test::images_equal(expected.cview(), gray.cview())) << v.name;
    }
  }
}

// Checked before any device work, so these run (and must pass) without a GPU too.
TEST(GrayHistogramCuda, UnknownVariantAndWrongSizeAreRejected) {
  const std::vector<std::uint8_t> px(12, 9);
  const RgbView8 view = interleaved_rgb(ImageView<const std::uint8_t>(px.data(), 6, 2), 3);
  Image<std::uint8_t> gray(2, 2), wrong(3, 2);
  EXPECT_THROW(gray_histogram_cuda(view, GrayWeighting::Matlab, gray.view(), {"no_such", 0}),
               InvalidArgument);
  EXPECT_THROW(gray_histogram_cuda(view, GrayWeighting::Matlab, wrong.view()), InvalidArgument);
}

}  // namespace
}  // namespace mad::kernels
