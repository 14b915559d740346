// tools/bench/a5_bench.h: the A5 timing entry returns one consistent result per registered
// variant and precision (not a benchmark; the numbers belong to `mad bench`). Skips without a
// device.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "appearance/a5_variants.h"
#include "common/block_grid.h"
#include "common/error.h"
#include "tests/appearance/a5_check_cuda.h"
#include "tests/bench/a5_bench_test_util.h"
#include "tests/support/test_support.h"
#include "tools/bench/a5_bench.h"

namespace mad::bench {
namespace {

TEST(A5BenchCuda, TimesEveryVariant) {
  MAD_REQUIRE_GPU();
  const a5_bench_test::Subbands subbands = a5_bench_test::random_subbands(64, 48, 5);
  const std::vector<ImageView<const double>>& views = subbands.views;
  A5BenchOptions options = a5_bench_test::quick_options();
  for (bool single : {false, true}) {
    options.single_precision = single;
    const std::vector<A5BenchResult> results = a5_bench(views, options);
    const auto& infos = appearance::a5_variants().infos();
    ASSERT_EQ(results.size(), infos.size());
    for (std::size_t k = 0; k < infos.size(); ++k) {
      const A5BenchResult& r = results[k];
      EXPECT_EQ(r.variant, infos[k].name);
      EXPECT_EQ(r.precision, single ? "float" : "double");
      EXPECT_EQ(r.subbands, 3);
      EXPECT_EQ(r.blocks, BlockGrid(64, 48).count());
      EXPECT_EQ(r.time.runs, 3) << r.variant;
      EXPECT_GT(r.time.min_ms, 0.0) << r.variant;
      EXPECT_LE(r.time.min_ms, r.time.median_ms);
      EXPECT_LE(r.time.median_ms, r.time.max_ms);
      EXPECT_GT(r.gvisits_per_s, 0.0);
    }
  }
  options.variants = {"a5-nonexistent"};
  EXPECT_THROW(a5_bench(views, options), InvalidArgument);
}

// The thesis's Table 9 measurement: the mean-only forms on one subband.
TEST(A5BenchCuda, TimesEveryMeanOnlyForm) {
  MAD_REQUIRE_GPU();
  const auto images = appearance::a5_test::random_subbands(appearance::a5_test::Shape{61, 47}, 6);
  A5BenchOptions options = a5_bench_test::quick_options();
  for (bool single : {false, true}) {
    options.single_precision = single;
    const std::vector<A5MeanBenchResult> results = a5_mean_bench(images[0].cview(), options);
    const auto& infos = appearance::a5_mean_variants().infos();
    ASSERT_EQ(results.size(), infos.size());
    for (std::size_t k = 0; k < infos.size(); ++k) {
      EXPECT_EQ(results[k].variant, infos[k].name);
      EXPECT_EQ(results[k].precision, single ? "float" : "double");
      EXPECT_EQ(results[k].blocks, BlockGrid(61, 47).count());
      EXPECT_EQ(results[k].time.runs, 3) << results[k].variant;
      EXPECT_GT(results[k].time.min_ms, 0.0) << results[k].variant;
    }
  }
  options.variants = {"a5-fast"};  // an all-statistics form: not in the mean registry
  EXPECT_THROW(a5_mean_bench(images[0].cview(), options), InvalidArgument);
}

TEST(A5BenchCuda, Table9FiguresNameEveryMeanOnlyForm) {
  // Needs no device: the figures are host data.
  for (const auto& info : appearance::a5_mean_variants().infos())
    EXPECT_GT(thesis_table9_ms(info.name), 0.0) << info.name;
  EXPECT_EQ(thesis_table9_ms("a5-shared-unrolled-cf"), 0.757984);
  EXPECT_EQ(thesis_table9_ms("a5-fast"), 0.0);
}

}  // namespace
}  // namespace mad::bench
