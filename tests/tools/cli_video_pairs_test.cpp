// `mad video --pairs LIST --out FILE` (issue 40 item 5): one row per clip pair, under mad score
// --pairs's rules. A resumed run ends with the whole run's rows; shards merged by `mad merge`
// are the whole run's rows; a list's bad lines are all named before anything is written (exit
// 3); raw clips take their format from the list's columns; a clip that fails while it is
// scored fails its row only (exit 5) and is scored again on --resume.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/luma_frame.h"
#include "mad/results/csv.h"
#include "tests/support/luma_clip.h"
#include "tests/support/stmad_example_clip.h"
#include "tests/tools/cli_scratch.h"

namespace mad {
namespace {

using test::exits_saying;
using test::has;

constexpr int kW = 48, kH = 40;

std::vector<LumaFrame> random_clip(int frames, unsigned seed) {
  std::mt19937 rng(seed);
  return test::luma_clip8(kW, kH, frames,
                          [&](std::size_t) { return static_cast<std::uint8_t>(rng() & 0xff); });
}

class VideoPairs : public test::CliScratch {
 protected:
  void SetUp() override {
    CliScratch::SetUp();
    y4m("r1.y4m", random_clip(3, 1));
    y4m("d1.y4m", random_clip(3, 2));
    y4m("d2.y4m", random_clip(3, 3));
    y4m("r2.y4m", random_clip(2, 4));
    y4m("d3.y4m", random_clip(2, 5));
    write("list.csv", "ref,dist\nr1.y4m,d1.y4m\nr2.y4m,d3.y4m\nr1.y4m,d2.y4m\n");
  }
  void y4m(const std::string& name, const std::vector<LumaFrame>& frames) const {
    test::write_y4m420(path(name), frames,
                       "YUV4MPEG2 W" + std::to_string(kW) + " H" + std::to_string(kH) +
                           " F25:1 Ip A1:1 C420jpeg");
  }
  // A results file's rows without the columns that differ between runs of the same pairs
  // (seconds) or name the same clip by another path (a shard's rows hold absolute paths).
  std::vector<std::vector<std::string>> comparable(const std::string& name) const {
    auto rows = csv_rows_without(name, "seconds");
    for (auto& row : rows)
      for (std::size_t c = 0; c < 2 && c < row.size(); ++c)
        row[c] = std::filesystem::path(row[c]).filename().string();
    return rows;
  }
  static constexpr const char* kRun = "video --backend cpu -q --pairs list.csv";
};

TEST_F(VideoPairs, OneRowPerClipPairInListOrder) {
  const auto r = mad(std::string(kRun) + " --out all.csv");
  ASSERT_EQ(r.exit_code, kExitOk) << r.out;
  const auto rows = comparable("all.csv");
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0][0], "ref");
  EXPECT_EQ(rows[1][1], "d1.y4m");
  EXPECT_EQ(rows[2][1], "d3.y4m");
  EXPECT_EQ(rows[3][1], "d2.y4m");
  EXPECT_EQ(rows[1][2], "3");  // frames
  EXPECT_EQ(rows[2][2], "2");
  EXPECT_TRUE(exists("all.csv.settings"));
  EXPECT_TRUE(has(read("all.csv.settings"), "stmad=false")) << read("all.csv.settings");
  // Standard output without --out: the same rows.
  const auto out = mad_stdout(kRun);
  ASSERT_EQ(out.exit_code, kExitOk);
  write("stdout.csv", out.out);
  EXPECT_EQ(comparable("stdout.csv"), rows);
}

TEST_F(VideoPairs, AResumedRunEndsWithTheWholeRunsRows) {
  ASSERT_EQ(mad(std::string(kRun) + " --out all.csv").exit_code, kExitOk);
  // An interrupted run: the header and the first row, and half a row.
  const auto whole = lines("all.csv");
  write("part.csv", whole[0] + "\n" + whole[1] + "\n" + whole[2].substr(0, 20));
  write("part.csv.settings", read("all.csv.settings"));
  const auto again = mad(std::string(kRun) + " --out part.csv --resume");
  ASSERT_EQ(again.exit_code, kExitOk) << again.out;
  EXPECT_EQ(comparable("part.csv"), comparable("all.csv"));
  // The first row was kept as it was, not scored again.
  EXPECT_EQ(lines("part.csv")[1], whole[1]);
  // Other settings are refused, naming the difference.
  const auto other = mad(std::string(kRun) + " --out part.csv --resume --subsample 2");
  EXPECT_EQ(other.exit_code, kExitUsage) << other.out;
  EXPECT_TRUE(has(other.out, "--subsample")) << other.out;
  // An existing --out is refused without --resume or --force.
  const auto exists_now = mad(std::string(kRun) + " --out all.csv");
  EXPECT_EQ(exists_now.exit_code, kExitUsage) << exists_now.out;
}

TEST_F(VideoPairs, ShardsMergedAreTheWholeRun) {
  ASSERT_EQ(mad(std::string(kRun) + " --out all.csv").exit_code, kExitOk);
  for (const char* s : {"1/2", "2/2"}) {
    const std::string out = std::string("s") + s[0] + ".csv";
    const auto r = mad(std::string(kRun) + " --shard " + s + " --out " + out);
    ASSERT_EQ(r.exit_code, kExitOk) << r.out;
  }
  // Pairs that share a reference stay in one shard: r1's two pairs are together.
  EXPECT_TRUE(lines("s1.csv").size() == 3u || lines("s2.csv").size() == 3u);
  const auto merged = mad("merge -q merged.csv s2.csv s1.csv");
  ASSERT_EQ(merged.exit_code, kExitOk) << merged.out;
  EXPECT_EQ(comparable("merged.csv"), comparable("all.csv"));
  EXPECT_TRUE(has(read("merged.csv.settings"), "dataset=video-pairs-list"));
  // A shard of another setting does not merge.
  ASSERT_EQ(mad(std::string(kRun) + " --shard 2/2 --subsample 2 --out x2.csv").exit_code, kExitOk);
  const auto mixed = mad("merge -q mixed.csv s1.csv x2.csv");
  EXPECT_EQ(mixed.exit_code, kExitInput) << mixed.out;
  EXPECT_TRUE(has(mixed.out, "--subsample")) << mixed.out;
}

TEST_F(VideoPairs, EveryBadLineIsNamedBeforeAnythingIsWritten) {
  y4m("small.y4m", {});
  test::write_y4m420(path("small.y4m"), random_clip(1, 9), "YUV4MPEG2 W48 H40 F25:1 Ip C420jpeg");
  test::write_yuv420p(path("raw.yuv"), random_clip(2, 7));
  write("bad.csv",
        "ref,dist,width,height,pixel_format\n"
        "r1.y4m,d1.y4m,,,\n"                    // 2: fine
        "r1.y4m,missing.y4m,,,\n"               // 3: no such file
        "raw.yuv,raw.yuv,48,40,yuv421p\n"       // 4: unknown pixel format
        "raw.yuv,raw.yuv,4x,40,yuv420p\n"       // 5: width not a number
        "raw.yuv,raw.yuv,48,,yuv420p\n"         // 6: height missing
        "raw.yuv,raw.yuv,,,\n"                  // 7: raw without its format
        "r1.y4m,d1.y4m,48,40,yuv420p\n"         // 8: a Y4M clip given a raw format
        "r1.y4m\n");                            // 9: one column
  const auto r = mad("video --backend cpu --pairs bad.csv --out bad_out.csv");
  EXPECT_EQ(r.exit_code, kExitInput) << r.out;
  for (int line = 3; line <= 9; ++line)
    EXPECT_TRUE(has(r.out, "bad.csv:" + std::to_string(line) + ":")) << line << "\n" << r.out;
  EXPECT_FALSE(has(r.out, "bad.csv:2:")) << r.out;
  EXPECT_TRUE(has(r.out, "yuv421p")) << r.out;
  EXPECT_FALSE(exists("bad_out.csv"));
  // Clips of a pair in two sizes are a bad line too.
  test::write_yuv420p(path("raw_small.yuv"), random_clip(2, 8));
  write("sizes.csv", "ref,dist,width,height,pixel_format\nr1.y4m,raw.yuv,48,40,yuv420p\n");
  const auto sizes = mad("video --backend cpu --pairs sizes.csv --out s.csv");
  EXPECT_EQ(sizes.exit_code, kExitInput) << sizes.out;
  EXPECT_FALSE(exists("s.csv"));
  // An empty list is refused.
  write("empty.csv", "ref,dist\n");
  EXPECT_EQ(mad("video --backend cpu --pairs empty.csv").exit_code, kExitInput);
}

TEST_F(VideoPairs, RawClipsTakeTheirFormatFromTheList) {
  test::write_yuv420p(path("r1.yuv"), random_clip(3, 1));
  test::write_yuv420p(path("d1.yuv"), random_clip(3, 2));
  write("raw.csv", "ref,dist,width,height,pixel_format\nr1.yuv,d1.yuv,48,40,yuv420p\n"
                   "r1.y4m,d1.y4m,,,\n");
  const auto r = mad("video --backend cpu -q --pairs raw.csv --out raw_out.csv");
  ASSERT_EQ(r.exit_code, kExitOk) << r.out;
  auto rows = comparable("raw_out.csv");
  ASSERT_EQ(rows.size(), 3u);
  // The same frames as raw and as Y4M: the same figures.
  for (auto* row : {&rows[1], &rows[2]}) row->erase(row->begin(), row->begin() + 2);
  rows[1].pop_back();  // line
  rows[2].pop_back();
  EXPECT_EQ(rows[1], rows[2]);
  // A headerless list gives them as its third to fifth columns.
  write("bare.csv", "r1.yuv,d1.yuv,48,40,yuv420p\n");
  EXPECT_EQ(mad("video --backend cpu -q --pairs bare.csv --out bare_out.csv").exit_code, kExitOk);
}

TEST_F(VideoPairs, AClipThatFailsWhileScoredFailsItsRowOnly) {
  // d2.y4m cut inside its last frame: its header reads, its third frame is truncated.
  const std::string whole = read("d2.y4m");
  write("d2.y4m", whole.substr(0, whole.size() - 100));
  const auto r = mad(std::string(kRun) + " --out part.csv");
  EXPECT_EQ(r.exit_code, kExitPartial) << r.out;
  EXPECT_TRUE(has(r.out, "line 4:")) << r.out;
  auto rows = lines("part.csv");
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_TRUE(has(rows[3], "truncated")) << rows[3];
  // Mended, the failed row is scored again on --resume.
  write("d2.y4m", whole);
  ASSERT_EQ(mad(std::string(kRun) + " --out part.csv --resume").exit_code, kExitOk);
  ASSERT_EQ(mad(std::string(kRun) + " --out all.csv").exit_code, kExitOk);
  auto resumed = comparable("part.csv"), all = comparable("all.csv");
  std::sort(resumed.begin() + 1, resumed.end());
  std::sort(all.begin() + 1, all.end());
  EXPECT_EQ(resumed, all);
}

TEST_F(VideoPairs, OptionsOfTheOtherModeAreRefused) {
  const test::TextCase cases[] = {
      // text: the command line
      {"video --pairs list.csv r1.y4m d1.y4m", "not both"},
      {"video --pairs list.csv --json log.json", "--out"},
      {"video --pairs list.csv --width 48", "columns"},
      {"video --pairs list.csv --resume", "--out"},
      {"video --pairs list.csv --resume --force --out a.csv", "not both"},
      {"video r1.y4m d1.y4m --out a.csv", "--pairs"},
      {"video r1.y4m d1.y4m --shard 1/2", "--pairs"},
      {"video", "REF and DIST"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    EXPECT_TRUE(exits_saying(mad(c.text), kExitUsage, {c.needle}));
  }
}

}  // namespace
}  // namespace mad
