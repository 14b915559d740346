// The whole GPU pipeline (mad::score with --backend cuda, and BatchScorer) against the CPU path:
// the reference pairs, the spec §9 pairs and seeded random pairs at awkward sizes, in both
// precisions; determinism run to run and between single and batch mode. Skips without a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>

#include "common/error.h"
#include "common/image_io.h"
#include "mad/batch_scorer.h"
#include "tools/bench/bench_images.h"
#include "mad/score.h"
#include "mad/variants.h"
#include "tests/support/test_support.h"

namespace mad {
namespace {

using bench::BenchPair;
using bench::make_bench_pair;

// Issue 3: GPU double equals the CPU to 1e-9 relative on scores and 1e-9 absolute on maps.
constexpr double kDoubleRelTol = 1e-9;
constexpr double kDoubleMapAbsTol = 1e-9;
// Issue 3: GPU float within 2e-4 relative (spec §7 measured up to 1.2e-4 on HI in float).
constexpr double kFloatRelTol = 2e-4;

double rel(double got, double want) {
  if (got == want) return 0.0;
  return std::fabs(got - want) / std::max(std::fabs(want), 1e-300);
}

ScoreOptions options(Backend b, Precision p = Precision::Double, bool maps = false) {
  ScoreOptions o;
  o.backend = b;
  o.precision = p;
  o.want_maps = maps;
  o.version = MadVersion::V2010;
  return o;
}

struct Worst {
  double score = 0, map = 0;
};

void compare(const GrayImage& ref, const GrayImage& dst, Precision p, Worst& worst,
             bool maps = true) {
  const ScoreResult cpu = score(ref, dst, options(Backend::Cpu, Precision::Double, maps));
  const ScoreResult gpu = score(ref, dst, options(Backend::Cuda, p, maps));
  const double tol = p == Precision::Double ? kDoubleRelTol : kFloatRelTol;
  EXPECT_EQ(gpu.backend, Backend::Cuda);
  // LO of pairs whose subbands are pure rounding noise is compared absolutely (spec §7).
  const double e_hi = rel(gpu.hi, cpu.hi), e_lo = rel(gpu.lo, cpu.lo),
               e_mad = rel(gpu.mad, cpu.mad);
  EXPECT_LE(e_hi, tol) << gpu.hi << " vs " << cpu.hi;
  EXPECT_LE(e_lo, tol) << gpu.lo << " vs " << cpu.lo;
  EXPECT_LE(e_mad, tol) << gpu.mad << " vs " << cpu.mad;
  worst.score = std::max({worst.score, e_hi, e_lo, e_mad});
  if (maps && p == Precision::Double) {
    const double m_hi = test::max_abs_diff(gpu.map_hi.cview(), cpu.map_hi.cview());
    const double m_lo = test::max_abs_diff(gpu.map_lo.cview(), cpu.map_lo.cview());
    EXPECT_LE(m_hi, kDoubleMapAbsTol);
    EXPECT_LE(m_lo, kDoubleMapAbsTol);
    worst.map = std::max({worst.map, m_hi, m_lo});
  }
}

class CudaPipeline : public ::testing::TestWithParam<Precision> {};

TEST_P(CudaPipeline, ReferencePairsMatchTheCpu) {
  MAD_REQUIRE_GPU();
  Worst worst;
  for (const auto& row : test::load_reference_scores()) {
    SCOPED_TRACE(row.dist);
    const GrayImage ref = load_gray_image(test::data_path("reference/images/" + row.ref));
    const GrayImage dst = load_gray_image(test::data_path("reference/images/" + row.dist));
    compare(ref, dst, GetParam(), worst, row.ref.rfind("rocket", 0) == 0);
  }
  std::printf(
      "AGREEMENT gpu-%s vs cpu, 25 reference pairs: worst score rel %.3g, worst map abs %.3g\n",
      to_string(GetParam()).c_str(), worst.score, worst.map);
}

TEST_P(CudaPipeline, SyntheticAndRandomPairsAtAwkwardSizes) {
  MAD_REQUIRE_GPU();
  Worst worst;
  const int variants[][3] = {{64, 64, 1}, {75, 98, 2}, {128, 96, 1}, {96, 128, 3}};
  for (const auto& v : variants) {
    auto p = test::make_synthetic_pair(v[0], v[1], v[2]);
    SCOPED_TRACE(std::to_string(v[0]) + "x" + std::to_string(v[1]));
    compare(make_gray_image(std::move(p.ref)), make_gray_image(std::move(p.dst)), GetParam(),
            worst);
  }
  const int sizes[][2] = {{34, 34}, {35, 61}, {257, 333}, {384, 512}, {512, 512}, {1080, 800}};
  for (const auto& s : sizes) {
    const std::uint32_t seed = 7u * s[0] + s[1];
    SCOPED_TRACE("bench pair " + std::to_string(s[0]) + "x" + std::to_string(s[1]) + " seed " +
                 std::to_string(seed));
    BenchPair bp = make_bench_pair(s[0], s[1], seed);
    compare(bp.ref, bp.dst, GetParam(), worst, s[0] * s[1] <= 512 * 512);
  }
  std::printf(
      "AGREEMENT gpu-%s vs cpu, synthetic+random pairs 34x34..1080x800: worst score rel %.3g, "
      "worst map abs %.3g\n",
      to_string(GetParam()).c_str(), worst.score, worst.map);
}

TEST_P(CudaPipeline, RunToRunAndBatchAreBitIdentical) {
  MAD_REQUIRE_GPU();
  std::vector<BenchPair> pairs;
  for (int i = 0; i < 3; ++i) pairs.push_back(make_bench_pair(173, 211, 50u + i));
  const ScoreOptions o = options(Backend::Cuda, GetParam());
  std::vector<ScoreResult> single;
  Scorer scorer(o);
  for (const auto& p : pairs) single.push_back(scorer.score(p.ref, p.dst));
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const ScoreResult again = scorer.score(pairs[i].ref, pairs[i].dst);
    EXPECT_EQ(again.mad, single[i].mad);
    EXPECT_EQ(again.hi, single[i].hi);
    EXPECT_EQ(again.lo, single[i].lo);
  }
  // Batch: shared reference (reused on the device) and distinct ones, interleaved.
  BatchScorer batch(o, ResolvedBackend(o.backend));
  auto ref0 = std::make_shared<GrayImage>(pairs[0].ref);
  std::vector<BatchScorer::Finished> done;
  std::vector<std::pair<std::size_t, std::size_t>> plan;  // (ref index, dst index)
  for (int i = 0; i < 9; ++i)
    plan.push_back({i < 5 ? 0u : static_cast<std::size_t>(i % 3), static_cast<std::size_t>(i % 3)});
  for (std::size_t t = 0; t < plan.size(); ++t) {
    auto ref = plan[t].first == 0 ? ref0 : std::make_shared<GrayImage>(pairs[plan[t].first].ref);
    auto dst = std::make_shared<GrayImage>(pairs[plan[t].second].dst);
    for (auto& f : batch.submit(t, ref, dst)) done.push_back(std::move(f));
  }
  for (auto& f : batch.drain()) done.push_back(std::move(f));
  ASSERT_EQ(done.size(), plan.size());
  EXPECT_GT(batch.reference_reuses(), 0u);
  for (std::size_t t = 0; t < done.size(); ++t) {
    ASSERT_EQ(done[t].tag, t);
    ASSERT_TRUE(done[t].ok) << done[t].error;
    const ScoreResult want = scorer.score(pairs[plan[t].first].ref, pairs[plan[t].second].dst);
    EXPECT_EQ(done[t].result.mad, want.mad) << "pair " << t;
    EXPECT_EQ(done[t].result.hi, want.hi) << "pair " << t;
    EXPECT_EQ(done[t].result.lo, want.lo) << "pair " << t;
  }
}

INSTANTIATE_TEST_SUITE_P(BothPrecisions, CudaPipeline,
                         ::testing::Values(Precision::Double, Precision::Float),
                         [](const auto& info) { return to_string(info.param); });

// Small pairs of each size for compute-sanitizer (tools/gpu-check.sh runs *Sanitizer* tests).
TEST(CudaPipelineSanitizer, OnePairOfEachSize) {
  MAD_REQUIRE_GPU();
  const int sizes[][2] = {{34, 34}, {35, 61}, {257, 333}, {512, 384}, {512, 512}};
  for (const auto& s : sizes) {
    BenchPair bp = make_bench_pair(s[0], s[1], 3u);
    const ScoreResult r = score(bp.ref, bp.dst, options(Backend::Cuda, Precision::Double, true));
    EXPECT_TRUE(std::isfinite(r.mad));
  }
}

// Every registered A5 and detection-statistics variant gives the same scores through the
// whole pipeline (one odd, non-square real pair and one random pair).
TEST(CudaPipelineVariants, EveryVariantMatchesTheCpu) {
  MAD_REQUIRE_GPU();
  const GrayImage ref = load_gray_image(test::data_path("reference/images/rocket_333x257.png"));
  const GrayImage dst =
      load_gray_image(test::data_path("reference/images/rocket_333x257__jpeg_q30.png"));
  const ScoreResult cpu = score(ref, dst, options(Backend::Cpu));
  for (const char* a5 : {"a5-original", "a5-shared-unrolled-cf", "a5-cta-per-block", "a5-fast"}) {
    for (const char* det : {"det-original", "det-shared", "det-fast", "det-fast-8x8"}) {
      ScoreOptions o = options(Backend::Cuda);
      o.a5_variant = pick_variant(VariantFamily::A5, a5);
      o.det_variant = pick_variant(VariantFamily::Detection, det);
      const ScoreResult gpu = score(ref, dst, o);
      EXPECT_LE(rel(gpu.hi, cpu.hi), kDoubleRelTol) << a5 << " " << det;
      EXPECT_LE(rel(gpu.lo, cpu.lo), kDoubleRelTol) << a5 << " " << det;
      EXPECT_LE(rel(gpu.mad, cpu.mad), kDoubleRelTol) << a5 << " " << det;
      EXPECT_EQ(gpu.a5_variant, a5);
    }
  }
}

// Names become rows where the options are read (mad/variants.h), in every build.
TEST(CudaPipelineErrors, UnknownVariantIsAUsageError) {
  EXPECT_THROW(pick_variant(VariantFamily::A5, "a5-nonexistent"), InvalidArgument);
  EXPECT_THROW(pick_variant(VariantFamily::Detection, "det-nonexistent"), InvalidArgument);
  EXPECT_THROW(pick_variant(VariantFamily::SubbandTransform, "fft"), InvalidArgument);
}

}  // namespace
}  // namespace mad
