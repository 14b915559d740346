// Every smoothing CUDA variant (both border rules) against its CPU reference, exactly: 1, 3
// and 4 channels, the issue's sizes (and the 2..5-pixel sizes where every pixel is a border
// pixel), tight and odd-padded pitches, two output poisons. Skips without a device.
#include <gtest/gtest.h>

#include "kernels/smooth.h"
#include "tests/kernels/kernel_test_util.h"
#include "tests/support/test_support.h"

namespace mad::kernels {
namespace {

// Every variant of `registry` run by `cuda` against `cpu`, exactly: the issue's sizes and the
// 2..5-pixel ones, 1/3/4 channels, two pitches, two poisons. Prints the AGREEMENT line.
template <class Cpu, class Cuda>
void expect_every_variant_matches(const VariantNames& registry, Cpu&& cpu, Cuda&& cuda,
                                  const std::string& test_name, std::uint32_t seed) {
  std::vector<test::Size> sizes = test::issue_sizes();
  sizes.insert(sizes.end(), {{2, 2}, {5, 3}, {3, 5}, {4, 1}, {1, 4}, {33, 9}});
  seed = test::announce_seed(test_name, seed);
  long long runs = 0;
  for (const test::Size s : sizes)
    for (int channels : {1, 3, 4})
      for (std::ptrdiff_t pitch : test::pitches_for(s.width * channels)) {
        const Image<std::uint8_t> img =
            test::random_bytes(s.width * channels, s.height, seed++, pitch);
        const Image<std::uint8_t> expected = cpu(img.cview(), channels);
        for (const VariantInfo& v : registry.infos())
          for (std::uint8_t poison : test::kPoisons) {
            Image<std::uint8_t> actual(s.width * channels, s.height, 0x33, pitch);
            cuda(img.cview(), channels, actual.view(), CudaRunOptions{v.name, poison});
            ASSERT_TRUE(test::images_equal(expected.cview(), actual.cview()))
                << v.name << ' ' << test::size_name(s) << " channels " << channels << " pitch "
                << pitch << " poison " << int(poison);
            ++runs;
          }
      }
  std::cout << "AGREEMENT kernels " << registry.family() << ": " << runs
            << " variant runs (all variants x 11 sizes x 1/3/4 channels x 2 pitches x 2 poisons) "
               "bit-identical\n";
}

// Both border rules' registries against the CPU under the same rule (a 1x1 image wraps onto
// itself).
class SmoothBorderCuda : public ::testing::TestWithParam<SmoothBorder> {};

TEST_P(SmoothBorderCuda, EveryVariantMatchesCpuExactly) {
  MAD_REQUIRE_GPU();
  const SmoothBorder border = GetParam();
  expect_every_variant_matches(
      smooth_variants(border),
      [border](ImageView<const std::uint8_t> src, int ch) { return smooth_cpu(src, ch, border); },
      [border](ImageView<const std::uint8_t> src, int ch, ImageView<std::uint8_t> dst,
               const CudaRunOptions& o) { smooth_cuda(src, ch, dst, o, border); },
      std::string("SmoothBorderCuda.EveryVariantMatchesCpuExactly/") + smooth_border_name(border),
      border == SmoothBorder::Wrap ? 4901 : 4801);
}

INSTANTIATE_TEST_SUITE_P(Borders, SmoothBorderCuda,
                         ::testing::Values(SmoothBorder::Clip, SmoothBorder::Wrap),
                         [](const auto& info) {
                           return std::string(smooth_border_name(info.param));
                         });

// Sizes that stress the strip and halo logic of the word-per-lane variants (`strip`): widths
// around a 32-bit word and a warp's 128 samples, heights around the 32-row strip and below the
// 5-row window, 2 channels (a word holds two pixels), and three pitches: tight, word-aligned with
// padding (full-word loads, a partial last word) and odd (the byte-wise path).
TEST(SmoothCuda, EveryVariantOnAwkwardStripSizes) {
  MAD_REQUIRE_GPU();
  std::vector<test::Size> sizes;
  for (int w : {1, 2, 3, 5, 127, 129})
    for (int h : {1, 2, 3, 4, 5, 6, 7, 33, 65}) sizes.push_back({w, h});
  sizes.push_back({1000, 3});
  sizes.push_back({3, 1000});
  // strip's staged form: a tight pitch of 4096 x channels is 16-byte aligned, and 4096 samples
  // give interior warps (256 samples each, halo inside the row) the interior loop at every
  // channel count; 35 rows = four 8-row strips and a partial one.
  sizes.push_back({4096, 35});
  std::uint32_t seed = test::announce_seed("SmoothCuda.EveryVariantOnAwkwardStripSizes", 5001);
  for (const test::Size s : sizes)
    for (int channels = 1; channels <= 4; ++channels) {
      const int row = s.width * channels;
      for (std::ptrdiff_t pitch :
           {std::ptrdiff_t(row), std::ptrdiff_t((row + 3) / 4 * 4 + 8), std::ptrdiff_t(row + 13)}) {
        const Image<std::uint8_t> img = test::random_bytes(row, s.height, seed++, pitch);
        const Image<std::uint8_t> expected = smooth_cpu(img.cview(), channels);
        for (const VariantInfo& v : smooth_variants().infos()) {
          Image<std::uint8_t> actual(row, s.height, 0x33, pitch);
          smooth_cuda(img.cview(), channels, actual.view(), CudaRunOptions{v.name, 0x5A});
          ASSERT_TRUE(test::images_equal(expected.cview(), actual.cview()))
              << v.name << ' ' << test::size_name(s) << " channels " << channels << " pitch "
              << pitch;
        }
      }
    }
}

// strip's staged form (both rows 16-byte aligned): each warp owns 256 samples and copies one
// 16-byte chunk of halo a side, strips are 8 rows, and a warp takes the interior loop in a strip
// whose outputs all have the full window and whose input rows all lie in the image (y0 >= 2,
// y0 + 8 <= height - 2; 17 / 18 rows: the second strip just outside / inside). Widths around a
// chunk, a warp (256 samples) and a CTA (1024), at every channel count; heights around a strip
// and below the window; a tight pitch where it is aligned and an aligned, padded one. The device
// buffer ends at the last row's last byte, so a copy past the row's end would be caught by
// compute-sanitizer (the sanitizer test runs this form at a partial chunk too).
TEST(SmoothCuda, StripStagedFormOnAwkwardSizes) {
  MAD_REQUIRE_GPU();
  std::uint32_t seed = test::announce_seed("SmoothCuda.StripStagedFormOnAwkwardSizes", 5101);
  int runs = 0;
  for (int samples : {1, 7, 16, 17, 255, 256, 257, 1023, 1024, 1025, 2051, 4104})
    for (int h : {1, 2, 5, 17, 18, 63, 64, 65, 68, 69, 133})
      for (int channels = 1; channels <= 4; ++channels) {
        const int row = samples / channels * channels;
        if (row == 0) continue;
        const std::ptrdiff_t aligned = (row + 15) / 16 * 16;
        for (std::ptrdiff_t pitch : {aligned, aligned + 32}) {
          const Image<std::uint8_t> img = test::random_bytes(row, h, seed++, pitch);
          const Image<std::uint8_t> expected = smooth_cpu(img.cview(), channels);
          Image<std::uint8_t> actual(row, h, 0x33, pitch);
          smooth_cuda(img.cview(), channels, actual.view(), CudaRunOptions{"strip", 0x5A});
          ASSERT_TRUE(test::images_equal(expected.cview(), actual.cview()))
              << row << "x" << h << " channels " << channels << " pitch " << pitch;
          ++runs;
        }
      }
  EXPECT_GT(runs, 700);
}

TEST(SmoothCuda, ExtremeValuesMatchCpu) {
  MAD_REQUIRE_GPU();
  // All-255 (largest sums) and a 0/255 checkerboard (largest local contrast).
  Image<std::uint8_t> white(67, 45, 255), board(67, 45);
  for (int y = 0; y < board.height(); ++y)
    for (int x = 0; x < board.width(); ++x) board(y, x) = (x + y) % 2 ? 255 : 0;
  for (const Image<std::uint8_t>* img : {&white, &board}) {
    const Image<std::uint8_t> expected = smooth_cpu(img->cview(), 1);
    for (const VariantInfo& v : smooth_variants().infos())
      EXPECT_TRUE(test::images_equal(expected.cview(),
                                     smooth_cuda(img->cview(), 1, {v.name, 0x5A}).cview()))
          << v.name;
  }
}

}  // namespace
}  // namespace mad::kernels
