// A study compares two of its medians by name (StudyRun::compare_claim over Timings): each time
// is the one under its own name, and a name that was not measured reads as not measured, never
// as a zero that would win every ordering.
#include <gtest/gtest.h>

#include <cmath>

#include "tools/bench/study.h"

namespace mad::bench {
namespace {

StudyRun gpu_run() {
  StudyConfig config;
  config.gpu = true;
  return StudyRun(config, StudyResult{});
}

TEST(StudyTimings, AClaimComparesTheTimesUnderTheirNames) {
  StudyRun run = gpu_run();
  const Timings t = {{"fast", 1.0}, {"slow", 4.0}};
  run.compare_claim("fast vs slow", "fast is faster", true, t, "fast", "slow");
  run.compare_claim("slow vs fast", "slow is faster", true, t, "slow", "fast");
  const auto& c = run.result().comparisons;
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].ours, "ours: fast is 4.00x faster than slow");
  EXPECT_EQ(c[0].verdict, "same ordering: yes");
  EXPECT_EQ(c[1].ours, "ours: slow is 4.00x slower than fast");
  EXPECT_EQ(c[1].verdict, "same ordering: no");
}

TEST(StudyTimings, ANameNotMeasuredIsNotMeasured) {
  StudyRun run = gpu_run();
  run.compare_claim("a vs b", "a is faster", true, Timings{{"a", 1.0}}, "a", "b");
  EXPECT_TRUE(std::isnan(time_of(Timings{}, "b")));
  const auto& c = run.result().comparisons;
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].ours, "ours: not measured");
  EXPECT_EQ(c[0].verdict, "same ordering: n/a");
}

}  // namespace
}  // namespace mad::bench
