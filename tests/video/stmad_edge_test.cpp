// ST-MAD's edge cases (shared/stmad-spec.md §9): a static reference (uniform weights, our
// deliberate difference), fewer than 34 frames (NaN and a note), an odd frame count, frames
// below MAD's minimum, and the scorer's input class.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "common/error.h"
#include "mad/video/stmad_pooling.h"
#include "tests/video/stmad_example_clip.h"
#include "tests/video/stmad_run.h"

namespace mad {
namespace {

bool any_note_has(const StmadFigures& f, const std::string& words) {
  for (const std::string& n : f.notes)
    if (n.find(words) != std::string::npos) return true;
  return false;
}

TEST(StmadEdges, StaticReferenceUsesUniformWeights) {
  // The reference frozen at its frame 0, the distorted clip moving: 34 frames.
  const test::StmadRun run = test::run_stmad(
      [](int t, bool distorted) { return test::example_frame(distorted ? t : 0, distorted); }, 34,
      test::kExampleWidth, test::kExampleHeight);
  const StmadFigures& f = run.figures;
  EXPECT_TRUE(f.static_reference);
  EXPECT_TRUE(any_note_has(f, "static"));
  EXPECT_EQ(f.w_row, std::vector<double>(7, 1.0 / 7));
  EXPECT_EQ(f.w_col, std::vector<double>(10, 1.0 / 10));
  EXPECT_EQ(f.m_row, 1.0);
  EXPECT_EQ(f.m_col, 1.0);
  EXPECT_EQ(f.mov_index, 0.5);
  ASSERT_TRUE(f.temporal);
  // TMAD from the uniform weights: log10(3000/7 + 1) times the plain mean of the slice indices.
  double mean_row = 0, mean_col = 0;
  for (double x : f.lo_row) mean_row += x / 7;
  for (double x : f.lo_col) mean_col += x / 10;
  const double term = std::log10(3000.0 / 7.0 + 1.0);
  EXPECT_NEAR(f.tmad, std::pow(term * mean_row, 3.0 / 7) + std::pow(term * mean_col, 4.0 / 7),
              1e-12 * f.tmad);
  EXPECT_TRUE(std::isfinite(f.stmad));
}

TEST(StmadEdges, FewerThan34FramesLeaveTmadUndefined) {
  const test::StmadRun run =
      test::run_stmad(test::example_clip, 33, test::kExampleWidth, test::kExampleHeight);
  const StmadFigures& f = run.figures;
  EXPECT_FALSE(f.temporal);
  EXPECT_TRUE(std::isnan(f.tmad));
  EXPECT_TRUE(std::isnan(f.stmad));
  EXPECT_TRUE(any_note_has(f, "not defined for a clip of 33 frames"));
  EXPECT_TRUE(any_note_has(f, "SMAD is given"));
  EXPECT_EQ(f.frames, 33);
  // SMAD stays: the pooled figure of the frames' own indices.
  EXPECT_EQ(f.smad, video::pool_spatial(run.hi, run.lo).smad);
  EXPECT_TRUE(std::isfinite(f.smad));
  EXPECT_EQ(f.lo_col.size(), 10u);
  EXPECT_TRUE(std::isnan(f.lo_col[0]));
}

// T = 35: slices 35 frames long (an odd grid for the appearance stage's FFT).
TEST(StmadEdges, OddFrameCountIsDefined) {
  const test::StmadRun run =
      test::run_stmad(test::example_clip, 35, test::kExampleWidth, test::kExampleHeight);
  const StmadFigures& f = run.figures;
  EXPECT_TRUE(f.temporal);
  EXPECT_TRUE(f.notes.empty());
  for (double x : f.lo_row) EXPECT_TRUE(std::isfinite(x) && x > 0);
  for (double x : f.lo_col) EXPECT_TRUE(std::isfinite(x) && x > 0);
  EXPECT_TRUE(std::isfinite(f.stmad));
}

TEST(StmadEdges, IdenticalClipsGiveOneZeroAndLogBeta) {
  const test::StmadRun run =
      test::run_stmad([](int t, bool) { return test::example_frame(t, false); }, 34,
                      test::kExampleWidth, test::kExampleHeight);
  const StmadFigures& f = run.figures;
  EXPECT_EQ(f.smad, 1.0);  // MadHi = 0: 0^(1/4) + MadLo^0
  EXPECT_EQ(f.tmad, 0.0);
  EXPECT_NEAR(f.stmad, 2.5 * std::log10(f.beta), 1e-15);
}

// 16-bit samples s * 257 have the values s exactly (255 * 257 = 65535): the deep path (uint16
// slices, double frames to the scorer, motion on scaled values) must give the 8-bit figures.
TEST(StmadEdges, DeepFramesScoreAsTheirValues) {
  auto deep = [](int t, bool distorted) {
    LumaFrame f = test::example_frame(t, distorted);
    f.bit_depth = 16;
    for (const std::uint8_t s : f.samples8)
      f.samples16.push_back(static_cast<std::uint16_t>(s * 257));
    f.samples8.clear();
    return f;
  };
  const StmadFigures a =
      test::run_stmad(test::example_clip, 34, test::kExampleWidth, test::kExampleHeight).figures;
  const StmadFigures b =
      test::run_stmad(deep, 34, test::kExampleWidth, test::kExampleHeight).figures;
  EXPECT_EQ(a.smad, b.smad);
  EXPECT_EQ(a.w_row, b.w_row);
  EXPECT_EQ(a.w_col, b.w_col);
  EXPECT_EQ(a.lo_row, b.lo_row);
  EXPECT_EQ(a.lo_col, b.lo_col);
  EXPECT_EQ(a.stmad, b.stmad);
  EXPECT_TRUE(std::isfinite(b.stmad));
}

TEST(StmadEdges, FramesBelowMadsMinimumAreRefused) {
  EXPECT_THROW(StmadModel(33, 60, Backend::Cpu), InputError);
  EXPECT_THROW(StmadModel(84, 20, Backend::Cpu), InputError);
  EXPECT_NO_THROW(StmadModel(34, 34, Backend::Cpu));
}

TEST(StmadEdges, AFrameOfAnotherSizeIsRefused) {
  StmadModel model(84, 60, Backend::Cpu);
  LumaFrame taller = test::example_frame(0, true);
  taller.height = 61;
  taller.samples8.resize(taller.pixels(), 128);
  EXPECT_THROW(model.add_frames(test::example_frame(0, false), taller), InputError);
}

TEST(StmadEdges, AScorerOfAnotherInputClassIsRefused) {
  ScoreOptions o = test::stmad_scoring_options(Backend::Cpu);
  o.input_class = InputClass::Uint8;
  try {
    test::run_stmad(test::example_clip, 2, test::kExampleWidth, test::kExampleHeight, Backend::Cpu,
                    o);
    FAIL() << "finish accepted a uint8 scorer";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("input class double"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace mad
