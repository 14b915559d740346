// The fused subband transform (appearance/subband_fft_cuda.h) against the cuFFT route (product
// kernel + batched cuFFT inverse, modulus on the host as A5 forms it) on seeded random half
// spectra, every scale, at sides of every radix mix; then the whole stage with each transform
// against the CPU stage, at the bound the contract claims for the fused route (1e-12 double).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "appearance/appearance_kernels_cuda.h"
#include "appearance/subband_fft_cuda.h"
#include "common/cuda_check.h"
#include "common/cufft_ops.h"
#include "tests/appearance/stage_check_cuda.h"

namespace mad::appearance {
namespace {

using stage_test::Pair;

// Sides covering radices 8, 4, 2, 3 and 5, odd and even, non-square, and the 4K frame.
const std::pair<int, int> kFusedShapes[] = {{36, 40},    {45, 75},    {250, 243}, {384, 512},
                                            {512, 384},  {512, 512},  {640, 360}, {1080, 800},
                                            {1920, 1080}};

// Largest |fused - cufft| over one scale's 4 magnitude planes, relative to the largest
// magnitude, for a random half spectrum.
template <class Real>
double magnitude_gap(int width, int height, std::uint32_t seed) {
  using C = DeviceComplex<Real>;
  using Ops = cuda::CufftOps<Real>;
  cuda::Stream stream;
  const int half_width = width / 2 + 1;
  const std::size_t plane = static_cast<std::size_t>(width) * height;
  std::vector<C> half(static_cast<std::size_t>(height) * half_width);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1000, 1000);
  for (C& c : half) c = {static_cast<Real>(u(rng)), static_cast<Real>(u(rng))};
  cuda::DeviceBuffer<C> d_half = cuda::upload(half, stream.get());
  LogGaborBankCuda<Real> bank(width, height, stream.get());
  SubbandFftCuda<Real> fused(width, height);
  cuda::DeviceBuffer<C> d_cufft(kOrientations * plane), d_fused(kOrientations * plane);
  cuda::FftPlan plan;
  int n[2] = {height, width};
  std::size_t work = 0;
  MAD_CUFFT_CHECK(cufftMakePlanMany(plan.get(), 2, n, nullptr, 1, 0, nullptr, 1, 0, Ops::kC2C,
                                    kOrientations, &work));
  MAD_CUFFT_CHECK(cufftSetStream(plan.get(), stream.get()));
  const Real scale = static_cast<Real>(1.0 / (static_cast<double>(width) * height));
  double worst = 0;
  for (int s = 0; s < kScales; ++s) {
    detail::launch_filter_scale<Real>(d_half.get(), half_width, bank, s, d_cufft.get(),
                                      stream.get());
    MAD_CUFFT_CHECK(Ops::c2c(plan.get(), d_cufft.get(), d_cufft.get(), CUFFT_INVERSE));
    test::poison(reinterpret_cast<Real*>(d_fused.get()), 2 * kOrientations * plane,
                 stream.get());
    fused.run_scale(d_half.get(), bank, s, d_fused.get(), stream.get());
    const std::vector<C> want = test::download(d_cufft.get(), kOrientations * plane, stream.get());
    const std::vector<Real> got = test::download(reinterpret_cast<const Real*>(d_fused.get()),
                                                 2 * kOrientations * plane, stream.get());
    const A5Input<Real> in = fused.magnitudes(d_fused.get());
    double largest = 0, gap = 0;
    for (int o = 0; o < kOrientations; ++o)
      for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
          const C z = want[o * plane + static_cast<std::size_t>(y) * width + x];
          const Real re = z.x * scale, im = z.y * scale;
          const double m = std::sqrt(static_cast<double>(re) * re + static_cast<double>(im) * im);
          const double g = got[o * in.subband_stride + y * in.pitch + x];
          if (!std::isfinite(g)) {
            ADD_FAILURE() << "unwritten magnitude at scale " << s << " orientation " << o << " ("
                          << y << ", " << x << ") " << width << "x" << height;
            return 1;
          }
          largest = std::max(largest, m);
          gap = std::max(gap, std::abs(g - m));
        }
    worst = std::max(worst, gap / largest);
  }
  return worst;
}

TEST(SubbandFftCuda, MatchesTheCufftRoute) {
  MAD_REQUIRE_GPU();
  std::uint32_t seed = 77;
  double worst_double = 0, worst_float = 0;
  for (auto [w, h] : kFusedShapes) {
    const double d = magnitude_gap<double>(w, h, seed);
    const double f = magnitude_gap<float>(w, h, seed++);
    // Two FFTs of ~log2(n) rounded passes each: a few ulps of the largest value.
    EXPECT_LE(d, 1e-14) << w << "x" << h;
    EXPECT_LE(f, 5e-6) << w << "x" << h;
    worst_double = std::max(worst_double, d);
    worst_float = std::max(worst_float, f);
  }
  std::printf("FUSED magnitudes vs cuFFT route: double %.2e, float %.2e (relative to the largest)\n",
              worst_double, worst_float);
}

// The stage with either transform against the CPU stage; the fused route is held to the 1e-12
// the contract names (the cuFFT route's own agreement is the same order, ~1e-13).
template <class Real>
double stage_gap(const Pair& p, const std::string& transform) {
  const AppearanceResult want = appear_cpu(p.ref.cview(), p.dst.cview(), true);
  cuda::Stream stream;
  AppearanceStageCuda<Real> stage(p.ref.width(), p.ref.height(), stream.get(),
                                  a5_variants().default_row(),
                                  subband_transforms().find(transform).launch);
  EXPECT_EQ(subband_transform_name(stage.subband_transform()), transform);
  const auto d_ref = test::upload<Real>(p.ref.cview(), stream.get());
  stage.prepare_reference(d_ref.get(), stream.get());
  const stage_test::GpuOut<Real> got = stage_test::run_distorted(stage, p.dst, stream.get());
  return std::abs(got.d_appear - want.d_appear) / want.d_appear;
}

TEST(SubbandFftCuda, StageMatchesCpuWithEitherTransform) {
  MAD_REQUIRE_GPU();
  std::uint32_t seed = 501;
  double worst[2] = {0, 0}, worst_float = 0;
  const char* names[2] = {"fused", "cufft"};
  for (auto [w, h] : kFusedShapes) {
    if (w * h > 1000000) continue;  // the CPU stage at 1920x1080 takes seconds
    for (const Pair& p : stage_test::pairs_for(w, h, seed++)) {
      for (int i = 0; i < 2; ++i) {
        const double gap = stage_gap<double>(p, names[i]);
        EXPECT_LE(gap, 1e-12) << names[i] << " " << p.label << " " << w << "x" << h;
        worst[i] = std::max(worst[i], gap);
      }
      const double f = stage_gap<float>(p, "fused");
      EXPECT_LE(f, stage_test::kScoreRelTol.f32) << p.label << " " << w << "x" << h;
      worst_float = std::max(worst_float, f);
    }
  }
  std::printf("FUSED stage d_appear vs CPU: fused double %.2e, cufft double %.2e, fused float "
              "%.2e\n",
              worst[0], worst[1], worst_float);
}

TEST(SubbandFftCuda, RefusesShapesItCannotRun) {
  MAD_REQUIRE_GPU();
  EXPECT_THROW(SubbandFftCuda<double>(34, 34), InvalidArgument);
  cuda::Stream stream;
  EXPECT_THROW(AppearanceStageCuda<double>(257, 333, stream.get(), a5_variants().default_row(),
                                           SubbandTransform::Fused),
               InvalidArgument);
  const AppearanceStageCuda<double> fallback(257, 333, stream.get());
  EXPECT_EQ(fallback.subband_transform(), SubbandTransform::Cufft);
}

}  // namespace
}  // namespace mad::appearance
