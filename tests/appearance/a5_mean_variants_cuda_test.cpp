// Every mean-only A5 form (a5_mean_variants(), the thesis's Table 9 kernels) against the CPU
// block means (subband_block_means_cpu) at awkward sizes, real and complex-modulus input,
// double and float, several subbands per launch, a padded pitch, outputs poisoned with NaN
// first so an unwritten block fails.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "appearance/a5_variants.h"
#include "appearance/a5_variants_cuda.h"
#include "appearance/block_means.h"
#include "common/block_grid.h"
#include "common/cuda_resources.h"
#include "common/error.h"
#include "tests/appearance/device_helpers_cuda.h"
#include "tests/support/test_support.h"

namespace mad::appearance {
namespace {

// The GPU forms and the CPU reference are all recursive sums of the block's 256 nonnegative
// samples (in different orders), so each is within 255 u * sum of the exact sum (u = eps / 2
// of its precision); their means differ by at most 255 (u_Real + u_double) * mean. Bound:
// 256 * eps_Real * mean, a 2x margin over that.
template <class Real>
double mean_bound(double mean) {
  return 256.0 * std::numeric_limits<Real>::epsilon() * std::fabs(mean);
}

struct Shape {
  int width, height;
};
std::string shape_name(const Shape& s) {
  return std::to_string(s.width) + "x" + std::to_string(s.height);
}

// One launch of `variant` on `count` seeded subbands of shape s; every subband's mean plane is
// compared with the CPU means of the same (Real-rounded) samples.
template <class Real>
void check_mean_variant(const VariantRow<A5MeanLaunches>& variant, const Shape& s,
                        bool complex_input, bool padded, std::uint32_t seed) {
  constexpr int kCount = 3;
  const int w = s.width, h = s.height;
  const BlockGrid grid(w, h);
  const std::ptrdiff_t in_pitch = padded ? w + 3 : w;
  const std::ptrdiff_t in_stride = in_pitch * h + (padded ? 5 : 0);
  const std::ptrdiff_t out_pitch = padded ? grid.cols + 2 : grid.cols;
  const std::ptrdiff_t out_stride = out_pitch * grid.rows + (padded ? 7 : 0);
  const int parts = complex_input ? 2 : 1;
  const Real scale = complex_input ? static_cast<Real>(1.0 / (static_cast<double>(w) * h)) : 1;

  // Host input, and the samples the device sees (for complex input the modulus, evaluated in
  // the device's order: scaled parts, rounded products and sum, sqrt in Real).
  std::mt19937 rng(seed);
  std::vector<Real> host(static_cast<std::size_t>(parts) * in_stride * kCount, Real(0));
  std::vector<Image<double>> samples;
  for (int i = 0; i < kCount; ++i) {
    std::uniform_real_distribution<double> uniform(0.0, i == 0 ? 1.0 : 3000.0);
    std::normal_distribution<double> normal(0.0, 1000.0);
    Image<double> a(w, h);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const std::ptrdiff_t k = i * in_stride + y * in_pitch + x;
        if (complex_input) {
          const Real re = static_cast<Real>(normal(rng)), im = static_cast<Real>(normal(rng));
          host[2 * k] = re;
          host[2 * k + 1] = im;
          const Real sr = re * scale, si = im * scale;
          const Real sum = sr * sr + si * si;
          a(y, x) = static_cast<double>(std::sqrt(sum));
        } else {
          host[k] = static_cast<Real>(uniform(rng));
          a(y, x) = static_cast<double>(host[k]);
        }
      }
    samples.push_back(std::move(a));
  }

  cuda::Stream stream;
  const auto d_in = gpu_test::upload(host, stream.get());
  cuda::DeviceBuffer<Real> d_out(static_cast<std::size_t>(out_stride) * kCount);
  gpu_test::poison(d_out.get(), d_out.size(), stream.get());
  const A5Input<Real> in =
      gpu_test::a5_input(d_in.get(), in_pitch, in_stride, kCount, complex_input, scale);
  A5MeanOutput<Real> out;
  out.mean = d_out.get();
  out.pitch = out_pitch;
  out.subband_stride = out_stride;
  variant.launch.get<Real>()(in, out, grid, stream.get());
  const std::vector<Real> got = gpu_test::download(d_out.get(), d_out.size(), stream.get());

  const std::string label = std::string(variant.name) + (complex_input ? " complex " : " real ") +
                            shape_name(s) + (padded ? " padded" : "");
  std::vector<double> want(grid.count());
  for (int i = 0; i < kCount; ++i) {
    subband_block_means_cpu(samples[i].cview(), grid, want.data(), grid.cols);
    int bad = 0;
    std::ostringstream first;
    for (int by = 0; by < grid.rows; ++by)
      for (int bx = 0; bx < grid.cols; ++bx) {
        const double ref = want[static_cast<std::size_t>(by) * grid.cols + bx];
        const double g = static_cast<double>(got[i * out_stride + by * out_pitch + bx]);
        if (!(std::fabs(g - ref) <= mean_bound<Real>(ref))) {  // NaN (unwritten) fails too
          if (bad++ == 0) first << "block (" << by << "," << bx << "): gpu " << g << " cpu " << ref;
        }
      }
    EXPECT_EQ(bad, 0) << label << " subband " << i << ": " << bad << " blocks off, first "
                      << first.str();
    // Row padding and the gap between subbands stay poisoned.
    for (std::ptrdiff_t k = 0; k < out_stride; ++k) {
      const std::ptrdiff_t by = k / out_pitch, bx = k % out_pitch;
      if (by < grid.rows && bx < grid.cols) continue;
      EXPECT_TRUE(std::isnan(static_cast<double>(got[i * out_stride + k])))
          << label << " wrote outside its blocks at offset " << k << " of subband " << i;
    }
  }
}

// MAD's minimum and one block, odd and prime sides, partial CTAs both ways, the thesis's
// 512x512 and a 1920x1080 frame.
const Shape kShapes[] = {{16, 16},   {34, 34},   {61, 47},    {17, 31},
                         {131, 127}, {512, 512}, {1920, 1080}};

TEST(A5MeanVariantsCuda, RegistryHoldsTheThesisFourInBothPrecisions) {
  // Needs no device: the registry is host data.
  const auto& registry = a5_mean_variants();
  const auto& rows = registry.rows();
  const char* names[] = {"a5-original", "a5-shared-loop", "a5-shared-unrolled",
                         "a5-shared-unrolled-cf"};
  ASSERT_EQ(rows.size(), 4u);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    EXPECT_STREQ(rows[k].name, names[k]);
    EXPECT_FALSE(registry.infos()[k].note.empty()) << rows[k].name;
    EXPECT_FALSE(registry.infos()[k].shape.empty()) << rows[k].name;
    EXPECT_NE(rows[k].launch.f64, nullptr) << rows[k].name;
    EXPECT_NE(rows[k].launch.f32, nullptr) << rows[k].name;
  }
  EXPECT_EQ(registry.family(), "A5 mean");
  EXPECT_EQ(registry.default_name(), "a5-shared-unrolled-cf");
  EXPECT_THROW(registry.find("a5-fast"), InvalidArgument);  // all-statistics only
}

TEST(A5MeanVariantsCuda, RealInputMatchesCpu) {
  MAD_REQUIRE_GPU();
  std::uint32_t seed = 11;
  for (const Shape& s : kShapes)
    for (const VariantRow<A5MeanLaunches>& v : a5_mean_variants().rows()) {
      check_mean_variant<double>(v, s, false, false, seed);
      check_mean_variant<float>(v, s, false, false, seed++);
    }
}

TEST(A5MeanVariantsCuda, ComplexModulusInputMatchesCpu) {
  MAD_REQUIRE_GPU();
  std::uint32_t seed = 77;
  for (const Shape& s : {Shape{16, 16}, Shape{61, 47}, Shape{512, 512}})
    for (const VariantRow<A5MeanLaunches>& v : a5_mean_variants().rows()) {
      check_mean_variant<double>(v, s, true, false, seed);
      check_mean_variant<float>(v, s, true, false, seed++);
    }
}

TEST(A5MeanVariantsCuda, PaddedPitchAndSubbandGapAreHonoured) {
  MAD_REQUIRE_GPU();
  for (const Shape& s : {Shape{61, 47}, Shape{34, 34}})
    for (const VariantRow<A5MeanLaunches>& v : a5_mean_variants().rows())
      for (bool complex_input : {false, true}) {
        check_mean_variant<double>(v, s, complex_input, true, 5);
        check_mean_variant<float>(v, s, complex_input, true, 6);
      }
}

TEST(A5MeanVariantsCuda, NullOutputIsRefused) {
  MAD_REQUIRE_GPU();
  const BlockGrid grid(34, 34);
  cuda::DeviceBuffer<double> d_in(34 * 34);
  const A5Input<double> in = gpu_test::a5_input(d_in.get(), 34, 0, 1);
  A5MeanOutput<double> out;  // mean == nullptr
  out.pitch = grid.cols;
  for (const VariantRow<A5MeanLaunches>& v : a5_mean_variants().rows())
    EXPECT_THROW(v.launch.get<double>()(in, out, grid, nullptr), InvalidArgument) << v.name;
}

}  // namespace
}  // namespace mad::appearance
