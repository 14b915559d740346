// Issue 28 section 4: the command line helps a person who types. Unknown words are named with
// the nearest valid one; `mad help`; one answer for an existing --out with one pair; help text
// without CLI11's type and validator noise, grouped; --reference/--distorted, -o and -q; and
// mad eval's messages for a folder it cannot read, a file given as DIR, and --manifest read
// from the working folder.
#include <gtest/gtest.h>

#include <string>

#include "common/error.h"
#include "tests/support/test_support.h"
#include "tests/tools/cli_scratch.h"

namespace mad {
namespace {

using test::exits_saying;
using test::has;

class Typing : public test::CliScratch {};

TEST_F(Typing, UnknownWordsAreNamedWithTheNearestValidOne) {
  const test::TextCase cases[] = {  // text: the command line
      {"scor ref.png dist.png", "unknown subcommand 'scor'; did you mean 'score'?"},
      {"evla data", "unknown subcommand 'evla'; did you mean 'eval'?"},
      {"score --thread 2 ref.png dist.png",
       "mad score has no option '--thread'; did you mean '--threads'?"},
      {"score --jsn ref.png dist.png", "has no option '--jsn'; did you mean '--json'?"},
      {"eval data --bootstrapp 5", "has no option '--bootstrapp'; did you mean '--bootstrap'?"},
      {"help scroe", "no subcommand 'scroe'; did you mean 'score'?"},
      // Two letters swapped are one edit: "--htlm" is one from "--html" and two (substitutions)
      // from "--help", which plain edit distance ties with it and lists first.
      {"eval data --htlm rep.html", "has no option '--htlm'; did you mean '--html'?"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    const auto r = mad(c.text);
    EXPECT_TRUE(exits_saying(r, kExitUsage, {c.needle}));
    EXPECT_FALSE(has(r.out, "A subcommand is required")) << r.out;
  }
}

TEST_F(Typing, HelpSubcommandPrintsTheHelp) {
  const auto all = mad("help");
  EXPECT_EQ(all.exit_code, kExitOk) << all.out;
  for (const char* sub : {"score", "kernel", "bench", "eval"}) EXPECT_TRUE(has(all.out, sub));
  const auto score = mad("help score");
  EXPECT_EQ(score.exit_code, kExitOk) << score.out;
  EXPECT_TRUE(has(score.out, "Usage: mad score")) << score.out;
  EXPECT_EQ(score.out, mad("score --help").out);
}

TEST_F(Typing, HelpTextHasNoValidatorNoiseAndIsGrouped) {
  for (const char* sub : {"score", "eval", "kernel", "bench"}) {
    SCOPED_TRACE(sub);
    const auto r = mad(std::string(sub) + " --help");
    EXPECT_EQ(r.exit_code, kExitOk) << r.out;
    for (const char* noise : {"INT:", "UINT:", "TEXT:", "Excludes:", "Needs:", " in [1, "})
      EXPECT_FALSE(has(r.out, noise)) << noise << " in\n" << r.out;
  }
  const auto score = mad("score --help").out;
  for (const char* group : {"\nInput:\n", "\nOutput:\n", "\nScoring:\n", "\nGPU only:\n"})
    EXPECT_TRUE(has(score, group)) << group;
  EXPECT_TRUE(has(score, "--threads N ")) << score;
  const auto eval = mad("eval --help").out;
  for (const char* group : {"\nDataset:\n", "\nWorkers:\n", "\nStatistics:\n",
                            "\nSynthetic dataset:\n"})
    EXPECT_TRUE(has(eval, group)) << group;
}

// One pair over an existing --out: the advice is --force (what works), and every conflict of
// options exits 2 (before: exit 3 with the advice --resume, which was then refused).
TEST_F(Typing, OnePairOverAnExistingOutGivesOneAnswer) {
  ASSERT_EQ(mad("score --backend cpu ref.png dist.png --out one.csv").exit_code, kExitOk);
  const auto again = mad("score --backend cpu ref.png dist.png --out one.csv");
  EXPECT_EQ(again.exit_code, kExitUsage) << again.out;
  EXPECT_TRUE(has(again.out, "--force")) << again.out;
  EXPECT_FALSE(has(again.out, "--resume")) << again.out;
  EXPECT_EQ(mad("score --backend cpu ref.png dist.png --out one.csv --resume").exit_code,
            kExitUsage);
  EXPECT_EQ(mad("score --backend cpu ref.png dist.png --out one.csv --force").exit_code, kExitOk);
  write("list.csv", "ref,dist\nref.png,dist.png\n");
  ASSERT_EQ(mad("score --backend cpu --pairs list.csv --out list_out.csv").exit_code, kExitOk);
  const auto list_again = mad("score --backend cpu --pairs list.csv --out list_out.csv");
  EXPECT_EQ(list_again.exit_code, kExitUsage) << list_again.out;
  EXPECT_TRUE(has(list_again.out, "--resume")) << list_again.out;
}

TEST_F(Typing, NamedFormsShortOptionsAndQuiet) {
  const auto positional = mad_stdout("score --backend cpu ref.png dist.png");
  ASSERT_EQ(positional.exit_code, kExitOk) << positional.out;
  const auto named = mad_stdout("score --backend cpu --distorted dist.png --reference ref.png");
  EXPECT_EQ(named.exit_code, kExitOk) << named.out;
  EXPECT_EQ(named.out, positional.out);
  EXPECT_EQ(mad("score --backend cpu --reference ref.png ref.png dist.png").exit_code, kExitUsage);
  EXPECT_EQ(mad("score --backend cpu -o short.csv ref.png dist.png").exit_code, kExitOk);
  EXPECT_EQ(lines("short.csv").size(), 2u);
  write("list.csv", "ref,dist\nref.png,dist.png\n");
  const auto loud = mad("score --backend cpu --pairs list.csv -o a.csv");
  EXPECT_TRUE(has(loud.out, "1 pairs scored")) << loud.out;
  const auto quiet = mad("score --backend cpu --pairs list.csv -o b.csv -q");
  EXPECT_EQ(quiet.exit_code, kExitOk) << quiet.out;
  EXPECT_EQ(quiet.out, "");
  EXPECT_EQ(lines("b.csv").size(), 2u);
}

TEST_F(Typing, EvalSaysWhyAFolderCannotBeRead) {
  write("data/scores.csv", "ref,dist,score\nref.png,dist.png,3\n");
  EXPECT_TRUE(exits_saying(mad("eval data --backend cpu"), kExitInput,
                           {"looked for TID's mos_with_names.txt", "it holds scores.csv",
                            "--dataset csv --manifest 'data/scores.csv'"}));
  EXPECT_TRUE(exits_saying(mad("eval ref.png --backend cpu"), kExitInput,
                           {"'ref.png' is a file, not a dataset folder"}));
}

// --manifest is read from the working folder, like every other path; a name found only inside
// DIR (where it was read before) is refused with the path that works.
TEST_F(Typing, EvalReadsTheManifestFromTheWorkingFolder) {
  write("data/m/ref.png", read("ref.png"));
  write("data/m/dist.png", read("dist.png"));
  write("data/m/manifest_a.csv", "ref,dist,score\nref.png,dist.png,3\ndist.png,ref.png,2\n");
  const std::string opts = " --backend cpu --bootstrap 5 --lower-is-better -o r.csv --force";
  const auto ok = mad("eval data --manifest data/m/manifest_a.csv" + opts);
  EXPECT_EQ(ok.exit_code, kExitOk) << ok.out;
  EXPECT_EQ(lines("r.csv").size(), 3u);
  EXPECT_TRUE(exits_saying(mad("eval data --manifest m/manifest_a.csv" + opts), kExitInput,
                           {"did you mean --manifest 'data/m/manifest_a.csv'?"}));
}

}  // namespace
}  // namespace mad
