// The video rows of the option table (mad/scoring_options.h) and how mad/video reads them:
// each option takes effect, bad values are refused, the settings record carries their keys,
// and only `mad video` (and Python's mad.video) takes them.
#include <gtest/gtest.h>

#include <algorithm>

#include "common/error.h"
#include "mad/scoring_options.h"
#include "mad/video/video_scorer.h"
#include "tests/support/given_options.h"
#include "tests/support/test_support.h"

namespace mad {
namespace {

using test::given;

std::string setting(const VideoOptions& o, const std::string& key) {
  for (const auto& [k, v] : video_settings(o, Backend::Cpu))
    if (k == key) return v;
  return "(missing)";
}

TEST(VideoOptions, EachVideoOptionTakesEffect) {
  const VideoOptions o = video_options(given({{"--stmad", "true"},
                                              {"--subsample", "3"},
                                              {"--first-frame", "7"},
                                              {"--frame-count", "20"},
                                              {"--input-class", "double"},
                                              {"--mad-version", "2010"}}));
  EXPECT_TRUE(o.stmad);
  EXPECT_EQ(o.subsample, 3);
  EXPECT_EQ(o.first_frame, 7);
  EXPECT_EQ(o.frame_count, 20);
  EXPECT_EQ(o.score.input_class, InputClass::Double);
  EXPECT_EQ(o.score.version, MadVersion::V2010);
  const VideoOptions d = video_options({});
  EXPECT_FALSE(d.stmad);
  EXPECT_EQ(d.subsample, 1);
  EXPECT_EQ(d.first_frame, 0);
  EXPECT_EQ(d.frame_count, -1);
}

TEST(VideoOptions, ValuesOutsideTheRowsRangeAreRefused) {
  // The CLI checks ranges as it reads them; Python passes text that reaches these checks.
  test::expect_each_refused(
      [](const GivenOptions& g) { video_options(g); },
      {"--subsample=0", "--subsample=two", "--first-frame=-1", "--frame-count=0", "--stmad=maybe"});
}

TEST(VideoOptions, SettingsRecordCarriesTheVideoKeys) {
  VideoOptions o;
  o.stmad = true;
  o.subsample = 2;
  o.first_frame = 5;
  EXPECT_EQ(setting(o, "stmad"), "true");
  EXPECT_EQ(setting(o, "subsample"), "2");
  EXPECT_EQ(setting(o, "first_frame"), "5");
  EXPECT_EQ(setting(o, "frame_count"), "all");
  o.frame_count = 9;
  EXPECT_EQ(setting(o, "frame_count"), "9");
  // The input class as video runs it: auto is double.
  EXPECT_EQ(setting(o, "input_class"), "double");
  // The image commands' record has no video keys.
  for (const auto& [key, value] : recorded_settings(o.score, Backend::Cpu))
    EXPECT_TRUE(key != "stmad" && key != "subsample") << key;
}

TEST(VideoOptions, OnlyTheVideoCommandTakesTheVideoRows) {
  const auto names = [](unsigned command) {
    std::vector<std::string> out;
    for (const ScoringOption* row : scoring_options_of(command)) out.push_back(row->cli);
    return out;
  };
  const auto has = [](const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
  };
  for (const char* video_only : {"--stmad", "--subsample", "--first-frame", "--frame-count",
                                 "--width", "--height", "--pixel-format"}) {
    EXPECT_TRUE(has(names(kVideoCommand), video_only)) << video_only;
    EXPECT_FALSE(has(names(kScoreCommand), video_only)) << video_only;
    EXPECT_FALSE(has(names(kEvalCommand), video_only)) << video_only;
  }
  EXPECT_TRUE(has(names(kVideoCommand), "--precision"));
  EXPECT_TRUE(has(names(kEvalCommand), "--gpus"));
  EXPECT_FALSE(has(names(kVideoCommand), "--gpus"));
  EXPECT_EQ(command_names(kEveryCommand), "score, eval, video");
}

TEST(VideoOptions, RawFormatNeedsAllThreeOptions) {
  EXPECT_FALSE(raw_format_option({}).has_value());
  const std::string message = test::thrown_message<InvalidArgument>(
      [] { raw_format_option(given({{"--width", "64"}})); });
  EXPECT_NE(message.find("--height and --pixel-format missing"), std::string::npos) << message;
  const auto f = raw_format_option(
      given({{"--width", "64"}, {"--height", "48"}, {"--pixel-format", "yuv422p10le"}}));
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->width, 64);
  EXPECT_EQ(f->height, 48);
  EXPECT_EQ(f->bit_depth, 10);
  EXPECT_EQ(f->chroma, ChromaSubsampling::k422);
  EXPECT_THROW(raw_format_option(given({{"--width", "0"}, {"--height", "48"},
                                        {"--pixel-format", "gray"}})),
               InvalidArgument);
}

}  // namespace
}  // namespace mad
