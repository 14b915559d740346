// results.csv: rows round-trip, failed rows and a cut-short last line are not "finished",
// foreign or malformed files are refused with the line, and resume rewrites then appends.
#include <gtest/gtest.h>

#include <algorithm>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.h"
#include "mad/results/csv.h"
#include "mad/results/results_file.h"
#include "mad/results/results_settings.h"
#include "tests/support/test_support.h"

namespace mad::results {
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
  // A row of `mad eval` for refs/r.png and `dist`; the type holds a comma, which must be quoted.
  static std::vector<std::string> eval_row(const std::string& dist, const ScoreResult* r,
                                           const std::string& error) {
    return eval_csv_row("refs/r.png", dist, r, error, "", {4.5, "noise, white", "2"});
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
    w.write(eval_row("d1.png", &a, ""));
    w.write(eval_row("d2.png", nullptr, "cannot decode d2.png"));
    w.write(eval_row("d3.png", &b, ""));
  }
  const ResultsLog log = read_results_file(path_);
  ASSERT_EQ(log.finished.size(), 2u);
  EXPECT_EQ(log.failed_rows, 1u);
  EXPECT_FALSE(log.dropped_partial_line);
  const FinishedRow& r = *log.find({"refs/r.png", "d1.png"});
  EXPECT_EQ(r.mad, 12.5);
  EXPECT_EQ(r.mad_version, "2011");
  EXPECT_EQ(r.fields.back(), "2");
  EXPECT_EQ(r.fields[r.fields.size() - 2], "noise, white");
  EXPECT_EQ(log.find({"refs/r.png", "d3.png"})->mad, 0.25);
  EXPECT_EQ(log.find({"refs/r.png", "d2.png"}), nullptr);  // failed: not finished
}

TEST_F(ResultsFile, JsonLinesReadTheVersionAsANumberOrAsOlderFilesWroteIt) {
  // Since issue 28 the CLI's JSON carries mad_version as a number; older files, a string.
  {
    std::ofstream out(path_);
    out << R"({"ref":"r.png","dist":"a.png","mad":1.5,"mad_version":2010})" << "\n"
        << R"({"ref":"r.png","dist":"b.png","mad":2.5,"mad_version":"2011"})" << "\n";
  }
  const ResultsLog log = read_results_file(path_, ResultsKind::JsonLines);
  ASSERT_EQ(log.finished.size(), 2u);
  EXPECT_EQ(log.find({"r.png", "a.png"})->mad_version, "2010");
  EXPECT_EQ(log.find({"r.png", "b.png"})->mad_version, "2011");
}

TEST_F(ResultsFile, RefusesToReplaceAnExistingFileUnlessAsked) {
  { ResultsWriter::create(path_, false); }
  EXPECT_THROW(ResultsWriter::create(path_, false), InvalidArgument);  // --resume/--force decide
  EXPECT_NO_THROW(ResultsWriter::create(path_, true));
}

TEST_F(ResultsFile, ACutShortLastLineIsDroppedButAMalformedMiddleLineIsAnError) {
  {
    ResultsWriter w = ResultsWriter::create(path_, false);
    const ScoreResult a = result(3.0);
    w.write(eval_row("d1.png", &a, ""));
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
  std::vector<std::string> row = eval_row("d1.png", nullptr, "");
  row[2] = "twelve";
  std::ofstream(path_) << join_csv(eval_csv_header()) << "\n" << join_csv(row) << "\n";
  const std::string m = test::thrown_message<InputError>([&] { read_results_file(path_); });
  EXPECT_NE(m.find("results.csv:2: mad 'twelve' is not a number"), std::string::npos) << m;
}

TEST_F(ResultsFile, ResumeKeepsFinishedRowsDropsTheRestAndAppends) {
  {
    ResultsWriter w = ResultsWriter::create(path_, false);
    const ScoreResult a = result(1.0);
    w.write(eval_row("d1.png", &a, ""));
    w.write(eval_row("d2.png", nullptr, "boom"));
  }
  append("refs/r.png,d3.png");  // partial
  const ResultsLog before = read_results_file(path_);
  {
    ResultsWriter w = ResultsWriter::resume(path_, before);
    const ScoreResult b = result(2.0);
    w.write(eval_row("d2.png", &b, ""));
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

// Issue 39: a file replaced whole (resume's rewrite, mad merge's OUT) goes through a temporary
// of a unique name: an existing results.csv.tmp (a user's, another run's) is left as it was,
// nothing is left behind, and an abandoned replacement leaves the old file and no temporary.
TEST_F(ResultsFile, ReplacingNeverTouchesAnExistingTmpAndLeavesNoTemporary) {
  std::ofstream(path_ + ".tmp") << "someone else's\n";
  {
    ResultsWriter w = ResultsWriter::create(path_, false);
    const ScoreResult a = result(1.0);
    w.write(eval_row("d1.png", &a, ""));
  }
  const std::string before = slurp();
  const auto entries = [&] {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename());
    std::sort(names.begin(), names.end());
    return names;
  };
  const std::vector<std::string> files = entries();
  { ResultsWriter w = ResultsWriter::resume(path_, read_results_file(path_)); }
  EXPECT_EQ(slurp(), before);
  {
    ResultsWriter w = ResultsWriter::replacing(path_, ResultsKind::Eval);
    const ScoreResult b = result(2.0);
    w.write(eval_row("d9.png", &b, ""));
    EXPECT_EQ(slurp(), before);  // untouched until the commit
    EXPECT_EQ(entries().size(), files.size() + 1);  // its own temporary, beside
  }  // dropped uncommitted: abandoned
  EXPECT_EQ(slurp(), before);
  EXPECT_EQ(entries(), files);
  {
    ResultsWriter w = ResultsWriter::replacing(path_, ResultsKind::Eval);
    const ScoreResult b = result(2.0);
    w.write(eval_row("d9.png", &b, ""));
    w.commit();
  }
  EXPECT_NE(slurp().find("d9.png"), std::string::npos);
  EXPECT_EQ(slurp().find("d1.png"), std::string::npos);
  EXPECT_EQ(entries(), files);
  std::ifstream tmp(path_ + ".tmp");
  std::string text;
  std::getline(tmp, text);
  EXPECT_EQ(text, "someone else's");
}

// mad score --pairs rows carry their list line: a pair named on several lines keeps a row per
// line, and resume rewrites every finished row in its order (before, one row per pair).
TEST_F(ResultsFile, PairsRowsKeepTheirLinesAndResumeKeepsEveryRow) {
  const ScoreResult a = result(1.5), b = result(2.5);
  {
    ResultsWriter w = ResultsWriter::create(path_, false, ResultsKind::Pairs);
    w.write(pairs_csv_row("r.png", "d.png", &a, "", "requested", 2));
    w.write(pairs_csv_row("r.png", "d.png", &b, "", "requested", 3));
    w.write(pairs_csv_row("x", "", nullptr, "expected a reference", "requested", 4));
    w.write(pairs_csv_row("r.png", "d.png", &a, "", "requested", 5));
  }
  const ResultsLog log = read_results_file(path_, ResultsKind::Pairs);
  ASSERT_EQ(log.rows.size(), 3u);
  EXPECT_EQ(log.duplicate_rows, 2u);
  EXPECT_EQ(log.failed_rows, 1u);
  EXPECT_EQ(log.rows[1].line, 3);
  EXPECT_EQ(log.rows[1].mad, 2.5);
  EXPECT_EQ(log.rows[2].line, 5);
  { ResultsWriter::resume(path_, log, ResultsKind::Pairs); }
  const ResultsLog again = read_results_file(path_, ResultsKind::Pairs);
  ASSERT_EQ(again.rows.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(again.rows[i].fields, log.rows[i].fields);
  // A file of an older mad, without the line column, still reads (its rows have line 0).
  std::vector<std::string> header = results_header(ResultsKind::Pairs);
  header.pop_back();
  std::vector<std::string> old_row = pairs_csv_row("r.png", "d.png", &a, "", "", 0);
  old_row.pop_back();
  std::ofstream(path_) << join_csv(header) << "\n" << join_csv(old_row) << "\n";
  const ResultsLog legacy = read_results_file(path_, ResultsKind::Pairs);
  ASSERT_EQ(legacy.rows.size(), 1u);
  EXPECT_EQ(legacy.rows[0].line, 0);
  EXPECT_EQ(legacy.rows[0].ref, "r.png");
}

// A full disk: the message names the system's reason (before: "error while writing" alone).
TEST_F(ResultsFile, AFailedWriteNamesTheSystemsReason) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  fs::create_symlink("/dev/full", dir_ / "full.csv");
  const std::string m = test::thrown_message<InputError>(
      [&] { ResultsWriter::create((dir_ / "full.csv").string(), true); });
  EXPECT_NE(m.find("full.csv': No space left on device"), std::string::npos) << m;
}

// mad eval's sidecar records the dataset; --resume refuses another one, and a sidecar of an
// older mad without it.
TEST_F(ResultsFile, SettingsRecordTheDatasetAndRefuseAnother) {
  RunSettings s = run_settings(ScoreOptions{}, Backend::Cpu);
  set_dataset(s, "kadid10k", dir_.string(), 1000);
  write_settings(path_, s);
  const auto back = read_settings(path_);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->dataset, "kadid10k");
  EXPECT_EQ(back->dataset_folder, fs::canonical(dir_).string());
  EXPECT_EQ(back->dataset_pairs, "1000");
  EXPECT_NO_THROW(require_same_settings(path_, s));
  RunSettings other = s;
  set_dataset(other, "kadid10k", (dir_ / "other").string(), 1000);
  std::string m = test::thrown_message<InvalidArgument>([&] { require_same_settings(path_, other); });
  EXPECT_NE(m.find("holds the rows of kadid10k in " + fs::canonical(dir_).string() + " (1000 pairs)"),
            std::string::npos)
      << m;
  RunSettings unnamed = s;
  unnamed.dataset = unnamed.dataset_folder = unnamed.dataset_pairs = "";
  write_settings(path_, unnamed);  // as an older mad wrote it: no dataset keys
  EXPECT_EQ(read_settings(path_)->dataset, "");
  m = test::thrown_message<InvalidArgument>([&] { require_same_settings(path_, s); });
  EXPECT_NE(m.find("does not record which dataset"), std::string::npos) << m;
  EXPECT_NO_THROW(require_same_settings(path_, unnamed));  // mad score --pairs records none
}

// A front door that names its settings as (key, value) rows (the Python module) makes the
// record the command line makes: the rows of a record fill an empty one back to it.
TEST(ResultsSettings, KeyValueRowsFillTheSameRecord) {
  RunSettings s = run_settings(ScoreOptions{}, Backend::Cpu);
  s.shard = "2/3";
  const auto rows = setting_rows(s);
  ASSERT_EQ(rows.front(), (std::pair<std::string, std::string>{"mad_version", "2011"}));
  RunSettings back;
  for (const auto& [key, value] : rows) set_setting(back, key, value);
  EXPECT_EQ(first_difference(back, s), "");
  EXPECT_EQ(back.shard, "2/3");
  EXPECT_EQ(setting_rows(back), rows);
  const std::string m =
      test::thrown_message<InvalidArgument>([&] { set_setting(back, "colour", "red"); });
  EXPECT_NE(m.find("'colour' is not a setting"), std::string::npos) << m;
}

TEST(ResultsSettings, DefaultResultsNamesDifferPerFolder) {
  const std::string a = default_results_name("kadid10k", "/data/a/kadid");
  EXPECT_EQ(a, default_results_name("kadid10k", "/data/a/kadid/"));
  EXPECT_EQ(a.rfind("results_kadid10k_kadid_", 0), 0u) << a;
  EXPECT_EQ(a.size(), std::string("results_kadid10k_kadid_12345678.csv").size()) << a;
  EXPECT_NE(a, default_results_name("kadid10k", "/data/b/kadid"));
  EXPECT_NE(a, default_results_name("tid2013", "/data/a/kadid"));
  EXPECT_EQ(default_results_name("csv", "/x/my set").find(' '), std::string::npos);
}

}  // namespace
}  // namespace mad::results
