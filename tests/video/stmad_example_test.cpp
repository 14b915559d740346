// ST-MAD on the worked example of shared/stmad-spec.md §11, against the values the authors'
// release gives under Octave (tests/data/reference/stmad_example.json, the spec's table, which
// the numpy transcription's test reads too): every pooled figure, weight and slice index within
// 1e-10 relative (the spec's target; its independent implementation agrees to 1e-13).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <initializer_list>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/test_support.h"
#include "tests/video/stmad_example_clip.h"
#include "tests/video/stmad_run.h"

namespace mad {
namespace {

constexpr double kRelative = 1e-10;  // the spec's oracle tolerance (§10)

// §11's table, by the names of the figures.
const nlohmann::json& table() {
  static const nlohmann::json t = [] {
    std::ifstream in(test::data_path("reference/stmad_example.json"));
    return nlohmann::json::parse(in);
  }();
  return t;
}

void expect_near_rel(double actual, double expected, const std::string& what) {
  EXPECT_NEAR(actual, expected, kRelative * std::fabs(expected)) << what;
}

// StmadFigures' members by their names in the table.
const std::map<std::string, double StmadFigures::*> kFigures = {
    {"mad_hi", &StmadFigures::mad_hi},   {"mad_lo", &StmadFigures::mad_lo},
    {"sigma", &StmadFigures::sigma},     {"smad", &StmadFigures::smad},
    {"m_row", &StmadFigures::m_row},     {"m_col", &StmadFigures::m_col},
    {"sts_row", &StmadFigures::sts_row}, {"sts_col", &StmadFigures::sts_col},
    {"tmad", &StmadFigures::tmad},       {"mov_index", &StmadFigures::mov_index},
    {"beta", &StmadFigures::beta},       {"stmad", &StmadFigures::stmad},
};
const std::map<std::string, std::vector<double> StmadFigures::*> kSeries = {
    {"w_row", &StmadFigures::w_row},
    {"w_col", &StmadFigures::w_col},
    {"lo_row", &StmadFigures::lo_row},
    {"lo_col", &StmadFigures::lo_col},
};

// The figures `keys` of `f` as in the table.
void expect_figures_as_in_table(const StmadFigures& f, std::initializer_list<const char*> keys) {
  for (const char* key : keys)
    expect_near_rel(f.*kFigures.at(key), table().at(key).get<double>(), key);
}
// The weights or slice indices `keys` of `f` as in the table, all of them.
void expect_series_as_in_table(const StmadFigures& f, std::initializer_list<const char*> keys) {
  for (const char* key : keys) {
    const std::vector<double>& actual = f.*kSeries.at(key);
    const auto expected = table().at(key).get<std::vector<double>>();
    EXPECT_EQ(actual.size(), expected.size()) << key;
    if (actual.size() != expected.size()) continue;  // the other keys are still checked
    for (std::size_t k = 0; k < expected.size(); ++k)
      expect_near_rel(actual[k], expected[k], std::string(key) + "[" + std::to_string(k) + "]");
  }
}

const test::StmadRun& example_run() {
  static const test::StmadRun run =
      test::run_stmad([](int t, bool distorted) { return test::example_frame(t, distorted); },
                      test::kExampleFrames, test::kExampleWidth, test::kExampleHeight);
  return run;
}

TEST(StmadExample, GeneratorGivesTheSpecsFirstPixels) {
  const LumaFrame r = test::example_frame(0, false), d = test::example_frame(0, true);
  const int expected_r[2][8] = {{124, 125, 126, 112, 113, 99, 104, 109},
                                {129, 115, 116, 117, 103, 108, 98, 103}};
  const int expected_d[2][8] = {{104, 105, 106, 92, 125, 111, 116, 121},
                                {109, 95, 96, 97, 115, 120, 110, 115}};
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 8; ++x) {
      EXPECT_EQ(r.samples8[y * 84 + x], expected_r[y][x]);
      EXPECT_EQ(d.samples8[y * 84 + x], expected_d[y][x]);
    }
}

TEST(StmadExample, PerFrameIndicesInStmadsScale) {
  const test::StmadRun& run = example_run();
  ASSERT_EQ(run.hi.size(), 40u);
  // The scorer's own rows, in --mad-version stmad: HI = 10 d_detect of double input. The table
  // gives frames 0, 1, 2 and 39.
  const auto frames = table().at("frames").get<std::vector<int>>();
  const auto hi = table().at("hi").get<std::vector<double>>();
  const auto lo = table().at("lo").get<std::vector<double>>();
  ASSERT_EQ(frames, (std::vector<int>{0, 1, 2, 39}));
  ASSERT_EQ(hi.size(), frames.size());
  ASSERT_EQ(lo.size(), frames.size());
  for (std::size_t k = 0; k < frames.size(); ++k) {
    expect_near_rel(run.hi[frames[k]], hi[k], "HI_" + std::to_string(frames[k]));
    expect_near_rel(run.lo[frames[k]], lo[k], "LO_" + std::to_string(frames[k]));
  }
}

TEST(StmadExample, SpatialFigures) {
  const StmadFigures& f = example_run().figures;
  expect_figures_as_in_table(f, {"mad_hi", "mad_lo", "sigma", "smad"});
}

// The per-slice rows of §11's table: the weights and the slice indices, rows then columns.
TEST(StmadExample, MotionWeightsAndSliceIndices) {
  const StmadFigures& f = example_run().figures;
  expect_series_as_in_table(f, {"w_row", "w_col", "lo_row", "lo_col"});
  expect_figures_as_in_table(f, {"m_row", "m_col"});
  EXPECT_FALSE(f.static_reference);
}

TEST(StmadExample, TemporalAndCombinedFigures) {
  const StmadFigures& f = example_run().figures;
  EXPECT_TRUE(f.temporal);
  EXPECT_EQ(f.frames, 40);
  EXPECT_TRUE(f.notes.empty());
  expect_figures_as_in_table(f, {"sts_row", "sts_col", "tmad", "mov_index", "beta", "stmad"});
}

}  // namespace
}  // namespace mad
