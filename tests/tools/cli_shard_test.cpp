// Issue 27 item 1: `mad score --pairs LIST --shard I/N`, `mad merge` (CSV and JSON Lines), and
// the Slurm job-array script of docs/slurm in its score form (run here with SLURM_ARRAY_TASK_ID
// set by hand, and a stand-in sbatch that records what it is asked). The shards of a list,
// merged, equal the whole list scored at once (every field but the time, bit for bit in the
// printed 17 digits, on the CPU). The eval form: cli_eval_shard_test.cpp.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <string>

#include "common/error.h"
#include "tests/tools/cli_scratch.h"

namespace mad {
namespace {

using test::has;

// Three references of different sizes (big: 64x64, two pairs; a, b: 40x40, one pair each; c:
// 40x40, two pairs), a pair named twice and a pair whose image is missing.
class Shards : public test::CliScratch {
 protected:
  void SetUp() override {
    CliScratch::SetUp();
    int seed = 10;
    for (const char* name : {"big", "big_d1", "big_d2"})
      test::write_random_png(path(std::string(name) + ".png"), 64, 64, seed++);
    for (const char* name : {"a", "a_d", "b", "b_d", "c", "c_d1", "c_d2"})
      test::write_random_png(path(std::string(name) + ".png"), 40, 40, seed++);
    write("list.csv",
          "ref,dist\na.png,a_d.png\nbig.png,big_d1.png\nc.png,c_d1.png\nb.png,b_d.png\n"
          "big.png,big_d2.png\nc.png,c_d2.png\nc.png,c_d1.png\nb.png,gone.png\n");
  }
  // The whole list read as `list` (as the shards compared with it read it), into whole.csv.
  static std::string whole_run(const std::string& list) {
    return "score --backend cpu --pairs '" + list + "' --out whole.csv";
  }
};

const std::string kScore = "score --backend cpu --pairs list.csv";

TEST_F(Shards, MergedShardsEqualTheWholeListAndKeepReferencesTogether) {
  ASSERT_EQ(mad(whole_run("list.csv")).exit_code, kExitPartial);
  std::map<std::string, int> shard_of_ref;
  std::size_t rows = 0;
  for (int i = 1; i <= 3; ++i) {
    const std::string file = "s" + std::to_string(i) + ".csv";
    const auto r = mad(kScore + " --shard " + std::to_string(i) + "/3 --out " + file);
    EXPECT_TRUE(r.exit_code == kExitOk || r.exit_code == kExitPartial) << r.out;
    EXPECT_TRUE(has(read(file + ".settings"), "shard=" + std::to_string(i) + "/3\n"));
    const auto shard_rows = csv_rows_without(file, "seconds");
    for (std::size_t k = 1; k < shard_rows.size(); ++k, ++rows) {
      const auto [it, fresh] = shard_of_ref.emplace(shard_rows[k][0], i);
      EXPECT_EQ(it->second, i) << shard_rows[k][0] << " is in two shards";
    }
  }
  EXPECT_EQ(rows, 8u);
  const auto merged = mad("merge merged.csv s3.csv s1.csv s2.csv");
  EXPECT_EQ(merged.exit_code, kExitPartial) << merged.out;  // the missing image's row
  EXPECT_TRUE(has(merged.out, "8 rows of 3 shards in merged.csv (1 failed)")) << merged.out;
  // Issue 39: the same rows, paths included: the list's own (relative) paths, as a whole run
  // writes them, not the absolute ones shards used to write.
  EXPECT_EQ(csv_rows_without("merged.csv", "seconds"), csv_rows_without("whole.csv", "seconds"));
  EXPECT_EQ(csv_rows_without("merged.csv", "seconds").at(1).at(0), "a.png");
  EXPECT_FALSE(has(read("merged.csv.settings"), "shard="));
}

// A list in another folder (its paths relative to it), sharded from the working folder and
// merged from a third: the merged rows equal the whole run's, paths as the whole run writes
// them (the list's folder as given, then the list's own path).
TEST_F(Shards, ShardsOfAListElsewhereMergeToTheWholeRunFromAnyFolder) {
  write("lists/list.csv", "ref,dist\n../a.png,../a_d.png\n../big.png,../big_d1.png\n"
                          "../c.png,../c_d1.png\n../big.png,../big_d2.png\n");
  ASSERT_EQ(mad(whole_run("lists/list.csv")).exit_code, kExitOk);
  for (const char* i : {"1", "2"})
    ASSERT_EQ(mad(std::string("score --backend cpu --pairs lists/list.csv --shard ") + i +
                  "/2 --out s" + i + ".csv -q")
                  .exit_code,
              kExitOk);
  write("elsewhere/.keep", "");
  const auto merged = test::run_command("cd '" + path("elsewhere") + "' && " + MAD_BINARY +
                                        " merge ../m.csv ../s1.csv ../s2.csv 2>&1");
  ASSERT_EQ(merged.exit_code, kExitOk) << merged.out;
  const auto rows = csv_rows_without("m.csv", "seconds");
  EXPECT_EQ(rows, csv_rows_without("whole.csv", "seconds"));
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[1][0], "a.png");  // lists/../a.png
  // A list edited after its shards were scored is still caught.
  write("lists/list.csv", "ref,dist\n../a.png,../a_d.png\n../big.png,../big_d2.png\n"
                          "../c.png,../c_d1.png\n../big.png,../big_d1.png\n");
  const auto changed = mad("merge m2.csv s1.csv s2.csv");
  EXPECT_EQ(changed.exit_code, kExitInput) << changed.out;
  EXPECT_TRUE(has(changed.out, "the list changed after the shards were scored")) << changed.out;
}

// Balanced by pixels, not rows: the 64x64 reference's two pairs (8192 px) weigh more than four
// of the 40x40 pairs (1600 px each), so its shard takes 2 rows and the other 6 (by rows: 4 and
// 4).
TEST_F(Shards, SharesAreBalancedByPixelsNotRows) {
  for (int i = 1; i <= 2; ++i)
    ASSERT_NE(
        mad(kScore + " --shard " + std::to_string(i) + "/2 --out h" + std::to_string(i) + ".csv")
            .exit_code,
        kExitUsage);
  // Groups by weight: c 3 pairs (4800), big 2 (8192), b 2 (3200), a 1 (1600). Heaviest first to
  // the lighter shard: big -> 1, c -> 2, b -> 2 (8000), a -> 2 (9600): rows 2 against 6.
  EXPECT_EQ(lines("h1.csv").size(), 1u + 2u);
  EXPECT_EQ(lines("h2.csv").size(), 1u + 6u);
}

// score --json --out shards merge too (their `line` member keys them), into JSON Lines in list
// order equal to the whole list's; shards of two formats, and options of eval shards, are
// refused.
TEST_F(Shards, JsonLinesShardsMergeToTheWholeList) {
  ASSERT_EQ(mad("score --backend cpu --pairs list.csv --json --out whole.jsonl")
                .exit_code,
            kExitPartial);
  for (int i = 1; i <= 3; ++i) {
    const std::string n = std::to_string(i);
    ASSERT_NE(mad(kScore + " --json --shard " + n + "/3 --out j" + n + ".jsonl").exit_code,
              kExitUsage);
  }
  const auto merged = mad("merge m.jsonl j2.jsonl j3.jsonl j1.jsonl");
  EXPECT_EQ(merged.exit_code, kExitPartial) << merged.out;
  EXPECT_TRUE(has(merged.out, "8 rows of 3 shards in m.jsonl (1 failed)")) << merged.out;
  const auto objects = [&](const std::string& name) {
    std::vector<nlohmann::json> out;
    for (const auto& l : lines(name)) {
      out.push_back(nlohmann::json::parse(l));
      out.back().erase("seconds");
    }
    return out;
  };
  EXPECT_EQ(objects("whole.jsonl").size(), 8u);
  EXPECT_EQ(objects("m.jsonl"), objects("whole.jsonl"));
  ASSERT_NE(mad(kScore + " --shard 3/3 --out c3.csv").exit_code, kExitUsage);
  const auto mixed = mad("merge x.jsonl j1.jsonl j2.jsonl c3.csv");
  EXPECT_EQ(mixed.exit_code, kExitInput) << mixed.out;
  EXPECT_TRUE(has(mixed.out, "are of two formats (CSV and JSON Lines)")) << mixed.out;
  for (const char* eval_only : {"--seed 3", "--bootstrap 5", "--json s.json", "--html r.html"}) {
    const auto r = mad(std::string("merge x.jsonl j1.jsonl j2.jsonl j3.jsonl ") + eval_only);
    EXPECT_EQ(r.exit_code, kExitUsage) << eval_only << "\n" << r.out;
    EXPECT_TRUE(has(r.out, "these are shards of mad score --pairs")) << r.out;
  }
  EXPECT_FALSE(exists("x.jsonl"));
}

// Issue 39: an output that is one of the inputs would be overwritten while it is still a shard:
// refused (exit 2) however it is spelled, before anything is written, even with --force.
TEST_F(Shards, MergeRefusesAnOutputThatIsOneOfItsInputs) {
  ASSERT_NE(mad(kScore + " --shard 1/2 --out s1.csv").exit_code, kExitUsage);
  ASSERT_NE(mad(kScore + " --shard 2/2 --out s2.csv").exit_code, kExitUsage);
  const std::string before = read("s2.csv");
  for (const char* out : {"s2.csv", "./s2.csv"}) {
    const auto r = mad(std::string("merge ") + out + " s1.csv s2.csv --force");
    EXPECT_EQ(r.exit_code, kExitUsage) << r.out;
    EXPECT_TRUE(has(r.out, "is one of the shard files it merges")) << r.out;
  }
  EXPECT_EQ(read("s2.csv"), before);
}

// Issue 39: mad merge (and a shard's --resume) write through a temporary of a unique name: an
// existing OUT.tmp is never touched, and nothing is left beside OUT.
TEST_F(Shards, MergeAndResumeLeaveAnExistingTmpFileAlone) {
  write("m.csv.tmp", "mine\n");
  write("s1.csv.tmp", "mine too\n");
  ASSERT_NE(mad(kScore + " --shard 1/2 --out s1.csv").exit_code, kExitUsage);
  ASSERT_NE(mad(kScore + " --shard 1/2 --out s1.csv --resume").exit_code, kExitUsage);
  ASSERT_NE(mad(kScore + " --shard 2/2 --out s2.csv").exit_code, kExitUsage);
  for (const char* force : {"", " --force"}) {
    const auto r = mad(std::string("merge m.csv s1.csv s2.csv") + force);
    EXPECT_EQ(r.exit_code, kExitPartial) << r.out;
  }
  EXPECT_EQ(read("m.csv.tmp"), "mine\n");
  EXPECT_EQ(read("s1.csv.tmp"), "mine too\n");
  EXPECT_EQ(lines("m.csv").size(), 9u);
  std::size_t temporaries = 0;
  for (const auto& e : std::filesystem::directory_iterator(path(".")))
    temporaries += e.path().filename().string().find(".tmp.") != std::string::npos;
  EXPECT_EQ(temporaries, 0u);
}

TEST_F(Shards, ResumeMergeAndOptionsRefuseWhatDoesNotFit) {
  ASSERT_NE(mad(kScore + " --shard 1/2 --out s1.csv").exit_code, kExitUsage);
  const auto other = mad(kScore + " --shard 2/2 --out s1.csv --resume");
  EXPECT_EQ(other.exit_code, kExitUsage) << other.out;
  EXPECT_TRUE(has(other.out, "made with --shard 1/2; this run uses 2/2")) << other.out;
  const auto missing = mad("merge m.csv s1.csv");
  EXPECT_EQ(missing.exit_code, kExitInput) << missing.out;
  EXPECT_TRUE(has(missing.out, "shard 2/2 is missing")) << missing.out;
  const auto twice = mad("merge m.csv s1.csv s1.csv");
  EXPECT_TRUE(has(twice.out, "shard 1/2 is given twice")) << twice.out;
  ASSERT_NE(mad(kScore + " --shard 2/2 --out s2.csv --mad-version 2010").exit_code, kExitUsage);
  const auto mixed = mad("merge m.csv s1.csv s2.csv");
  EXPECT_EQ(mixed.exit_code, kExitInput) << mixed.out;
  EXPECT_TRUE(has(mixed.out, "--mad-version 2010 against 2011")) << mixed.out;
  EXPECT_FALSE(exists("m.csv"));
  for (const char* bad : {"--shard 3/2", "--shard 0/2", "--shard 1of2", "--shard 1/2 --pairs"}) {
    const auto r = mad(kScore + " " + bad + " --out x.csv");
    EXPECT_EQ(r.exit_code, kExitUsage) << bad << "\n" << r.out;
  }
  EXPECT_TRUE(has(mad("score --shard 1/2 ref.png dist.png").out, "no --pairs was given"));
}

// The Slurm script as Slurm runs it: each array task with its SLURM_ARRAY_TASK_ID, then the
// merge job; and, on the login node, the two submissions (a stand-in sbatch records them). Each
// task runs as one resubmitted alone does (SLURM_ARRAY_TASK_COUNT=1): N is the argument's 3.
// The merge first finds shard 2 missing, then failed, then unfinished, and names the command
// that reruns it. tests/slurm runs the script under a real Slurm.
TEST_F(Shards, SlurmScriptScoresEachTasksShardAndMerges) {
  const std::string script = std::string(MAD_SOURCE_DIR) + "/docs/slurm/mad-shards.sh";
  const std::string env = "MAD='" + std::string(MAD_BINARY) + "' SLURM_ARRAY_TASK_COUNT=1 ";
  const auto task = [&](int i) {
    const auto r = test::run_command("cd '" + dir_.string() + "' && " + env +
                                     "SLURM_ARRAY_TASK_ID=" + std::to_string(i) + " '" + script +
                                     "' score list.csv out 3 --backend cpu 2>&1");
    EXPECT_EQ(r.exit_code, 0) << r.out;  // the failed pair's row is written: not a failure
    EXPECT_EQ(read("out/shard_" + std::to_string(i) + ".status"), "0\n");
  };
  const auto merge_job = [&] {
    return test::run_command("cd '" + dir_.string() + "' && MAD_MERGE=1 " + env + "'" + script +
                             "' score list.csv out 3 --backend cpu 2>&1");
  };
  task(1);
  task(3);
  const std::string rerun =
      "MAD_ARRAY=2 " + script + " score list.csv out 3 --backend cpu -- ";
  auto merge = merge_job();
  EXPECT_EQ(merge.exit_code, kExitInput) << merge.out;
  EXPECT_TRUE(has(merge.out, "1 of 3 shards missing or failed; nothing merged")) << merge.out;
  EXPECT_TRUE(has(merge.out, "shard 2: no out/shard_2.csv")) << merge.out;
  EXPECT_TRUE(has(merge.out, rerun)) << merge.out;
  EXPECT_FALSE(exists("out/results.csv"));
  task(2);
  write("out/shard_2.status", "3\n");
  merge = merge_job();
  EXPECT_EQ(merge.exit_code, kExitInput) << merge.out;
  EXPECT_TRUE(has(merge.out, "shard 2: its task exited 3")) << merge.out;
  EXPECT_TRUE(has(merge.out, rerun)) << merge.out;
  std::filesystem::remove(path("out/shard_2.status"));
  merge = merge_job();
  EXPECT_TRUE(has(merge.out, "shard 2: its task did not finish")) << merge.out;
  task(2);
  merge = merge_job();
  EXPECT_EQ(merge.exit_code, kExitPartial) << merge.out;
  ASSERT_EQ(mad(whole_run("list.csv")).exit_code, kExitPartial);
  EXPECT_EQ(csv_rows_without("out/results.csv", "seconds"),
            csv_rows_without("whole.csv", "seconds"));

  write("bin/sbatch",
        "#!/bin/sh\necho \"merge=$MAD_MERGE $*\" >> \"$(dirname \"$0\")/calls\"\necho 4242\n");
  std::filesystem::permissions(path("bin/sbatch"), std::filesystem::perms::owner_all);
  const auto submit =
      test::run_command("cd '" + dir_.string() + "' && PATH=\"" + path("bin") + ":$PATH\" '" +
                        script + "' score list.csv sub 4 --backend cpu 2>&1");
  EXPECT_EQ(submit.exit_code, 0) << submit.out;
  EXPECT_TRUE(has(submit.out, "array job 4242 (shards 1-4 of 4, mad score), merge job 4242"))
      << submit.out;
  const auto calls = lines("bin/calls");
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_TRUE(has(calls[0], "--array=1-4 " + script + " score " + path("list.csv") + " " +
                                path("sub") + " 4 --backend cpu --"))
      << calls[0];
  EXPECT_TRUE(has(calls[0], "merge= ")) << calls[0];
  // The merge: after the tasks whatever their end, the script itself in merge mode (so that its
  // #SBATCH lines apply), without their GPU.
  EXPECT_TRUE(has(calls[1], "merge=1 ")) << calls[1];
  EXPECT_TRUE(has(calls[1], "--dependency=afterany:4242")) << calls[1];
  EXPECT_TRUE(has(calls[1], "--gres=none")) << calls[1];
  EXPECT_FALSE(has(calls[1], "--wrap")) << calls[1];
  EXPECT_TRUE(has(calls[1], "--export=ALL " + script + " score " + path("list.csv") + " " +
                                path("sub") + " 4 --backend cpu --"))
      << calls[1];
  // MAD_ARRAY: only the shards it names, and a merge after them.
  std::filesystem::remove(path("bin/calls"));
  const auto again = test::run_command("cd '" + dir_.string() + "' && PATH=\"" + path("bin") +
                                       ":$PATH\" MAD_ARRAY=2,4 '" + script +
                                       "' score list.csv sub 4 --backend cpu 2>&1");
  EXPECT_EQ(again.exit_code, 0) << again.out;
  const auto calls_again = lines("bin/calls");
  ASSERT_EQ(calls_again.size(), 2u);
  EXPECT_TRUE(has(calls_again[0], "--array=2,4 " + script)) << calls_again[0];
  EXPECT_TRUE(has(calls_again[1], "--dependency=afterany:4242")) << calls_again[1];
  const auto bad = test::run_command("cd '" + dir_.string() + "' && MAD_ARRAY='2;rm' '" +
                                     script + "' score list.csv sub 4 2>&1");
  EXPECT_EQ(bad.exit_code, 2) << bad.out;
  const auto no_n = test::run_command("'" + script + "' score list.csv sub four 2>&1");
  EXPECT_EQ(no_n.exit_code, 2) << no_n.out;
  EXPECT_TRUE(has(no_n.out, "a positive whole number, not 'four'")) << no_n.out;
}

}  // namespace
}  // namespace mad
