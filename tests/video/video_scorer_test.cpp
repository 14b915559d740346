// VideoScorer (mad/video/video_scorer.h) on the CPU over clips held in memory: per-frame rows
// equal to the image path's scores of the same frames (input class double) bit for bit, rows in
// frame order, vmaf's --subsample and range, clips of different lengths, mismatched formats, a
// truncated frame, the read-ahead bounded, and the refusals of options that cannot run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "common/error.h"
#include "mad/batch_scorer.h"
#include "mad/video/video_scorer.h"
#include "tests/support/test_support.h"
#include "tests/video/video_test_clips.h"

namespace mad {
namespace {

constexpr int kW = 48, kH = 40;

std::unique_ptr<test::MemoryClip> clip(const std::string& name, int frames, bool distorted,
                                       int width = kW, int height = kH, int truncated_at = -1) {
  return std::make_unique<test::MemoryClip>(
      name, test::gray8_format(width, height), frames,
      [=](int t) { return test::make_clip_frame(width, height, t, distorted); }, truncated_at);
}

VideoOptions cpu_options() {
  VideoOptions o;
  o.score.backend = Backend::Cpu;
  return o;
}

struct VideoRun {
  VideoSummary summary;
  std::vector<FrameRow> rows;
};

VideoRun run(VideoOptions o, ClipReader& ref, ClipReader& dist) {
  VideoRun r;
  VideoScorer scorer(o, ResolvedBackend(Backend::Cpu));
  r.summary = scorer.score(ref, dist, [&](const FrameRow& row) { r.rows.push_back(row); });
  return r;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(VideoScorer, EachRowIsTheImagePathsScoreOfThatFrameInDouble) {
  auto ref = clip("ref", 4, false);
  auto dist = clip("dist", 4, true);
  const VideoRun r = run(cpu_options(), *ref, *dist);
  ASSERT_EQ(r.rows.size(), 4u);
  ScoreOptions image;
  image.backend = Backend::Cpu;
  image.input_class = InputClass::Double;
  BatchScorer scorer(image, ResolvedBackend(Backend::Cpu));
  bool some_hi = false;
  for (int t = 0; t < 4; ++t) {
    EXPECT_EQ(r.rows[t].frame, t);
    GrayImage a, b;
    a.pixels = luma_values(test::make_clip_frame(kW, kH, t, false));
    b.pixels = luma_values(test::make_clip_frame(kW, kH, t, true));
    const ScoreResult want = scorer.score_one(a, b);
    EXPECT_TRUE(same_bits(r.rows[t].mad, want.mad)) << t;
    EXPECT_TRUE(same_bits(r.rows[t].hi, want.hi)) << t;
    EXPECT_TRUE(same_bits(r.rows[t].lo, want.lo)) << t;
    some_hi = some_hi || want.hi > 0;
  }
  EXPECT_TRUE(some_hi) << "the test clip should be visibly distorted";
  EXPECT_EQ(r.summary.input_class, InputClass::Double);  // Auto is double for video
  EXPECT_EQ(r.summary.frames_scored, 4);
  EXPECT_EQ(r.summary.mad.count, 4);
  double sum = 0;
  for (const FrameRow& row : r.rows) sum += row.mad;
  EXPECT_DOUBLE_EQ(r.summary.mad.mean, sum / 4);
  EXPECT_TRUE(r.summary.warnings.empty());
  EXPECT_GT(r.summary.frames_per_second, 0);
  // The running rate spans the first row to the last: the first row's time plus the three
  // intervals after it end within the run.
  EXPECT_GT(r.summary.seconds_to_first_frame, 0);
  ASSERT_GT(r.summary.frames_per_second_running, 0);
  EXPECT_LE(r.summary.seconds_to_first_frame + 3 / r.summary.frames_per_second_running,
            r.summary.seconds * (1 + 1e-12));
}

TEST(VideoScorer, Uint8InputClassIsHonoured) {
  auto ref = clip("ref", 1, false);
  auto dist = clip("dist", 1, true);
  VideoOptions o = cpu_options();
  o.score.input_class = InputClass::Uint8;
  const VideoRun r = run(o, *ref, *dist);
  ScoreOptions image;
  image.backend = Backend::Cpu;
  image.input_class = InputClass::Uint8;
  GrayImage a, b;
  a.pixels = luma_values(test::make_clip_frame(kW, kH, 0, false));
  b.pixels = luma_values(test::make_clip_frame(kW, kH, 0, true));
  a.bit_depth = b.bit_depth = 8;
  BatchScorer scorer(image, ResolvedBackend(Backend::Cpu));
  EXPECT_EQ(r.summary.input_class, InputClass::Uint8);
  EXPECT_TRUE(same_bits(r.rows[0].mad, scorer.score_one(a, b).mad));
}

TEST(VideoScorer, SubsampleAndRangeAsVmaf) {
  auto ref = clip("ref", 10, false);
  auto dist = clip("dist", 10, true);
  VideoOptions o = cpu_options();
  o.subsample = 3;
  o.first_frame = 2;
  o.frame_count = 7;  // frames 2..8: scored 2, 5, 8
  const VideoRun r = run(o, *ref, *dist);
  ASSERT_EQ(r.rows.size(), 3u);
  EXPECT_EQ(r.rows[0].frame, 2);
  EXPECT_EQ(r.rows[1].frame, 5);
  EXPECT_EQ(r.rows[2].frame, 8);
  EXPECT_EQ(r.summary.frames_scored, 3);
  EXPECT_TRUE(r.summary.warnings.empty());
}

TEST(VideoScorer, FrameSelection) {
  VideoOptions o;
  o.subsample = 2;
  o.first_frame = 1;
  o.frame_count = 4;
  std::vector<std::int64_t> picked;
  for (std::int64_t t = 0; t < 10; ++t)
    if (frame_selected(o, t)) picked.push_back(t);
  EXPECT_EQ(picked, (std::vector<std::int64_t>{1, 3}));
  EXPECT_FALSE(range_ended(o, 4));
  EXPECT_TRUE(range_ended(o, 5));
  o.frame_count = -1;
  EXPECT_FALSE(range_ended(o, 1000000));
}

TEST(VideoScorer, ClipsOfDifferentLengthsScoreTheCommonFramesAndWarn) {
  auto ref = clip("ref.y4m", 5, false);
  auto dist = clip("dist.y4m", 3, true);
  const VideoRun r = run(cpu_options(), *ref, *dist);
  EXPECT_EQ(r.summary.frames_scored, 3);
  EXPECT_EQ(r.summary.ref_frames, 5);
  EXPECT_EQ(r.summary.dist_frames, 3);
  ASSERT_EQ(r.summary.warnings.size(), 1u);
  EXPECT_NE(r.summary.warnings[0].find("ref.y4m has 5 frames and dist.y4m has 3"),
            std::string::npos)
      << r.summary.warnings[0];
}

TEST(VideoScorer, ARangeEndingFirstStillWarnsWhenTheSizesDiffer) {
  auto ref = clip("ref", 6, false);
  auto dist = clip("dist", 4, true);
  ref->tell_length();
  dist->tell_length();
  VideoOptions o = cpu_options();
  o.frame_count = 2;
  const VideoRun r = run(o, *ref, *dist);
  EXPECT_EQ(r.summary.frames_scored, 2);
  EXPECT_EQ(r.summary.warnings.size(), 1u);
}

TEST(VideoScorer, MismatchedSizesAndDepthsAreInputErrors) {
  auto ref = clip("ref.y4m", 2, false);
  auto small = clip("small.y4m", 2, true, 40, 40);
  const std::string message = test::thrown_message<InputError>([&] { run(cpu_options(), *ref, *small); });
  EXPECT_NE(message.find("ref.y4m is 48x40"), std::string::npos) << message;
  EXPECT_NE(message.find("small.y4m is 40x40"), std::string::npos) << message;
  auto ref2 = clip("ref.y4m", 2, false);
  ClipFormat deep = test::gray8_format(kW, kH);
  deep.bit_depth = 10;
  test::MemoryClip ten("ten.y4m", deep, 2, [](int) {
    LumaFrame f;
    f.width = kW;
    f.height = kH;
    f.bit_depth = 10;
    f.samples16.assign(f.pixels(), 512);
    return f;
  });
  EXPECT_THROW(run(cpu_options(), *ref2, ten), InputError);
}

TEST(VideoScorer, ATruncatedFrameIsAnInputErrorAfterTheFramesBeforeIt) {
  auto ref = clip("ref", 6, false);
  auto dist = clip("dist", 6, true, kW, kH, /*truncated_at=*/3);
  std::vector<FrameRow> rows;
  VideoScorer scorer(cpu_options(), ResolvedBackend(Backend::Cpu));
  EXPECT_THROW(scorer.score(*ref, *dist, [&](const FrameRow& r) { rows.push_back(r); }),
               InputError);
  EXPECT_EQ(rows.size(), 3u);  // frames 0..2 were delivered (the logs keep them)
}

TEST(VideoScorer, ReadingRunsOnlyAFewFramesAhead) {
  // The reader may not hold the clip: frames handed out minus rows delivered stays small.
  auto ref = clip("ref", 40, false);
  auto dist = clip("dist", 40, true);
  std::int64_t ahead = 0, delivered = 0;
  VideoScorer scorer(cpu_options(), ResolvedBackend(Backend::Cpu));
  scorer.score(*ref, *dist, [&](const FrameRow&) {
    ++delivered;
    ahead = std::max(ahead, dist->frames_read() - delivered);
  });
  EXPECT_EQ(delivered, 40);
  EXPECT_LE(ahead, 8);
}

TEST(VideoScorer, NoFrameInTheRangeIsAnInputError) {
  auto ref = clip("ref", 3, false);
  auto dist = clip("dist", 3, true);
  VideoOptions o = cpu_options();
  o.first_frame = 5;
  EXPECT_THROW(run(o, *ref, *dist), InputError);
}

TEST(VideoScorer, OptionsThatCannotRunAreRefused) {
  const ResolvedBackend cpu(Backend::Cpu);
  VideoOptions o = cpu_options();
  o.stmad = true;
  o.score.input_class = InputClass::Uint8;
  EXPECT_NE(test::thrown_message<InvalidArgument>([&] { VideoScorer(o, cpu); }).find("--input-class"),
            std::string::npos);
  o = cpu_options();
  o.stmad = true;
  o.subsample = 2;
  EXPECT_THROW(VideoScorer(o, cpu), InvalidArgument);
  o = cpu_options();
  o.subsample = 0;
  EXPECT_THROW(VideoScorer(o, cpu), InvalidArgument);
  o = cpu_options();
  o.first_frame = -1;
  EXPECT_THROW(VideoScorer(o, cpu), InvalidArgument);
  o = cpu_options();
  o.frame_count = 0;
  EXPECT_THROW(VideoScorer(o, cpu), InvalidArgument);
}

// ST-MAD (the stmad helper's model) receives every frame and the scorer's indices: SMAD is
// defined, TMAD is not for a clip of fewer than 34 frames, and a note says why.
TEST(VideoScorer, StmadIsComputedWithTheRun) {
  auto ref = clip("ref", 4, false);
  auto dist = clip("dist", 4, true);
  VideoOptions o = cpu_options();
  o.stmad = true;
  const VideoRun r = run(o, *ref, *dist);
  ASSERT_TRUE(r.summary.stmad.has_value());
  EXPECT_EQ(r.summary.stmad->frames, 4);
  EXPECT_TRUE(std::isfinite(r.summary.stmad->smad));
  EXPECT_FALSE(r.summary.stmad->temporal);
  EXPECT_TRUE(std::isnan(r.summary.stmad->tmad));
  EXPECT_FALSE(r.summary.stmad->notes.empty());
  auto ref2 = clip("ref", 4, false);
  auto dist2 = clip("dist", 4, true);
  EXPECT_FALSE(run(cpu_options(), *ref2, *dist2).summary.stmad.has_value());
}

}  // namespace
}  // namespace mad
