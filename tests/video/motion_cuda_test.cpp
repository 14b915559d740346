// ST-MAD's motion on the GPU (mad/video/motion_cuda.h) against the host's, bit for bit: the
// example of shared/stmad-spec.md §11 (8-bit: exact sums) and random 8-bit and 10-bit clips
// (10-bit values are non-integer, so only the same order and no fused multiply-add give the
// same bits). Then ST-MAD end to end with the GPU's motion and scorer. Skips without a device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "mad/video/motion.h"
#include "tests/support/test_support.h"
#include "tests/video/stmad_example_clip.h"
#include "tests/video/stmad_run.h"

namespace mad::video {
namespace {

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

void expect_gpu_equals_cpu(const test::ClipFrames& frames, int count, int width, int height) {
  const MotionGrid grid = motion_grid(width, height);
  // The GPU both ways: the crop's doubles uploaded (add_frame), and the frame's native samples
  // uploaded and widened on the device (add_luma, what StmadModel uses).
  const auto cpu = make_motion_accumulator(grid, Backend::Cpu);
  const auto gpu_doubles = make_motion_accumulator(grid, Backend::Cuda);
  const auto gpu_samples = make_motion_accumulator(grid, Backend::Cuda);
  for (int t = 0; t < count; ++t) {
    const LumaFrame frame = frames(t, false);
    const std::vector<double> crop = motion_crop(frame, grid);
    cpu->add_luma(frame, grid);
    gpu_doubles->add_frame(crop);
    gpu_samples->add_luma(frame, grid);
  }
  const std::vector<double> a = cpu->speed_sums();
  for (MotionAccumulator* gpu : {gpu_doubles.get(), gpu_samples.get()}) {
    EXPECT_EQ(gpu->pairs(), cpu->pairs());
    const std::vector<double> b = gpu->speed_sums();
    ASSERT_EQ(a.size(), b.size());
    int differing = 0;
    for (std::size_t i = 0; i < a.size(); ++i) differing += same_bits(a[i], b[i]) ? 0 : 1;
    EXPECT_EQ(differing, 0) << "of " << a.size() << " windows"
                            << (gpu == gpu_samples.get() ? " (native samples)" : " (doubles)");
  }
}

LumaFrame random_frame(int width, int height, int bit_depth, unsigned seed) {
  std::mt19937 rng(seed);
  LumaFrame f;
  f.width = width;
  f.height = height;
  f.bit_depth = bit_depth;
  std::uniform_int_distribution<int> sample(0, (1 << bit_depth) - 1);
  for (std::size_t i = 0; i < f.pixels(); ++i) {
    if (bit_depth <= 8)
      f.samples8.push_back(static_cast<std::uint8_t>(sample(rng)));
    else
      f.samples16.push_back(static_cast<std::uint16_t>(sample(rng)));
  }
  return f;
}

TEST(StmadMotionCuda, ExampleClipBitForBit) {
  MAD_REQUIRE_GPU();
  expect_gpu_equals_cpu(test::example_clip, test::kExampleFrames, test::kExampleWidth,
                        test::kExampleHeight);
}

TEST(StmadMotionCuda, RandomClipsBitForBit) {
  MAD_REQUIRE_GPU();
  for (const int depth : {8, 10}) {
    SCOPED_TRACE(depth);
    expect_gpu_equals_cpu([depth](int t, bool) { return random_frame(203, 117, depth, 1000u + t); },
                          6, 203, 117);
  }
}

// A small clip for tools/gpu-check.sh's compute-sanitizer runs (memcheck, racecheck, initcheck,
// synccheck run the *Sanitizer* tests): sides that are not multiples of 8, 10-bit samples.
TEST(StmadMotionCudaSanitizer, SmallRandomClip) {
  MAD_REQUIRE_GPU();
  expect_gpu_equals_cpu([](int t, bool) { return random_frame(45, 27, 10, 2000u + t); }, 3, 45,
                        27);
}

// The whole model with the GPU's motion and scorer (double): the table of §11 within 1e-10.
TEST(StmadMotionCuda, ExampleFiguresOnTheGpu) {
  MAD_REQUIRE_GPU();
  const test::StmadRun gpu = test::run_stmad(
      test::example_clip, test::kExampleFrames, test::kExampleWidth, test::kExampleHeight,
      Backend::Cuda, test::stmad_scoring_options(Backend::Cuda));
  const StmadFigures& f = gpu.figures;
  EXPECT_NEAR(f.smad, 3.8522729516624672, 1e-10 * 3.86);
  EXPECT_NEAR(f.tmad, 6.1830072710229054, 1e-10 * 6.19);
  EXPECT_NEAR(f.stmad, 5.7317668249267735, 1e-10 * 5.74);
  EXPECT_NEAR(f.m_row, 25.183684498450024, 1e-10 * 25.2);
  EXPECT_NEAR(f.m_col, 26.89368118938923, 1e-10 * 26.9);
}

}  // namespace
}  // namespace mad::video
