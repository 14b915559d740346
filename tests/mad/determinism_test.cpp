// Determinism (STYLE rule 10, issue 7): the same inputs give bit-identical scores and maps
// across thread counts, repeated runs (cold and warm per-shape caches), one-shot vs Scorer vs
// BatchScorer, and on the GPU across runs and batches. Bits are compared with memcmp, not with
// a tolerance: a reduction whose order depends on scheduling shows up here.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/image_io.h"
#include "common/parallel.h"
#include "mad/batch_scorer.h"
#include "mad/score.h"
#include "tests/mad/batch_run.h"
#include "tests/support/test_support.h"

namespace mad {
namespace {

using test::same_bits;

void expect_identical(const ScoreResult& a, const ScoreResult& b, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_TRUE(same_bits(a.mad, b.mad)) << a.mad << " vs " << b.mad;
  EXPECT_TRUE(same_bits(a.hi, b.hi)) << a.hi << " vs " << b.hi;
  EXPECT_TRUE(same_bits(a.lo, b.lo)) << a.lo << " vs " << b.lo;
  EXPECT_TRUE(same_bits(a.sig, b.sig));
  EXPECT_TRUE(same_bits(a.d_detect, b.d_detect));
  EXPECT_TRUE(same_bits(a.map_hi, b.map_hi)) << "map.HI differs";
  EXPECT_TRUE(same_bits(a.map_lo, b.map_lo)) << "map.LO differs";
}

// Resets the thread count when a test ends, whatever happened.
struct ThreadCountGuard {
  ~ThreadCountGuard() { set_thread_count(0); }
};

struct Pair {
  std::shared_ptr<const GrayImage> ref, dst;
};

// The rocket pair (real content, 333 rows x 257 columns: odd sizes) and seeded random pairs of
// two other shapes, one of them 16-bit (double input class).
std::vector<Pair> test_pairs() {
  const std::string images = test::data_path("reference/images/");
  auto load = [](const std::string& p) {
    return std::make_shared<const GrayImage>(load_gray_image(p));
  };
  auto synthetic = [](int w, int h, std::uint32_t seed, int bits) {
    Image<double> img = test::random_image(w, h, seed);
    if (bits == 16)
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
          img(y, x) = img(y, x) * (250.0 / 255.0) + 0.3;  // non-integer values on 0..255
    return std::make_shared<const GrayImage>(make_gray_image(std::move(img), bits));
  };
  const auto rocket = load(images + "rocket_333x257.png");
  const auto random_ref = synthetic(97, 61, 1, 8);
  return {{rocket, load(images + "rocket_333x257__jpeg_q30.png")},
          {random_ref, synthetic(97, 61, 2, 8)},
          {rocket, load(images + "rocket_333x257__blur_s1.5.png")},
          {synthetic(64, 40, 3, 16), synthetic(64, 40, 4, 16)},
          {random_ref, synthetic(97, 61, 5, 8)}};
}

ScoreOptions options(Backend backend, bool maps) {
  ScoreOptions o;
  o.backend = backend;
  o.want_maps = maps;
  return o;
}

TEST(Determinism, CpuScoresAndMapsAreIdenticalAcrossThreadCounts) {
  ThreadCountGuard guard;
  const std::vector<Pair> pairs = test_pairs();
  for (std::size_t i = 0; i < pairs.size(); i += 3) {  // the rocket pair and the 16-bit pair
    set_thread_count(1);
    const ScoreResult base = score(*pairs[i].ref, *pairs[i].dst, options(Backend::Cpu, true));
    for (int threads : {2, 3}) {
      set_thread_count(threads);
      expect_identical(base, score(*pairs[i].ref, *pairs[i].dst, options(Backend::Cpu, true)),
                       "pair " + std::to_string(i) + ", threads " + std::to_string(threads));
    }
  }
}

TEST(Determinism, CpuScoresAreIdenticalAcrossRunsAndApis) {
  ThreadCountGuard guard;
  set_thread_count(3);
  const std::vector<Pair> pairs = test_pairs();
  // One-shot scores: each builds its own Scorer; per-shape caches are cold for the first pair
  // of a shape and warm afterwards.
  std::vector<ScoreResult> once;
  for (const auto& p : pairs) once.push_back(score(*p.ref, *p.dst, options(Backend::Cpu, false)));
  // Run 2: one Scorer for all pairs, in reverse order (caches reused across shapes).
  Scorer scorer(options(Backend::Cpu, false));
  for (std::size_t k = pairs.size(); k-- > 0;)
    expect_identical(once[k], scorer.score(*pairs[k].ref, *pairs[k].dst),
                     "Scorer, pair " + std::to_string(k));
  // Run 3: the batch API, in order.
  const std::vector<BatchScorer::Finished> done = test::score_in_one_batch(options(Backend::Cpu, false), pairs);
  ASSERT_EQ(done.size(), pairs.size());
  for (const auto& f : done) {
    ASSERT_TRUE(f.ok) << f.error;
    expect_identical(once[f.tag], f.result, "BatchScorer, pair " + std::to_string(f.tag));
  }
}

// The GPU backend: repeated runs, reused Scorer and BatchScorer (pairs in flight side by side,
// reference reuse between pairs 0 and 2 after a different shape) give the same bits, in both
// precisions.
TEST(Determinism, GpuScoresAreIdenticalAcrossRunsAndBatches) {
  MAD_REQUIRE_GPU();
  const std::vector<Pair> pairs = test_pairs();
  for (Precision precision : {Precision::Double, Precision::Float}) {
    ScoreOptions o = options(Backend::Cuda, true);
    o.precision = precision;
    std::vector<ScoreResult> once;
    for (const auto& p : pairs) once.push_back(score(*p.ref, *p.dst, o));
    Scorer scorer(o);
    for (int run = 0; run < 2; ++run)
      for (std::size_t k = 0; k < pairs.size(); ++k)
        expect_identical(once[k], scorer.score(*pairs[k].ref, *pairs[k].dst),
                         "GPU Scorer run " + std::to_string(run) + ", pair " + std::to_string(k));
    o.want_maps = false;
    const std::vector<BatchScorer::Finished> done = test::score_in_one_batch(o, pairs);
    ASSERT_EQ(done.size(), pairs.size());
    for (const auto& f : done) {
      ASSERT_TRUE(f.ok) << f.error;
      SCOPED_TRACE("GPU batch, pair " + std::to_string(f.tag));
      EXPECT_TRUE(same_bits(once[f.tag].mad, f.result.mad));
      EXPECT_TRUE(same_bits(once[f.tag].d_detect, f.result.d_detect));
    }
  }
}

}  // namespace
}  // namespace mad
