// `mad video` as users run it (issue 40): rows equal to `mad score --input-class double` on a
// frame's luma, standard input and a FIFO, raw files, every video option's effect and refusal,
// the logs on files and on standard output, existing and unwritable logs, mismatched clips,
// clips of different lengths, no progress bar off a terminal, and a real client: ffmpeg piping
// an encode into `mad video` (skipped where ffmpeg is not installed).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/tools/cli_scratch.h"
#include "tests/video/video_test_clips.h"

namespace mad {
namespace {

using test::exits_saying;
using test::has;

constexpr int kW = 48, kH = 40, kFrames = 5;

class CliVideo : public test::CliScratch {
 protected:
  void SetUp() override {
    CliScratch::SetUp();
    ref_ = test::clip_frames(kW, kH, kFrames, false);
    dist_ = test::clip_frames(kW, kH, kFrames, true);
    test::write_clip(file("ref.y4m"), ref_, true);
    test::write_clip(file("dist.y4m"), dist_, true);
    test::write_clip(file("ref.yuv"), ref_, false);
    test::write_clip(file("dist.yuv"), dist_, false);
    test::write_clip(file("short.y4m"), test::clip_frames(kW, kH, 3, true), true);
    test::write_clip(file("small.y4m"), test::clip_frames(40, 40, kFrames, true), true);
  }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }
  // The CSV log's rows as (frame, mad, hi, lo) texts, header dropped.
  std::vector<std::vector<std::string>> rows(const std::string& name) const {
    auto all = csv_rows_without(name, "");
    if (!all.empty()) all.erase(all.begin());
    return all;
  }
  std::vector<std::string> frames(const std::string& name) const {
    std::vector<std::string> out;
    for (const auto& r : rows(name)) out.push_back(r.at(0));
    return out;
  }
  std::vector<LumaFrame> ref_, dist_;
};

TEST_F(CliVideo, EachRowIsMadScoreInDoubleOnThatFramesLuma) {
  const auto run = mad("video ref.y4m dist.y4m --backend cpu --csv rows.csv");
  ASSERT_EQ(run.exit_code, 0) << run.out;
  const auto r = rows("rows.csv");
  ASSERT_EQ(r.size(), static_cast<std::size_t>(kFrames));
  bool some_hi = false;
  for (int t : {0, 3}) {
    test::write_pgm(file("r.pgm"), ref_[t]);
    test::write_pgm(file("d.pgm"), dist_[t]);
    const auto one = mad_stdout("score r.pgm d.pgm --input-class double --backend cpu --json");
    ASSERT_EQ(one.exit_code, 0) << one.out;
    const auto j = nlohmann::json::parse(one.out);
    EXPECT_EQ(std::stod(r[t][1]), j["mad"].get<double>()) << t;
    EXPECT_EQ(std::stod(r[t][2]), j["hi"].get<double>()) << t;
    EXPECT_EQ(std::stod(r[t][3]), j["lo"].get<double>()) << t;
    some_hi = some_hi || j["hi"].get<double>() > 0;
  }
  EXPECT_TRUE(some_hi) << "the clip's distortion should be visible";
  // The summary: frames and the pooled MAD, on standard output.
  EXPECT_TRUE(has(run.out, "frames 5 scored (ref 5, dist 5)")) << run.out;
  EXPECT_TRUE(has(run.out, "MAD     mean ")) << run.out;
}

TEST_F(CliVideo, JsonOnStandardOutputParsesAndTheSummaryGoesToStderr) {
  const auto run = mad_stdout("video ref.y4m dist.y4m --backend cpu --json -");
  ASSERT_EQ(run.exit_code, 0) << run.out;
  const auto j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j["frames"].size(), static_cast<std::size_t>(kFrames));
  EXPECT_EQ(j["frames"][4]["frameNum"], 4);
  EXPECT_TRUE(j["frames"][0]["metrics"].contains("mad_lo"));
  EXPECT_TRUE(j["pooled_metrics"]["mad"].contains("harmonic_mean"));
  EXPECT_TRUE(j["pooled_metrics"]["mad"].contains("p95"));
  EXPECT_EQ(j["params"]["frameRate"], 25);
  EXPECT_EQ(j["settings"]["input_class"], "double");
  EXPECT_EQ(mad("video ref.y4m dist.y4m --backend cpu --json - --csv -").exit_code, 2);
}

TEST_F(CliVideo, StandardInputAndANamedPipeGiveTheFilesRows) {
  ASSERT_EQ(mad("video ref.y4m dist.y4m --backend cpu --csv files.csv").exit_code, 0);
  const auto piped = test::run_command("cd '" + dir_.string() + "' && cat dist.y4m | " +
                                       MAD_BINARY + " video ref.y4m - --backend cpu --csv "
                                       "stdin.csv 2>&1");
  ASSERT_EQ(piped.exit_code, 0) << piped.out;
  EXPECT_EQ(rows("stdin.csv"), rows("files.csv"));
  const auto fifo = test::run_command("cd '" + dir_.string() + "' && mkfifo clip.fifo && "
                                      "(cat ref.y4m > clip.fifo &) && " + MAD_BINARY +
                                      " video clip.fifo dist.y4m --backend cpu --csv fifo.csv "
                                      "2>&1");
  ASSERT_EQ(fifo.exit_code, 0) << fifo.out;
  EXPECT_EQ(rows("fifo.csv"), rows("files.csv"));
  EXPECT_TRUE(exits_saying(mad("video - - --backend cpu"), 2, {"only one of REF and DIST"}));
}

TEST_F(CliVideo, RawFilesWithTheirFormatGiveTheY4mRows) {
  ASSERT_EQ(mad("video ref.y4m dist.y4m --backend cpu --csv y4m.csv").exit_code, 0);
  const auto raw = mad("video ref.yuv dist.yuv --backend cpu --width 48 --height 40 "
                       "--pixel-format yuv420p --csv raw.csv");
  ASSERT_EQ(raw.exit_code, 0) << raw.out;
  EXPECT_EQ(rows("raw.csv"), rows("y4m.csv"));
  EXPECT_TRUE(exits_saying(mad("video ref.yuv dist.yuv --backend cpu --width 48"), 2,
                           {"--height and --pixel-format missing"}));
  // A Y4M clip carries its own format: --width and the others are refused there.
  EXPECT_EQ(mad("video ref.y4m dist.y4m --backend cpu --width 48 --height 40 "
                "--pixel-format yuv420p")
                .exit_code,
            2);
  EXPECT_EQ(mad("video ref.yuv dist.yuv --backend cpu").exit_code, 2);
}

TEST_F(CliVideo, SubsampleAndRangeChooseTheFrames) {
  ASSERT_EQ(mad("video ref.y4m dist.y4m --backend cpu --csv all.csv").exit_code, 0);
  ASSERT_EQ(mad("video ref.y4m dist.y4m --backend cpu --subsample 2 --csv sub.csv").exit_code, 0);
  EXPECT_EQ(frames("sub.csv"), (std::vector<std::string>{"0", "2", "4"}));
  ASSERT_EQ(mad("video ref.y4m dist.y4m --backend cpu --first-frame 1 --frame-count 2 --csv "
                "range.csv")
                .exit_code,
            0);
  EXPECT_EQ(frames("range.csv"), (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(rows("range.csv")[0], rows("all.csv")[1]);  // the same frame, the same row
  EXPECT_EQ(mad("video ref.y4m dist.y4m --subsample 0").exit_code, 2);
  EXPECT_EQ(mad("video ref.y4m dist.y4m --frame-count 0").exit_code, 2);
  EXPECT_EQ(mad("video ref.y4m dist.y4m --first-frame -1").exit_code, 2);
  const auto settings = read("all.csv.settings");
  EXPECT_TRUE(has(settings, "subsample=1")) << settings;
  EXPECT_TRUE(has(read("sub.csv.settings"), "subsample=2"));
}

TEST_F(CliVideo, ScoringOptionsTakeEffectAndVideoOptionsAreVideos) {
  ASSERT_EQ(mad("video ref.y4m dist.y4m --backend cpu --csv a.csv").exit_code, 0);
  ASSERT_EQ(mad("video ref.y4m dist.y4m --backend cpu --mad-version 2010 --csv b.csv").exit_code,
            0);
  EXPECT_NE(rows("a.csv"), rows("b.csv"));
  EXPECT_TRUE(has(read("b.csv.settings"), "mad_version=2010"));
  // The image command does not take the video rows.
  EXPECT_EQ(mad("score ref.png dist.png --subsample 2").exit_code, 2);
  EXPECT_EQ(mad("eval data --stmad").exit_code, 2);
}

TEST_F(CliVideo, StmadPrintsItsFiguresAndNeedsDouble) {
  EXPECT_TRUE(exits_saying(mad("video ref.y4m dist.y4m --backend cpu --stmad --input-class uint8"),
                           2, {"--stmad needs --input-class double"}));
  EXPECT_EQ(mad("video ref.y4m dist.y4m --backend cpu --stmad --subsample 2").exit_code, 2);
  const auto run = mad("video ref.y4m dist.y4m --backend cpu --stmad --json st.json");
  ASSERT_EQ(run.exit_code, 0) << run.out;
  EXPECT_TRUE(has(run.out, "SMAD ")) << run.out;
  EXPECT_TRUE(has(run.out, "TMAD   not defined")) << run.out;  // 5 frames: fewer than 34
  const auto j = nlohmann::json::parse(read("st.json"));
  EXPECT_TRUE(j["smad"].is_number());
  EXPECT_TRUE(j["tmad"].is_null());
  EXPECT_TRUE(j["aggregate_metrics"].contains("stmad"));
  EXPECT_EQ(j["settings"]["stmad"], "true");
}

TEST_F(CliVideo, ExistingLogsAreRefusedWithoutForceAndWriteErrorsSayWhy) {
  write("log.json", "keep");
  EXPECT_TRUE(
      exits_saying(mad("video ref.y4m dist.y4m --backend cpu --json log.json"), 2, {"--force"}));
  EXPECT_EQ(read("log.json"), "keep");
  EXPECT_EQ(mad("video ref.y4m dist.y4m --backend cpu --json log.json --force").exit_code, 0);
  EXPECT_NO_THROW(nlohmann::json::parse(read("log.json")));
  EXPECT_TRUE(exits_saying(mad("video ref.y4m dist.y4m --backend cpu --xml no/dir/log.xml"), 3,
                           {"No such file or directory"}));
  EXPECT_TRUE(exits_saying(mad("video ref.y4m dist.y4m --backend cpu --csv /dev/full --force"), 3,
                           {"No space left on device"}));
}

TEST_F(CliVideo, MismatchedClipsAreInputErrorsAndDifferentLengthsWarn) {
  EXPECT_TRUE(exits_saying(mad("video ref.y4m small.y4m --backend cpu"), 3, {"same size"}));
  EXPECT_TRUE(exits_saying(mad("video ref.y4m short.y4m --backend cpu --csv short.csv"), 0,
                           {"warning: ref.y4m has 5 frames and short.y4m has 3"}));
  EXPECT_EQ(rows("short.csv").size(), 3u);
  EXPECT_EQ(mad("video ref.y4m missing.y4m --backend cpu").exit_code, 3);
}

TEST_F(CliVideo, NoProgressBarOffATerminal) {
  const auto run = mad("video ref.y4m dist.y4m --backend cpu");
  ASSERT_EQ(run.exit_code, 0) << run.out;
  EXPECT_FALSE(has(run.out, "\r")) << run.out;
  EXPECT_FALSE(has(run.out, "ETA")) << run.out;
}

// On a terminal (script(1) gives the run one) the bar counts the frames of a clip read from a
// pipe, whose length is not known, with the rate and without a made-up total ("5/0"); a file's
// length is known, and its bar shows "5/5".
TEST_F(CliVideo, ProgressOnATerminalCountsAPipeWithoutATotal) {
  if (test::run_command("command -v script").exit_code != 0)
    GTEST_SKIP() << "script(1) is not installed";
  const auto on_terminal = [&](const std::string& command) {
    return test::run_command("cd '" + dir_.string() + "' && script -qec \"" + command +
                             "\" /dev/null");
  };
  const auto pipe = on_terminal(std::string("cat dist.y4m | ") + MAD_BINARY +
                                " video ref.y4m - --backend cpu");
  ASSERT_EQ(pipe.exit_code, 0) << pipe.out;
  EXPECT_TRUE(has(pipe.out, "5 done")) << pipe.out;
  EXPECT_TRUE(has(pipe.out, "frames/s  ")) << pipe.out;
  EXPECT_FALSE(has(pipe.out, "/0 ")) << pipe.out;
  const auto files =
      on_terminal(std::string(MAD_BINARY) + " video ref.y4m dist.y4m --backend cpu");
  ASSERT_EQ(files.exit_code, 0) << files.out;
  EXPECT_TRUE(has(files.out, "5/5")) << files.out;
  EXPECT_FALSE(has(on_terminal(std::string("cat dist.y4m | ") + MAD_BINARY +
                               " video ref.y4m - --backend cpu --quiet")
                       .out,
                   "done"));
}

// A stopped run keeps the frames written and says where they are. The distorted clip's pipe
// stays open after its frames, so the run waits there with every frame scored until killed.
TEST_F(CliVideo, AStoppedRunKeepsItsFramesAndSaysWhere) {
  const auto run = test::run_command(
      "cd '" + dir_.string() + "' && { (cat dist.y4m; sleep 4) 2>/dev/null | " + MAD_BINARY +
      " video ref.y4m - --backend cpu --csv kept.csv > out.txt 2>&1 & pid=$!; sleep 2; "
      "kill -TERM $pid; wait $pid; cat out.txt; }");
  EXPECT_TRUE(has(run.out, "interrupted: the frames scored so far are in kept.csv")) << run.out;
  EXPECT_EQ(rows("kept.csv").size(), static_cast<std::size_t>(kFrames));
}

// Item 7: a real client. ffmpeg encodes testsrc2, decodes it into `mad video` through a pipe,
// and the same frames written as raw files give the same frame count and pooled figures.
TEST_F(CliVideo, FfmpegPipesAnEncodeIntoMadVideo) {
  if (std::system("ffmpeg -version > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "ffmpeg is not installed (apt install ffmpeg runs this test)";
  const auto start = std::chrono::steady_clock::now();
  const std::string ff = "ffmpeg -nostdin -v error -y ";
  const auto made = test::run_command(
      "cd '" + dir_.string() + "' && " + ff +
      "-f lavfi -i testsrc2=size=128x96:rate=25 -frames:v 12 -pix_fmt yuv420p src.y4m && " + ff +
      "-i src.y4m -c:v mpeg4 -q:v 25 enc.avi && " + ff +
      "-i src.y4m -f rawvideo -pix_fmt yuv420p src.yuv && " + ff +
      "-i enc.avi -f rawvideo -pix_fmt yuv420p enc.yuv 2>&1");
  ASSERT_EQ(made.exit_code, 0) << made.out;
  const auto piped = test::run_command(
      "cd '" + dir_.string() + "' && " + ff + "-i enc.avi -f yuv4mpegpipe - | " + MAD_BINARY +
      " video src.y4m - --backend cpu --json piped.json 2>&1");
  ASSERT_EQ(piped.exit_code, 0) << piped.out;
  const auto raw = mad("video src.yuv enc.yuv --backend cpu --width 128 --height 96 "
                       "--pixel-format yuv420p --json raw.json");
  ASSERT_EQ(raw.exit_code, 0) << raw.out;
  const auto p = nlohmann::json::parse(read("piped.json"));
  const auto r = nlohmann::json::parse(read("raw.json"));
  EXPECT_EQ(p["frames_scored"], 12);
  EXPECT_EQ(r["frames_scored"], 12);
  EXPECT_EQ(p["pooled_metrics"], r["pooled_metrics"]);
  EXPECT_GT(p["pooled_metrics"]["mad_lo"]["mean"].get<double>(), 0);
  std::printf("[ ffmpeg test: %.2f s ]\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

}  // namespace
}  // namespace mad
