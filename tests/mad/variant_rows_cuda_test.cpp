// The GPU stages run the registry row they are given and look no name up (issue 38: variants
// are resolved once, at the front door). A copy of each row under a name no registry holds must
// build a stage, report that name and compute what the registered row computes: a stage that
// looked its row up by name would refuse it. And no stage or slot can be built from a name at
// all (checked where this file compiles, with or without a device).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <type_traits>

#include "appearance/appearance_stage_cuda.h"
#include "detection/detection_stage_cuda.h"
#include "mad/backends/pair_slot_cuda.h"
#include "tests/appearance/stage_check_cuda.h"
#include "tests/detection/detect_cuda.h"
#include "tests/support/test_support.h"

namespace mad {
namespace {

using appearance::A5Row;
using appearance::AppearanceStageCuda;
using detection::BlockStatsRow;
using detection::DetectionStageCuda;

static_assert(!std::is_constructible_v<AppearanceStageCuda<double>, int, int, cudaStream_t,
                                       std::string>,
              "the appearance stage takes an A5 row, not a name");
static_assert(!std::is_constructible_v<DetectionStageCuda<double>, int, int, cudaStream_t,
                                       std::string>,
              "the detection stage takes a block-statistics row, not a name");
static_assert(!std::is_constructible_v<gpu::PairSlot<double>, int, int, std::string, std::string,
                                       std::shared_ptr<const appearance::LogGaborBankCuda<double>>>,
              "the pair slot takes rows, not names");

constexpr const char* kUnregistered = "renamed: in no registry";

// A copy of `row` under a name no registry holds.
template <class Row>
Row renamed(const Row& row) {
  Row copy = row;
  copy.name = kUnregistered;
  return copy;
}

// Calls check(row, renamed(row)) for every row of `registry`.
template <class Launch, class Check>
void for_each_renamed(const VariantRegistry<Launch>& registry, const Check& check) {
  for (const VariantRow<Launch>& row : registry.rows()) {
    SCOPED_TRACE(row.name);
    check(row, renamed(row));
  }
}

TEST(VariantRowsCuda, TheAppearanceStageRunsTheRowItIsGiven) {
  MAD_REQUIRE_GPU();
  const Image<double> ref = test::random_image(64, 48, 3801), dst = test::random_image(64, 48, 3802);
  const auto sum_sq = [&](const A5Row& row) {
    return appearance::stage_test::gpu_appear<double>(ref, dst, row).sum_sq;
  };
  cuda::Stream stream;
  for_each_renamed(appearance::a5_variants(), [&](const A5Row& row, const A5Row& other) {
    EXPECT_STREQ(AppearanceStageCuda<double>(64, 48, stream.get(), other).a5_variant(),
                 kUnregistered);
    EXPECT_TRUE(test::same_bits(sum_sq(other), sum_sq(row))) << sum_sq(other);
  });
}

TEST(VariantRowsCuda, TheDetectionStageRunsTheRowItIsGiven) {
  MAD_REQUIRE_GPU();
  const Image<double> ref = test::random_image(64, 48, 3803), dst = test::random_image(64, 48, 3804);
  const auto d_detect = [&](const BlockStatsRow& row) {
    return detection::detect_cuda(ref.cview(), dst.cview(), true, false, Precision::Double, row)
        .d_detect;
  };
  cuda::Stream stream;
  const auto check = [&](const BlockStatsRow& row, const BlockStatsRow& other) {
    EXPECT_STREQ(DetectionStageCuda<double>(64, 48, stream.get(), other).stats_variant(),
                 kUnregistered);
    EXPECT_TRUE(test::same_bits(d_detect(other), d_detect(row))) << d_detect(other);
  };
  for_each_renamed(detection::detection_stats_variants(), check);
}

}  // namespace
}  // namespace mad
