// Issue 28 section 2: mad never destroys a user's data. --make-synthetic refuses a folder that
// holds anything, --maps refuses to overwrite maps, --resume keeps every written row (a list
// may repeat a pair), a failed write names the system's reason, and mad eval keeps each
// dataset's rows in their own file.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "common/error.h"
#include "tests/tools/cli_scratch.h"

namespace mad {
namespace {

namespace fs = std::filesystem;
using test::has;

class DataSafety : public test::CliScratch {};

constexpr const char* kTinySynthetic =
    "--make-synthetic --synthetic-refs 1 --synthetic-types 1 --synthetic-size 40x36";

TEST_F(DataSafety, MakeSyntheticRefusesAFolderThatHoldsAnything) {
  write("kadid/dmos.csv", "dist_img,ref_img,dmos,var\nmine.png,I01.png,3,0\n");
  const auto r = mad(std::string("eval kadid ") + kTinySynthetic);
  EXPECT_EQ(r.exit_code, kExitUsage) << r.out;
  EXPECT_TRUE(has(r.out, "is not empty")) << r.out;
  EXPECT_TRUE(has(r.out, "--force")) << r.out;
  EXPECT_EQ(read("kadid/dmos.csv"), "dist_img,ref_img,dmos,var\nmine.png,I01.png,3,0\n");
  EXPECT_FALSE(exists("kadid/images"));
  // An empty or new folder is written; --force writes over a non-empty one.
  fs::create_directories(dir_ / "empty");
  EXPECT_EQ(mad(std::string("eval empty ") + kTinySynthetic).exit_code, kExitOk);
  EXPECT_EQ(mad(std::string("eval new ") + kTinySynthetic).exit_code, kExitOk);
  const auto forced = mad(std::string("eval kadid --force ") + kTinySynthetic);
  EXPECT_EQ(forced.exit_code, kExitOk) << forced.out;
  EXPECT_EQ(lines("kadid/dmos.csv").size(), 6u);  // header + 1 reference x 1 type x 5 levels
}

TEST_F(DataSafety, MapsAreNotOverwrittenAndThePlainOutputSaysWhereTheyWent) {
  const auto first = mad_stdout("score --backend cpu --maps maps ref.png dist.png");
  ASSERT_EQ(first.exit_code, kExitOk) << first.out;
  EXPECT_TRUE(has(first.out, "map_hi  maps/map_hi.png  png_scale ")) << first.out;
  EXPECT_TRUE(has(first.out, "map_lo  maps/map_lo.png  png_scale ")) << first.out;
  const std::string before = read("maps/map_hi.png");
  const auto again = mad("score --backend cpu --maps maps dist.png ref.png");
  EXPECT_EQ(again.exit_code, kExitUsage) << again.out;
  EXPECT_TRUE(has(again.out, "already holds")) << again.out;
  EXPECT_TRUE(has(again.out, "map_hi.png")) << again.out;
  EXPECT_EQ(read("maps/map_hi.png"), before);
  const auto forced = mad("score --backend cpu --force --maps maps dist.png ref.png");
  EXPECT_EQ(forced.exit_code, kExitOk) << forced.out;
  EXPECT_NE(read("maps/map_hi.png"), before);
}

// A list naming one pair on five lines: each line gets its row, fresh or resumed after an
// interruption that left three (before, resuming kept one row for all five).
TEST_F(DataSafety, ResumeKeepsEveryRowOfARepeatedPair) {
  write("list.csv", "ref,dist\nref.png,dist.png\nref.png,dist.png\nref.png,dist.png\n"
                    "ref.png,dist.png\nref.png,dist.png\n");
  const std::string run = "score --backend cpu --pairs list.csv --out out.csv";
  ASSERT_EQ(mad(run).exit_code, kExitOk);
  const std::vector<std::string> whole = lines("out.csv");
  ASSERT_EQ(whole.size(), 6u);
  // As an interruption leaves it: the header, three rows and a half-written fourth.
  write("out.csv", whole[0] + "\n" + whole[1] + "\n" + whole[2] + "\n" + whole[3] + "\n" +
                       whole[4].substr(0, 20));
  const auto resumed = mad(run + " --resume");
  ASSERT_EQ(resumed.exit_code, kExitOk) << resumed.out;
  EXPECT_TRUE(has(resumed.out, "2 pairs scored, 0 failed")) << resumed.out;
  EXPECT_TRUE(has(resumed.out, "3 already done")) << resumed.out;
  const std::vector<std::string> after = lines("out.csv");
  ASSERT_EQ(after.size(), 6u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(after[i], whole[i]) << "row " << i << " was rewritten";
  for (int i = 1; i < 6; ++i)  // each row ends with its line of the list: 2..6
    EXPECT_EQ(after[i].substr(after[i].rfind(',') + 1), std::to_string(i + 1)) << after[i];
  // Resumed again, nothing is scored and nothing is lost.
  const auto done = mad(run + " --resume");
  EXPECT_TRUE(has(done.out, "0 pairs scored")) << done.out;
  EXPECT_EQ(lines("out.csv"), after);
}

TEST_F(DataSafety, ResumeRefusesRowsOfAnotherList) {
  write("list.csv", "ref,dist\nref.png,dist.png\ndist.png,ref.png\n");
  const std::string run = "score --backend cpu --pairs list.csv --out out.csv";
  ASSERT_EQ(mad(run).exit_code, kExitOk);
  const std::string written = read("out.csv");
  write("list.csv", "ref,dist\ndist.png,ref.png\nref.png,dist.png\n");  // lines swapped
  const auto changed = mad(run + " --resume");
  EXPECT_EQ(changed.exit_code, kExitUsage) << changed.out;
  EXPECT_TRUE(has(changed.out, "the list changed")) << changed.out;
  write("list.csv", "ref,dist\nref.png,dist.png\n");  // line 3 is gone
  const auto shorter = mad(run + " --resume");
  EXPECT_EQ(shorter.exit_code, kExitUsage) << shorter.out;
  EXPECT_TRUE(has(shorter.out, "has no pair on that line")) << shorter.out;
  EXPECT_EQ(read("out.csv"), written);
}

// A full disk: the error names the system's reason (before: only "error while writing").
TEST_F(DataSafety, AFailedWriteNamesTheCause) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full on this system";
  fs::create_symlink("/dev/full", dir_ / "full.csv");
  write("list.csv", "ref,dist\nref.png,dist.png\n");
  const auto r = mad("score --backend cpu --pairs list.csv --force --out full.csv");
  EXPECT_EQ(r.exit_code, kExitInput) << r.out;
  EXPECT_TRUE(has(r.out, "No space left on device")) << r.out;
}

// A file-size limit stops the writes part way (EFBIG, SIGXFSZ ignored, as a full disk would):
// the rows before the failure are whole, and --resume without the limit completes the file.
TEST_F(DataSafety, RowsBeforeAFailedWriteStayAndResumeCompletesThem) {
  std::string list = "ref,dist\n";
  for (int i = 0; i < 12; ++i) list += i % 2 ? "ref.png,dist.png\n" : "dist.png,ref.png\n";
  write("list.csv", list);
  const std::string run = "score --backend cpu --pairs list.csv --out out.csv";
  const auto cut = test::run_command("cd '" + dir_.string() + "' && trap '' XFSZ && ulimit -f 2 && " +
                                     MAD_BINARY + " " + run + " 2>&1");
  EXPECT_EQ(cut.exit_code, kExitInput) << cut.out;
  EXPECT_TRUE(has(cut.out, "File too large")) << cut.out;
  const std::size_t kept = lines("out.csv").size();
  ASSERT_GT(kept, 1u) << "the limit should leave the header and some rows";
  ASSERT_LT(kept, 13u);
  const auto resumed = mad(run + " --resume");
  ASSERT_EQ(resumed.exit_code, kExitOk) << resumed.out;
  const std::vector<std::string> all = lines("out.csv");
  ASSERT_EQ(all.size(), 13u);
  for (int i = 1; i <= 12; ++i)  // lines 2..13 of the list, once each, in order
    EXPECT_EQ(all[i].substr(all[i].rfind(',') + 1), std::to_string(i + 1)) << all[i];
}

// mad eval: the dataset's identity is recorded, another dataset's rows are never resumed into
// one file, and without --out each dataset gets its own file.
TEST_F(DataSafety, EvalKeepsEachDatasetsRowsApart) {
  ASSERT_EQ(mad(std::string("eval a ") + kTinySynthetic).exit_code, kExitOk);
  ASSERT_EQ(mad(std::string("eval b ") + kTinySynthetic).exit_code, kExitOk);  // same files
  const std::string eval = " --backend cpu --bootstrap 10 --out r.csv";
  const auto a = mad("eval a" + eval);
  ASSERT_EQ(a.exit_code, kExitOk) << a.out;
  const std::string settings = read("r.csv.settings");
  EXPECT_TRUE(has(settings, "dataset=kadid10k\n")) << settings;
  EXPECT_TRUE(has(settings, "dataset_folder=" + fs::canonical(dir_ / "a").string() + "\n"))
      << settings;
  EXPECT_TRUE(has(settings, "dataset_pairs=5\n")) << settings;
  const std::string rows = read("r.csv");
  const auto b = mad("eval b" + eval + " --resume");
  EXPECT_EQ(b.exit_code, kExitUsage) << b.out;
  EXPECT_TRUE(has(b.out, "never mixes two datasets")) << b.out;
  EXPECT_EQ(read("r.csv"), rows);
  // Default names: one file per dataset, found again by --resume.
  ASSERT_EQ(mad("eval a --backend cpu --bootstrap 10").exit_code, kExitOk);
  const auto second = mad("eval b --backend cpu --bootstrap 10");
  EXPECT_EQ(second.exit_code, kExitOk) << second.out;
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir_))
    files += e.path().filename().string().rfind("results_kadid10k_", 0) == 0 &&
             e.path().extension() == ".csv";
  EXPECT_EQ(files, 2);
  const auto again = mad("eval a --backend cpu --bootstrap 10 --resume");
  EXPECT_EQ(again.exit_code, kExitOk) << again.out;
  EXPECT_TRUE(has(again.out, "5 pair(s) already in results_kadid10k_a_")) << again.out;
}

}  // namespace
}  // namespace mad
