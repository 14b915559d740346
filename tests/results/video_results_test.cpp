// The video kind of the results room (mad video --pairs): its rows round-trip with undefined
// figures as empty fields, a resumed file keeps its rows by list line, shards of a video list
// merge into the whole run's rows in list order, and a list names raw clips' columns.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.h"
#include "mad/results/csv.h"
#include "mad/results/pairs_list.h"
#include "mad/results/pairs_merge.h"
#include "mad/results/pairs_output.h"
#include "mad/results/results_file.h"
#include "mad/results/results_settings.h"
#include "mad/results/shard_files.h"
#include "mad/results/video_results.h"
#include "tests/support/test_support.h"

namespace mad::results {
namespace {
namespace fs = std::filesystem;

class VideoResults : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::fresh_scratch_dir(
        std::string("mad_video_results_") +
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string at(const std::string& name) const { return (dir_ / name).string(); }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name, std::ios::binary) << text;
  }
  std::string slurp(const std::string& name) const {
    std::ifstream in(dir_ / name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  static VideoPairFigures figures(double mean, bool stmad) {
    VideoPairFigures f;
    f.frames = 40;
    f.mad_mean = mean;
    f.mad_min = mean - 1;
    f.mad_max = mean + 1;
    f.mad_harmonic_mean = mean - 0.5;
    f.mad_p1 = f.mad_p5 = mean - 0.75;
    f.mad_p50 = mean;
    f.mad_p95 = mean + 0.75;
    if (stmad) {
      f.smad = 2 * mean;
      f.tmad = 3 * mean;
      f.stmad = 0.5 * mean;
    }
    f.width = 84;
    f.height = 60;
    f.pixel_format = "yuv420p";
    f.backend = "cpu";
    f.mad_version = "2011";
    return f;
  }
  std::string row_text(int line, const std::string& ref, const std::string& dist, double mean) {
    const VideoPairFigures f = figures(mean, line % 2 == 1);
    return join_csv(video_csv_row(ref, dist, &f, "", "--backend cpu", line));
  }
  fs::path dir_;
};

std::size_t column(const std::string& name) {
  const auto& h = video_results_header();
  return static_cast<std::size_t>(std::find(h.begin(), h.end(), name) - h.begin());
}

TEST_F(VideoResults, RowsRoundTripWithUndefinedFiguresEmpty) {
  auto w = ResultsWriter::create(at("v.csv"), false, ResultsKind::VideoPairs);
  const VideoPairFigures with = figures(7.25, true), without = figures(3.5, false);
  w.write(video_csv_row("a.y4m", "b.y4m", &with, "", "", 1));
  w.write(video_csv_row("a.y4m", "c.y4m", &without, "", "", 2));
  w.write(video_csv_row("a.y4m", "d.y4m", nullptr, "d.y4m: frame 3 is truncated", "", 3));
  const ResultsLog log = read_results_file(at("v.csv"), ResultsKind::VideoPairs);
  ASSERT_EQ(log.rows.size(), 2u);
  EXPECT_EQ(log.failed_rows, 1u);
  EXPECT_EQ(log.rows[0].mad, 7.25);  // the finished row's score is its mean MAD
  EXPECT_EQ(log.rows[0].line, 1);
  EXPECT_EQ(log.rows[1].line, 2);
  EXPECT_EQ(log.rows[0].fields[column("stmad")], "3.625");
  EXPECT_EQ(log.rows[1].fields[column("stmad")], "");  // NaN: no figure, not "nan"
  EXPECT_EQ(log.rows[1].fields[column("smad")], "");
  EXPECT_EQ(log.rows[0].fields[column("pixel_format")], "yuv420p");
  EXPECT_EQ(log.rows[0].fields[column("frames")], "40");
  // A file of image pairs is not a video results file, and the refusal says what was expected.
  try {
    read_results_file(at("v.csv"), ResultsKind::Pairs);
    FAIL() << "a video file read as image pairs";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("mad score --pairs"), std::string::npos) << e.what();
  }
  write("img.csv", join_csv(results_header(ResultsKind::Pairs)) + "\n");
  try {
    read_results_file(at("img.csv"), ResultsKind::VideoPairs);
    FAIL() << "an image pairs file read as video rows";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("mad video --pairs"), std::string::npos) << e.what();
  }
}

TEST_F(VideoResults, AFigureNameIsCheckedAgainstTheColumns) {
  for (const auto& name : video_figure_names()) {
    EXPECT_NO_THROW(require_video_figure(name, "--figure"));
    EXPECT_LT(column(name), video_results_header().size()) << name;
  }
  try {
    require_video_figure("mad", "--figure");
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("stmad"), std::string::npos) << e.what();
  }
}

TEST_F(VideoResults, AResumedOutputKeepsItsRowsByLine) {
  write("list.csv", "ref,dist\na.y4m,b.y4m\na.y4m,c.y4m\n");
  RunSettings settings;
  settings.mad_version = "2011";
  PairsOutputOptions o;
  o.out = at("out.csv");
  o.quiet = true;
  o.csv_kind = ResultsKind::VideoPairs;
  {
    PairsOutput out(o, settings);
    for (const PairRow& row : read_pairs_list(at("list.csv"))) EXPECT_FALSE(out.take_finished(row));
    out.open(at("list.csv"));
    out.write_line(row_text(3, at("a.y4m"), at("c.y4m"), 4.0));  // line 1 is the header
  }
  EXPECT_EQ(slurp("out.csv").substr(0, 16), "ref,dist,frames,");  // the video header
  o.resume = true;
  PairsOutput again(o, settings);
  std::vector<bool> done;
  for (const PairRow& row : read_pairs_list(at("list.csv"))) done.push_back(again.take_finished(row));
  EXPECT_EQ(done, (std::vector<bool>{false, true}));
  ASSERT_NE(again.finished_row(3), nullptr);
  EXPECT_EQ(again.finished_row(3)->mad, 4.0);
  // Another run's settings are refused, as for image pairs.
  settings.mad_version = "2010";
  EXPECT_THROW(PairsOutput(o, settings), InvalidArgument);
}

TEST_F(VideoResults, ShardsMergeIntoTheWholeRunsRowsInListOrder) {
  write("list.csv", "ref,dist\na.y4m,b.y4m\nc.y4m,d.y4m\na.y4m,e.y4m\n");
  const std::string list = at("list.csv");
  const auto rows = read_pairs_list(list);
  RunSettings s;
  s.mad_version = "2011";
  set_dataset(s, kVideoPairsListDataset, list, rows.size());
  const std::string header = join_csv(video_results_header()) + "\n";
  // Shard 1 holds lines 2 and 4 (reference a), shard 2 line 3, as a ShardPlan deals them.
  write("s1.csv", header + row_text(2, rows[0].ref, rows[0].dist, 1.0) + "\n" +
                      row_text(4, rows[2].ref, rows[2].dist, 3.0) + "\n");
  write("s2.csv", header + row_text(3, rows[1].ref, rows[1].dist, 2.0) + "\n");
  s.shard = "1/2";
  write_settings(at("s1.csv"), s);
  s.shard = "2/2";
  write_settings(at("s2.csv"), s);
  const std::vector<std::string> shards = {at("s2.csv"), at("s1.csv")};
  const ShardSet set = check_shard_set(shards);
  EXPECT_TRUE(set.video);
  EXPECT_FALSE(set.eval);
  const PairsMerge merged = merge_pairs_shards(at("all.csv"), shards, false, set);
  EXPECT_EQ(merged.rows, 3u);
  EXPECT_EQ(slurp("all.csv"), header + row_text(2, rows[0].ref, rows[0].dist, 1.0) + "\n" +
                                  row_text(3, rows[1].ref, rows[1].dist, 2.0) + "\n" +
                                  row_text(4, rows[2].ref, rows[2].dist, 3.0) + "\n");
  const auto merged_settings = read_settings(at("all.csv"));
  ASSERT_TRUE(merged_settings);
  EXPECT_EQ(merged_settings->dataset, kVideoPairsListDataset);
  EXPECT_EQ(merged_settings->shard, "");
  // A shard of image pairs among video shards is refused: the lists' kinds differ.
  RunSettings images = s;
  images.dataset = "pairs-list";
  write("s3.csv", join_csv(results_header(ResultsKind::Pairs)) + "\n");
  images.shard = "2/2";
  write_settings(at("s3.csv"), images);
  EXPECT_THROW(check_shard_set({at("s1.csv"), at("s3.csv")}), InputError);
}

TEST_F(VideoResults, AListNamesARawClipsColumns) {
  write("named.csv", "pix_fmt,dist,ref,width,height\nyuv420p10le,d.yuv,r.yuv,64,48\n"
                     "yuv420p,d2.yuv,r2.yuv,,\n");
  const auto named = read_pairs_list(at("named.csv"));
  ASSERT_EQ(named.size(), 2u);
  EXPECT_EQ(named[0].width, "64");
  EXPECT_EQ(named[0].height, "48");
  EXPECT_EQ(named[0].pixel_format, "yuv420p10le");
  EXPECT_EQ(named[0].ref, at("r.yuv"));
  EXPECT_EQ(named[1].width, "");
  write("bare.csv", "r.yuv,d.yuv,32,16,gray\nr.y4m,d.y4m\n");
  const auto bare = read_pairs_list(at("bare.csv"));
  ASSERT_EQ(bare.size(), 2u);
  EXPECT_EQ(bare[0].width, "32");
  EXPECT_EQ(bare[0].height, "16");
  EXPECT_EQ(bare[0].pixel_format, "gray");
  EXPECT_EQ(bare[1].pixel_format, "");
  // A header without the raw columns leaves them empty whatever the rows hold.
  write("plain.csv", "ref,dist,note\nr.y4m,d.y4m,32\n");
  EXPECT_EQ(read_pairs_list(at("plain.csv"))[0].width, "");
}

}  // namespace
}  // namespace mad::results
