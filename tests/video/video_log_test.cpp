// mad video's logs (mad/results/video_log.h), parsed back: vmaf's JSON shape (frames[].metrics,
// pooled_metrics, aggregate_metrics, fps) with nlohmann, the XML's elements and attributes, the
// CSV and its settings sidecar; frames written as they come; existing files and write failures.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "mad/results/results_settings.h"
#include "mad/results/video_log.h"
#include "tests/support/test_support.h"

namespace mad::results {
namespace {

namespace fs = std::filesystem;

class VideoLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::fresh_scratch_dir(std::string("mad_video_log_") +
                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string read(const std::string& name) const {
    std::ifstream in(dir_ / name, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  static VideoLogHead head() {
    VideoLogHead h;
    h.version = "mad test";
    h.ref = "ref \"a\".y4m";
    h.dist = "dist.y4m";
    h.width = 64;
    h.height = 48;
    h.pixel_format = "yuv420p";
    h.frame_rate = 25;
    h.metrics = {"mad", "mad_hi", "mad_lo"};
    return h;
  }
  static VideoLogEnd end() {
    VideoLogEnd e;
    e.pooled = {{"mad", {{"min", 1.5}, {"max", 2.5}, {"mean", 2}, {"harmonic_mean", 1.9},
                         {"p1", 1.51}, {"p5", 1.55}, {"p50", 2}, {"p95", 2.45}}}};
    e.aggregate = {{"mad", 2}, {"smad", 3.25}, {"tmad", NAN}, {"stmad", NAN}};
    e.notes = {"TMAD needs at least 34 frames"};
    e.frames_scored = 2;
    e.ref_frames = e.dist_frames = 2;
    e.fps = 12.5;
    e.seconds = 0.16;
    e.fps_after_first_frame = 20;
    e.seconds_to_first_frame = 0.11;
    e.settings = {{"mad_version", "2011"}, {"input_class", "double"}, {"stmad", "true"}};
    return e;
  }
  void write_log(VideoLogFormat format, const std::string& name) {
    VideoLog log(format, path(name), "--log", false);
    log.begin(head());
    log.frame(0, {1.5, 0.25, 3.0});
    log.frame(2, {2.5, 0.1 + 0.2, 4.0});
    log.end(end());
  }
  fs::path dir_;
};

TEST_F(VideoLogTest, JsonHasVmafsShape) {
  write_log(VideoLogFormat::Json, "log.json");
  const nlohmann::json j = nlohmann::json::parse(read("log.json"));
  ASSERT_EQ(j["frames"].size(), 2u);
  EXPECT_EQ(j["frames"][1]["frameNum"], 2);
  EXPECT_EQ(j["frames"][0]["metrics"]["mad"], 1.5);
  // 17 digits: the value read back is the double written, bit for bit.
  EXPECT_EQ(j["frames"][1]["metrics"]["mad_hi"].get<double>(), 0.1 + 0.2);
  EXPECT_EQ(j["frames"][1]["metrics"]["mad_lo"], 4.0);
  for (const char* stat : {"min", "max", "mean", "harmonic_mean", "p1", "p5", "p50", "p95"})
    EXPECT_TRUE(j["pooled_metrics"]["mad"].contains(stat)) << stat;
  EXPECT_EQ(j["pooled_metrics"]["mad"]["p95"], 2.45);
  EXPECT_EQ(j["aggregate_metrics"]["smad"], 3.25);
  EXPECT_TRUE(j["aggregate_metrics"]["tmad"].is_null());  // NaN is null, as vmaf writes it
  EXPECT_EQ(j["smad"], 3.25);
  EXPECT_TRUE(j["stmad"].is_null());
  EXPECT_EQ(j["fps"], 12.5);
  EXPECT_EQ(j["fps_after_first_frame"], 20);
  EXPECT_EQ(j["seconds_to_first_frame"], 0.11);
  EXPECT_EQ(j["params"]["qualityWidth"], 64);
  EXPECT_EQ(j["params"]["ref"], "ref \"a\".y4m");
  EXPECT_EQ(j["params"]["frameRate"], 25);
  EXPECT_EQ(j["settings"]["stmad"], "true");
  EXPECT_EQ(j["notes"][0], "TMAD needs at least 34 frames");
}

TEST_F(VideoLogTest, XmlHasVmafsElements) {
  write_log(VideoLogFormat::Xml, "log.xml");
  const std::string x = read("log.xml");
  EXPECT_EQ(x.rfind("<VMAF version=\"mad test\"", 0), 0u) << x;
  EXPECT_NE(x.find("ref=\"ref &quot;a&quot;.y4m\""), std::string::npos) << x;
  const std::regex frame("<frame frameNum=\"(\\d+)\" mad=\"([^\"]+)\" mad_hi=\"[^\"]+\" "
                         "mad_lo=\"([^\"]+)\" />");
  std::vector<std::smatch> frames;
  for (auto it = std::sregex_iterator(x.begin(), x.end(), frame); it != std::sregex_iterator();
       ++it)
    frames.push_back(*it);
  ASSERT_EQ(frames.size(), 2u) << x;
  EXPECT_EQ(frames[1][1], "2");
  EXPECT_EQ(std::stod(frames[1][2]), 2.5);
  EXPECT_NE(x.find("<metric name=\"mad\" min=\"1.5\" max=\"2.5\""), std::string::npos) << x;
  EXPECT_NE(x.find("<aggregate_metrics mad=\"2\" smad=\"3.25\" tmad=\"null\""),
            std::string::npos)
      << x;
  EXPECT_NE(x.find("<fyi fps=\"12.5\""), std::string::npos) << x;
  EXPECT_NE(x.find("fps_after_first_frame=\"20\" seconds_to_first_frame=\"0.11\""), std::string::npos) << x;
  EXPECT_NE(x.find("</VMAF>\n"), std::string::npos);
}

TEST_F(VideoLogTest, CsvHasOneLinePerFrameAndItsSettingsBeside) {
  write_log(VideoLogFormat::Csv, "log.csv");
  EXPECT_EQ(read("log.csv"), "Frame,mad,mad_hi,mad_lo\n0,1.5,0.25,3\n2,2.5,"
                             "0.30000000000000004,4\n");
  const auto settings = read_settings(path("log.csv"));
  ASSERT_TRUE(settings.has_value());
  EXPECT_EQ(settings->mad_version, "2011");
  EXPECT_EQ(settings->more_scoring.at("stmad"), "true");
}

TEST_F(VideoLogTest, FramesAreOnDiskAsSoonAsTheyAreWritten) {
  VideoLog log(VideoLogFormat::Csv, path("log.csv"), "--csv", false);
  log.begin(head());
  log.frame(0, {1, 2, 3});
  // Before the end: a run stopped now keeps this frame.
  EXPECT_EQ(read("log.csv"), "Frame,mad,mad_hi,mad_lo\n0,1,2,3\n");
}

TEST_F(VideoLogTest, AnExistingFileIsRefusedWithoutForce) {
  std::ofstream(path("log.json")) << "keep";
  const std::string message = test::thrown_message<InvalidArgument>(
      [&] { VideoLog(VideoLogFormat::Json, path("log.json"), "--json", false); });
  EXPECT_NE(message.find("--json"), std::string::npos) << message;
  EXPECT_NE(message.find("--force"), std::string::npos) << message;
  EXPECT_EQ(read("log.json"), "keep");
  VideoLog(VideoLogFormat::Json, path("log.json"), "--json", true);
  EXPECT_EQ(read("log.json"), "");
}

TEST_F(VideoLogTest, WriteFailuresNameTheSystemsReason) {
  const std::string missing = test::thrown_message<InputError>(
      [&] { VideoLog(VideoLogFormat::Json, path("no/such/dir/log.json"), "--json", false); });
  EXPECT_NE(missing.find("No such file or directory"), std::string::npos) << missing;
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  const std::string full = test::thrown_message<InputError>([&] {
    VideoLog log(VideoLogFormat::Csv, "/dev/full", "--csv", true);
    log.begin(head());
  });
  EXPECT_NE(full.find("No space left on device"), std::string::npos) << full;
}

TEST(VideoLogNumber, RoundTripsAndWritesNullForNonFinite) {
  EXPECT_EQ(log_number(0.1), "0.10000000000000001");
  EXPECT_EQ(log_number(NAN), "null");
  EXPECT_EQ(log_number(INFINITY), "null");
  EXPECT_EQ(std::stod(log_number(1.0 / 3)), 1.0 / 3);
}

}  // namespace
}  // namespace mad::results
