// Issue 39 section 2: output that cannot be written is an error with the system's reason,
// never a lost result with exit 0. The standard output on a full disk (/dev/full) ends each
// subcommand that prints its result with exit 3; a report file that cannot be written says
// why; and a report path that cannot be written at all is refused before the scoring.
#include <gtest/gtest.h>

#include <string>

#include "common/error.h"
#include "tests/tools/cli_scratch.h"

namespace mad {
namespace {

using test::has;

class OutputErrors : public test::CliScratch {
 protected:
  void SetUp() override {
    CliScratch::SetUp();
    write("list.csv", "ref,dist\nref.png,dist.png\n");
  }
  // A KADID-layout set of five 40x40 pairs, in "data".
  void make_dataset() const {
    const auto made = mad("eval data --make-synthetic --synthetic-refs 1 --synthetic-types 1 "
                          "--synthetic-size 40x40 -q");
    ASSERT_EQ(made.exit_code, 0) << made.out;
  }
  // `mad ARGS` with its standard output on a full disk; what it says on stderr comes back.
  test::CommandResult mad_to_full_disk(const std::string& args) const {
    return test::run_command("cd '" + dir_.string() + "' && " + MAD_BINARY + " " + args +
                             " 2>&1 >/dev/full");
  }
};

// The reason, as the system gives it (a --pairs run names its rows: "error while writing the
// results to standard output: ...").
constexpr const char* kNoSpace = "standard output: No space left on device";

TEST_F(OutputErrors, AResultLostOnTheStandardOutputIsExit3WithTheReason) {
  make_dataset();
  ASSERT_EQ(mad("eval data --backend cpu --shard 1/1 --out shard.csv -q").exit_code, 0);
  for (const std::string args :
       {"score --backend cpu ref.png dist.png", "score --backend cpu --json ref.png dist.png",
        "score --backend cpu --pairs list.csv", "eval data --backend cpu --out out.csv -q --force",
        "merge merged.csv shard.csv --force -q", "bench --quick --kernels combine --format json",
        "kernel histogram ref.png --backend cpu --json", "score --list-variants"}) {
    SCOPED_TRACE(args);
    const auto r = mad_to_full_disk(args);
    EXPECT_EQ(r.exit_code, kExitInput) << r.out;
    EXPECT_TRUE(has(r.out, kNoSpace)) << r.out;
  }
  // The same runs with a standard output that takes it: exit 0, as before.
  EXPECT_EQ(mad("score --backend cpu ref.png dist.png > /dev/null").exit_code, 0);
}

TEST_F(OutputErrors, AReportFileThatCannotBeWrittenSaysWhy) {
  make_dataset();
  const auto eval = mad("eval data --backend cpu --out out.csv -q --json /dev/full");
  EXPECT_EQ(eval.exit_code, kExitInput) << eval.out;
  EXPECT_TRUE(has(eval.out, "cannot write '/dev/full': No space left on device")) << eval.out;
  const auto bench = mad("bench --quick --kernels combine --html /dev/full");
  EXPECT_EQ(bench.exit_code, kExitInput) << bench.out;
  EXPECT_TRUE(has(bench.out, "cannot write '/dev/full': No space left on device")) << bench.out;
}

TEST_F(OutputErrors, AReportPathThatCannotBeWrittenIsRefusedBeforeTheScoring) {
  make_dataset();
  struct Case {
    std::string args, needle;
  };
  for (const Case& c :
       {Case{"eval data --backend cpu --out out.csv --html no/such/rep.html",
             "--html 'no/such/rep.html' cannot be written: No such file or directory"},
        Case{"eval data --backend cpu --out out.csv --json data",
             "--json 'data' cannot be written: Is a directory"}}) {
    SCOPED_TRACE(c.args);
    const auto r = mad(c.args);
    EXPECT_EQ(r.exit_code, kExitInput) << r.out;
    EXPECT_TRUE(has(r.out, c.needle)) << r.out;
    EXPECT_FALSE(exists("out.csv")) << "the pairs were scored before the refusal";
  }
  ASSERT_EQ(mad("eval data --backend cpu --shard 1/1 --out shard.csv -q").exit_code, 0);
  const auto merge = mad("merge merged.csv shard.csv --json no/such/sum.json");
  EXPECT_EQ(merge.exit_code, kExitInput) << merge.out;
  EXPECT_TRUE(has(merge.out, "--json 'no/such/sum.json' cannot be written")) << merge.out;
  EXPECT_FALSE(exists("merged.csv")) << "merged before the refusal";
  const auto bench = mad("bench --quick --kernels combine --markdown no/such/b.md");
  EXPECT_EQ(bench.exit_code, kExitInput) << bench.out;
  EXPECT_TRUE(has(bench.out, "--markdown 'no/such/b.md' cannot be written")) << bench.out;
  EXPECT_FALSE(has(bench.out, "combine")) << "measured before the refusal:\n" << bench.out;
  // An existing report keeps its bytes when the check opens it; none is left where none was.
  write("old.json", "kept");
  ASSERT_EQ(mad("eval data --backend cpu --out out.csv --force -q --html no/such/r.html")
                .exit_code,
            kExitInput);
  EXPECT_EQ(read("old.json"), "kept");
  EXPECT_FALSE(exists("no"));
}

}  // namespace
}  // namespace mad
