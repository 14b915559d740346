// The CPU backend's kept workspace (common/workspace_cpu.h, issue 39 item 4): scores stay
// bit-identical to fresh buffers when the buffers are reused across pairs of changing shapes,
// and the buffers really are reused (not reallocated) over pairs of one shape.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "appearance/appearance.h"
#include "appearance/appearance_workspace_cpu.h"
#include "common/parallel.h"
#include "common/workspace_cpu.h"
#include "detection/detection.h"
#include "detection/detection_workspace_cpu.h"
#include "mad/backends/pair_backend.h"
#include "tests/support/test_support.h"

namespace mad {
namespace {

using test::same_bits;

// Restores the defaults when a test ends, whatever happened.
struct ModeGuard {
  ~ModeGuard() {
    set_workspace_poisoning(false);
    set_thread_count(0);
    set_workspace_keep_limit(kWorkspaceKeepMaxPixels);
  }
};

// One pair of a shape, as raw 8-bit values (also as uint8 planes, for gray8-only inputs).
struct TestPair {
  Image<double> ref, dst;
  std::vector<std::uint8_t> ref8, dst8;
};

TestPair make_pair(int width, int height, std::uint32_t seed) {
  TestPair p{test::random_image(width, height, seed), test::random_image(width, height, seed + 1),
             {}, {}};
  for (const auto& [img, out] : {std::pair{&p.ref, &p.ref8}, std::pair{&p.dst, &p.dst8}})
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) out->push_back(static_cast<std::uint8_t>((*img)(y, x)));
  return p;
}

StageOutputs score_on(PairBackend& backend, const TestPair& p, bool gray8_only, bool maps) {
  const int w = p.ref.width(), h = p.ref.height();
  const PairInput ref = gray8_only ? PairInput::gray8_only(p.ref8.data(), w, h)
                                   : PairInput(p.ref.cview(), p.ref8.data());
  const PairInput dst = gray8_only ? PairInput::gray8_only(p.dst8.data(), w, h)
                                   : PairInput(p.dst.cview(), p.dst8.data());
  return backend.collect(backend.submit(ref, dst, true, maps));
}

// Pairs of shapes A, B, A, A (B odd-sized, the last A with other content), scored by one
// backend whose kept buffers are poisoned with NaN before every reuse, against the stages run
// on fresh, zeroed buffers without poisoning. A stage that read a buffer before writing it (a
// stale plane, statistics left from the previous shape) would change a bit here.
TEST(CpuWorkspace, ReuseAcrossShapesKeepsScoresBitIdentical) {
  ModeGuard guard;
  set_thread_count(3);  // more subband threads than cores: each keeps its own scratch
  const std::vector<TestPair> pairs = {make_pair(64, 48, 11), make_pair(61, 47, 21),
                                       make_pair(64, 48, 31), make_pair(64, 48, 41)};
  struct Want {
    detection::DetectionResult det;
    appearance::AppearanceResult app;
  };
  std::vector<Want> want;
  for (const TestPair& p : pairs)
    want.push_back({detection::detect_cpu(p.ref.cview(), p.dst.cview(), true, true),
                    appearance::appear_cpu(p.ref.cview(), p.dst.cview(), true)});

  set_workspace_poisoning(true);
  auto backend = make_cpu_backend(ScoreOptions{});
  for (int round = 0; round < 2; ++round)
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const bool maps = (i + round) % 2 == 0, gray8_only = round == 1;
      SCOPED_TRACE("round " + std::to_string(round) + ", pair " + std::to_string(i));
      const StageOutputs got = score_on(*backend, pairs[i], gray8_only, maps);
      EXPECT_TRUE(same_bits(got.d_detect, want[i].det.d_detect))
          << got.d_detect << " vs " << want[i].det.d_detect;
      EXPECT_TRUE(same_bits(got.d_appear, want[i].app.d_appear))
          << got.d_appear << " vs " << want[i].app.d_appear;
      if (maps) {
        EXPECT_TRUE(same_bits(got.map_hi, want[i].det.map)) << "map.HI differs";
        EXPECT_TRUE(same_bits(got.map_lo, want[i].app.map)) << "map.LO differs";
      }
    }
}

// Over pairs of one shape the backend allocates no workspace buffer; a new shape makes it
// refit (the memory it holds follows the shape), and returning to the first shape refits again.
TEST(CpuWorkspace, BackendReusesItsBuffersOverPairsOfOneShape) {
  ModeGuard guard;
  const TestPair a1 = make_pair(64, 48, 51), a2 = make_pair(64, 48, 61),
                 b = make_pair(61, 47, 71);
  auto backend = make_cpu_backend(ScoreOptions{});
  score_on(*backend, a1, false, false);
  const std::uint64_t after_first = workspace_allocations();
  score_on(*backend, a2, false, false);
  score_on(*backend, a1, true, false);
  EXPECT_EQ(workspace_allocations(), after_first) << "a pair of the same shape reallocated";
  score_on(*backend, b, false, false);
  const std::uint64_t after_b = workspace_allocations();
  EXPECT_GT(after_b, after_first) << "a new shape must refit the workspace";
  score_on(*backend, a2, false, false);
  EXPECT_GT(workspace_allocations(), after_b);
}

// Issue 39: a pair above the keep limit frees its workspaces (each stage's when the stage
// ends), so every pair of that shape allocates them anew, and scores the same bits as a
// backend that keeps them; a pair at the limit keeps them.
TEST(CpuWorkspace, PairsAboveTheKeepLimitFreeTheirWorkspaceAndScoreTheSame) {
  ModeGuard guard;
  const TestPair a = make_pair(64, 48, 52), b = make_pair(64, 48, 62);
  auto keeping = make_cpu_backend(ScoreOptions{});
  score_on(*keeping, a, false, true);
  const StageOutputs want = score_on(*keeping, b, false, true);

  set_workspace_keep_limit(64 * 48 - 1);
  auto freeing = make_cpu_backend(ScoreOptions{});
  // Without maps (a map leaves with its result, so its plane is allocated anew either way).
  score_on(*freeing, a, false, false);
  const std::uint64_t after_first = workspace_allocations();
  score_on(*freeing, a, false, false);
  EXPECT_GT(workspace_allocations(), after_first) << "a pair above the limit kept its workspace";
  const StageOutputs got = score_on(*freeing, b, false, true);
  EXPECT_TRUE(same_bits(got.d_detect, want.d_detect));
  EXPECT_TRUE(same_bits(got.d_appear, want.d_appear));
  EXPECT_TRUE(same_bits(got.map_hi, want.map_hi));
  EXPECT_TRUE(same_bits(got.map_lo, want.map_lo));

  set_workspace_keep_limit(64 * 48);
  score_on(*freeing, a, false, false);
  const std::uint64_t kept_from = workspace_allocations();
  score_on(*freeing, b, false, false);
  EXPECT_EQ(workspace_allocations(), kept_from) << "a pair at the limit must keep it";
}

// The stages' workspace overloads keep their planes in place: the same addresses pair after
// pair of one shape.
TEST(CpuWorkspace, StagesKeepBufferAddressesOverPairsOfOneShape) {
  const TestPair p = make_pair(64, 48, 81), q = make_pair(64, 48, 91);
  detection::DetectionWorkspaceCpu det;
  appearance::AppearanceWorkspaceCpu app;
  detection::detect_cpu(p.ref.cview(), p.dst.cview(), true, false, det);
  appearance::appear_cpu(p.ref.cview(), p.dst.cview(), false, app);
  const double* lum = det.lum[0].data();
  const double* map = det.map.data();
  const Complex* spectrum = app.spectra[0].data();
  const Complex* scratch = app.scratch[0]->eo();
  detection::detect_cpu(q.ref.cview(), q.dst.cview(), true, false, det);
  appearance::appear_cpu(q.ref.cview(), q.dst.cview(), false, app);
  EXPECT_EQ(det.lum[0].data(), lum);
  EXPECT_EQ(det.map.data(), map);
  EXPECT_EQ(app.spectra[0].data(), spectrum);
  EXPECT_EQ(app.scratch[0]->eo(), scratch);
}

}  // namespace
}  // namespace mad
