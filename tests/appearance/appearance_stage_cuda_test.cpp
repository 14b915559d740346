// The GPU appearance stage (appearance/appearance_stage_cuda.h, spec §4) against the CPU stage
// (appear_cpu) in double and float at awkward sizes, with every A5 variant, and against the
// original's own outputs (spec §9 pairs, the rocket pair, scores.csv).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "appearance/appearance_stage_cuda.h"
#include "tests/appearance/stage_check_cuda.h"

namespace mad::appearance {
namespace {

using namespace stage_test;

TEST(AppearanceStageCuda, DoubleMatchesCpuStage) {
  MAD_REQUIRE_GPU();
  std::uint32_t seed = 2024;
  for (auto [w, h] : kShapes)
    for (const Pair& p : pairs_for(w, h, seed++)) check_against_cpu<double>(p);
}

TEST(AppearanceStageCuda, FloatWithinContractOfCpuStage) {
  MAD_REQUIRE_GPU();
  std::uint32_t seed = 4048;
  for (auto [w, h] : kShapes)
    for (const Pair& p : pairs_for(w, h, seed++)) check_against_cpu<float>(p);
}

TEST(AppearanceStageCuda, EveryA5VariantMatchesCpuStage) {
  MAD_REQUIRE_GPU();
  for (auto [w, h] : {std::pair{257, 333}, std::pair{512, 512}})
    for (const Pair& p : pairs_for(w, h, 7))
      for (const VariantInfo& v : a5_variants().infos()) check_against_cpu<double>(p, v.name);
}

// The original's own numbers: spec §9's synthetic pairs (LO and sum of map.LO), the rocket
// pair's map, and the 512x512 rows of scores.csv (reference prepared once per image and
// reused for all of its distortions).
TEST(AppearanceStageCuda, MatchesTheOriginalsOutputs) {
  MAD_REQUIRE_GPU();
  struct Golden {
    int rows, cols, variant;
    double lo, map_sum;
  };
  const Golden cases[] = {{64, 64, 1, 0.966027919876007, 3012.85506175108},
                          {75, 98, 2, 1.21124382089157, 6994.10527862213},
                          {128, 96, 1, 0.872141328367642, 11209.7034314018},
                          {96, 128, 3, 1.18455090301318, 12771.8503409233}};
  for (const Golden& g : cases) {
    const test::SyntheticPair p = test::make_synthetic_pair(g.rows, g.cols, g.variant);
    const GpuOut<double> got = gpu_appear<double>(p.ref, p.dst);
    EXPECT_NEAR(got.d_appear, g.lo, kScoreRelTol.f64 * g.lo) << g.rows << "x" << g.cols;
    double sum = 0;
    for (double v : got.map) sum += v;
    // The golden sums carry 15 significant digits.
    EXPECT_NEAR(sum, g.map_sum, 1e-12 * g.map_sum + kDoubleMapAbsTol * got.map.size())
        << g.rows << "x" << g.cols;
  }

  {
    const Image<double> ref = gpu_test::real_image("rocket_333x257.png", 257, 333);
    const Image<double> dst = gpu_test::real_image("rocket_333x257__jpeg_q30.png", 257, 333);
    const GpuOut<double> got = gpu_appear<double>(ref, dst);
    constexpr double kRocketLo = 3.7776615160901938;  // maps/scores.txt
    EXPECT_NEAR(got.d_appear, kRocketLo, kScoreRelTol.f64 * kRocketLo);
    const Image<double> want = test::load_reference_map("lo_09_map");
    EXPECT_LE(test::max_abs_diff(as_image(got.map, 257, 333).cview(), want.cview()),
              kDoubleMapAbsTol);
  }

  cuda::Stream stream;
  AppearanceStageCuda<double> stage(512, 512, stream.get());
  std::string prepared;
  int rows_checked = 0;
  for (const test::ReferenceScore& r : test::load_reference_scores()) {
    if (r.width != 512 || r.height != 512) continue;
    if (r.ref != prepared) {
      const Image<double> ref = gpu_test::real_image(r.ref, 512, 512);
      const auto d_ref = gpu_test::upload<double>(ref.cview(), stream.get());
      stage.prepare_reference(d_ref.get(), stream.get());
      stream.synchronize();  // d_ref is freed at the end of this scope
      prepared = r.ref;
    }
    const GpuOut<double> got =
        run_distorted(stage, gpu_test::real_image(r.dist, 512, 512), stream.get());
    if (r.lo_double == 0.0) {
      EXPECT_EQ(got.d_appear, 0.0) << r.dist;  // identical pair: every difference is 0
    } else {
      EXPECT_NEAR(got.d_appear, r.lo_double, kScoreRelTol.f64 * r.lo_double) << r.dist;
    }
    ++rows_checked;
  }
  EXPECT_GE(rows_checked, 20);
}

}  // namespace
}  // namespace mad::appearance
