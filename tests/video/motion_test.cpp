// ST-MAD's motion stage (mad/video/motion*.h) against the intermediate values of
// shared/stmad-spec.md §11 (gradients, window sums, flow, squared speed, row and column means,
// gausswin) and the pseudo-inverse rule of §4.3.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "mad/video/motion.h"
#include "mad/video/motion_solve.h"
#include "mad/video/motion_weights.h"
#include "tests/video/stmad_example_clip.h"

namespace mad::video {
namespace {

constexpr double kRelative = 1e-10;  // the spec's tolerance for the motion values (§10)

struct ExamplePair {
  MotionGrid grid = motion_grid(test::kExampleWidth, test::kExampleHeight);
  std::vector<double> previous = motion_crop(test::example_frame(0, false), grid);
  std::vector<double> current = motion_crop(test::example_frame(1, false), grid);
  Gradient at(int i, int j) const {
    return gradient_at(current.data(), previous.data(), grid.width(), i, j);
  }
  WindowSums sums(int I, int J) const {
    return window_sums(current.data(), previous.data(), grid.width(), I, J);
  }
};

TEST(StmadMotion, CropIsTheTopLeftMultipleOfEight) {
  const MotionGrid g = motion_grid(84, 60);
  EXPECT_EQ(g.window_rows, 7);
  EXPECT_EQ(g.window_cols, 10);
  EXPECT_EQ(g.width(), 80);
  EXPECT_EQ(g.height(), 56);
  const std::vector<double> crop = motion_crop(test::example_frame(0, false), g);
  ASSERT_EQ(crop.size(), 80u * 56u);
  EXPECT_EQ(crop[0], 124.0);
  EXPECT_EQ(crop[80 + 1], 115.0);  // row 1 starts at 80, not 84
}

TEST(StmadMotion, GradientsOfWindow3_5) {
  const ExamplePair p;
  const double fx[] = {-5.25, -1.5, -2.5}, fy[] = {4.25, 0.5, -0.5}, ft[] = {4.25, 4.5, 7.5};
  for (int k = 0; k < 3; ++k) {
    const Gradient g = p.at(24, 40 + k);
    EXPECT_EQ(g.fx, fx[k]) << k;
    EXPECT_EQ(g.fy, fy[k]) << k;
    EXPECT_EQ(g.ft, ft[k]) << k;
  }
}

TEST(StmadMotion, ZeroPaddingAtTheFramesEdge) {
  const ExamplePair p;
  const double fx[] = {-60, -0.5, 3.25}, fy[] = {-60, -120.5, -117.75};
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(p.at(0, k).fx, fx[k]) << k;
    EXPECT_EQ(p.at(0, k).fy, fy[k]) << k;
  }
}

TEST(StmadMotion, SumsAndFlowOfWindow3_5) {
  const WindowSums s = ExamplePair().sums(3, 5);
  // 8-bit input: the sums are exact multiples of 1/16.
  EXPECT_EQ(s.sxx, 803.4375);
  EXPECT_EQ(s.sxy, -160.9375);
  EXPECT_EQ(s.syy, 506.4375);
  EXPECT_EQ(s.q1, 1471.6875);
  EXPECT_EQ(s.q2, 222.8125);
  const Flow f = window_flow(s);
  EXPECT_NEAR(f.u, 2.050386164991207, kRelative * 2.05);
  EXPECT_NEAR(f.v, 1.091539476101735, kRelative * 1.09);
  EXPECT_NEAR(squared_speed(f), 5.395541853475799, kRelative * 5.4);
}

TEST(StmadMotion, SumsAndSpeedOfTheCornerWindow) {
  const WindowSums s = ExamplePair().sums(0, 0);
  EXPECT_EQ(s.sxx, 93280.5);
  EXPECT_EQ(s.sxy, 2198.25);
  EXPECT_EQ(s.syy, 88969.5);
  EXPECT_EQ(s.q1, -2108.75);
  EXPECT_EQ(s.q2, -2300.5);
  EXPECT_NEAR(squared_speed(window_flow(s)), 0.0011252065404254684,
              kRelative * 0.0011252065404254684);
}

// §4.3: pinv of the 2x2 normal matrix.
TEST(StmadMotion, PseudoInverseRule) {
  // G = 0 (flat in both frames): no motion.
  const Flow zero = window_flow({0, 0, 0, 5, 7});
  EXPECT_EQ(zero.u, 0.0);
  EXPECT_EQ(zero.v, 0.0);
  // Rank 1: G = 5 e e' with e = (2, 1)/sqrt(5); q = (6, 3) has the minimum-norm solution
  // (1.2, 0.6) along e (the inverse would divide by det = 0).
  const Flow rank1 = window_flow({4, 2, 1, 6, 3});
  EXPECT_NEAR(rank1.u, 1.2, 1e-15);
  EXPECT_NEAR(rank1.v, 0.6, 1e-15);
  // Rank 1 along an axis: only the x direction is seen.
  const Flow axis = window_flow({4, 0, 0, 8, 0});
  EXPECT_EQ(axis.u, 2.0);
  EXPECT_EQ(axis.v, 0.0);
  // Full rank: G^-1 q.
  const Flow full = window_flow({2, 1, 3, 5, 5});  // det 5: (3*5-1*5)/5, (2*5-1*5)/5
  EXPECT_EQ(full.u, 2.0);
  EXPECT_EQ(full.v, 1.0);
}

// §4.4 on the whole clip: mean squared speed, row and column means.
TEST(StmadMotion, RowAndColumnMeansOfTheExample) {
  const MotionGrid grid = motion_grid(test::kExampleWidth, test::kExampleHeight);
  const auto acc = make_motion_accumulator(grid, Backend::Cpu);
  for (int t = 0; t < test::kExampleFrames; ++t)
    acc->add_frame(motion_crop(test::example_frame(t, false), grid));
  EXPECT_EQ(acc->pairs(), 39);
  const MotionWeights w = motion_weights(acc->speed_sums(), acc->pairs(), grid);
  const std::vector<double> m_ver = {3.176410903461279, 5.170953522243787, 5.182210721827578,
                                     5.159719459261149, 5.16803625890109,  5.165899548872082,
                                     5.166950152098979};
  const std::vector<double> m_hor = {0.6402745149450269, 5.34798273608753,  5.342187216501555,
                                     5.382550741953291,  5.345449506441403, 5.345981101843874,
                                     5.369507592417365,  5.350592758775526, 5.337719660670284,
                                     5.380869265601201};
  ASSERT_EQ(w.m_ver.size(), m_ver.size());
  ASSERT_EQ(w.m_hor.size(), m_hor.size());
  for (std::size_t k = 0; k < m_ver.size(); ++k)
    EXPECT_NEAR(w.m_ver[k], m_ver[k], kRelative * m_ver[k]) << k;
  for (std::size_t k = 0; k < m_hor.size(); ++k)
    EXPECT_NEAR(w.m_hor[k], m_hor[k], kRelative * m_hor[k]) << k;
}

TEST(StmadMotion, Gausswin) {
  const std::vector<double> g7 = gausswin(7), g10 = gausswin(10);
  const double half7[] = {0.4867522559599717, 0.726149037073691, 0.9231163463866358, 1};
  const double half10[] = {0.4867522559599717, 0.6469051754643523, 0.8007374029168081,
                           0.9231163463866358, 0.9911505004882849};
  ASSERT_EQ(g7.size(), 7u);
  ASSERT_EQ(g10.size(), 10u);
  for (int n = 0; n < 4; ++n) {
    EXPECT_NEAR(g7[n], half7[n], 1e-15) << n;
    EXPECT_NEAR(g7[6 - n], half7[n], 1e-15) << n;
  }
  for (int n = 0; n < 5; ++n) {
    EXPECT_NEAR(g10[n], half10[n], 1e-15) << n;
    EXPECT_NEAR(g10[9 - n], half10[n], 1e-15) << n;
  }
  EXPECT_EQ(gausswin(1), std::vector<double>{1.0});
}

// A static reference: every speed 0; the weights the original's zero-motion branch intends.
TEST(StmadMotion, StaticReferenceGetsUniformWeights) {
  const MotionGrid grid = motion_grid(45, 38);  // 5 column and 4 row slices
  std::vector<double> frame(grid.pixels());
  for (std::size_t i = 0; i < frame.size(); ++i) frame[i] = static_cast<double>((i * 37) % 251);
  const auto acc = make_motion_accumulator(grid, Backend::Cpu);
  for (int t = 0; t < 3; ++t) acc->add_frame(frame);
  const MotionWeights w = motion_weights(acc->speed_sums(), acc->pairs(), grid);
  EXPECT_TRUE(w.static_reference);
  EXPECT_EQ(w.m_row, 1.0);
  EXPECT_EQ(w.m_col, 1.0);
  EXPECT_EQ(w.w_row, std::vector<double>(4, 0.25));
  EXPECT_EQ(w.w_col, std::vector<double>(5, 0.2));
}

}  // namespace
}  // namespace mad::video
