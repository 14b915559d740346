// `mad video` on the GPU against the CPU (issue 40, "Fidelity"): the whole VideoScorer path
// (reader thread, batched BatchScorer, pooling, ST-MAD's motion and slices) over clips of
// awkward shapes in a seeded random order: the 34x34 minimum, odd and prime sides, the worked
// example's 84x60, 8-bit and 10-bit samples, 34 to 41 frames (ST-MAD's slices are then 34 to 41
// wide). The CPU is the oracle. Bounds, relative to max(|cpu|, 1):
//   double: every frame's MAD, HI and LO and SMAD, TMAD, STMAD within 1e-12;
//   float: within 1e-4 (docs/algorithm.md: float keeps about 2e-4 of double at worst on a MAD).
// Prints "AGREEMENT video ..." lines for tools/gpu-check.sh. Skips without a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "mad/video/video_scorer.h"
#include "tests/support/test_support.h"
#include "tests/video/video_test_clips.h"

namespace mad {
namespace {

struct ClipShape {
  int width, height, frames, bit_depth;
};

// Frame t of a clip of `shape`: the tests' textured 8-bit frames, widened for deeper samples
// with a low-order pattern so that 10-bit values are not 8-bit ones times four.
LumaFrame shaped_frame(const ClipShape& shape, int t, bool distorted) {
  LumaFrame f = test::make_clip_frame(shape.width, shape.height, t, distorted);
  if (shape.bit_depth == 8) return f;
  f.bit_depth = shape.bit_depth;
  const int extra = shape.bit_depth - 8;
  f.samples16.resize(f.pixels());
  for (std::size_t i = 0; i < f.pixels(); ++i)
    f.samples16[i] = static_cast<std::uint16_t>((f.samples8[i] << extra) |
                                                ((i * 7 + static_cast<std::size_t>(t)) % (1u << extra)));
  f.samples8.clear();
  return f;
}

struct ClipRun {
  std::vector<FrameRow> rows;
  VideoSummary summary;
};

ClipRun score_clip(const ClipShape& shape, Backend backend, Precision precision) {
  ClipFormat format = test::gray8_format(shape.width, shape.height);
  format.bit_depth = shape.bit_depth;
  test::MemoryClip ref("ref", format, shape.frames,
                       [&](int t) { return shaped_frame(shape, t, false); });
  test::MemoryClip dist("dist", format, shape.frames,
                        [&](int t) { return shaped_frame(shape, t, true); });
  VideoOptions options;
  options.score.backend = backend;
  options.score.precision = precision;
  options.stmad = true;
  VideoScorer scorer(options, ResolvedBackend(backend));
  ClipRun run;
  run.summary = scorer.score(ref, dist, [&](const FrameRow& r) { run.rows.push_back(r); });
  return run;
}

double rel(double gpu, double cpu) {
  return std::fabs(gpu - cpu) / std::max(std::fabs(cpu), 1.0);
}

// The largest relative difference over every frame's figures and ST-MAD's three.
struct Worst {
  double frames = 0, stmad = 0;
};

Worst compare(const ClipRun& gpu, const ClipRun& cpu, const ClipShape& shape) {
  Worst w;
  EXPECT_EQ(gpu.rows.size(), cpu.rows.size());
  for (std::size_t i = 0; i < std::min(gpu.rows.size(), cpu.rows.size()); ++i) {
    EXPECT_EQ(gpu.rows[i].frame, cpu.rows[i].frame);
    w.frames = std::max({w.frames, rel(gpu.rows[i].mad, cpu.rows[i].mad),
                         rel(gpu.rows[i].hi, cpu.rows[i].hi), rel(gpu.rows[i].lo, cpu.rows[i].lo)});
  }
  EXPECT_TRUE(gpu.summary.stmad && cpu.summary.stmad);
  if (!gpu.summary.stmad || !cpu.summary.stmad) return w;
  const StmadFigures &g = *gpu.summary.stmad, &c = *cpu.summary.stmad;
  EXPECT_EQ(g.temporal, shape.frames >= 34);
  const std::initializer_list<std::pair<double, double>> figures = {
      {g.smad, c.smad}, {g.tmad, c.tmad}, {g.stmad, c.stmad}};
  for (const auto& [a, b] : figures) {
    EXPECT_TRUE(std::isfinite(a) && std::isfinite(b));
    w.stmad = std::max(w.stmad, rel(a, b));
  }
  return w;
}

TEST(VideoAgreementCuda, GpuEqualsCpuOnClipsOfAwkwardShapes) {
  MAD_REQUIRE_GPU();
  std::vector<ClipShape> shapes = {{34, 34, 34, 8},  {84, 60, 40, 8},  {97, 53, 35, 8},
                                   {61, 89, 37, 10}, {128, 72, 41, 8}, {53, 41, 34, 10}};
  std::mt19937 rng(40);
  std::shuffle(shapes.begin(), shapes.end(), rng);
  Worst dbl, flt;
  for (const ClipShape& shape : shapes) {
    SCOPED_TRACE(std::to_string(shape.width) + "x" + std::to_string(shape.height) + "x" +
                 std::to_string(shape.frames) + " " + std::to_string(shape.bit_depth) + "-bit");
    const ClipRun cpu = score_clip(shape, Backend::Cpu, Precision::Double);
    const Worst d = compare(score_clip(shape, Backend::Cuda, Precision::Double), cpu, shape);
    const Worst f = compare(score_clip(shape, Backend::Cuda, Precision::Float), cpu, shape);
    EXPECT_LE(d.frames, 1e-12);
    EXPECT_LE(d.stmad, 1e-12);
    EXPECT_LE(f.frames, 1e-4);
    EXPECT_LE(f.stmad, 1e-4);
    dbl = {std::max(dbl.frames, d.frames), std::max(dbl.stmad, d.stmad)};
    flt = {std::max(flt.frames, f.frames), std::max(flt.stmad, f.stmad)};
  }
  std::printf("AGREEMENT video: %zu clips (34x34 .. 128x72, 8- and 10-bit, 34-41 frames), GPU "
              "against CPU, largest relative difference: double frames %.3g, SMAD/TMAD/STMAD "
              "%.3g; float frames %.3g, SMAD/TMAD/STMAD %.3g\n",
              shapes.size(), dbl.frames, dbl.stmad, flt.frames, flt.stmad);
}

}  // namespace
}  // namespace mad

namespace mad {
namespace {

// The rows of a clip whose distorted file is cut at frame `cut` (the reader throws there) on
// `backend`: the frames read before the cut, several of them in flight on the GPU, are scored and
// delivered before the error propagates.
std::vector<FrameRow> rows_before_a_cut(Backend backend, int cut, bool& threw) {
  const ClipShape shape{97, 53, 30, 8};
  const ClipFormat format = test::gray8_format(shape.width, shape.height);
  test::MemoryClip ref("ref", format, shape.frames,
                       [&](int t) { return shaped_frame(shape, t, false); });
  test::MemoryClip dist("dist", format, shape.frames,
                        [&](int t) { return shaped_frame(shape, t, true); }, cut);
  VideoOptions options;
  options.score.backend = backend;
  VideoScorer scorer(options, ResolvedBackend(backend));
  std::vector<FrameRow> rows;
  threw = false;
  try {
    scorer.score(ref, dist, [&](const FrameRow& r) { rows.push_back(r); });
  } catch (const InputError&) {
    threw = true;
  }
  return rows;
}

TEST(VideoAgreementCuda, ACutMidClipDeliversTheFramesBeforeItAsTheCpuDoes) {
  MAD_REQUIRE_GPU();
  bool cpu_threw = false, gpu_threw = false;
  const std::vector<FrameRow> cpu = rows_before_a_cut(Backend::Cpu, 17, cpu_threw);
  const std::vector<FrameRow> gpu = rows_before_a_cut(Backend::Cuda, 17, gpu_threw);
  EXPECT_TRUE(cpu_threw);
  EXPECT_TRUE(gpu_threw);
  ASSERT_EQ(cpu.size(), 17u);
  ASSERT_EQ(gpu.size(), cpu.size());
  for (std::size_t i = 0; i < gpu.size(); ++i) {
    EXPECT_EQ(gpu[i].frame, static_cast<std::int64_t>(i));
    EXPECT_LE(rel(gpu[i].mad, cpu[i].mad), 1e-12);
  }
}

}  // namespace
}  // namespace mad
