// Every Nick CUDA variant against the CPU reference, exactly (ties included): the issue's
// sizes with windows from 2 to the largest that fits (101 where possible), three k values,
// tight and odd-padded pitches, two poisons; images built to produce exact ties; flat images.
// Skips without a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <utility>

#include "common/error.h"
#include "kernels/nick.h"
#include "tests/kernels/kernel_test_util.h"
#include "tests/support/test_support.h"

namespace mad::kernels {
namespace {

constexpr double kKs[] = {-0.2, -0.137, -0.01};

// Windows to try at a size: small even and odd ones, one around a 16/32 block, and the
// largest legal one.
std::vector<int> windows_for(test::Size s) {
  const int largest = std::min({s.width, s.height, kNickMaxWindow});
  std::vector<int> out;
  for (int w : {2, 3, 4, 15, 33, 64, largest})
    if (w >= kNickMinWindow && w <= largest && std::find(out.begin(), out.end(), w) == out.end())
      out.push_back(w);
  return out;
}

long long check_all_variants(const Image<std::uint8_t>& img, const NickParams& params,
                             const std::string& what) {
  const Image<std::uint8_t> expected = nick_cpu(img.cview(), params);
  long long runs = 0;
  for (const VariantInfo& v : nick_variants().infos())
    for (std::uint8_t poison : test::kPoisons) {
      Image<std::uint8_t> actual(img.width(), img.height(), 0x33, img.pitch());
      nick_cuda(img.cview(), params, actual.view(), {v.name, poison});
      EXPECT_TRUE(test::images_equal(expected.cview(), actual.cview()))
          << v.name << ' ' << what << " w=" << params.window << " k=" << params.k << " poison "
          << int(poison);
      ++runs;
    }
  return runs;
}

TEST(NickCuda, EveryVariantMatchesCpuExactly) {
  MAD_REQUIRE_GPU();
  std::uint32_t seed = test::announce_seed("NickCuda.EveryVariantMatchesCpuExactly", 4901);
  long long runs = 0;
  for (const test::Size s : test::issue_sizes()) {
    if (s.width < kNickMinWindow || s.height < kNickMinWindow) {
      // 1x1: no legal window fits; both backends refuse it the same way.
      const Image<std::uint8_t> one(s.width, s.height, 7);
      EXPECT_THROW(nick_cuda(one.cview(), {2, -0.1}), InputError);
      EXPECT_THROW(nick_cpu(one.cview(), {2, -0.1}), InputError);
      continue;
    }
    for (std::ptrdiff_t pitch : test::pitches_for(s.width))
      for (int window : windows_for(s))
        for (double k : kKs) {
          // The full-HD image is costly for method 1 at w = 101; one k is enough there.
          if (s.width * s.height > 1000000 && window > 33 && k != kKs[0]) continue;
          const Image<std::uint8_t> img = test::random_bytes(s.width, s.height, seed++, pitch);
          runs += check_all_variants(img, {window, k},
                                     test::size_name(s) + " pitch " + std::to_string(pitch));
        }
  }
  if (!HasFailure())
    std::cout << "AGREEMENT kernels nick: " << runs << " variant runs ("
              << nick_variants().infos().size() << " variants x sizes x windows 2..101 x k"
              << " x pitches x poisons) bit-identical to the CPU\n";
}

// The seed's even-window placement (issue 11 item 4) reaches every variant through NickParams.
TEST(NickCuda, SeedPlacementMatchesCpuExactly) {
  MAD_REQUIRE_GPU();
  std::uint32_t seed = test::announce_seed("NickCuda.SeedPlacementMatchesCpuExactly", 4903);
  for (const test::Size s : {test::Size{34, 34}, test::Size{61, 47}, test::Size{257, 333}})
    for (int window : {2, 4, 16, 32, 34, 100})
      if (window <= s.width && window <= s.height) {
        const Image<std::uint8_t> img = test::random_bytes(s.width, s.height, seed++, s.width);
        check_all_variants(img, {window, -0.1, NickPlacement::Seed},
                           test::size_name(s) + " seed placement");
      }
}

// Shapes that stress the strip and tile logic of the one-pass variants (sliding_columns: 16-row
// strips, ~900-column tiles, 16 columns per thread; warp_scan: 16-row strips four to a CTA,
// 400-496-column warp spans): heights below, at and just above a strip or a
// window, widths 2..3 and around a tile or a 16-column chunk, prime sizes, w = 2 and the largest
// legal window, both placements, and a padded (unaligned) pitch beside the tight one.
TEST(NickCuda, StripAndTileEdgesMatchCpuExactly) {
  MAD_REQUIRE_GPU();
  std::uint32_t seed = test::announce_seed("NickCuda.StripAndTileEdgesMatchCpuExactly", 4907);
  const test::Size sizes[] = {{2, 2},    {3, 101},   {2, 300},  {101, 3},  {17, 129},
                              {33, 257}, {127, 131}, {911, 41}, {1009, 7}, {1841, 67}};
  long long runs = 0;
  for (const test::Size s : sizes)
    for (std::ptrdiff_t pitch : test::pitches_for(s.width))
      for (int window : {2, 3, 16, 51, 100, 101})
        for (NickPlacement placement : {NickPlacement::Matlab, NickPlacement::Seed}) {
          if (window > std::min(s.width, s.height)) continue;
          const Image<std::uint8_t> img = test::random_bytes(s.width, s.height, seed++, pitch);
          runs += check_all_variants(img, {window, -0.137, placement},
                                     test::size_name(s) + " pitch " + std::to_string(pitch) + " " +
                                         nick_placement_name(placement));
        }
  if (!HasFailure())
    std::cout << "AGREEMENT kernels nick: " << runs
              << " variant runs on strip/tile edge shapes bit-identical to the CPU\n";
}

// 16-byte aligned rows (a padded pitch) at widths around warp_scan's spans (496 columns at
// w <= 17, 400 at w = 101), so its word loads run with every byte offset (after % 4 = 0..3),
// next to the byte loads at the right edge; heights around its 16-row strips and 64-row CTAs.
TEST(NickCuda, AlignedRowsAroundSpanAndStripEdgesMatchCpuExactly) {
  MAD_REQUIRE_GPU();
  std::uint32_t seed =
      test::announce_seed("NickCuda.AlignedRowsAroundSpanAndStripEdgesMatchCpuExactly", 4909);
  const test::Size sizes[] = {{495, 17}, {496, 65}, {497, 130}, {993, 63}, {1201, 16}, {401, 101}};
  long long runs = 0;
  for (const test::Size s : sizes) {
    const std::ptrdiff_t pitch = (s.width + 15) / 16 * 16 + 16;
    for (int window : {2, 3, 4, 5, 15, 16, 17, 33, 101})
      for (NickPlacement placement : {NickPlacement::Matlab, NickPlacement::Seed}) {
        if (window > std::min(s.width, s.height)) continue;
        const Image<std::uint8_t> img = test::random_bytes(s.width, s.height, seed++, pitch);
        runs += check_all_variants(img, {window, -0.137, placement},
                                   test::size_name(s) + " aligned pitch " + std::to_string(pitch) +
                                       " " + nick_placement_name(placement));
      }
  }
  if (!HasFailure())
    std::cout << "AGREEMENT kernels nick: " << runs
              << " variant runs with 16-byte aligned rows at span/strip edges bit-identical to "
                 "the CPU\n";
}

TEST(NickCuda, ExactTiesMatchCpu) {
  MAD_REQUIRE_GPU();
  // 2x2 blocks whose window (w = 2, top-left pixel) gives T == p exactly in double:
  // {19 5 / 29 43} at k = -0.2 and {9 3 / 11 17} at k = -0.1 (see NickCpu.DecisionHandComputed).
  for (const auto& [block, k] : {std::pair<std::array<int, 4>, double>{{19, 5, 29, 43}, -0.2},
                                 std::pair<std::array<int, 4>, double>{{9, 3, 11, 17}, -0.1}}) {
    Image<std::uint8_t> img(64, 38);
    for (int y = 0; y < img.height(); ++y)
      for (int x = 0; x < img.width(); ++x)
        img(y, x) = static_cast<std::uint8_t>(block[(y % 2) * 2 + x % 2]);
    const Image<std::uint8_t> mask = nick_cpu(img.cview(), {2, k});
    EXPECT_EQ(mask(0, 0), 0);  // the tie itself
    check_all_variants(img, {2, k}, "tie pattern");
  }
  // Flat images: all-zero (T = 0 = p everywhere) and all-200 (every pixel above T).
  for (int value : {0, 200}) {
    const Image<std::uint8_t> flat(45, 33, static_cast<std::uint8_t>(value));
    for (int window : {2, 17, 33})
      check_all_variants(flat, {window, -0.2}, "flat " + std::to_string(value));
  }
  if (!HasFailure())
    std::cout << "AGREEMENT kernels nick: exact ties and flat images identical to the CPU\n";
}

}  // namespace
}  // namespace mad::kernels
