// `mad eval DIR --dataset video` as users run it: --limit scores the first N new clip pairs and
// says how many are left, --resume finishes them; Ctrl-C says how many rows the results file
// kept and to run the command again with --resume (issue 39's message); a progress bar on a
// terminal; every option the video evaluation does not honour is refused with exit 2.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/tools/cli_scratch.h"
#include "tests/video/video_test_clips.h"

namespace mad {
namespace {

using test::has;

constexpr int kW = 48, kH = 40, kFrames = 3;

class CliVideoEval : public test::CliScratch {
 protected:
  void SetUp() override {
    CliScratch::SetUp();
    test::write_clip(file("ref.y4m"), test::clip_frames(kW, kH, kFrames, false), true);
    std::string manifest = "# higher_is_better: true\nref,dist,mos\n";
    for (int k = 0; k < 4; ++k) {
      auto frames = test::clip_frames(kW, kH, kFrames, true);
      for (LumaFrame& f : frames)  // a stronger distortion for each pair
        for (std::size_t i = 0; i < f.samples8.size(); i += 3 + k)
          f.samples8[i] = static_cast<std::uint8_t>(255 - f.samples8[i]);
      test::write_clip(file("d" + std::to_string(k) + ".y4m"), frames, true);
      manifest += "ref.y4m,d" + std::to_string(k) + ".y4m," + std::to_string(90 - 20 * k) + "\n";
    }
    write("videos.csv", manifest);
  }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }
  static constexpr const char* kEval =
      "eval . --dataset video --manifest videos.csv --figure mad_mean --backend cpu "
      "--out results.csv";
};

TEST_F(CliVideoEval, LimitScoresTheFirstPairsAndResumeTheRest) {
  const auto first = mad(std::string(kEval) + " --limit 1");
  EXPECT_EQ(first.exit_code, 0) << first.out;
  EXPECT_TRUE(has(first.out, "3 pair(s) not run (--limit); continue with --resume")) << first.out;
  EXPECT_EQ(lines("results.csv").size(), 2u) << "the header and one row";
  const auto rest = mad(std::string(kEval) + " --resume");
  EXPECT_EQ(rest.exit_code, 0) << rest.out;
  EXPECT_FALSE(has(rest.out, "not run (--limit)")) << rest.out;
  EXPECT_EQ(lines("results.csv").size(), 5u);
  EXPECT_EQ(mad(std::string(kEval) + " --limit 0").exit_code, 2);
}

// The second pair's clip is a named pipe that no one writes: the run waits there, with the
// first pair's row written, until it is stopped (SIGTERM, a scheduler's stop, which says the
// same as Ctrl-C; a background job of a script ignores SIGINT). A run that ignored it would be
// killed after 10 s.
TEST_F(CliVideoEval, AnInterruptSaysWhatWasKeptAndToResume) {
  ASSERT_EQ(test::run_command("rm '" + file("d1.y4m") + "' && mkfifo '" + file("d1.y4m") + "'")
                .exit_code,
            0);
  const auto run = test::run_command(
      "cd '" + dir_.string() + "' && { " + MAD_BINARY + " " + kEval +
      " > out.txt 2>&1 & pid=$!; sleep 2; kill -TERM $pid; (sleep 10; kill -KILL $pid) "
      ">/dev/null 2>&1 & killer=$!; wait $pid; kill $killer; cat out.txt; }");
  EXPECT_TRUE(has(run.out,
                  "mad: interrupted: 1 row kept in results.csv; run the same command with "
                  "--resume"))
      << run.out;
}

// On a terminal (script(1) gives the run one) a bar counts the clip pairs this run scores, as
// the image datasets' runs show theirs; --quiet drops it.
TEST_F(CliVideoEval, ABarCountsTheClipPairsOnATerminal) {
  if (test::run_command("command -v script").exit_code != 0)
    GTEST_SKIP() << "script(1) is not installed";
  const auto on_terminal = [&](const std::string& args) {
    return test::run_command("cd '" + dir_.string() + "' && script -qec \"" + MAD_BINARY + " " +
                             kEval + args + "\" /dev/null");
  };
  const auto run = on_terminal(" --limit 2");
  EXPECT_EQ(run.exit_code, 0) << run.out;
  EXPECT_TRUE(has(run.out, "2/2")) << run.out;
  EXPECT_TRUE(has(run.out, "clips/s")) << run.out;
  EXPECT_FALSE(has(on_terminal(" --resume --quiet").out, "clips/s"));
}

TEST_F(CliVideoEval, OptionsItDoesNotHonourAreRefused) {
  for (const char* option : {"--shard 1/2", "--gpus 1", "--workers-per-gpu 2", "--cpu-workers 2",
                             "--decode-threads 2"}) {
    const auto run = mad(std::string(kEval) + " " + option);
    EXPECT_EQ(run.exit_code, 2) << option << "\n" << run.out;
    EXPECT_TRUE(has(run.out, "is not available with --dataset video")) << option << run.out;
  }
  // mad video's own rows are not eval's options: the command line refuses them.
  for (const char* option : {"--stmad", "--subsample 2", "--first-frame 1", "--frame-count 2",
                             "--width 48", "--pixel-format yuv420p"})
    EXPECT_EQ(mad(std::string(kEval) + " " + option).exit_code, 2) << option;
}

TEST_F(CliVideoEval, ThreadsAreRefusedOnTheCudaBackend) {
  MAD_REQUIRE_GPU();
  const auto run = mad("eval . --dataset video --manifest videos.csv --figure mad_mean "
                       "--backend cuda --threads 2 --out results.csv");
  EXPECT_EQ(run.exit_code, 2) << run.out;
  EXPECT_TRUE(has(run.out, "drop --threads")) << run.out;
}

}  // namespace
}  // namespace mad
