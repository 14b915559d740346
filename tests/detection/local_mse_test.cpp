// Local MSE (spec §3.7): padding and window by brute force, and the original's rocket map.
#include "detection/local_mse.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "tests/detection/rocket_pair.h"

namespace mad::detection {
namespace {

// Integer-valued input: every partial sum is an integer < 2^53 and 1/256 is a power of two,
// so the running sums are exact and must equal the original (and brute force) bit for bit.
constexpr double kIntegerExact = 0.0;
// Non-integer input (values < 256², sums of 256 terms): the running sums differ from a direct
// sum by rounding only, bounded by the re-anchoring; ~1e-16 relative of values ~1e4.
constexpr double kNonIntegerTol = 1e-10;

// MATLAB padarray 'symmetric' index: the sequence 0..n-1, n-1..0 repeated.
int padded_index(int i, int n) {
  std::vector<int> period;
  for (int k = 0; k < n; ++k) period.push_back(k);
  for (int k = n - 1; k >= 0; --k) period.push_back(k);
  const int p = 2 * n;
  return period[((i % p) + p) % p];
}

Image<double> brute_lmse(const Image<double>& r, const Image<double>& d) {
  const int w = r.width(), h = r.height();
  Image<double> out(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double sum = 0;
      for (int i = -7; i <= 8; ++i)
        for (int j = -7; j <= 8; ++j) {
          const int yy = padded_index(y + i, h), xx = padded_index(x + j, w);
          const double e = r(yy, xx) - d(yy, xx);
          sum += e * e;
        }
      out(y, x) = sum / 256.0;
    }
  return out;
}

TEST(LocalMse, SymmetricIndex) {
  EXPECT_EQ(symmetric_index(-1, 10), 0);
  EXPECT_EQ(symmetric_index(-2, 10), 1);
  EXPECT_EQ(symmetric_index(10, 10), 9);
  EXPECT_EQ(symmetric_index(11, 10), 8);
  for (int n : {1, 3, 7, 20})
    for (int i = -50; i < 70; ++i)
      EXPECT_EQ(symmetric_index(i, n), padded_index(i, n)) << i << " " << n;
}

TEST(LocalMse, IntegerInputEqualsBruteForce) {
  // Sizes below, at and above the window, odd and even, and long lines (> 32) where the
  // running sums restart.
  for (auto [w, h] : {std::pair{13, 11}, std::pair{3, 5}, std::pair{16, 16}, std::pair{70, 37}}) {
    const Image<double> r = test::random_image(w, h, 11u * w + h);
    const Image<double> d = test::random_image(w, h, 13u * w + h);
    Image<double> out(w, h);
    local_mse_cpu(r.cview(), d.cview(), out.view());
    EXPECT_LE(test::max_abs_diff(out.cview(), brute_lmse(r, d).cview()), kIntegerExact)
        << w << "x" << h;
  }
}

TEST(LocalMse, NonIntegerInputCloseToBruteForce) {
  const int w = 75, h = 66;
  std::mt19937 rng(99);
  std::uniform_real_distribution<double> u(0.0, 255.0);
  Image<double> r(w, h), d(w, h, 0.0, w + 3);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      r(y, x) = u(rng);
      d(y, x) = u(rng);
    }
  Image<double> out(w, h, 0.0, w + 5);
  local_mse_cpu(r.cview(), d.cview(), out.view());
  EXPECT_LE(test::max_abs_diff(out.cview(), brute_lmse(r, d).cview()), kNonIntegerTol);
}

TEST(LocalMse, WindowIsMinus7ToPlus8) {
  // One differing pixel at (20, 30) of a 40x50 image: D_loc is 1/256 exactly on rows 12..27 and
  // columns 22..37 (the windows y-7..y+8 that contain it), 0 elsewhere.
  Image<double> r(50, 40), d(50, 40);
  d(20, 30) = 1.0;
  Image<double> out(50, 40);
  local_mse_cpu(r.cview(), d.cview(), out.view());
  for (int y = 0; y < 40; ++y)
    for (int x = 0; x < 50; ++x) {
      const bool inside = y >= 12 && y <= 27 && x >= 22 && x <= 37;
      EXPECT_EQ(out(y, x), inside ? 1.0 / 256 : 0.0) << y << "," << x;
    }
}

TEST(LocalMse, RocketMatchesReferenceExactly) {
  const auto& p = test::rocket_pair();
  Image<double> out(p.ref.width(), p.ref.height());
  local_mse_cpu(p.ref.cview(), p.dst.cview(), out.view());
  const double err =
      test::max_abs_diff(out.cview(), test::load_reference_map("hi_07_lmse").cview());
  EXPECT_LE(err, kIntegerExact);
  RecordProperty("hi_07_lmse", std::to_string(err));
}

TEST(LocalMse, ShapesAreChecked) {
  Image<double> a(20, 20), b(20, 21), o(20, 20);
  EXPECT_THROW(local_mse_cpu(a.cview(), b.cview(), o.view()), InvalidArgument);
}

}  // namespace
}  // namespace mad::detection
