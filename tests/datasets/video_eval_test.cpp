// `mad eval --dataset video` as library code (datasets/video_eval.h): a manifest of clip pairs
// with subjective scores, each pair's row in a results file of the video kind, the chosen
// figure correlated by the datasets' statistics; --resume reuses the rows; a figure a short clip
// does not define is left out with a note; raw clips take their format from the manifest.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "common/error.h"
#include "datasets/video_eval.h"
#include "mad/results/csv.h"
#include "mad/results/video_results.h"
#include "tests/support/luma_clip.h"
#include "tests/support/stmad_example_clip.h"
#include "tests/support/test_support.h"

namespace mad::datasets {
namespace {
namespace fs = std::filesystem;

constexpr int kW = 48, kH = 40, kFrames = 3;

// A reference clip and its copy with noise of amplitude `noise` added.
std::vector<LumaFrame> clip(unsigned seed, int noise) {
  std::mt19937 rng(seed);
  return test::luma_clip8(kW, kH, kFrames, [&](std::size_t i) {
    const int smooth = static_cast<int>(64 + (i % kW) * 2 + (i / kW));
    const int n = noise ? static_cast<int>(rng() % (2 * noise + 1)) - noise : 0;
    return static_cast<std::uint8_t>(std::clamp(smooth + n, 0, 255));
  });
}

class VideoEval : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::fresh_scratch_dir("mad_video_eval");
    const std::string header = "YUV4MPEG2 W48 H40 F25:1 Ip A1:1 C420jpeg";
    test::write_y4m420(at("ref.y4m"), clip(1, 0), header);
    std::string manifest = "# higher_is_better: true\nref,dist,mos,width,height,pixel_format\n";
    const int noise[] = {20, 45, 80, 120};
    for (int k = 0; k < 4; ++k) {
      const std::string name = "d" + std::to_string(k) + ".y4m";
      test::write_y4m420(at(name), clip(10 + k, noise[k]), header);
      manifest += "ref.y4m," + name + "," + std::to_string(90 - 20 * k) + ",,,\n";
    }
    // One pair of raw files: the same frames as ref.y4m and d1.y4m.
    test::write_yuv420p(at("ref.yuv"), clip(1, 0));
    test::write_yuv420p(at("d1.yuv"), clip(11, 45));
    manifest += "ref.yuv,d1.yuv,70,48,40,yuv420p\n";
    std::ofstream(at("videos.csv")) << manifest;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string at(const std::string& name) const { return (dir_ / name).string(); }
  VideoEvalConfig config(const std::string& figure) const {
    VideoEvalConfig c(choose_backend(Backend::Cpu));
    c.dir = dir_.string();
    c.manifest = at("videos.csv");
    c.figure = figure;
    c.out = at("results.csv");
    c.bootstrap.resamples = 50;
    c.log = nullptr;
    return c;
  }
  // The results file's column `name`, row by row.
  std::vector<std::string> column(const std::string& name) const {
    std::ifstream in(at("results.csv"));
    std::vector<std::string> out;
    std::string line;
    std::getline(in, line);
    const auto header = results::split_csv_line(line);
    const auto c = std::find(header.begin(), header.end(), name) - header.begin();
    while (std::getline(in, line)) out.push_back(results::split_csv_line(line)[c]);
    return out;
  }
  fs::path dir_;
};

TEST_F(VideoEval, TheChosenFigureIsCorrelatedWithTheScores) {
  const EvalReport r = run_video_evaluation(config("mad_mean"));
  EXPECT_EQ(r.dataset, "video");
  EXPECT_EQ(r.counts.scored_now, 5u);
  EXPECT_EQ(r.counts.failed_now, 0u);
  ASSERT_TRUE(r.have_stats);
  ASSERT_EQ(r.points.size(), 5u);
  const auto means = column("mad_mean");
  ASSERT_EQ(means.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(r.points[i].mad, std::stod(means[i])) << i;
  // More noise, more MAD: the figure ranks the pairs as the scores do.
  EXPECT_LT(r.points[0].mad, r.points[1].mad);
  EXPECT_LT(r.points[2].mad, r.points[3].mad);
  // The raw pair holds the Y4M pair's frames: the same figure, read in its columns' format.
  EXPECT_EQ(r.points[4].mad, r.points[1].mad);
  EXPECT_EQ(column("pixel_format")[4], "yuv420p");
  // Another figure picks another column of the same rows.
  fs::remove(at("results.csv"));
  const EvalReport p95 = run_video_evaluation(config("mad_p95"));
  ASSERT_EQ(p95.points.size(), 5u);
  EXPECT_EQ(p95.points[2].mad, std::stod(column("mad_p95")[2]));
}

TEST_F(VideoEval, ResumeReusesTheRowsAndRefusesOtherSettings) {
  run_video_evaluation(config("mad_mean"));
  VideoEvalConfig c = config("mad_max");
  c.resume = true;
  const EvalReport r = run_video_evaluation(c);
  EXPECT_EQ(r.counts.finished_before, 5u);
  EXPECT_EQ(r.counts.scored_now, 0u);
  ASSERT_EQ(r.points.size(), 5u);
  EXPECT_EQ(r.points[3].mad, std::stod(column("mad_max")[3]));
  c.video.subsample = 2;  // the figures would differ: refused
  EXPECT_THROW(run_video_evaluation(c), InvalidArgument);
}

TEST_F(VideoEval, LimitScoresAtMostNNewPairsAndResumeScoresTheRest) {
  VideoEvalConfig c = config("mad_mean");
  c.limit = 2;
  std::string told;
  c.on_results_file = [&](const std::string& path) { told = path; };
  const EvalReport first = run_video_evaluation(c);
  EXPECT_EQ(told, at("results.csv")) << "the interrupt report needs the results file";
  EXPECT_EQ(first.counts.scored_now, 2u);
  EXPECT_EQ(first.counts.not_run, 3u);
  EXPECT_EQ(column("mad_mean").size(), 2u);
  EXPECT_EQ(first.points.size(), 2u) << "pairs not run are out of the statistics";
  for (const std::string& note : first.notes)
    EXPECT_EQ(note.find("have no"), std::string::npos)
        << "pairs not run are not pairs without the figure: " << note;
  c.resume = true;
  c.limit = 0;
  const EvalReport rest = run_video_evaluation(c);
  EXPECT_EQ(rest.counts.finished_before, 2u);
  EXPECT_EQ(rest.counts.scored_now, 3u);
  EXPECT_EQ(rest.counts.not_run, 0u);
  ASSERT_EQ(rest.points.size(), 5u);
  fs::remove(at("results.csv"));
  const EvalReport whole = run_video_evaluation(config("mad_mean"));
  ASSERT_EQ(whole.points.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(rest.points[i].mad, whole.points[i].mad) << i;
}

TEST_F(VideoEval, AFigureAShortClipDoesNotDefineIsLeftOutWithANote) {
  const EvalReport r = run_video_evaluation(config("tmad"));  // 3 frames: TMAD needs 34
  EXPECT_EQ(r.counts.scored_now, 5u);
  EXPECT_TRUE(r.points.empty());
  EXPECT_FALSE(r.have_stats);
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes.back().find("34 frames"), std::string::npos) << r.notes.back();
  EXPECT_EQ(column("tmad")[0], "");
}

TEST_F(VideoEval, AnStmadFigureTurnsStmadOn) {
  // SMAD is defined at any length: --figure smad runs the ST-MAD model without --stmad.
  const EvalReport r = run_video_evaluation(config("smad"));
  ASSERT_EQ(r.points.size(), 5u);
  for (const auto& p : r.points) EXPECT_TRUE(std::isfinite(p.mad) && p.mad > 0) << p.mad;
  EXPECT_EQ(r.points[0].mad, std::stod(column("smad")[0]));
}

TEST_F(VideoEval, BadFiguresAndManifestsAreRefused) {
  EXPECT_THROW(run_video_evaluation(config("mos")), InvalidArgument);
  std::ofstream(at("videos.csv"), std::ios::app) << "ref.yuv,d1.yuv,50,48,40,yuv9000\n";
  try {
    run_video_evaluation(config("mad_mean"));
    FAIL() << "a bad pixel format was taken";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("videos.csv:8"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(at("results.csv")));  // refused before the results file was made
}

}  // namespace
}  // namespace mad::datasets
