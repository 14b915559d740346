// Every CUDA block-statistics variant (block_stats_cuda.h) against the CPU reference
// detection_block_stats_cpu and visibility_mask_cpu (spec §3.5-3.6), in both precisions, on
// seeded random and real (CSF-filtered photographic) inputs at sizes that hurt: the minimum
// 34x34, odd and prime sizes both ways round, non-square, 512x512 and 1080x800. Every output
// is poisoned with NaN first, so an unwritten block fails.
#include "detection/block_stats_cuda.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "common/error.h"
#include "detection/block_stats.h"
#include "detection/csf.h"
#include "detection/detection.h"
#include "detection/luminance.h"
#include "detection/visibility_mask.h"
#include "tests/detection/detection_cuda_test_util.h"
#include "tests/support/test_support.h"

namespace mad::detection {
namespace {

// Statistics, relative with a floor (a fraction of the data scale).
// double: the variants sum the same samples as the CPU, in the same order (det-original,
// det-shared) or from tile moments (det-fast); rounding differs by a few ulps of the DATA
// scale, so the relative bound has a floor of 1% of that scale (a σ far below it carries the
// absolute rounding of the mean).
// float: inputs rounded to float (6e-8 relative) and float sums of <= 256 terms (typically
// ~1e-6 relative, 1.5e-5 in the worst case); floor 5% of the data scale.
constexpr test::PrecisionTolerance kRel{1e-12, 5e-5};
constexpr test::PrecisionTolerance kFloor{1e-2, 5e-2};
// ξ is a difference of logarithms of the statistics, so its absolute error is about the
// relative error of σ; it is continuous at both contrast branches.
constexpr test::PrecisionTolerance kMaskAbs{1e-10, 2e-4};
// ...but it jumps at the luminance gate μ = 0.5: blocks whose μ lies this close (relative) to
// the gate may legitimately fall on the other side and are left out of the ξ comparison.
constexpr test::PrecisionTolerance kGateBand{1e-12, 1e-4};

struct StatsCase {
  std::string label;
  Image<double> csf_ref, csf_dst;
};

// Random: luminance-range reference, error of +-0.1 on top (uniform, independent).
StatsCase random_case(int w, int h, std::uint32_t seed) {
  StatsCase c{"random " + std::to_string(w) + "x" + std::to_string(h), Image<double>(w, h),
              Image<double>(w, h)};
  const Image<double> raw = test::random_image(w, h, seed);
  const Image<double> noise = test::random_image(w, h, seed + 1, 0, 200);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      c.csf_ref(y, x) = luminance_value(raw(y, x), true);
      c.csf_dst(y, x) = c.csf_ref(y, x) + (noise(y, x) - 100) * 1e-3;
    }
  return c;
}

// Real: camera and its JPEG q10 version, luminance and CSF as the CPU stage computes them.
StatsCase real_case(int w, int h) {
  StatsCase c{"real " + std::to_string(w) + "x" + std::to_string(h), Image<double>(w, h),
              Image<double>(w, h)};
  const CsfFilterCpu csf(w, h);
  const Image<double> raws[2] = {test::real_image("camera_512.png", w, h),
                                 test::real_image("camera_512__jpeg_q10.png", w, h)};
  Image<double>* outs[2] = {&c.csf_ref, &c.csf_dst};
  for (int k = 0; k < 2; ++k) {
    Image<double> lum(w, h);
    luminance_cpu(raws[k].cview(), true, lum.view());
    csf.apply(lum.cview(), outs[k]->view());
  }
  return c;
}

std::vector<StatsCase> all_cases() {
  const int sizes[][2] = {{34, 34},   {35, 61},   {61, 35},   {257, 333}, {333, 257},
                          {384, 512}, {512, 384}, {512, 512}, {1080, 800}};
  std::vector<StatsCase> cases;
  std::uint32_t seed = 20240;
  for (const auto& s : sizes) {
    cases.push_back(random_case(s[0], s[1], seed += 2));
    cases.push_back(real_case(s[0], s[1]));
  }
  return cases;
}

const std::vector<StatsCase>& cases() {
  static const std::vector<StatsCase> c = all_cases();
  return c;
}

template <class Real>
void expect_close(const std::string& what, const std::vector<Real>& gpu,
                  const std::vector<double>& cpu, double rel, double floor) {
  ASSERT_EQ(gpu.size(), cpu.size()) << what;
  std::size_t bad = 0, first = 0;
  double worst = 0;
  for (std::size_t i = 0; i < cpu.size(); ++i) {
    const double g = gpu[i], c = cpu[i];
    if (g == c) continue;
    double err = std::fabs(g - c) / std::max(std::fabs(c), floor);
    if (std::isnan(err)) err = std::numeric_limits<double>::infinity();
    worst = std::max(worst, err);
    if (!(err <= rel) && bad++ == 0) first = i;
  }
  EXPECT_EQ(bad, 0u) << what << ": " << bad << " of " << cpu.size() << " blocks off, first #"
                     << first << " (gpu " << static_cast<double>(gpu[first]) << ", cpu "
                     << cpu[first] << "); worst relative error " << worst << " > " << rel;
}

template <class Real>
void check_variants_on(const StatsCase& c) {
  constexpr bool kDouble = std::is_same_v<Real, double>;
  const int w = c.csf_ref.width(), h = c.csf_ref.height();
  Image<double> err(w, h);
  error_image_cpu(c.csf_ref.cview(), c.csf_dst.cview(), err.view());
  const DetectionBlockStats st = detection_block_stats_cpu(c.csf_ref.cview(), err.cview());
  const std::size_t blocks = st.grid.count();
  std::vector<double> mask(blocks);
  visibility_mask_cpu(st.mean_ref.data(), st.std_min_ref.data(), st.std_err.data(), blocks,
                      mask.data());

  const std::vector<Real> ref_r = test::packed<Real>(c.csf_ref.cview());
  const std::vector<Real> dst_r = test::packed<Real>(c.csf_dst.cview());
  std::vector<double> ref_d(ref_r.begin(), ref_r.end()), dst_d(dst_r.begin(), dst_r.end());
  const double ref_scale = test::max_abs(ref_d);
  const double err_scale = std::max(ref_scale, test::max_abs(dst_d));
  const double rel = kRel.of<Real>();
  const double floor = kFloor.of<Real>();
  const double mask_abs = kMaskAbs.of<Real>();
  const double band = kGateBand.of<Real>();

  cuda::Stream stream;
  const cudaStream_t s = stream.get();
  const cuda::DeviceBuffer<Real> d_ref = test::upload(ref_r, s), d_dst = test::upload(dst_r, s);
  for (const auto& row : detection_stats_variants().rows()) {
    SCOPED_TRACE(std::string(row.name) + (kDouble ? " double " : " float ") + c.label);
    const gpu::BlockStatsLaunch<Real>& v = row.launch.get<Real>();
    cuda::DeviceBuffer<Real> mean(blocks), std_min(blocks), std_err(blocks), xi(blocks);
    for (auto* b : {&mean, &std_min, &std_err, &xi}) test::poison(b->get(), blocks, s);
    v.reference(d_ref.get(), w, h, mean.get(), std_min.get(), s);
    v.error(d_dst.get(), d_ref.get(), w, h, mean.get(), std_min.get(), std_err.get(), xi.get(), s);
    expect_close("mean_ref", test::download(mean.get(), blocks, s), st.mean_ref, rel,
                 floor * ref_scale);
    expect_close("std_min_ref", test::download(std_min.get(), blocks, s), st.std_min_ref, rel,
                 floor * ref_scale);
    expect_close("std_err", test::download(std_err.get(), blocks, s), st.std_err, rel,
                 floor * err_scale);
    const std::vector<Real> g_mask = test::download(xi.get(), blocks, s);
    std::size_t bad = 0, compared = 0;
    for (std::size_t b = 0; b < blocks; ++b) {
      if (std::fabs(st.mean_ref[b] - kMaskLuminanceGate) <= band * kMaskLuminanceGate) continue;
      ++compared;
      if (!(std::fabs(g_mask[b] - mask[b]) <= mask_abs)) ++bad;
    }
    EXPECT_EQ(bad, 0u) << "mask: " << bad << " of " << compared << " blocks off by > " << mask_abs;
  }
}

TEST(BlockStatsCuda, DoubleVariantsMatchCpu) {
  MAD_REQUIRE_GPU();
  for (const auto& c : cases()) check_variants_on<double>(c);
}

TEST(BlockStatsCuda, FloatVariantsMatchCpu) {
  MAD_REQUIRE_GPU();
  for (const auto& c : cases()) check_variants_on<float>(c);
}

// The optional outputs are independent: ξ alone equals ξ written beside σ_err, bit for bit.
TEST(BlockStatsCuda, MaskWithoutStdErrIsIdentical) {
  MAD_REQUIRE_GPU();
  const StatsCase c = real_case(257, 333);
  const int w = 257, h = 333;
  const std::size_t blocks = BlockGrid(w, h).count();
  const test::DevicePair<double> inputs(c.csf_ref.cview(), c.csf_dst.cview());
  const cudaStream_t s = inputs.stream.get();
  for (const auto& row : detection_stats_variants().rows()) {
    SCOPED_TRACE(row.name);
    const gpu::BlockStatsLaunch<double>& v = row.launch.f64;
    cuda::DeviceBuffer<double> mean(blocks), std_min(blocks), std_err(blocks), a(blocks), b(blocks);
    v.reference(inputs.ref.get(), w, h, mean.get(), std_min.get(), s);
    v.error(inputs.dst.get(), inputs.ref.get(), w, h, mean.get(), std_min.get(), std_err.get(),
            a.get(), s);
    test::poison(b.get(), blocks, s);
    v.error(inputs.dst.get(), inputs.ref.get(), w, h, mean.get(), std_min.get(), nullptr, b.get(),
            s);
    const auto ma = test::download(a.get(), blocks, s), mb = test::download(b.get(), blocks, s);
    EXPECT_EQ(0, std::memcmp(ma.data(), mb.data(), blocks * sizeof(double)));
  }
}

// The registry: every row holds both launches in both precisions and a description; names
// are unique and exactly one is the default; unknown names are refused.
TEST(BlockStatsCuda, RegistryIsConsistent) {
  const auto& registry = detection_stats_variants();
  const auto& infos = registry.infos();
  const auto& rows = registry.rows();
  ASSERT_FALSE(infos.empty());
  ASSERT_EQ(infos.size(), rows.size());
  std::set<std::string> names;
  int defaults = 0;
  for (std::size_t i = 0; i < infos.size(); ++i) {
    EXPECT_EQ(infos[i].name, rows[i].name);
    EXPECT_FALSE(infos[i].note.empty());
    EXPECT_FALSE(infos[i].shape.empty());
    const gpu::BlockStatsLaunches& l = rows[i].launch;
    EXPECT_TRUE(l.f64.reference && l.f64.error && l.f32.reference && l.f32.error);
    names.insert(infos[i].name);
    if (infos[i].is_default) {
      ++defaults;
      EXPECT_EQ(infos[i].name, registry.default_name());
    }
  }
  EXPECT_EQ(names.size(), infos.size());
  EXPECT_EQ(defaults, 1);
  EXPECT_EQ(registry.default_name(), "det-fast");
  EXPECT_STREQ(registry.find("").name, registry.default_name().c_str());
  EXPECT_THROW(registry.find("det-nonexistent"), InvalidArgument);
}

}  // namespace
}  // namespace mad::detection
