// Agreement statistics as reported: the sign convention (MAD higher = worse), grouping by
// distortion type, counts, intervals that bracket the point estimate; and the fast path against
// the reference algorithm (evaluate_agreement_reference), overall and per type.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "common/parallel.h"
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

// Well-posed per type and overall: MAD spread continuously over a sigmoid's bend, the MOS
// rounded to 2 decimals (ties, as KADID's); three types of different steepness.
std::vector<Observation> sigmoid_observations(std::uint32_t seed, int refs) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<Observation> obs;
  for (int r = 0; r < refs; ++r)
    for (int t = 0; t < 3; ++t)
      for (int level = 0; level < 6; ++level) {
        Observation o;
        o.mad = 10.0 + 80.0 * u(rng) + r * 0.1;
        const double mos = 1.0 + 4.0 / (1.0 + std::exp((o.mad - 45.0 - 5 * t) / (6.0 + 3 * t)));
        o.subjective = std::round(100.0 * (mos + 0.3 * g(rng))) / 100.0;
        o.reference = "ref" + std::to_string(r);
        o.type = "type" + std::to_string(t);
        obs.push_back(o);
      }
  return obs;
}

// Both fits stop at kRelativeSseTolerance (1e-7) of the SSE; at a well-defined minimum PLCC and
// RMSE then agree far inside this, and so do the percentile intervals built from them.
constexpr double kFitAgreement = 1e-6;

void expect_same_group(const GroupStats& fast, const GroupStats& oracle) {
  SCOPED_TRACE(oracle.name);
  EXPECT_EQ(fast.pairs, oracle.pairs);
  EXPECT_EQ(fast.references, oracle.references);
  // Point figures: the same code on the same data.
  EXPECT_EQ(fast.srocc.value, oracle.srocc.value);
  EXPECT_EQ(fast.krocc.value, oracle.krocc.value);
  EXPECT_EQ(fast.plcc.value, oracle.plcc.value);
  EXPECT_EQ(fast.rmse.value, oracle.rmse.value);
  EXPECT_EQ(fast.fit.beta, oracle.fit.beta);
  // Rank correlations of every resample are bit for bit the oracle's, so are their intervals.
  EXPECT_EQ(fast.srocc.ci.lo, oracle.srocc.ci.lo);
  EXPECT_EQ(fast.srocc.ci.hi, oracle.srocc.ci.hi);
  EXPECT_EQ(fast.krocc.ci.lo, oracle.krocc.ci.lo);
  EXPECT_EQ(fast.krocc.ci.hi, oracle.krocc.ci.hi);
  EXPECT_NEAR(fast.plcc.ci.lo, oracle.plcc.ci.lo, kFitAgreement);
  EXPECT_NEAR(fast.plcc.ci.hi, oracle.plcc.ci.hi, kFitAgreement);
  EXPECT_NEAR(fast.rmse.ci.lo, oracle.rmse.ci.lo, kFitAgreement * oracle.rmse.ci.lo);
  EXPECT_NEAR(fast.rmse.ci.hi, oracle.rmse.ci.hi, kFitAgreement * oracle.rmse.ci.hi);
}

TEST(EvaluateAgreement, FastPathEqualsTheReferenceAlgorithmOverallAndPerType) {
  const auto obs = sigmoid_observations(17, 25);
  StatsOptions o = options(true);
  o.bootstrap.resamples = 300;
  const EvalStats fast = evaluate_agreement(obs, o);
  const EvalStats oracle = evaluate_agreement_reference(obs, o);
  expect_same_group(fast.overall, oracle.overall);
  ASSERT_EQ(fast.per_type.size(), 3u);
  ASSERT_EQ(oracle.per_type.size(), 3u);
  for (std::size_t t = 0; t < 3; ++t) {
    EXPECT_EQ(fast.per_type[t].name, oracle.per_type[t].name);
    expect_same_group(fast.per_type[t], oracle.per_type[t]);
  }
}

TEST(EvaluateAgreement, FastPathEqualsTheReferenceOnTiesAndTinyGroups) {
  // The existing level-grid data: heavy ties in both scores; plus a type of 3 pairs (too few
  // to fit: every fit NaN) and one of a single pair (no interval at all).
  auto obs = synthetic(true, 3.0, 9);
  for (int k = 0; k < 3; ++k) obs.push_back({30.0 + k, 4.0 - k, "ref" + std::to_string(k), "few"});
  obs.push_back({50.0, 2.0, "ref0", "one"});
  const EvalStats fast = evaluate_agreement(obs, options(true));
  const EvalStats oracle = evaluate_agreement_reference(obs, options(true));
  expect_same_group(fast.overall, oracle.overall);
  ASSERT_EQ(fast.per_type.size(), oracle.per_type.size());
  for (std::size_t t = 0; t < fast.per_type.size(); ++t) {
    const GroupStats& f = fast.per_type[t];
    if (f.name == "few" || f.name == "one") {
      EXPECT_TRUE(std::isnan(f.plcc.ci.lo)) << f.name;
      EXPECT_EQ(std::isnan(f.srocc.ci.lo), std::isnan(oracle.per_type[t].srocc.ci.lo)) << f.name;
      continue;
    }
    expect_same_group(f, oracle.per_type[t]);
  }
}

// Shaped like `mad eval --make-synthetic`'s set at 512x384: the opinion a function of the level
// and the reference only, MAD 0 at a type's mild levels and otherwise rising with the level with
// scatter. Its per-type curves mostly have no finite best fit, so nearly every resample's PLCC
// and RMSE come from the fallback fit (logistic_tied_test.cpp compares it fit by fit).
std::vector<Observation> synthetic_set_observations(std::uint32_t seed, int refs) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  const int zero_levels[] = {0, 1, 2, 3};
  const double slope[] = {18.0, 20.0, 45.0, 60.0};
  std::vector<Observation> obs;
  for (int r = 0; r < refs; ++r)
    for (int t = 0; t < 4; ++t)
      for (int level = 1; level <= 5; ++level) {
        Observation o;
        const int above = level - zero_levels[t];
        o.mad = above <= 0 ? 0.0 : std::max(0.0, slope[t] * above * (1.0 + 0.25 * g(rng)));
        o.subjective = std::clamp(5.0 - 0.8 * (level - 1) + 0.05 * ((r * 37) % 7 - 3), 1.0, 5.0);
        o.reference = "ref" + std::to_string(r);
        o.type = "type" + std::to_string(t);
        obs.push_back(o);
      }
  return obs;
}

TEST(EvaluateAgreement, FastPathEqualsTheReferenceWhereBestFitsAreNotFinite) {
  const auto obs = synthetic_set_observations(3, 30);
  const EvalStats fast = evaluate_agreement(obs, options(true));
  const EvalStats oracle = evaluate_agreement_reference(obs, options(true));
  expect_same_group(fast.overall, oracle.overall);
  ASSERT_EQ(fast.per_type.size(), 4u);
  ASSERT_EQ(oracle.per_type.size(), 4u);
  for (std::size_t t = 0; t < 4; ++t) expect_same_group(fast.per_type[t], oracle.per_type[t]);
}

TEST(EvaluateAgreement, SameBitsOnAnyThreadCount) {
  auto obs = sigmoid_observations(5, 12);
  for (Observation o : synthetic_set_observations(8, 12)) {  // and the fallback fit's groups
    o.type = "synthetic " + o.type;
    obs.push_back(o);
  }
  set_thread_count(1);
  const EvalStats one = evaluate_agreement(obs, options(true));
  set_thread_count(3);
  const EvalStats three = evaluate_agreement(obs, options(true));
  set_thread_count(0);
  for (std::size_t t = 0; t <= one.per_type.size(); ++t) {
    const GroupStats& a = t ? one.per_type[t - 1] : one.overall;
    const GroupStats& b = t ? three.per_type[t - 1] : three.overall;
    for (auto m : {&GroupStats::srocc, &GroupStats::krocc, &GroupStats::plcc, &GroupStats::rmse}) {
      EXPECT_EQ((a.*m).ci.lo, (b.*m).ci.lo) << a.name;
      EXPECT_EQ((a.*m).ci.hi, (b.*m).ci.hi) << a.name;
    }
  }
}

}  // namespace
}  // namespace mad::datasets
