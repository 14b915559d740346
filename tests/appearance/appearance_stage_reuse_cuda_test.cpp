// The GPU appearance stage's reference side and lifecycle: reference statistics vs the CPU's,
// reference reuse and repeated runs bit-identical (double and float, other streams, a shared
// bank), the memory budget at 512x512, and argument checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>
#include <string>

#include "appearance/appearance_cpu.h"
#include "appearance/appearance_stage_cuda.h"
#include "appearance/log_gabor.h"
#include "common/error.h"
#include "tests/appearance/stage_check_cuda.h"

namespace mad::appearance {
namespace {

using namespace stage_test;

// Diagnostic: reference statistics vs the CPU's. FFT rounding (~1e-16 of the subband's
// largest |EO|) measured <= 1.6e-10 on skew/kurt of flat JPEG blocks and <= 3e-15 of the
// largest std on std.
constexpr double kStatsShapeTol = 1e-8;
constexpr double kStatsStdTol = 1e-12;
// The memory goal for one 512x512 pair in flight in double.
constexpr std::size_t kMemoryBudget512 = 64u << 20;

TEST(AppearanceStageCuda, ReferenceStatisticsMatchCpu) {
  MAD_REQUIRE_GPU();
  const Image<double> ref = gpu_test::real_image("camera_512__jpeg_q10.png", 384, 512);
  cuda::Stream stream;
  AppearanceStageCuda<double> stage(384, 512, stream.get());
  const auto d_ref = gpu_test::upload<double>(ref.cview(), stream.get());
  stage.prepare_reference(d_ref.get(), stream.get());
  const std::size_t planes = stage.grid().count() * kSubbands;
  const auto got = gpu_test::download(stage.reference_stats(), 3 * planes, stream.get());
  const SubbandStats want = appearance_cpu_for_shape(384, 512)->analyse(ref.cview());
  const std::size_t n = stage.grid().count();
  for (int k = 0; k < kSubbands; ++k) {
    double max_std = 0;
    for (std::size_t b = 0; b < n; ++b) max_std = std::max(max_std, want.std_plane(k)[b]);
    for (std::size_t b = 0; b < n; ++b) {
      const double ws = want.std_plane(k)[b], wk = want.skew_plane(k)[b],
                   wu = want.kurt_plane(k)[b];
      const double gs = got[k * n + b], gk = got[planes + k * n + b],
                   gu = got[2 * planes + k * n + b];
      ASSERT_LE(std::fabs(gs - ws), kStatsStdTol * max_std)
          << "std subband " << k << " block " << b;
      ASSERT_LE(std::fabs(gk - wk), kStatsShapeTol * std::max(1.0, std::fabs(wk)))
          << "skew subband " << k << " block " << b;
      ASSERT_LE(std::fabs(gu - wu), kStatsShapeTol * std::max(1.0, std::fabs(wu)))
          << "kurt subband " << k << " block " << b;
    }
  }
}

// Reusing a prepared reference for several distorted images gives the same bits as a fresh
// stage per pair, and repeated runs (on another stream too) give the same bits again.
TEST(AppearanceStageCuda, ReferenceReuseAndRepeatsAreBitIdentical) {
  MAD_REQUIRE_GPU();
  const int w = 257, h = 333;
  const Image<double> ref = gpu_test::real_image("rocket_333x257.png", w, h);
  const Image<double> d1 = gpu_test::real_image("rocket_333x257__awgn_s10.png", w, h);
  const Image<double> d2 = gpu_test::real_image("rocket_333x257__blur_s1.5.png", w, h);
  auto same = [](const GpuOut<double>& a, const GpuOut<double>& b) {
    return std::memcmp(&a.sum_sq, &b.sum_sq, sizeof(double)) == 0 &&
           std::memcmp(a.map.data(), b.map.data(), a.map.size() * sizeof(double)) == 0;
  };
  cuda::Stream stream;
  AppearanceStageCuda<double> stage(w, h, stream.get());
  const auto d_ref = gpu_test::upload<double>(ref.cview(), stream.get());
  stage.prepare_reference(d_ref.get(), stream.get());
  const GpuOut<double> r1 = run_distorted(stage, d1, stream.get());
  const GpuOut<double> r2 = run_distorted(stage, d2, stream.get());
  const GpuOut<double> r1_again = run_distorted(stage, d1, stream.get());
  EXPECT_TRUE(same(r1, gpu_appear<double>(ref, d1))) << "reuse vs fresh, first distortion";
  EXPECT_TRUE(same(r2, gpu_appear<double>(ref, d2))) << "reuse vs fresh, second distortion";
  EXPECT_TRUE(same(r1, r1_again)) << "repeated run";

  cuda::Stream other;
  stage.prepare_reference(d_ref.get(), other.get());
  EXPECT_TRUE(same(r2, run_distorted(stage, d2, other.get()))) << "another stream";

  // Stages sharing one bank (several pairs in flight) give the same bits as well.
  AppearanceStageCuda<double> sibling(stage.bank());
  sibling.prepare_reference(d_ref.get(), other.get());
  EXPECT_TRUE(same(r1, run_distorted(sibling, d1, other.get()))) << "shared bank";
}

TEST(AppearanceStageCuda, FloatRepeatsAreBitIdentical) {
  MAD_REQUIRE_GPU();
  const Image<double> ref = gpu_test::real_image("coffee_512.png", 512, 384);
  const Image<double> dst = gpu_test::real_image("coffee_512__jpeg_q50.png", 512, 384);
  const GpuOut<float> a = gpu_appear<float>(ref, dst), b = gpu_appear<float>(ref, dst);
  EXPECT_EQ(0, std::memcmp(&a.sum_sq, &b.sum_sq, sizeof(double)));
  EXPECT_EQ(0, std::memcmp(a.map.data(), b.map.data(), a.map.size() * sizeof(float)));
}

TEST(AppearanceStageCuda, MemoryPerShapeAndPairAt512) {
  MAD_REQUIRE_GPU();
  cuda::Stream stream;
  const AppearanceStageCuda<double> d(512, 512, stream.get());
  const AppearanceStageCuda<float> f(512, 512, stream.get());
  auto report = [](const char* name, auto m) {
    std::cout << "[ memory   ] 512x512 " << name << ": bank " << m.bank << " B (per shape), "
              << "per pair: spectrum " << m.spectrum << ", subbands " << m.subbands
              << ", cuFFT work " << m.fft_work << ", reference stats " << m.reference_stats
              << ", distorted stats " << m.distorted_stats << ", eta " << m.eta << "; total "
              << m.total() << " B (" << m.total() / 1048576.0 << " MiB)\n";
  };
  report("double", d.device_memory());
  report("float", f.device_memory());
  EXPECT_LE(d.device_memory().total(), kMemoryBudget512);
  EXPECT_EQ(d.device_memory().subbands, 4u * 512 * 512 * 16);  // one scale in flight
  // 5 radial factors on the 257 x 257 quadrant, 4 angular planes.
  EXPECT_EQ(d.device_memory().bank, (5u * 257 * 257 + 4u * 512 * 512) * 8);
}

TEST(AppearanceStageCuda, RejectsBadUse) {
  MAD_REQUIRE_GPU();
  cuda::Stream stream;
  EXPECT_THROW(AppearanceStageCuda<double>(33, 64, stream.get()), InvalidArgument);
  AppearanceStageCuda<double> stage(64, 64, stream.get());
  cuda::DeviceBuffer<double> img(64 * 64), sum(1);
  EXPECT_FALSE(stage.has_reference());
  EXPECT_THROW(stage.run_distorted(img.get(), sum.get(), nullptr, stream.get()), InvalidArgument);
  MAD_CUDA_CHECK(cudaMemsetAsync(img.get(), 0, img.bytes(), stream.get()));
  stage.prepare_reference(img.get(), stream.get());
  EXPECT_TRUE(stage.has_reference());
  EXPECT_THROW(stage.run_distorted(img.get(), nullptr, nullptr, stream.get()), InvalidArgument);
  stream.synchronize();
}

}  // namespace
}  // namespace mad::appearance
