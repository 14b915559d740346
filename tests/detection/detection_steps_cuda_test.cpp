// The CUDA detection stage step by step against the CPU functions of each step (luminance,
// C_s, CSF-filtered images, block statistics, ξ), so that a failing end-to-end comparison
// names the step that broke. (The benchmark entry point's contract is tested in
// tests/bench/detection_bench_cuda_test.cpp.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "common/block_grid.h"
#include "common/error.h"
#include "detection/block_stats.h"
#include "detection/csf.h"
#include "detection/luminance_csf_cuda.h"
#include "detection/detection.h"
#include "detection/detection_stage_cuda.h"
#include "detection/luminance.h"
#include "detection/visibility_mask.h"
#include "tests/detection/detection_cuda_test_util.h"
#include "tests/support/test_support.h"

namespace mad::detection {
namespace {

// Luminance of non-integer values: device pow is within 2 ulp (CUDA programming guide), the
// host's within 1; integer values come from the same host table and must match exactly. In
// float: one rounding to float of values <= 1.68.
constexpr test::PrecisionTolerance kLumRel{1e-15, 1e-7};
// C_s: hypot/atan2/cos/exp/pow of device libm vs host libm, values <= 0.98 (double); one
// rounding to float (float).
constexpr test::PrecisionTolerance kCsfAbs{1e-14, 1e-7};
// L' (values ~0..1.7): cuFFT vs FFTW rounding in double (the CPU tests allow the same between
// FFTW and MATLAB); float FFTs of ~85k points: eps_f·log2(MN)·|L| with margin.
constexpr test::PrecisionTolerance kFilteredAbs{1e-13, 2e-5};
// Block statistics from those slightly different L': relative with a floor of a fraction of
// the data scale (see block_stats_cuda_test.cpp), loosened by the FFT differences.
constexpr test::PrecisionTolerance kStatsRel{1e-11, 1e-4}, kStatsFloor{1e-2, 5e-2};
// ξ: absolute; blocks within a relative band of the μ = 0.5 gate are skipped (ξ jumps there).
constexpr test::PrecisionTolerance kMaskAbs{1e-9, 1e-3}, kGateBand{1e-12, 1e-4};

template <class Real>
void check_luminance() {
  std::vector<double> values;
  for (int v = 0; v < 256; ++v) values.push_back(v);
  for (double v : {0.5, 1.0 / 3.0, 17.25, 100.125, 254.5, 254.75, 255.0}) values.push_back(v);
  cuda::Stream stream;
  const cudaStream_t s = stream.get();
  const auto table_host = gpu::luminance_table_host<Real>();
  const auto d_table = test::upload(std::vector<Real>(table_host.begin(), table_host.end()), s);
  const auto d_in = test::upload(std::vector<Real>(values.begin(), values.end()), s);
  cuda::DeviceBuffer<Real> d_out(values.size());
  for (bool uint8 : {false, true}) {
    SCOPED_TRACE(uint8 ? "uint8" : "double");
    test::poison(d_out.get(), values.size(), s);
    gpu::launch_luminance<Real>(d_in.get(), values.size(), uint8, d_table.get(), d_out.get(), s);
    const std::vector<Real> got = test::download(d_out.get(), values.size(), s);
    for (std::size_t i = 0; i < values.size(); ++i) {
      const Real v = static_cast<Real>(values[i]);
      const double want = luminance_value(static_cast<double>(v), uint8);
      const double g = got[i];
      if (std::is_same_v<Real, double> && std::floor(values[i]) == values[i])
        EXPECT_EQ(g, want) << "value " << values[i];
      else
        EXPECT_LE(std::fabs(g - want), kLumRel.of<Real>() * want) << "value " << values[i];
    }
  }
}

TEST(DetectionStepsCuda, LuminanceDouble) {
  MAD_REQUIRE_GPU();
  check_luminance<double>();
}

TEST(DetectionStepsCuda, LuminanceFloat) {
  MAD_REQUIRE_GPU();
  check_luminance<float>();
}

template <class Real>
double max_abs_diff_vec(const std::vector<Real>& got, ImageView<const double> want) {
  return test::max_abs_diff(
      test::unpacked(std::vector<double>(got.begin(), got.end()), want.width, want.height).cview(),
      want);
}

template <class Real>
void expect_blocks_close(const char* what, const std::vector<Real>& gpu,
                         const std::vector<double>& cpu, double rel, double floor) {
  ASSERT_EQ(gpu.size(), cpu.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < cpu.size(); ++i)
    if (!(std::fabs(gpu[i] - cpu[i]) <= rel * std::max(std::fabs(cpu[i]), floor))) ++bad;
  EXPECT_EQ(bad, 0u) << what << ": " << bad << " of " << cpu.size() << " blocks off";
}

// The rocket pair through a stage, each intermediate against its CPU counterpart.
template <class Real>
void check_steps(const std::string& variant) {
  const auto& p = test::rocket_pair();
  const int w = p.ref.width(), h = p.ref.height();
  const test::DevicePair<Real> inputs(p.ref.cview(), p.dst.cview());
  const cudaStream_t s = inputs.stream.get();
  cuda::DeviceBuffer<double> sum(1);
  DetectionStageCuda<Real> stage(w, h, s, detection_stats_variants().find(variant));
  stage.prepare_reference(inputs.ref.get(), true, s);
  stage.run_distorted(inputs.ref.get(), inputs.dst.get(), true, sum.get(), nullptr, s);

  // C_s on the half layout.
  const Image<double> csf_half = csf_hermitian_half(w, h);
  EXPECT_LE(max_abs_diff_vec(test::download(stage.csf_half(), csf_half.pixel_count(), s),
                             csf_half.cview()),
            kCsfAbs.of<Real>());

  // L'_ref and L'_dst.
  const CsfFilterCpu csf(w, h);
  Image<double> lum(w, h), csf_ref(w, h), csf_dst(w, h);
  luminance_cpu(p.ref.cview(), true, lum.view());
  csf.apply(lum.cview(), csf_ref.view());
  luminance_cpu(p.dst.cview(), true, lum.view());
  csf.apply(lum.cview(), csf_dst.view());
  const std::size_t n = csf_ref.pixel_count();
  const double filtered_tol = kFilteredAbs.of<Real>();
  EXPECT_LE(max_abs_diff_vec(test::download(stage.csf_ref(), n, s), csf_ref.cview()), filtered_tol);
  EXPECT_LE(max_abs_diff_vec(test::download(stage.csf_dst(), n, s), csf_dst.cview()), filtered_tol);

  // Block statistics and ξ from the CPU's own L'.
  Image<double> err(w, h);
  error_image_cpu(csf_ref.cview(), csf_dst.cview(), err.view());
  const DetectionBlockStats st = detection_block_stats_cpu(csf_ref.cview(), err.cview());
  const std::size_t blocks = st.grid.count();
  std::vector<double> xi(blocks);
  visibility_mask_cpu(st.mean_ref.data(), st.std_min_ref.data(), st.std_err.data(), blocks,
                      xi.data());
  double scale = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      scale = std::fmax(scale, std::fmax(std::fabs(csf_ref(y, x)), std::fabs(csf_dst(y, x))));
  const double rel = kStatsRel.of<Real>();
  const double floor = kStatsFloor.of<Real>() * scale;
  expect_blocks_close("mean_ref", test::download(stage.mean_ref(), blocks, s), st.mean_ref, rel,
                      floor);
  expect_blocks_close("std_min_ref", test::download(stage.std_min_ref(), blocks, s), st.std_min_ref,
                      rel, floor);
  expect_blocks_close("std_err", test::download(stage.std_err(), blocks, s), st.std_err, rel,
                      floor);
  const std::vector<Real> g_xi = test::download(stage.mask(), blocks, s);
  const double band = kGateBand.of<Real>();
  std::size_t bad = 0;
  for (std::size_t b = 0; b < blocks; ++b) {
    if (std::fabs(st.mean_ref[b] - kMaskLuminanceGate) <= band * kMaskLuminanceGate) continue;
    if (!(std::fabs(g_xi[b] - xi[b]) <= kMaskAbs.of<Real>())) ++bad;
  }
  EXPECT_EQ(bad, 0u) << "mask blocks off";
}

TEST(DetectionStepsCuda, RocketStepsDouble) {
  MAD_REQUIRE_GPU();
  for (const auto& v : detection_stats_variants().infos()) {
    SCOPED_TRACE(v.name);
    check_steps<double>(v.name);
  }
}

TEST(DetectionStepsCuda, RocketStepsFloat) {
  MAD_REQUIRE_GPU();
  for (const auto& v : detection_stats_variants().infos()) {
    SCOPED_TRACE(v.name);
    check_steps<float>(v.name);
  }
}

}  // namespace
}  // namespace mad::detection
