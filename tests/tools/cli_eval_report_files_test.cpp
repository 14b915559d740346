// Issue 39 item 1 on the command line: the files beside --html never take the results' name
// (the README's `mad eval DIR --out X.csv --html X.html` lost the results, and --resume then
// failed), existing ones are refused without --force, --help names every file a run writes,
// and a synthetic set's report and settings record say its scores are invented.
#include <gtest/gtest.h>

#include <string>

#include "common/error.h"
#include "tests/tools/cli_scratch.h"

namespace mad {
namespace {

using test::has;

// A synthetic KADID-layout set of 2 references x 2 types x 5 levels (64x64: at 40x40 every
// MAD is 0 and there is no fit to warn of): 20 pairs.
class EvalReportFiles : public test::CliScratch {
 protected:
  void SetUp() override {
    CliScratch::SetUp();
    ASSERT_EQ(mad("eval data --make-synthetic --synthetic-refs 2 --synthetic-types 2 "
                  "--synthetic-size 64x64 -q")
                  .exit_code,
              kExitOk);
  }
};

const std::string kEval = "eval data --backend cpu";  // --bootstrap goes to merge with --shard
const std::string kStats = " --bootstrap 20";

TEST_F(EvalReportFiles, TheReadmesExampleKeepsItsResultsAndResumes) {
  const auto first = mad(kEval + " --out x.csv --html x.html --limit 4" + kStats);
  ASSERT_EQ(first.exit_code, kExitOk) << first.out;
  EXPECT_EQ(lines("x.csv").size(), 1u + 4u) << read("x.csv");
  for (const char* side : {"x.figure.svg", "x.types.csv", "x.types.tex"})
    EXPECT_TRUE(has(first.out, std::string("wrote ") + side)) << first.out;
  const auto resumed = mad(kEval + " --out x.csv --html x.html --resume" + kStats);
  EXPECT_EQ(resumed.exit_code, kExitOk) << resumed.out;
  EXPECT_EQ(lines("x.csv").size(), 1u + 20u);
  EXPECT_TRUE(has(resumed.out, "one row per pair in x.csv")) << resumed.out;

  write("y.types.csv", "mine\n");
  const auto refused = mad(kEval + " --out y.csv --html y.html" + kStats);
  EXPECT_EQ(refused.exit_code, kExitUsage) << refused.out;
  EXPECT_TRUE(has(refused.out, "y.types.csv' exists, and --html y.html writes it")) << refused.out;
  EXPECT_EQ(read("y.types.csv"), "mine\n");
  EXPECT_FALSE(std::filesystem::exists(path("y.csv")));  // refused before any scoring
  EXPECT_EQ(mad(kEval + " --out y.csv --html y.html --force" + kStats).exit_code, kExitOk);
  EXPECT_NE(read("y.types.csv"), "mine\n");
}

TEST_F(EvalReportFiles, MergeWritesTheSameFilesAndRefusesTheSame) {
  for (const char* shard : {"1/2", "2/2"})
    ASSERT_EQ(mad(kEval + " --shard " + shard + " --out s" + shard[0] + ".csv").exit_code, kExitOk);
  const auto merged = mad("merge m.csv s1.csv s2.csv --html m.html --bootstrap 20");
  ASSERT_EQ(merged.exit_code, kExitOk) << merged.out;
  EXPECT_EQ(lines("m.csv").size(), 1u + 20u);  // the results, not the table
  EXPECT_EQ(lines("m.types.csv").size(), 4u);   // header, all, 2 types
  EXPECT_TRUE(has(read("m.csv.settings"), "\ndataset_scores=invented\n"));
  const auto again = mad("merge m2.csv s1.csv s2.csv --html m.html --bootstrap 20");
  EXPECT_EQ(again.exit_code, kExitUsage) << again.out;
  EXPECT_TRUE(has(again.out, "m.figure.svg' exists")) << again.out;
  EXPECT_FALSE(std::filesystem::exists(path("m2.csv")));
}

TEST_F(EvalReportFiles, HelpNamesEveryFileARunWrites) {
  for (const char* command : {"eval --help", "merge --help"}) {
    const auto help = mad(command);
    for (const char* file : {".settings", "X.figure.svg", "X.types.csv", "X.types.tex"})
      EXPECT_TRUE(has(help.out, file)) << command << ": " << file << "\n" << help.out;
  }
}

TEST_F(EvalReportFiles, ASyntheticSetsReportSaysItsScoresAreInvented) {
  const auto run = mad_stdout(kEval + " --out r.csv --json r.json --html r.html" + kStats);
  ASSERT_EQ(run.exit_code, kExitOk) << run.out;
  const std::string title = "MAD on kadid10k (synthetic: invented scores)";
  EXPECT_TRUE(has(run.out, title + ": the subjective scores are invented")) << run.out;
  EXPECT_TRUE(has(read("r.html"), "<h1>" + title + "</h1>"));
  EXPECT_TRUE(has(read("r.json"), "\"synthetic\": true"));
  EXPECT_TRUE(has(read("r.csv.settings"), "\ndataset_scores=invented\n"));
  // 20 pairs under a 5-parameter fit: the report says they are too few to trust.
  EXPECT_TRUE(has(run.out, "warning: 'all': PLCC and RMSE come from a 5-parameter logistic "
                           "fitted to 20 pairs"))
      << run.out;
}

}  // namespace
}  // namespace mad
