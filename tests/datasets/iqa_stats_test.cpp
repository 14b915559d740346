// Agreement statistics as reported: the sign convention (MAD higher = worse), grouping by
// distortion type, counts, and intervals that bracket the point estimate.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "datasets/iqa_stats.h"

namespace mad::datasets {
namespace {

// 8 references x 2 types x 4 levels; MAD rises with the level, the MOS falls with it.
std::vector<Observation> synthetic(bool mos, double noise_sd, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0.0, noise_sd);
  std::vector<Observation> obs;
  for (int r = 0; r < 8; ++r)
    for (int t = 0; t < 2; ++t)
      for (int level = 1; level <= 4; ++level) {
        Observation o;
        o.mad = 20.0 * level + 5.0 * t + r + noise(rng);
        const double quality = 8.0 - 1.5 * level - 0.3 * t;
        o.subjective = mos ? quality : 10.0 - quality;
        o.reference = "ref" + std::to_string(r);
        o.type = t == 0 ? "noise" : "blur";
        obs.push_back(o);
      }
  return obs;
}

StatsOptions options(bool mos) {
  StatsOptions o;
  o.subjective_higher_is_better = mos;
  o.bootstrap.resamples = 200;  // enough for the properties checked here, quicker than 1000
  return o;
}

TEST(EvaluateAgreement, MosGivesNegativeRawAndPositiveOrientedCorrelations) {
  const EvalStats s = evaluate_agreement(synthetic(true, 0.0, 1), options(true));
  EXPECT_EQ(s.expected_sign, -1);
  EXPECT_LT(s.overall.srocc_signed, 0.0);
  EXPECT_LT(s.overall.krocc_signed, 0.0);
  EXPECT_DOUBLE_EQ(s.overall.srocc.value, -s.overall.srocc_signed);
  EXPECT_GT(s.overall.srocc.value, 0.8);
  EXPECT_GT(s.overall.plcc.value, 0.8);
}

TEST(EvaluateAgreement, DmosKeepsTheSameMagnitudesWithTheOtherRawSign) {
  const EvalStats mos = evaluate_agreement(synthetic(true, 0.0, 1), options(true));
  const EvalStats dmos = evaluate_agreement(synthetic(false, 0.0, 1), options(false));
  EXPECT_EQ(dmos.expected_sign, 1);
  EXPECT_GT(dmos.overall.srocc_signed, 0.0);
  EXPECT_DOUBLE_EQ(dmos.overall.srocc.value, mos.overall.srocc.value);
  EXPECT_DOUBLE_EQ(dmos.overall.krocc.value, mos.overall.krocc.value);
  EXPECT_NEAR(dmos.overall.plcc.value, mos.overall.plcc.value, 1e-9);
  EXPECT_NEAR(dmos.overall.rmse.value, mos.overall.rmse.value, 1e-9);
}

TEST(EvaluateAgreement, PerTypeGroupsCountsAndPerfectOrder) {
  const EvalStats s = evaluate_agreement(synthetic(true, 0.0, 1), options(true));
  EXPECT_EQ(s.overall.pairs, 64u);
  EXPECT_EQ(s.overall.references, 8u);
  ASSERT_EQ(s.per_type.size(), 2u);
  EXPECT_EQ(s.per_type[0].name, "blur");  // sorted by label
  EXPECT_EQ(s.per_type[1].name, "noise");
  for (const auto& g : s.per_type) {
    EXPECT_EQ(g.pairs, 32u);
    EXPECT_EQ(g.references, 8u);
    // Within one type MAD orders the levels exactly as the MOS does; the MOS ties the
    // references of a level, so the oriented SROCC is high but below 1, and no resample can
    // reverse the order: the whole interval stays high.
    EXPECT_GT(g.srocc.value, 0.9);
    EXPECT_LT(g.srocc.value, 1.0);
    EXPECT_GT(g.srocc.ci.lo, 0.9);
    EXPECT_LE(g.srocc.ci.lo, g.srocc.ci.hi);
  }
}

TEST(EvaluateAgreement, IntervalsBracketTheEstimatesOnNoisyData) {
  const EvalStats s = evaluate_agreement(synthetic(true, 12.0, 4), options(true));
  for (const Metric* m : {&s.overall.srocc, &s.overall.krocc, &s.overall.plcc, &s.overall.rmse}) {
    EXPECT_TRUE(std::isfinite(m->ci.lo) && std::isfinite(m->ci.hi));
    EXPECT_LT(m->ci.lo, m->value);
    EXPECT_GT(m->ci.hi, m->value);
  }
  EXPECT_GT(s.overall.rmse.value, 0.0);
}

TEST(EvaluateAgreement, NoTypesMeansNoPerTypeTable) {
  auto obs = synthetic(true, 1.0, 2);
  for (auto& o : obs) o.type.clear();
  EXPECT_TRUE(evaluate_agreement(obs, options(true)).per_type.empty());
}

}  // namespace
}  // namespace mad::datasets
