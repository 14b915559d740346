// Every convolution CUDA variant against the CPU reference, bit for bit (float and 8-bit): the
// issue's sizes 1x1, 7x3, 61x47, 1920x1080 and 8193x17, filter sides 1, 3, 5 and 17 (the seed's
// filters, and a random integer filter), tight and padded pitches, two output poisons, two block
// shapes (the seed's 32x16 and an odd 7x3). Float agreement is exact because both backends add
// the same products in the same order with separate roundings (kernels/convolve.h), so the
// asserted bound is zero. Skips without a device.
#include <gtest/gtest.h>

#include <random>
#include <type_traits>

#include "common/error.h"
#include "kernels/convolve.h"
#include "tests/kernels/convolve_test_util.h"
#include "tests/kernels/kernel_test_util.h"
#include "tests/support/test_support.h"

namespace mad::kernels {
namespace {

constexpr std::uint8_t kPoisons[] = {0x5A, 0xA5};
constexpr BlockShape kBlocks[] = {{32, 16}, {7, 3}};  // one per poison

// A random 8-bit-legal filter (integer weights 0..9, centre >= 1 so T > 0).
ConvolveFilter random_integer_filter(int size, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(0, 9);
  ConvolveFilter f{size, {}};
  for (int i = 0; i < size * size; ++i) f.weights.push_back(static_cast<float>(dist(rng)));
  f.weights[size * size / 2] += 1.0f;
  return f;
}

std::vector<ConvolveFilter> filters_for(test::Size s, std::uint32_t seed) {
  std::vector<ConvolveFilter> out = {seed_filter(1), seed_filter(5), seed_filter(17),
                                     random_integer_filter(3, seed)};
  if (s.width * s.height > 100000) out.erase(out.begin());  // keep the big sizes' CPU time low
  return out;
}

template <class T>
::testing::AssertionResult identical(ImageView<const T> expected, ImageView<const T> actual) {
  if constexpr (std::is_same_v<T, float>)
    return test::floats_identical(expected, actual);
  else
    return test::images_equal(expected, actual);
}

// Runs every variant on every size, pitch, filter, poison and block shape; returns the runs.
template <class T>
long long check_every_variant(std::uint32_t seed, const std::vector<test::Size>& sizes) {
  constexpr bool kFloat = std::is_same_v<T, float>;
  long long runs = 0;
  for (const test::Size s : sizes)
    for (std::ptrdiff_t pitch : test::pitches_for(s.width))
      for (ConvolveFilter f : filters_for(s, seed)) {
        Image<T> img(1, 1);
        if constexpr (kFloat) {
          // The float form takes the integer filter divided by its sum (the seed's T).
          const float total = static_cast<float>(convolve_weight_sum(f));
          for (float& w : f.weights) w = w / total;
          img = test::random_floats(s.width, s.height, seed++, pitch);
        } else {
          img = test::random_bytes(s.width, s.height, seed++, pitch);
        }
        Image<T> expected(s.width, s.height);
        convolve_cpu(img.cview(), f, expected.view());
        for (const VariantInfo& v : convolve_variants().infos())
          for (int k = 0; k < 2; ++k) {
            Image<T> actual(s.width, s.height, T(3), pitch);
            convolve_cuda(img.cview(), f, actual.view(), {v.name, kPoisons[k]}, kBlocks[k]);
            const ::testing::AssertionResult same = identical(expected.cview(), actual.cview());
            EXPECT_TRUE(same) << v.name << ' ' << test::size_name(s) << " filter " << f.size
                              << " pitch " << pitch << " block " << kBlocks[k].x << 'x'
                              << kBlocks[k].y;
            if (!same) return runs;
            ++runs;
          }
      }
  return runs;
}

TEST(ConvolveCuda, EveryVariantMatchesCpuExactlyFloat) {
  MAD_REQUIRE_GPU();
  const long long runs = check_every_variant<float>(
      test::announce_seed("ConvolveCuda.EveryVariantMatchesCpuExactlyFloat", 1101),
      test::issue_sizes());
  std::cout << "AGREEMENT kernels convolve float: " << runs << " variant runs bit-identical\n";
}

TEST(ConvolveCuda, EveryVariantMatchesCpuExactlyBytes) {
  MAD_REQUIRE_GPU();
  const long long runs = check_every_variant<std::uint8_t>(
      test::announce_seed("ConvolveCuda.EveryVariantMatchesCpuExactlyBytes", 1201),
      test::issue_sizes());
  std::cout << "AGREEMENT kernels convolve 8-bit: " << runs << " variant runs bit-identical\n";
}

// The small-image set tools/gpu-check.sh runs under compute-sanitizer ('*Sanitizer*'): every
// variant, both input types, filters 1, 3, 5 and 17, both block shapes, tight and padded pitches.
TEST(ConvolveCudaSanitizer, EveryVariantOnSmallImages) {
  MAD_REQUIRE_GPU();
  const std::vector<test::Size> sizes = {{7, 3}, {61, 47}, {37, 70}};
  check_every_variant<float>(test::announce_seed("ConvolveCudaSanitizer float", 1401), sizes);
  check_every_variant<std::uint8_t>(test::announce_seed("ConvolveCudaSanitizer 8-bit", 1402),
                                    sizes);
}

// Sizes around the register-blocked tile (`regblock`: 128 x 32 outputs a CTA, 4 x 4 a thread):
// widths and heights one short of and one past a tile and a thread's 4 columns, thinner than the
// filter, and long thin images; filters 1, 5, 17 and a random 3x3, tight and padded pitches.
TEST(ConvolveCuda, EveryVariantOnAwkwardTileSizes) {
  MAD_REQUIRE_GPU();
  const std::vector<test::Size> sizes = {{2, 5},    {5, 2},    {3, 7},    {127, 33},
                                         {129, 31}, {129, 65}, {1000, 3}, {3, 1000}};
  const long long runs =
      check_every_variant<float>(test::announce_seed("ConvolveCuda.AwkwardTiles float", 1501),
                                 sizes) +
      check_every_variant<std::uint8_t>(
          test::announce_seed("ConvolveCuda.AwkwardTiles 8-bit", 1502), sizes);
  std::cout << "AGREEMENT kernels convolve awkward tile sizes: " << runs
            << " variant runs bit-identical\n";
}

// Every filter side 1..17 and the seed's block-shape sweep (Table 4, legal shapes) at one size.
TEST(ConvolveCuda, EveryFilterSizeAndBlockShape) {
  MAD_REQUIRE_GPU();
  const Image<float> img = test::random_floats(61, 47, 1301, 64);
  for (int n = 1; n <= kConvolveMaxSize; n += 2) {
    const ConvolveFilter f = seed_filter_float(n);
    Image<float> expected(61, 47);
    convolve_cpu(img.cview(), f, expected.view());
    for (const VariantInfo& v : convolve_variants().infos())
      for (BlockShape b : {BlockShape{2, 2}, BlockShape{4, 8}, BlockShape{16, 32},
                           BlockShape{32, 32}, BlockShape{1024, 1}}) {
        try {  // a tile variant's shared tile may not fit (1024x1 with n >= 13)
          validate_block_shape(b, v.name.rfind("tile", 0) == 0, n, sizeof(float));
        } catch (const InvalidArgument&) {
          continue;
        }
        Image<float> actual(61, 47, 0.0f, 64);
        convolve_cuda(img.cview(), f, actual.view(), {v.name, 0xA5}, b);
        ASSERT_TRUE(test::floats_identical(expected.cview(), actual.cview()))
            << v.name << " filter " << n << " block " << b.x << 'x' << b.y;
      }
  }
}

TEST(ConvolveCuda, ExtremeBytesMatchCpu) {
  MAD_REQUIRE_GPU();
  Image<std::uint8_t> white(67, 45, 255), board(67, 45);
  for (int y = 0; y < board.height(); ++y)
    for (int x = 0; x < board.width(); ++x) board(y, x) = (x + y) % 2 ? 255 : 0;
  const ConvolveFilter heavy{3, std::vector<float>(9, float(kConvolveMaxWeightSum / 9))};
  for (const Image<std::uint8_t>* img : {&white, &board})
    for (const ConvolveFilter& f : {seed_filter(17), heavy}) {
      Image<std::uint8_t> expected(67, 45);
      convolve_cpu(img->cview(), f, expected.view());
      for (const VariantInfo& v : convolve_variants().infos()) {
        Image<std::uint8_t> actual(67, 45);
        convolve_cuda(img->cview(), f, actual.view(), {v.name, 0x5A});
        EXPECT_TRUE(test::images_equal(expected.cview(), actual.cview())) << v.name;
      }
    }
}

TEST(ConvolveCuda, RefusesBadShapesAndNames) {
  Image<float> img(8, 8, 1.0f), out(8, 8);
  // Checked before the device is needed.
  EXPECT_THROW(convolve_cuda(img.cview(), seed_filter_float(3), out.view(), {}, {32, 64}),
               InvalidArgument);
  EXPECT_THROW(convolve_cuda(img.cview(), seed_filter_float(4), out.view()), InvalidArgument);
  EXPECT_THROW(convolve_cuda(img.cview(), seed_filter_float(3), out.view(), {"nope", 0xA5}),
               InvalidArgument);
  MAD_REQUIRE_GPU();
  EXPECT_THROW(
      convolve_cuda(img.cview(), seed_filter_float(17), out.view(), {"tile_cmem", 0xA5}, {1024, 1}),
      InvalidArgument);
}

}  // namespace
}  // namespace mad::kernels
