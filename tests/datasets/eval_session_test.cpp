// A whole `mad eval` run on the tiny datasets with the CPU backend: rows written as they come,
// --limit then --resume finishing the job without redoing it, missing and broken images
// counted and listed, mixed image sizes, and the JSON and HTML outputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/error.h"
#include "datasets/eval_session.h"
#include "datasets/synthetic_dataset.h"
#include "tests/datasets/tiny_datasets.h"

namespace mad::datasets {
namespace {
namespace fs = std::filesystem;

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::string text_of(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class EvalSession : public ::testing::Test {
 protected:
  EvalSession() : data_("session") {}
  EvalConfig config(const std::string& dataset_dir) const {
    EvalConfig c(choose_backend(Backend::Cpu));
    c.dir = data_.path(dataset_dir);
    c.out = data_.path("results.csv");
    c.bootstrap.resamples = 100;  // the statistics are tested elsewhere; keep runs short
    c.log = nullptr;
    return c;
  }
  test::TinyDatasets data_;
};

TEST_F(EvalSession, ScoresEveryPairOfMixedSizesAndWritesTheReports) {
  EvalConfig c = config("kadid10k");
  c.json = data_.path("summary.json");
  c.html = data_.path("report.html");
  const EvalReport r = run_evaluation(c);
  EXPECT_EQ(r.dataset, "kadid10k");
  EXPECT_EQ(r.counts.scored_now, 8u);
  EXPECT_EQ(r.counts.failed_now, 0u);
  EXPECT_EQ(exit_code_for(r), kExitOk);
  ASSERT_TRUE(r.have_stats);
  EXPECT_EQ(r.stats.overall.pairs, 8u);
  EXPECT_EQ(r.stats.per_type.size(), 2u);
  const auto rows = lines_of(c.out);
  ASSERT_EQ(rows.size(), 9u);  // header + 8
  // Grouped by reference: I01's four pairs (64x64) come before I02's (72x64).
  EXPECT_NE(rows[1].find("images/I01.png"), std::string::npos);
  EXPECT_NE(rows[1].find(",64,64,cpu,2011,"), std::string::npos) << rows[1];
  EXPECT_NE(rows[8].find(",72,64,cpu,2011,"), std::string::npos) << rows[8];

  const auto j = nlohmann::json::parse(text_of(c.json));
  EXPECT_EQ(j["run"]["pairs_scored"], 8);
  EXPECT_EQ(j["expected_sign"], -1);
  EXPECT_EQ(j["settings"]["bootstrap"]["resampled_unit"], "reference image");
  EXPECT_EQ(j["per_type"].size(), 2u);
  EXPECT_TRUE(j["overall"]["srocc"].contains("signed"));
  const std::string html = text_of(c.html);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  // The figure and the table as files beside the report (issue 28, item 7).
  EXPECT_EQ(text_of(data_.path("report.figure.svg")).rfind("<?xml", 0), 0u);
  EXPECT_EQ(lines_of(data_.path("report.types.csv")).size(), 4u);  // header, all, 2 types
  EXPECT_NE(text_of(data_.path("report.types.tex")).find("\\begin{tabular}"), std::string::npos);
  EXPECT_NE(html.find("<polyline"), std::string::npos);  // the fitted curve
  EXPECT_NE(html.find("11 white noise"), std::string::npos);
  for (const char* external : {"<script", "http:", "https:", "src=", "@import", "url("})
    EXPECT_EQ(html.find(external), std::string::npos) << external;
}

// Issue 39: `--out X.csv --html X.html`, the README's own example, wrote the report's table to
// X.csv over the results, and --resume then failed.
TEST_F(EvalSession, TheReportsFilesNeverTakeTheResultsName) {
  EvalConfig c = config("kadid10k");
  c.out = data_.path("x.csv");
  c.html = data_.path("x.html");
  c.limit = 5;
  run_evaluation(c);
  EXPECT_EQ(lines_of(c.out).size(), 6u);  // header + 5 rows, not the table's 4 lines
  EXPECT_EQ(lines_of(data_.path("x.types.csv")).size(), 4u);
  c.limit = 0;
  c.resume = true;  // replaces the report and its side files of the run it continues
  const EvalReport r = run_evaluation(c);
  EXPECT_EQ(r.counts.finished_before, 5u);
  EXPECT_EQ(lines_of(c.out).size(), 9u);
}

TEST_F(EvalSession, ExistingSideFilesAndCollisionsAreRefusedBeforeScoring) {
  EvalConfig c = config("kadid10k");
  c.html = data_.path("mine.html");
  std::ofstream(data_.path("mine.types.tex")) << "my table\n";
  const std::string m = test::thrown_message<InvalidArgument>([&] { run_evaluation(c); });
  EXPECT_NE(m.find("mine.types.tex' exists, and --html"), std::string::npos) << m;
  EXPECT_NE(m.find("pass --force to replace it"), std::string::npos) << m;
  EXPECT_FALSE(fs::exists(c.out));  // refused before the results file was begun
  EXPECT_EQ(text_of(data_.path("mine.types.tex")), "my table\n");
  c.overwrite = true;
  run_evaluation(c);
  EXPECT_NE(text_of(data_.path("mine.types.tex")).find("\\begin{tabular}"), std::string::npos);

  EvalConfig same = config("kadid10k");
  same.overwrite = true;
  same.out = data_.path("r.types.csv");
  same.html = data_.path("r.html");
  EXPECT_NE(test::thrown_message<InvalidArgument>([&] { run_evaluation(same); })
                .find("would be both the results file (--out) and a file beside --html"),
            std::string::npos);
  same.html.clear();
  same.json = same.out;
  EXPECT_NE(test::thrown_message<InvalidArgument>([&] { run_evaluation(same); })
                .find("would be both the results file (--out) and --json"),
            std::string::npos);
}

// Issue 39: a --make-synthetic set passed for KADID-10k in the report and the settings record.
TEST_F(EvalSession, ASyntheticSetSaysItsScoresAreInvented) {
  SyntheticSpec spec;
  spec.references = 1;
  spec.types = 1;
  spec.width = spec.height = 34;
  write_synthetic_kadid(data_.path("synthetic"), spec);
  EvalConfig c = config("synthetic");
  c.json = data_.path("synthetic.json");
  const EvalReport r = run_evaluation(c);
  EXPECT_TRUE(r.synthetic);
  EXPECT_EQ(nlohmann::json::parse(text_of(c.json))["dataset"]["synthetic"], true);
  EXPECT_NE(text_of(c.out + ".settings").find("\ndataset_scores=invented\n"), std::string::npos);
  c.dir = data_.path("kadid10k");  // a real layout: no such record
  c.overwrite = true;
  EXPECT_FALSE(run_evaluation(c).synthetic);
  EXPECT_EQ(text_of(c.out + ".settings").find("dataset_scores"), std::string::npos);
}

TEST_F(EvalSession, LimitThenResumeFinishesWithoutRedoingPairs) {
  EvalConfig c = config("kadid10k");
  c.limit = 3;
  const EvalReport first = run_evaluation(c);
  EXPECT_EQ(first.counts.scored_now, 3u);
  EXPECT_EQ(first.counts.not_run, 5u);
  const auto rows_before = lines_of(c.out);
  ASSERT_EQ(rows_before.size(), 4u);

  c.limit = 0;
  EXPECT_THROW(run_evaluation(c), InvalidArgument);  // not replaced: --resume or --force decide
  c.resume = true;
  const EvalReport second = run_evaluation(c);
  EXPECT_EQ(second.counts.finished_before, 3u);
  EXPECT_EQ(second.counts.scored_now, 5u);
  EXPECT_EQ(second.points.size(), 8u);
  const auto rows_after = lines_of(c.out);
  ASSERT_EQ(rows_after.size(), 9u);
  for (std::size_t i = 1; i < rows_before.size(); ++i)  // earlier rows kept verbatim
    EXPECT_NE(std::find(rows_after.begin(), rows_after.end(), rows_before[i]), rows_after.end());

  const EvalReport third = run_evaluation(c);  // nothing left to do
  EXPECT_EQ(third.counts.scored_now, 0u);
  EXPECT_EQ(third.counts.finished_before, 8u);
  EXPECT_EQ(lines_of(c.out).size(), 9u);
  EXPECT_EQ(third.stats.overall.srocc.value, second.stats.overall.srocc.value);

  c.runner.score.version = MadVersion::V2010;  // scores of another version do not mix
  EXPECT_THROW(run_evaluation(c), InvalidArgument);
}

TEST_F(EvalSession, AnInterruptedRowIsScoredAgainOnResume) {
  EvalConfig c = config("kadid10k");
  c.limit = 2;
  run_evaluation(c);
  std::ofstream(c.out, std::ios::app) << "images/I01.png,images/I01_11_01.png,3.1";  // cut short
  c.limit = 0;
  c.resume = true;
  const EvalReport r = run_evaluation(c);
  EXPECT_EQ(r.counts.finished_before, 2u);
  EXPECT_EQ(r.counts.scored_now, 6u);
  EXPECT_EQ(lines_of(c.out).size(), 9u);
}

TEST_F(EvalSession, MissingAndBrokenImagesAreCountedListedAndRetried) {
  EvalConfig c = config("csv");
  c.read.manifest = data_.path("csv/manifest.csv");  // lists I02_11_03.png, which is absent
  data_.write("kadid10k/images/I01_01_02.png", "not an image\n");
  c.json = data_.path("summary.json");
  const EvalReport r = run_evaluation(c);
  EXPECT_EQ(r.dataset, "csv");
  EXPECT_EQ(r.counts.entries, 9u);
  EXPECT_EQ(r.counts.skipped_missing, 1u);
  ASSERT_EQ(r.missing.size(), 1u);
  EXPECT_EQ(r.missing[0], "../kadid10k/images/I02_11_03.png");
  EXPECT_EQ(r.counts.failed_now, 1u);
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].dist, "../kadid10k/images/I01_01_02.png");
  EXPECT_EQ(r.counts.scored_now, 7u);
  EXPECT_EQ(r.points.size(), 7u);
  EXPECT_EQ(exit_code_for(r), kExitPartial);
  const auto rows = lines_of(c.out);
  ASSERT_EQ(rows.size(), 9u);  // the failure has its row, with its error; the missing pair none
  const auto j = nlohmann::json::parse(text_of(c.json));
  EXPECT_EQ(j["missing_images"][0], "../kadid10k/images/I02_11_03.png");
  EXPECT_EQ(j["failures"].size(), 1u);

  // Repaired, the failed pair is retried by --resume; the others are not redone.
  std::filesystem::copy_file(data_.path("kadid10k/images/I01_01_01.png"),
                             data_.path("kadid10k/images/I01_01_02.png"),
                             std::filesystem::copy_options::overwrite_existing);
  c.resume = true;
  const EvalReport again = run_evaluation(c);
  EXPECT_EQ(again.counts.finished_before, 7u);
  EXPECT_EQ(again.counts.scored_now, 1u);
  EXPECT_EQ(again.counts.failed_now, 0u);
  EXPECT_EQ(again.points.size(), 8u);
}

TEST_F(EvalSession, OtherLayoutsRunToo) {
  EvalConfig c = config("csiq");
  EXPECT_EQ(run_evaluation(c).counts.scored_now, 8u);
#ifdef MAD_HAVE_STB  // BMP decoding: TID's images are BMP
  c = config("tid2013");
  c.overwrite = true;
  const EvalReport r = run_evaluation(c);
  EXPECT_EQ(r.counts.scored_now, 8u);
  EXPECT_EQ(r.stats.per_type.size(), 2u);
#endif
}

TEST_F(EvalSession, GpusNeedTheCudaBackend) {
  EvalConfig c = config("kadid10k");
  c.runner.gpus = 2;
  EXPECT_THROW(run_evaluation(c), InvalidArgument);
  EXPECT_FALSE(fs::exists(c.out));  // refused before any file was written
}

}  // namespace
}  // namespace mad::datasets
