// Every registered A5 variant (appearance/a5_variants.h) against the CPU block statistics
// (subband_block_stats_cpu, spec §4.4) on seeded random and real subbands at awkward sizes,
// several subbands per launch, outputs poisoned with NaN first so an unwritten block fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "appearance/a5_variants.h"
#include "appearance/a5_variants_cuda.h"
#include "common/error.h"
#include "tests/appearance/a5_check_cuda.h"

namespace mad::appearance {
namespace {

using namespace a5_test;

TEST(A5VariantsCuda, RegistryHoldsBothPrecisionsOfEveryVariant) {
  // Needs no device: the registry is host data.
  const auto& registry = a5_variants();
  const auto& rows = registry.rows();
  const auto& infos = registry.infos();
  ASSERT_EQ(rows.size(), 8u);
  ASSERT_EQ(infos.size(), rows.size());
  int defaults = 0;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    EXPECT_EQ(infos[k].name, rows[k].name);
    EXPECT_EQ(infos[k].note, rows[k].note);
    EXPECT_FALSE(infos[k].shape.empty()) << rows[k].name;
    EXPECT_NE(rows[k].launch.f64, nullptr) << rows[k].name;
    EXPECT_NE(rows[k].launch.f32, nullptr) << rows[k].name;
    defaults += infos[k].is_default;
  }
  EXPECT_EQ(defaults, 1);
  EXPECT_STREQ(registry.find("").name, "a5-fast");
  EXPECT_EQ(registry.default_name(), "a5-fast");
  // The thesis's forms (Appendices B and C) first, then ours.
  const char* names[] = {
      "a5-original",   "a5-shared-loop",   "a5-shared-unrolled", "a5-shared-unrolled-cf",
      "a5-per-thread", "a5-cta-per-block", "a5-direct",          "a5-fast"};
  for (std::size_t k = 0; k < rows.size(); ++k) EXPECT_STREQ(rows[k].name, names[k]);
  EXPECT_STREQ(registry.find("a5-cta-per-block").name, "a5-cta-per-block");
  EXPECT_THROW(registry.find("a5-shared"), InvalidArgument);  // renamed a5-cta-per-block
  EXPECT_THROW(registry.find("a5-nonexistent"), InvalidArgument);
}

// Double within kDoubleTol and float within kFloatTol (a5_check_cuda.h) of the CPU, on random
// subbands and on real ones (the parameter).
class A5VariantsOnSubbands : public ::testing::TestWithParam<bool> {};

TEST_P(A5VariantsOnSubbands, DoubleMatchesCpu) {
  MAD_REQUIRE_GPU();
  check_all_variants<double>(GetParam());
}

TEST_P(A5VariantsOnSubbands, FloatWithinDocumentedBound) {
  MAD_REQUIRE_GPU();
  check_all_variants<float>(GetParam());
}

INSTANTIATE_TEST_SUITE_P(A5VariantsCuda, A5VariantsOnSubbands, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Real" : "Random"; });

// Sizes that stress the edge handling of the thesis's forms, whose CTAs cover 4x4 (shared
// tile) or 16x16 (per thread) blocks: a single block, partial CTAs in both directions, odd and
// prime sides, and a 1920x1080 frame (a partial last CTA row and column).
TEST(A5VariantsCuda, EdgeSizesMatchCpu) {
  MAD_REQUIRE_GPU();
  std::uint32_t seed = 4321;
  for (const Shape& s :
       {Shape{16, 16}, Shape{17, 31}, Shape{61, 47}, Shape{131, 127}, Shape{1920, 1080}}) {
    const auto subbands = random_subbands(s, seed++);
    for (const VariantRow<A5Launches>& v : a5_variants().rows()) {
      check_variant<double>(v, subbands, false, "random " + shape_name(s));
      check_variant<float>(v, subbands, false, "random " + shape_name(s));
    }
  }
}

TEST(A5VariantsCuda, PaddedPitchAndSubbandGapAreHonoured) {
  MAD_REQUIRE_GPU();
  const Shape s{61, 47};
  const auto subbands = random_subbands(s, 99);
  for (const VariantRow<A5Launches>& v : a5_variants().rows())
    check_variant<double>(v, subbands, true, "padded 61x47");
  for (const VariantRow<A5Launches>& v : a5_variants().rows())
    check_variant<float>(v, subbands, true, "padded 61x47");
}

// Complex input: statistics of |z * scale| with the modulus fused into the loads, against
// the CPU statistics of the same modulus computed on the host in the CPU path's order.
template <class Real>
void check_complex_input(const Shape& s) {
  std::mt19937 rng(77);
  std::normal_distribution<double> dist(0.0, 1000.0);
  constexpr int kCount = 2;
  const Real scale = static_cast<Real>(1.0 / (static_cast<double>(s.width) * s.height));
  const std::size_t plane = static_cast<std::size_t>(s.width) * s.height;
  std::vector<Real> host(2 * plane * kCount);
  std::vector<Image<double>> modulus;
  for (int i = 0; i < kCount; ++i) {
    Image<double> m(s.width, s.height);
    for (std::size_t k = 0; k < plane; ++k) {
      const Real re = static_cast<Real>(dist(rng)), im = static_cast<Real>(dist(rng));
      host[2 * (i * plane + k)] = re;
      host[2 * (i * plane + k) + 1] = im;
      // Scaled parts, rounded products, rounded sum, sqrt in Real: the device's order (the
      // host build contracts nothing into FMAs), so both see the same moduli bit for bit.
      const Real sr = re * scale, si = im * scale;
      const Real sum = sr * sr + si * si;
      m.data()[k] = static_cast<double>(std::sqrt(sum));
    }
    modulus.push_back(std::move(m));
  }
  cuda::Stream stream;
  const auto d_in = gpu_test::upload(host, stream.get());
  const BlockGrid grid(s.width, s.height);
  const std::size_t blocks = grid.count();
  for (const VariantRow<A5Launches>& v : a5_variants().rows()) {
    cuda::DeviceBuffer<Real> d_out(3 * blocks * kCount);
    gpu_test::poison(d_out.get(), d_out.size(), stream.get());
    const A5Input<Real> in = gpu_test::a5_input(
        d_in.get(), s.width, static_cast<std::ptrdiff_t>(plane), kCount, true, scale);
    const A5Output<Real> out = a5_output_planes(d_out.get(), blocks * kCount, grid.cols, blocks);
    v.launch.get<Real>()(in, out, grid, stream.get());
    const auto got = gpu_test::download(d_out.get(), d_out.size(), stream.get());
    for (int i = 0; i < kCount; ++i) {
      const std::string bad =
          compare<Real>(cpu_stats(modulus[i].cview()), got.data() + i * blocks,
                        got.data() + (kCount + i) * blocks, got.data() + (2 * kCount + i) * blocks,
                        grid.cols, grid);
      EXPECT_TRUE(bad.empty()) << v.name << " complex " << shape_name(s) << " subband " << i << ": "
                               << bad;
    }
  }
}

TEST(A5VariantsCuda, ComplexInputFusesModulusAndScale) {
  MAD_REQUIRE_GPU();
  for (const Shape& s : {Shape{16, 16}, Shape{61, 47}, Shape{35, 61}, Shape{512, 384}}) {
    check_complex_input<double>(s);
    check_complex_input<float>(s);
  }
}

TEST(A5VariantsCuda, RepeatedLaunchesAreBitIdentical) {
  MAD_REQUIRE_GPU();
  const Shape s{257, 333};
  const auto subbands = real_subbands(s);
  const BlockGrid grid(s.width, s.height);
  const std::size_t plane = static_cast<std::size_t>(s.width) * s.height;
  std::vector<double> host;
  for (const auto& img : subbands) host.insert(host.end(), img.data(), img.data() + plane);
  cuda::Stream stream;
  const auto d_in = gpu_test::upload(host, stream.get());
  const std::size_t n = 3 * grid.count() * subbands.size();
  for (const VariantRow<A5Launches>& v : a5_variants().rows()) {
    std::vector<double> first;
    for (int run = 0; run < 3; ++run) {
      cuda::DeviceBuffer<double> d_out(n);
      gpu_test::poison(d_out.get(), n, stream.get());
      const A5Input<double> in =
          gpu_test::a5_input(d_in.get(), s.width, static_cast<std::ptrdiff_t>(plane),
                             static_cast<int>(subbands.size()));
      const A5Output<double> out =
          a5_output_planes(d_out.get(), grid.count() * subbands.size(), grid.cols, grid.count());
      v.launch.get<double>()(in, out, grid, stream.get());
      auto got = gpu_test::download(d_out.get(), n, stream.get());
      if (run == 0) {
        first = std::move(got);
      } else {
        EXPECT_EQ(0, std::memcmp(first.data(), got.data(), n * sizeof(double))) << v.name;
      }
    }
  }
}

// An image narrower or shorter than one 16x16 block has no blocks: every variant of both
// registries (all statistics and the mean alone) returns without launching or writing.
template <class Real>
void expect_nothing_launched(int width, int height) {
  const BlockGrid grid(width, height);
  ASSERT_EQ(grid.count(), 0u);
  cuda::Stream stream;
  cuda::DeviceBuffer<Real> d_in(static_cast<std::size_t>(width) * height), d_out(4);
  gpu_test::poison(d_out.get(), 4, stream.get());
  const A5Input<Real> in = gpu_test::a5_input(d_in.get(), width, 0, 1);
  const A5Output<Real> out{d_out.get(), d_out.get() + 1, d_out.get() + 2, 1, 1};
  A5MeanOutput<Real> mean;
  mean.mean = d_out.get() + 3;
  mean.pitch = 1;
  for (const VariantRow<A5Launches>& v : a5_variants().rows())
    EXPECT_NO_THROW(v.launch.get<Real>()(in, out, grid, stream.get())) << v.name;
  for (const VariantRow<A5MeanLaunches>& v : a5_mean_variants().rows())
    EXPECT_NO_THROW(v.launch.get<Real>()(in, mean, grid, stream.get())) << v.name;
  for (Real g : gpu_test::download(d_out.get(), 4, stream.get())) EXPECT_TRUE(std::isnan(g));
}

TEST(A5VariantsCuda, ImagesBelowSixteenLaunchNothing) {
  MAD_REQUIRE_GPU();
  expect_nothing_launched<double>(15, 40);
  expect_nothing_launched<float>(40, 15);
}

}  // namespace
}  // namespace mad::appearance
