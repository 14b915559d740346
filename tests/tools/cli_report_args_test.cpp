// apply_report_args (tools/cli_report_args.h): mad eval's and mad merge's report arguments reach
// every datasets/ config that takes them, field by field, and a --json or --html path that cannot
// be written is refused (InputError) before any work.
#include <gtest/gtest.h>

#include "common/error.h"
#include "datasets/eval_merge.h"
#include "datasets/eval_session.h"
#include "datasets/video_eval.h"
#include "tools/cli_report_args.h"

namespace mad::cli {
namespace {

ReportArgs given() {
  ReportArgs a;
  a.out = "out.csv";
  a.json = "";
  a.html = "";
  a.force = true;
  a.quiet = true;
  a.resamples = 17;
  a.seed = 99;
  return a;
}

template <class Config>
void expect_applied(Config c) {
  apply_report_args(given(), c);
  EXPECT_EQ(c.out, "out.csv");
  EXPECT_TRUE(c.overwrite);
  EXPECT_EQ(c.bootstrap.resamples, 17);
  EXPECT_EQ(c.bootstrap.seed, 99u);
  EXPECT_EQ(c.log, nullptr);
}

TEST(ReportArgs, ReachEveryConfig) {
  expect_applied(datasets::EvalMergeConfig{});
  expect_applied(datasets::EvalConfig(BackendChoice{ResolvedBackend(Backend::Cpu)}));
  expect_applied(datasets::VideoEvalConfig(BackendChoice{ResolvedBackend(Backend::Cpu)}));
}

TEST(ReportArgs, ReportPathsAndLogPassAsGiven) {
  ReportArgs a;
  a.json = testing::TempDir() + "report_args_summary.json";
  a.html = testing::TempDir() + "report_args_report.html";
  datasets::EvalMergeConfig c;
  apply_report_args(a, c);
  EXPECT_EQ(c.json, a.json);
  EXPECT_EQ(c.html, a.html);
  EXPECT_EQ(c.log, stderr);  // not --quiet: the notes print
  EXPECT_FALSE(c.overwrite);
}

TEST(ReportArgs, AnUnwritableReportIsRefusedFirst) {
  for (const bool json : {true, false}) {
    ReportArgs a;
    (json ? a.json : a.html) = "/no/such/folder/report";
    datasets::EvalMergeConfig c;
    EXPECT_THROW(apply_report_args(a, c), InputError) << (json ? "--json" : "--html");
  }
}

}  // namespace
}  // namespace mad::cli
