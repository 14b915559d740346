// results.csv: rows round-trip, failed rows and a cut-short last line are not "finished",
// foreign or malformed files are refused with the line, and resume rewrites then appends.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.h"
#include "datasets/csv.h"
#include "datasets/results_file.h"
#include "tests/support/test_support.h"

namespace mad::datasets {
namespace {
namespace fs = std::filesystem;

class ResultsFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("mad_results_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    path_ = (dir_ / "results.csv").string();
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string slurp() const {
    std::ifstream in(path_);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  void append(const std::string& text) const { std::ofstream(path_, std::ios::app) << text; }
  static DatasetEntry entry(const std::string& dist) {
    DatasetEntry e;
    e.ref_name = "refs/r.png";
    e.dist_name = dist;
    e.subjective = 4.5;
    e.type = "noise, white";  // a comma: the field must be quoted
    e.level = "2";
    return e;
  }
  static ScoreResult result(double mad) {
    ScoreResult r;
    r.mad = mad;
    r.width = 40;
    r.height = 40;
    return r;
  }
  fs::path dir_;
  std::string path_;
};

TEST_F(ResultsFile, RowsRoundTripAndFailuresAreNotFinished) {
  {
    ResultsWriter w = ResultsWriter::create(path_, false);
    const ScoreResult a = result(12.5), b = result(0.25);
    w.write(eval_csv_row(entry("d1.png"), &a, ""));
    w.write(eval_csv_row(entry("d2.png"), nullptr, "cannot decode d2.png"));
    w.write(eval_csv_row(entry("d3.png"), &b, ""));
  }
  const ResultsLog log = read_results_file(path_);
  ASSERT_EQ(log.finished.size(), 2u);
  EXPECT_EQ(log.failed_rows, 1u);
  EXPECT_FALSE(log.dropped_partial_line);
  const FinishedRow& r = log.finished.at({"refs/r.png", "d1.png"});
  EXPECT_EQ(r.mad, 12.5);
  EXPECT_EQ(r.mad_version, "2011");
  EXPECT_EQ(r.fields.back(), "2");
  EXPECT_EQ(r.fields[r.fields.size() - 2], "noise, white");
  EXPECT_EQ(log.finished.at({"refs/r.png", "d3.png"}).mad, 0.25);
}

TEST_F(ResultsFile, RefusesToReplaceAnExistingFileUnlessAsked) {
  { ResultsWriter::create(path_, false); }
  EXPECT_THROW(ResultsWriter::create(path_, false), InputError);
  EXPECT_NO_THROW(ResultsWriter::create(path_, true));
}

TEST_F(ResultsFile, ACutShortLastLineIsDroppedButAMalformedMiddleLineIsAnError) {
  {
    ResultsWriter w = ResultsWriter::create(path_, false);
    const ScoreResult a = result(3.0);
    w.write(eval_csv_row(entry("d1.png"), &a, ""));
  }
  append("refs/r.png,d2.png,4.");  // an interrupted write: no newline, too few fields
  ResultsLog log = read_results_file(path_);
  EXPECT_TRUE(log.dropped_partial_line);
  EXPECT_EQ(log.finished.size(), 1u);
  append("5\nrefs/r.png,d3.png,oops\n");  // now complete lines, the first still malformed
  const std::string m = test::thrown_message<InputError>([&] { read_results_file(path_); });
  EXPECT_NE(m.find("results.csv:3: expected"), std::string::npos) << m;
}

TEST_F(ResultsFile, AForeignHeaderOrABadScoreIsRefusedWithTheLine) {
  std::ofstream(path_) << "ref,dist,mad\nx,y,1\n";
  EXPECT_THROW(read_results_file(path_), InputError);
  std::vector<std::string> row = eval_csv_row(entry("d1.png"), nullptr, "");
  row[2] = "twelve";
  std::ofstream(path_) << join_csv(eval_csv_header()) << "\n" << join_csv(row) << "\n";
  const std::string m = test::thrown_message<InputError>([&] { read_results_file(path_); });
  EXPECT_NE(m.find("results.csv:2: mad 'twelve' is not a number"), std::string::npos) << m;
}

TEST_F(ResultsFile, ResumeKeepsFinishedRowsDropsTheRestAndAppends) {
  {
    ResultsWriter w = ResultsWriter::create(path_, false);
    const ScoreResult a = result(1.0);
    w.write(eval_csv_row(entry("d1.png"), &a, ""));
    w.write(eval_csv_row(entry("d2.png"), nullptr, "boom"));
  }
  append("refs/r.png,d3.png");  // partial
  const ResultsLog before = read_results_file(path_);
  {
    ResultsWriter w = ResultsWriter::resume(path_, before);
    const ScoreResult b = result(2.0);
    w.write(eval_csv_row(entry("d2.png"), &b, ""));
  }
  const std::string text = slurp();
  EXPECT_EQ(text.find("boom"), std::string::npos);
  EXPECT_EQ(text.find("d3.png"), std::string::npos);
  const ResultsLog after = read_results_file(path_);
  EXPECT_EQ(after.finished.size(), 2u);
  EXPECT_EQ(after.failed_rows, 0u);
  EXPECT_FALSE(after.dropped_partial_line);
  EXPECT_FALSE(fs::exists(path_ + ".tmp"));
}

}  // namespace
}  // namespace mad::datasets
