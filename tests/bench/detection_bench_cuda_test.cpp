// tools/bench/detection_bench.h: the detection timing entry's contract, one timing per
// block-statistics variant launch and per stage step. Skips without a device.
#include <gtest/gtest.h>

#include <vector>

#include "common/error.h"
#include "detection/detection.h"
#include "tests/support/test_support.h"
#include "tools/bench/detection_bench.h"

namespace mad::bench {
namespace {

TEST(DetectionBenchCuda, ReportsEveryVariantAndTheStage) {
  MAD_REQUIRE_GPU();
  for (Precision precision :
       {Precision::Double, Precision::Float}) {
    DetectionBenchOptions o;
    o.width = 64;
    o.height = 48;
    o.precision = precision;
    o.warmup = 1;
    o.repetitions = 3;
    const std::vector<DetectionBenchTiming> rows = bench_detection_cuda(o);
    const auto& variants = detection::detection_stats_variants().infos();
    ASSERT_EQ(rows.size(), 2 * variants.size() + 3);
    for (std::size_t i = 0; i < variants.size(); ++i) {
      EXPECT_EQ(rows[2 * i].name, variants[i].name + "/reference");
      EXPECT_EQ(rows[2 * i + 1].name, variants[i].name + "/error");
    }
    EXPECT_EQ(rows.back().name, "stage/run_distorted+map");
    for (const auto& r : rows) {
      EXPECT_EQ(r.time.runs, 3) << r.name;
      EXPECT_GT(r.time.min_ms, 0.0) << r.name;
      EXPECT_LE(r.time.min_ms, r.time.median_ms) << r.name;
      EXPECT_LE(r.time.median_ms, r.time.max_ms) << r.name;
    }
  }
  DetectionBenchOptions bad;
  bad.repetitions = 0;
  EXPECT_THROW(bench_detection_cuda(bad), InvalidArgument);
}

}  // namespace
}  // namespace mad::bench
