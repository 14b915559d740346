// ST-MAD on the worked example of shared/stmad-spec.md §11, against the values the authors'
// release gives under Octave: every pooled figure, weight and slice index within 1e-10
// relative (the spec's target; its independent implementation agrees to 1e-13).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tests/video/stmad_example_clip.h"
#include "tests/video/stmad_run.h"

namespace mad {
namespace {

constexpr double kRelative = 1e-10;  // the spec's oracle tolerance (§10)

void expect_near_rel(double actual, double expected, const char* what) {
  EXPECT_NEAR(actual, expected, kRelative * std::fabs(expected)) << what;
}
void expect_all_near_rel(const std::vector<double>& actual, const std::vector<double>& expected,
                         const char* what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (std::size_t k = 0; k < expected.size(); ++k)
    EXPECT_NEAR(actual[k], expected[k], kRelative * std::fabs(expected[k])) << what << "[" << k << "]";
}

const test::StmadRun& example_run() {
  static const test::StmadRun run = test::run_stmad(
      [](int t, bool distorted) { return test::example_frame(t, distorted); },
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
  // The scorer's own rows, in --mad-version stmad: HI = 10 d_detect of double input.
  expect_near_rel(run.hi[0], 864.72637512866163, "HI_0");
  expect_near_rel(run.hi[1], 739.23241536200624, "HI_1");
  expect_near_rel(run.hi[2], 849.86132143765485, "HI_2");
  expect_near_rel(run.hi[39], 760.30505250541421, "HI_39");
  expect_near_rel(run.lo[0], 2.6471550530721926, "LO_0");
  expect_near_rel(run.lo[1], 2.8701005459572348, "LO_1");
  expect_near_rel(run.lo[2], 2.9308337651114247, "LO_2");
  expect_near_rel(run.lo[39], 2.4724886798213093, "LO_39");
}

TEST(StmadExample, SpatialFigures) {
  const StmadFigures& f = example_run().figures;
  expect_near_rel(f.mad_hi, 797.66077659716905, "MadHi");
  expect_near_rel(f.mad_lo, 2.577415823229015, "MadLo");
  expect_near_rel(f.sigma, 0.47376901232732327, "sigma");
  expect_near_rel(f.smad, 3.8522729516624672, "SMAD");
}

TEST(StmadExample, MotionWeights) {
  const StmadFigures& f = example_run().figures;
  expect_all_near_rel(f.w_row,
                      {0.93154324625090057, 3.6828898212279571, 4.7022776705664633,
                       5.0497964239975488, 4.6765893649619938, 3.6756941924398965,
                       2.464893779005267},
                      "wRow");
  expect_all_near_rel(f.w_col,
                      {0.025923920031741977, 2.4037034533248591, 2.9688522937649737,
                       3.4745052739860252, 3.6793265650936831, 3.6800584063878041,
                       3.4576866370627841, 2.978202189131228, 2.3944866251954928,
                       1.8309358254106394},
                      "wCol");
  expect_near_rel(f.m_row, 25.183684498450024, "mRow");
  expect_near_rel(f.m_col, 26.89368118938923, "mCol");
  EXPECT_FALSE(f.static_reference);
}

TEST(StmadExample, SliceIndices) {
  const StmadFigures& f = example_run().figures;
  expect_all_near_rel(f.lo_row,
                      {6.8191764717489987, 6.4227214762440976, 4.5221115052442311,
                       7.2014241084898343, 4.7756357145022266, 5.0714904281145108,
                       6.2654121286021081},
                      "lo_row");
  expect_all_near_rel(f.lo_col,
                      {2.3914340091841932, 2.0437280849975554, 2.3074342427928225,
                       3.4969568584911364, 2.5169523677533747, 2.287724567806936,
                       2.8848863789764336, 2.0761793890347224, 2.0856667432837965,
                       2.8930202368380993},
                      "lo_col");
}

TEST(StmadExample, TemporalAndCombinedFigures) {
  const StmadFigures& f = example_run().figures;
  EXPECT_TRUE(f.temporal);
  EXPECT_EQ(f.frames, 40);
  EXPECT_TRUE(f.notes.empty());
  expect_near_rel(f.sts_row, 15.197474717946967, "stsRow");
  expect_near_rel(f.sts_col, 6.7321313814181236, "stsCol");
  expect_near_rel(f.tmad, 6.1830072710229054, "TMAD");
  expect_near_rel(f.mov_index, 0.48358215062961113, "movIndex");
  expect_near_rel(f.beta, 0.17131159957589204, "beta");
  expect_near_rel(f.stmad, 5.7317668249267735, "STMAD");
}

}  // namespace
}  // namespace mad
