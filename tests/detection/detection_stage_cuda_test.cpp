// The whole CUDA detection stage (detection_stage_cuda.h, detect_cuda) against detect_cpu and
// the original's golden values (spec §3, §9): every statistics variant, both precisions, the
// rocket reference pair, the spec §9 synthetic pairs and a seeded random pair; plus the
// dataset trick (reference reuse) and run-to-run determinism, both bit for bit.
#include "detection/detection_stage_cuda.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "common/error.h"
#include "detection/detection.h"
#include "tests/detection/detect_cuda.h"
#include "tests/detection/detection_cuda_test_util.h"
#include "tests/support/test_support.h"

namespace mad::detection {
namespace {

// Scores: the task's bound for the faithful mode (independent double implementations agree to
// ~1e-14, spec §7; cuFFT and FFTW round differently); float mode: spec §7 measured
// 6e-7..1.2e-4 relative for HI in single precision.
constexpr test::PrecisionTolerance kScoreRel{1e-9, 2e-4};
// ...and an absolute floor for scores that are 0 because every ξ in the crop is 0 (T1): float
// rounding must not make a masked block visible by more than this.
constexpr double kFloatScoreAbs = 1e-3;
// map.HI in double: the task's bound (values up to ~1e4 on T4, so ~1e-13 relative).
constexpr double kDoubleMapAbs = 1e-9;
// map.HI in float: relative L2 over the map; per-pixel errors ~1e-6 relative.
constexpr double kFloatMapRelL2 = 1e-3;

struct PairCase {
  std::string name;
  Image<double> ref, dst;
  bool uint8;
  double golden_hi;       // April-2010 HI of the original, NaN when unknown
  double golden_map_sum;  // Σ map.HI of the original, NaN when unknown
};

const std::vector<PairCase>& pair_cases() {
  static const std::vector<PairCase> cases = [] {
    constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
    std::vector<PairCase> c;
    const auto& rocket = test::rocket_pair();
    c.push_back({"rocket", copy_image(rocket.ref.cview()), copy_image(rocket.dst.cview()), true,
                 7.6349873846403638, kNone});
    // spec §9 (rows x cols, variant, class, HI, Σ map.HI).
    struct T {
      const char* name;
      int rows, cols, variant;
      bool uint8;
      double hi, sum;
    };
    const T ts[] = {{"T1", 64, 64, 1, false, 0.0, 172.983126894532},
                    {"T2", 75, 98, 2, false, 40.9473988681895, 77064.849606482},
                    {"T3", 128, 96, 1, true, 1.86750517402379, 2946.31819053716},
                    {"T4", 96, 128, 3, true, 1386.86033499263, 12611558.4281727}};
    for (const T& t : ts) {
      test::SyntheticPair p = test::make_synthetic_pair(t.rows, t.cols, t.variant);
      c.push_back({t.name, std::move(p.ref), std::move(p.dst), t.uint8, t.hi, t.sum});
    }
    // Seeded random pair, 257 wide x 333 high: uniform reference (255s included, uint8 rule),
    // distorted = reference + uniform noise of +-12, clipped.
    Image<double> ref = test::random_image(257, 333, 7001);
    const Image<double> noise = test::random_image(257, 333, 7002, -12, 12);
    Image<double> dst(257, 333);
    for (int y = 0; y < 333; ++y)
      for (int x = 0; x < 257; ++x)
        dst(y, x) = std::fmin(255, std::fmax(0, ref(y, x) + noise(y, x)));
    c.push_back({"random 257x333", std::move(ref), std::move(dst), true, kNone, kNone});
    return c;
  }();
  return cases;
}

// Runs detect_cuda in `precision` with every statistics variant on every pair case and hands
// each result to `check(case, cpu, gpu)`, traced with the case and variant names. A fatal
// failure in `check` ends the whole run, as an ASSERT in the test body would.
template <class Check>
void for_each_case_and_variant(Precision precision, Check check) {
  for (const auto& c : pair_cases()) {
    const DetectionResult cpu = detect_cpu(c.ref.cview(), c.dst.cview(), c.uint8, true);
    for (const auto& v : detection_stats_variants().infos()) {
      SCOPED_TRACE(c.name + " " + v.name);
      const DetectionResult gpu =
          detect_cuda(c.ref.cview(), c.dst.cview(), c.uint8, true, precision, v.name);
      check(c, cpu, gpu);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST(DetectionStageCuda, DoubleMatchesCpuAndOriginal) {
  MAD_REQUIRE_GPU();
  for_each_case_and_variant(
      Precision::Double,
      [](const PairCase& c, const DetectionResult& cpu, const DetectionResult& gpu) {
        EXPECT_LE(test::rel_err(gpu.d_detect, cpu.d_detect), kScoreRel.f64)
            << gpu.d_detect << " vs cpu " << cpu.d_detect;
        if (!std::isnan(c.golden_hi)) {
          EXPECT_LE(test::rel_err(gpu.d_detect, c.golden_hi), kScoreRel.f64) << gpu.d_detect;
        }
        ASSERT_EQ(gpu.map.width(), c.ref.width());
        ASSERT_EQ(gpu.map.height(), c.ref.height());
        EXPECT_LE(test::max_abs_diff(gpu.map.cview(), cpu.map.cview()), kDoubleMapAbs);
        if (!std::isnan(c.golden_map_sum)) {
          EXPECT_LE(test::rel_err(test::map_sum(gpu.map.cview()), c.golden_map_sum), kScoreRel.f64);
        }
      });
}

TEST(DetectionStageCuda, RocketMapMatchesOriginal) {
  MAD_REQUIRE_GPU();
  const auto& p = test::rocket_pair();
  const DetectionResult gpu = detect_cuda(p.ref.cview(), p.dst.cview(), true, true);
  EXPECT_LE(test::max_abs_diff(gpu.map.cview(), test::load_reference_map("hi_08_map").cview()),
            kDoubleMapAbs);
}

TEST(DetectionStageCuda, FloatMatchesCpu) {
  MAD_REQUIRE_GPU();
  for_each_case_and_variant(Precision::Float, [](const PairCase&, const DetectionResult& cpu,
                                                      const DetectionResult& gpu) {
    EXPECT_LE(std::fabs(gpu.d_detect - cpu.d_detect),
              kScoreRel.f32 * std::fabs(cpu.d_detect) + kFloatScoreAbs)
        << gpu.d_detect << " vs cpu " << cpu.d_detect;
    EXPECT_LE(test::rel_l2(gpu.map.cview(), cpu.map.cview()), kFloatMapRelL2);
  });
}

// One device run of a stage: the pooled sum and map.HI, both outputs poisoned beforehand.
template <class Real>
struct DeviceRun {
  double sum_sq = 0;
  std::vector<Real> map;
};

template <class Real>
DeviceRun<Real> run_on(DetectionStageCuda<Real>& stage, const Real* d_ref, const Real* d_dst,
                       bool uint8, bool prepare, bool want_map, cudaStream_t s) {
  const std::size_t n = static_cast<std::size_t>(stage.width()) * stage.height();
  cuda::DeviceBuffer<double> sum(1);
  cuda::DeviceBuffer<Real> map(n);
  test::poison(sum.get(), 1, s);
  test::poison(map.get(), n, s);
  if (prepare) stage.prepare_reference(d_ref, uint8, s);
  stage.run_distorted(d_ref, d_dst, uint8, sum.get(), want_map ? map.get() : nullptr, s);
  DeviceRun<Real> r;
  r.sum_sq = test::download(sum.get(), 1, s)[0];
  if (want_map) r.map = test::download(map.get(), n, s);
  return r;
}

template <class Real>
bool same_bits(const DeviceRun<Real>& a, const DeviceRun<Real>& b) {
  return std::memcmp(&a.sum_sq, &b.sum_sq, sizeof(double)) == 0 && a.map.size() == b.map.size() &&
         std::memcmp(a.map.data(), b.map.data(), a.map.size() * sizeof(Real)) == 0;
}

// Spec §11 dataset trick: one prepared reference serves several distorted images, with exactly
// the bits of a fresh stage per pair; every map pixel is written (outputs were NaN).
template <class Real>
void check_reference_reuse() {
  const Image<double> ref = test::load_reference_image("rocket_333x257.png");
  const char* dists[] = {"rocket_333x257__awgn_s10.png", "rocket_333x257__blur_s1.5.png",
                         "rocket_333x257__jpeg_q30.png"};
  const int w = ref.width(), h = ref.height();
  cuda::Stream stream;
  const cudaStream_t s = stream.get();
  const auto d_ref = test::upload(test::packed<Real>(ref.cview()), s);
  DetectionStageCuda<Real> reused(w, h, s);
  reused.prepare_reference(d_ref.get(), true, s);
  for (const char* name : dists) {
    SCOPED_TRACE(name);
    const Image<double> dst = test::load_reference_image(name);
    const auto d_dst = test::upload(test::packed<Real>(dst.cview()), s);
    const DeviceRun<Real> a = run_on(reused, d_ref.get(), d_dst.get(), true, false, true, s);
    DetectionStageCuda<Real> fresh(w, h, s);
    const DeviceRun<Real> b = run_on(fresh, d_ref.get(), d_dst.get(), true, true, true, s);
    EXPECT_TRUE(same_bits(a, b));
    for (Real v : a.map) ASSERT_TRUE(std::isfinite(static_cast<double>(v)));
    EXPECT_TRUE(std::isfinite(a.sum_sq));
    // And the score is the CPU's.
    const double cpu = detect_cpu(ref.cview(), dst.cview(), true, false).d_detect;
    const double gpu = d_detect_from_sum_sq(a.sum_sq, w, h);
    EXPECT_LE(test::rel_err(gpu, cpu), kScoreRel.of<Real>());
  }
}

TEST(DetectionStageCuda, ReferenceReuseIsBitIdenticalDouble) {
  MAD_REQUIRE_GPU();
  check_reference_reuse<double>();
}

TEST(DetectionStageCuda, ReferenceReuseIsBitIdenticalFloat) {
  MAD_REQUIRE_GPU();
  check_reference_reuse<float>();
}

// The same pair run again gives the same bits, and asking for the map does not change the
// score's bits (the reduction order does not depend on it).
template <class Real>
void check_repeatable() {
  const PairCase& c = pair_cases().back();  // the random pair
  const int w = c.ref.width(), h = c.ref.height();
  const test::DevicePair<Real> inputs(c.ref.cview(), c.dst.cview());
  const cudaStream_t s = inputs.stream.get();
  for (const BlockStatsRow& v : detection_stats_variants().rows()) {
    SCOPED_TRACE(v.name);
    DetectionStageCuda<Real> stage(w, h, s, v);
    const DeviceRun<Real> first =
        run_on(stage, inputs.ref.get(), inputs.dst.get(), c.uint8, true, true, s);
    for (int i = 0; i < 3; ++i)
      EXPECT_TRUE(same_bits(
          first, run_on(stage, inputs.ref.get(), inputs.dst.get(), c.uint8, true, true, s)));
    const DeviceRun<Real> no_map =
        run_on(stage, inputs.ref.get(), inputs.dst.get(), c.uint8, false, false, s);
    EXPECT_EQ(0, std::memcmp(&first.sum_sq, &no_map.sum_sq, sizeof(double)));
  }
}

TEST(DetectionStageCuda, RepeatedRunsAreBitIdenticalDouble) {
  MAD_REQUIRE_GPU();
  check_repeatable<double>();
}

TEST(DetectionStageCuda, RepeatedRunsAreBitIdenticalFloat) {
  MAD_REQUIRE_GPU();
  check_repeatable<float>();
}

TEST(DetectionStageCuda, RejectsBadUse) {
  MAD_REQUIRE_GPU();
  cuda::Stream stream;
  EXPECT_THROW(DetectionStageCuda<double>(33, 40, stream.get()), InvalidArgument);
  EXPECT_THROW(DetectionStageCuda<double>(40, 33, stream.get()), InvalidArgument);
  DetectionStageCuda<double> stage(64, 64, stream.get());
  cuda::DeviceBuffer<double> img(64 * 64), sum(1);
  EXPECT_THROW(stage.run_distorted(img.get(), img.get(), true, sum.get(), nullptr, stream.get()),
               InvalidArgument);
  const Image<double> a(64, 64), b(64, 65);
  EXPECT_THROW(detect_cuda(a.cview(), b.cview(), true, false), InvalidArgument);
}

}  // namespace
}  // namespace mad::detection
