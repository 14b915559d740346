// Block statistics (spec §4.4) against a textbook long-double computation on awkward sizes,
// the constant-block rule, a padded pitch, an ill-conditioned block and the rocket reference.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "appearance/block_stats.h"
#include "tests/support/test_support.h"

namespace mad::appearance {
namespace {

// std is sqrt of a 256-term sum: ~1e-16 relative per operation, a few ulp overall.
constexpr double kStdRelTol = 1e-14;
// skew/kurt of well-spread blocks are O(1) ratios of O(256)-term sums: ~1e-15 absolute.
constexpr double kShapeAbsTol = 1e-13;

struct Stats {
  std::vector<double> std, skew, kurt;
};

Stats run_fast(ImageView<const double> a) {
  const BlockGrid grid(a.width, a.height);
  Stats s{std::vector<double>(grid.count()), std::vector<double>(grid.count()),
          std::vector<double>(grid.count())};
  subband_block_stats_cpu(a, grid, s.std.data(), s.skew.data(), s.kurt.data());
  return s;
}

// Textbook: every block on its own, mean first, then the three central moments, all in
// long double.
Stats run_textbook(ImageView<const double> a) {
  const BlockGrid grid(a.width, a.height);
  Stats s;
  for (int br = 0; br < grid.rows; ++br)
    for (int bc = 0; bc < grid.cols; ++bc) {
      long double sum = 0;
      for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) sum += a(4 * br + i, 4 * bc + j);
      const long double m = sum / 256;
      long double s2 = 0, s3 = 0, s4 = 0;
      for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
          const long double d = a(4 * br + i, 4 * bc + j) - m;
          s2 += d * d;
          s3 += d * d * d;
          s4 += d * d * d * d;
        }
      const long double sb = std::sqrt(s2 / 256);
      s.std.push_back(static_cast<double>(std::sqrt(s2 / 255)));
      s.skew.push_back(sb == 0 ? 0.0 : static_cast<double>((s3 / 256) / (sb * sb * sb)));
      s.kurt.push_back(sb == 0 ? 0.0 : static_cast<double>((s4 / 256) / (sb * sb * sb * sb)));
    }
  return s;
}

void expect_close(const Stats& got, const Stats& want, double shape_tol, const char* what) {
  ASSERT_EQ(got.std.size(), want.std.size()) << what;
  for (std::size_t b = 0; b < want.std.size(); ++b) {
    ASSERT_NEAR(got.std[b], want.std[b], kStdRelTol * std::fabs(want.std[b])) << what << " " << b;
    ASSERT_NEAR(got.skew[b], want.skew[b], shape_tol) << what << " block " << b;
    ASSERT_NEAR(got.kurt[b], want.kurt[b], shape_tol) << what << " block " << b;
  }
}

TEST(BlockStats, MatchesTextbookOnAwkwardSizes) {
  const std::pair<int, int> sizes[] = {{34, 34}, {35, 61}, {61, 35}, {257, 333}, {16, 16}};
  for (auto [w, h] : sizes) {
    const std::uint32_t seed = 7u * w + h;
    const Image<double> img = test::random_image(w, h, seed);
    SCOPED_TRACE(testing::Message() << w << "x" << h << " seed " << seed);
    expect_close(run_fast(img.cview()), run_textbook(img.cview()), kShapeAbsTol, "random");
  }
}

// The summation order block_stats_cpu.cpp documents, written as plain scalar code. Equality to
// the bit shows that whichever SIMD clone ran, nothing was reassociated.
Stats run_documented_order(ImageView<const double> a) {
  const BlockGrid grid(a.width, a.height);
  Stats s;
  for (int br = 0; br < grid.rows; ++br)
    for (int bc = 0; bc < grid.cols; ++bc) {
      auto px = [&](int i, int j) { return a(4 * br + i, 4 * bc + j); };
      double col[16];
      for (int j = 0; j < 16; ++j) {
        col[j] = px(0, j);
        for (int i = 1; i < 16; ++i) col[j] += px(i, j);
      }
      for (int w = 8; w >= 1; w /= 2)
        for (int j = 0; j < w; ++j) col[j] += col[j + w];
      const double m = col[0] / 256;
      double s2[8] = {}, s3[8] = {}, s4[8] = {};
      for (int i = 0; i < 16; ++i)
        for (int half = 0; half < 2; ++half)
          for (int j = 0; j < 8; ++j) {
            const double d = px(i, half * 8 + j) - m, d2 = d * d;
            s2[j] += d2;
            s3[j] += d2 * d;
            s4[j] += d2 * d2;
          }
      auto reduce = [](const double* v) {
        return ((v[0] + v[4]) + (v[2] + v[6])) + ((v[1] + v[5]) + (v[3] + v[7]));
      };
      const double S2 = reduce(s2), S3 = reduce(s3), S4 = reduce(s4);
      const double sb = std::sqrt(S2 / 256);
      s.std.push_back(std::sqrt(S2 / 255));
      s.skew.push_back(sb != 0 ? (S3 / 256) / (sb * sb * sb) : 0.0);
      s.kurt.push_back(sb != 0 ? (S4 / 256) / ((sb * sb) * (sb * sb)) : 0.0);
    }
  return s;
}

TEST(BlockStats, FollowsTheDocumentedSummationOrderBitForBit) {
  const Image<double> img = test::random_image(61, 35, 4242u);
  const Stats got = run_fast(img.cview()), want = run_documented_order(img.cview());
  EXPECT_EQ(got.std, want.std);
  EXPECT_EQ(got.skew, want.skew);
  EXPECT_EQ(got.kurt, want.kurt);
}

TEST(BlockStats, ContinuousSkewedValues) {
  // |EO|-like input: non-negative, continuous, right-skewed (exponential).
  const int w = 53, h = 47;
  std::mt19937 rng(2024);
  std::exponential_distribution<double> dist(0.1);
  Image<double> img(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) img(y, x) = dist(rng);
  const Stats got = run_fast(img.cview());
  expect_close(got, run_textbook(img.cview()), kShapeAbsTol, "exponential");
  double mean_skew = 0;
  for (double v : got.skew) mean_skew += v / got.skew.size();
  EXPECT_GT(mean_skew, 1.0);  // an exponential has skew 2: the sign convention is right
}

TEST(BlockStats, HighMeanSmallSpreadStaysAccurate) {
  // mu/sigma ~ 3.5e4: raw-moment formulas lose all digits of skew/kurt here ((mu/sigma)^4 *
  // eps ~ 1), the two-pass form keeps ~1e-11 (mean error eps*mu against sigma, times 3).
  constexpr double kIllConditionedTol = 1e-9;
  const int w = 36, h = 36;
  std::mt19937 rng(77);
  std::uniform_real_distribution<double> dist(0.0, 0.1);
  Image<double> img(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) img(y, x) = 1000.0 + dist(rng);
  expect_close(run_fast(img.cview()), run_textbook(img.cview()), kIllConditionedTol, "1000+U");
}

TEST(BlockStats, ConstantBlockGivesZeroSkewAndKurtosis) {
  Image<double> img = test::random_image(40, 44, 5u);
  for (int y = 8; y < 24; ++y)
    for (int x = 12; x < 28; ++x) img(y, x) = 7.25;  // exactly the block at grid (2, 3)
  const BlockGrid grid(40, 44);
  const Stats got = run_fast(img.cview());
  const std::size_t b = 2 * grid.cols + 3;
  EXPECT_EQ(got.std[b], 0.0);
  EXPECT_EQ(got.skew[b], 0.0);
  EXPECT_EQ(got.kurt[b], 0.0);
  EXPECT_GT(got.std[b + 1], 0.0);  // the neighbour overlaps random pixels
  expect_close(got, run_textbook(img.cview()), kShapeAbsTol, "with constant block");

  const Image<double> flat(34, 34, 3.0);
  const Stats all_flat = run_fast(flat.cview());
  for (std::size_t i = 0; i < all_flat.std.size(); ++i) {
    EXPECT_EQ(all_flat.std[i], 0.0);
    EXPECT_EQ(all_flat.skew[i], 0.0);
    EXPECT_EQ(all_flat.kurt[i], 0.0);
  }
}

TEST(BlockStats, PaddedPitchGivesSameBits) {
  const int w = 45, h = 38;
  const Image<double> tight = test::random_image(w, h, 11u);
  Image<double> padded(w, h, 1e300, w + 7);  // padding would poison any stray read
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) padded(y, x) = tight(y, x);
  const Stats a = run_fast(tight.cview()), b = run_fast(padded.cview());
  EXPECT_EQ(a.std, b.std);
  EXPECT_EQ(a.skew, b.skew);
  EXPECT_EQ(a.kurt, b.kurt);
}

TEST(BlockStats, TooSmallImageHasNoBlocks) {
  const Image<double> img = test::random_image(15, 40, 3u);
  const BlockGrid grid(15, 40);
  EXPECT_EQ(grid.count(), 0u);
  double sentinel = 42;
  subband_block_stats_cpu(img.cview(), grid, &sentinel, &sentinel, &sentinel);
  EXPECT_EQ(sentinel, 42);
}

TEST(BlockStats, RejectsGridOfAnotherShape) {
  const Image<double> img = test::random_image(40, 40, 3u);
  std::vector<double> s(100);
  EXPECT_THROW(
      subband_block_stats_cpu(img.cview(), BlockGrid(44, 40), s.data(), s.data(), s.data()),
      InvalidArgument);
}

// The reference's own |EO| in, its tile maps out: isolates the statistics from the FFT.
TEST(BlockStats, RocketReferenceTileMapsFromReferenceMagnitude) {
  // Same input, so only summation order differs: ~1e-15 relative on std; skew/kurt of the
  // flattest blocks (|EO| nearly constant) amplify that by mean/sigma, still far below 1e-11.
  constexpr double kTileMapTol = 1e-11;
  const Image<double> a = test::load_reference_map("lo_s1_o1_absgab_ref");
  const BlockGrid grid(a.width(), a.height());
  const Stats got = run_fast(a.cview());
  const char* names[] = {"lo_s1_o1_std_ref", "lo_s1_o1_skw_ref", "lo_s1_o1_krt_ref"};
  const std::vector<double>* planes[] = {&got.std, &got.skew, &got.kurt};
  for (int k = 0; k < 3; ++k) {
    const Image<double> want = test::load_reference_map(names[k]);
    Image<double> tiles(a.width(), a.height());
    expand_tiles(planes[k]->data(), grid.cols, grid, tiles.view());
    EXPECT_LE(test::max_abs_diff(tiles.cview(), want.cview()), kTileMapTol) << names[k];
  }
}

}  // namespace
}  // namespace mad::appearance
