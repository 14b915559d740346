// detect_cpu end to end (spec §3): the rocket maps, the reference scores of the original on
// real images (uint8 and double input), the spec §9 synthetic pairs, and the API contract.
#include "detection/detection.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "common/error.h"
#include "common/parallel.h"
#include "tests/detection/rocket_pair.h"

namespace mad::detection {
namespace {

// Scalars: the spec measured <= 1e-14 relative between independent double implementations.
constexpr double kScoreRelTol = 1e-12;
// Full map.HI (values up to ~170 on rocket): the spec's bound between double implementations.
constexpr double kMapAbsTol = 1e-11;
// Σ map.HI over up to 12k pixels of values up to ~1e4 (T4): rounding of the sum and of each
// map value; quoted to 15 significant digits.
constexpr double kMapSumRelTol = 1e-12;

TEST(DetectCpu, RocketScoreAndMap) {
  const auto& p = test::rocket_pair();
  const DetectionResult r = detect_cpu(p.ref.cview(), p.dst.cview(), /*uint8=*/true, /*map=*/true);
  EXPECT_LE(test::rel_err(r.d_detect, 7.6349873846403638), kScoreRelTol) << r.d_detect;
  const double err =
      test::max_abs_diff(r.map.cview(), test::load_reference_map("hi_08_map").cview());
  EXPECT_LE(err, kMapAbsTol);
  RecordProperty("hi_08_map", std::to_string(err));
}

TEST(DetectCpu, ReferenceScoresBothInputClasses) {
  const auto rows = test::load_reference_scores();
  ASSERT_GE(rows.size(), 20u);
  int checked = 0;
  for (const auto& row : rows) {
    const Image<double> ref = test::load_reference_image(row.ref);
    const Image<double> dst = test::load_reference_image(row.dist);
    ASSERT_EQ(ref.width(), row.width);
    ASSERT_EQ(ref.height(), row.height);
    const double hi_u8 = detect_cpu(ref.cview(), dst.cview(), true, false).d_detect;
    const double hi_dbl = detect_cpu(ref.cview(), dst.cview(), false, false).d_detect;
    EXPECT_LE(test::rel_err(hi_u8, row.hi), kScoreRelTol)
        << row.dist << " uint8: " << hi_u8 << " vs " << row.hi;
    EXPECT_LE(test::rel_err(hi_dbl, row.hi_double), kScoreRelTol)
        << row.dist << " double: " << hi_dbl << " vs " << row.hi_double;
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(rows.size()));
}

struct SyntheticCase {
  const char* name;
  int rows, cols, variant;
  bool uint8;
  double hi, map_sum;
};

// spec §9, April-2010 scaling (quoted to 15 significant digits, well inside kScoreRelTol).
const SyntheticCase kSynthetic[] = {
    {"T1", 64, 64, 1, false, 0.0, 172.983126894532},
    {"T2", 75, 98, 2, false, 40.9473988681895, 77064.849606482},
    {"T3", 128, 96, 1, true, 1.86750517402379, 2946.31819053716},
    {"T4", 96, 128, 3, true, 1386.86033499263, 12611558.4281727},
};

TEST(DetectCpu, SyntheticPairsOfSpecSection9) {
  for (const auto& c : kSynthetic) {
    const test::SyntheticPair p = test::make_synthetic_pair(c.rows, c.cols, c.variant);
    const DetectionResult r = detect_cpu(p.ref.cview(), p.dst.cview(), c.uint8, true);
    // T1: the mask is nonzero only outside the crop, so HI is exactly 0 with a nonzero map.
    if (c.hi == 0.0) {
      EXPECT_EQ(r.d_detect, 0.0) << c.name;
    } else {
      EXPECT_LE(test::rel_err(r.d_detect, c.hi), kScoreRelTol) << c.name << " " << r.d_detect;
    }
    EXPECT_LE(test::rel_err(test::map_sum(r.map.cview()), c.map_sum), kMapSumRelTol) << c.name << " " << test::map_sum(r.map.cview());
  }
}

TEST(DetectCpu, Uint8FlagMattersOnlyWith255) {
  // T4 has 255s: the uint8 quirk changes HI. T3 has none: the flag changes nothing.
  const auto t4 = test::make_synthetic_pair(96, 128, 3);
  EXPECT_NE(detect_cpu(t4.ref.cview(), t4.dst.cview(), true, false).d_detect,
            detect_cpu(t4.ref.cview(), t4.dst.cview(), false, false).d_detect);
  const auto t3 = test::make_synthetic_pair(128, 96, 1);
  EXPECT_EQ(detect_cpu(t3.ref.cview(), t3.dst.cview(), true, false).d_detect,
            detect_cpu(t3.ref.cview(), t3.dst.cview(), false, false).d_detect);
}

TEST(DetectCpu, IndependentOfThreadCountAndPitch) {
  const auto& p = test::rocket_pair();
  set_thread_count(1);
  const DetectionResult one = detect_cpu(p.ref.cview(), p.dst.cview(), true, true);
  set_thread_count(3);
  const DetectionResult three = detect_cpu(p.ref.cview(), p.dst.cview(), true, true);
  set_thread_count(0);
  EXPECT_EQ(one.d_detect, three.d_detect);
  EXPECT_EQ(test::max_abs_diff(one.map.cview(), three.map.cview()), 0.0);

  // Padded rows give the same bits.
  Image<double> ref(p.ref.width(), p.ref.height(), 0.0, p.ref.width() + 7);
  Image<double> dst(p.ref.width(), p.ref.height(), 0.0, p.ref.width() + 1);
  for (int y = 0; y < ref.height(); ++y)
    for (int x = 0; x < ref.width(); ++x) {
      ref(y, x) = p.ref(y, x);
      dst(y, x) = p.dst(y, x);
    }
  EXPECT_EQ(detect_cpu(ref.cview(), dst.cview(), true, false).d_detect, one.d_detect);
}

TEST(DetectCpu, MapOnlyWhenRequestedAndIdenticalIsZero) {
  const auto& p = test::rocket_pair();
  const DetectionResult r = detect_cpu(p.ref.cview(), p.ref.cview(), true, false);
  EXPECT_TRUE(r.map.empty());
  EXPECT_EQ(r.d_detect, 0.0);
}

TEST(DetectCpu, RejectsBadShapes) {
  Image<double> a(40, 40), b(40, 41), small(33, 40), small2(33, 40);
  EXPECT_THROW(detect_cpu(a.cview(), b.cview(), true, false), InvalidArgument);
  EXPECT_THROW(detect_cpu(small.cview(), small2.cview(), true, false), InvalidArgument);
  Image<double> min_a(34, 34, 100.0), min_b(34, 34, 120.0);
  EXPECT_TRUE(std::isfinite(detect_cpu(min_a.cview(), min_b.cview(), true, false).d_detect));
}

}  // namespace
}  // namespace mad::detection
