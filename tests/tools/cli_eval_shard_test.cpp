// Issue 27 item 1 for `mad eval`: `mad eval DIR --shard I/N` scores its share of the dataset's
// pairs (a reference's pairs together, balanced by pixels: the rule of mad score --shard), and
// `mad merge` of the N files writes the results in dataset order with the statistics. Merged,
// the shards equal the whole dataset evaluated at once: every field of every row but the time,
// bit for bit in the printed 17 digits on the CPU, and the statistics identical for one seed.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <string>

#include "common/error.h"
#include "tests/tools/cli_scratch.h"

namespace mad {
namespace {

using test::has;

// A synthetic KADID-layout dataset of 5 references x 2 types x 5 levels (40x40), whose fifth
// reference and its pairs are replaced by 64x64 images; one distorted image is missing and one
// is not an image (its pair fails).
class EvalShards : public test::CliScratch {
 protected:
  void SetUp() override {
    CliScratch::SetUp();
    ASSERT_EQ(mad("eval data --make-synthetic --synthetic-refs 5 --synthetic-types 2 "
                  "--synthetic-size 40x40 -q")
                  .exit_code,
              kExitOk);
    int seed = 100;
    test::write_random_png(path("data/images/I05.png"), 64, 64, seed++);
    for (const char* type : {"01", "11"})
      for (int level = 1; level <= 5; ++level)
        test::write_random_png(
            path("data/images/I05_" + std::string(type) + "_0" + std::to_string(level) + ".png"),
            64, 64, seed++);
    std::filesystem::remove(path("data/images/I02_01_03.png"));
    write("data/images/I03_11_02.png", "not a PNG");
  }
  // The report's statistics table: its lines from the header row on.
  static std::string table(const std::string& report) {
    const auto at = report.find("\ntype ");
    return at == std::string::npos ? "" : report.substr(at);
  }
  void expect_same_statistics(const std::string& whole, const std::string& merged) const {
    const auto a = nlohmann::json::parse(read(whole)), b = nlohmann::json::parse(read(merged));
    for (const char* key : {"overall", "per_type", "missing_images", "failures", "warnings"})
      EXPECT_EQ(a[key], b[key]) << key;
    EXPECT_EQ(a["run"]["pairs_in_statistics"], 48);  // 50 listed, 1 missing, 1 failed
    EXPECT_EQ(a["run"]["pairs_in_statistics"], b["run"]["pairs_in_statistics"]);
    EXPECT_EQ(a["run"]["pairs_skipped_missing"], b["run"]["pairs_skipped_missing"]);
  }
};

const std::string kEval = "eval data --backend cpu";
const std::string kStats = " --bootstrap 100 --seed 7";

TEST_F(EvalShards, MergedShardsEqualTheWholeDatasetAndItsStatistics) {
  const auto whole = mad_stdout(kEval + " --out whole.csv --json whole.json" + kStats);
  ASSERT_EQ(whole.exit_code, kExitPartial) << whole.out;  // the missing and the failed pair
  std::map<std::string, int> shard_of_ref;
  for (int i = 1; i <= 3; ++i) {
    const std::string n = std::to_string(i), file = "s" + n + ".csv";
    const auto r = mad(kEval + " --shard " + n + "/3 --out " + file);
    EXPECT_TRUE(r.exit_code == kExitOk || r.exit_code == kExitPartial) << r.out;
    EXPECT_TRUE(has(r.out, "statistics: none for shard " + n + "/3 alone")) << r.out;
    EXPECT_TRUE(has(r.out, "mad eval: no statistics for shard " + n + "/3 alone")) << r.out;
    EXPECT_FALSE(has(r.out, "SROCC [95% CI]")) << r.out;
    EXPECT_TRUE(has(read(file + ".settings"), "shard=" + n + "/3\n"));
    const auto rows = csv_rows_without(file, "seconds");
    for (std::size_t k = 1; k < rows.size(); ++k) {
      const auto [it, fresh] = shard_of_ref.emplace(rows[k][0], i);
      EXPECT_EQ(it->second, i) << rows[k][0] << " is in two shards";
    }
  }
  EXPECT_EQ(shard_of_ref.size(), 5u);
  write("merged.csv.tmp", "mine\n");  // never touched: the merge's temporary has its own name
  const auto merged =
      mad_stdout("merge merged.csv s3.csv s1.csv s2.csv --json merged.json" + kStats);
  EXPECT_EQ(read("merged.csv.tmp"), "mine\n");
  EXPECT_EQ(merged.exit_code, kExitPartial) << merged.out;
  EXPECT_FALSE(table(whole.out).empty()) << whole.out;
  EXPECT_EQ(table(merged.out), table(whole.out));
  expect_same_statistics("whole.json", "merged.json");
  // The rows: the whole run's (written by reference) in dataset order, every field but seconds.
  auto expected = csv_rows_without("whole.csv", "seconds");
  std::map<std::string, std::size_t> order;  // dmos.csv's order of the distorted images
  for (const auto& l : lines("data/dmos.csv"))
    order.emplace("images/" + l.substr(0, l.find(',')), order.size());
  std::stable_sort(expected.begin() + 1, expected.end(),
                   [&](const auto& a, const auto& b) { return order[a[1]] < order[b[1]]; });
  EXPECT_EQ(csv_rows_without("merged.csv", "seconds"), expected);
  EXPECT_EQ(expected.size(), 1u + 49u);  // the failed pair has its row; the missing one none
  EXPECT_FALSE(has(read("merged.csv.settings"), "shard="));
}

// Balanced by pixels, as mad score --shard: I05's 10 pairs of 64x64 (40960 px) against 16000
// for each 40x40 reference. Heaviest first to the lighter shard: I05 -> 1, I01 -> 2, I02 -> 2
// (32000), I03 -> 2 (48000), I04 -> 1 (56960): 20 pairs against 30 (by rows: 25 and 25).
TEST_F(EvalShards, SharesAreBalancedByPixelsAsMadScoreShardsAre) {
  std::map<std::string, int> shard_of_ref;
  for (int i = 1; i <= 2; ++i) {
    const std::string file = "h" + std::to_string(i) + ".csv";
    const auto r = mad(kEval + " --shard " + std::to_string(i) + "/2 --out " + file);
    ASSERT_NE(r.exit_code, kExitUsage) << r.out;
    for (const auto& l : lines(file)) shard_of_ref[l.substr(0, l.find(','))] = i;
  }
  EXPECT_EQ(shard_of_ref["images/I05.png"], 1);
  EXPECT_EQ(shard_of_ref["images/I04.png"], 1);
  for (const char* ref : {"images/I01.png", "images/I02.png", "images/I03.png"})
    EXPECT_EQ(shard_of_ref[ref], 2) << ref;
  EXPECT_EQ(lines("h1.csv").size(), 1u + 20u);
  EXPECT_EQ(lines("h2.csv").size(), 1u + 29u);  // I02's pair with the missing image: no row
}

TEST_F(EvalShards, ResumeOptionsAndMergeRefuseWhatDoesNotFit) {
  ASSERT_NE(mad(kEval + " --shard 1/2 --out s1.csv").exit_code, kExitUsage);
  const auto other = mad(kEval + " --shard 2/2 --out s1.csv --resume");
  EXPECT_EQ(other.exit_code, kExitUsage) << other.out;
  EXPECT_TRUE(has(other.out, "made with --shard 1/2; this run uses 2/2")) << other.out;
  for (const char* stats : {"--json s.json", "--html s.html", "--seed 3", "--bootstrap 10"}) {
    const auto r = mad(kEval + " --shard 2/2 --out s2.csv " + stats);
    EXPECT_EQ(r.exit_code, kExitUsage) << stats << "\n" << r.out;
    EXPECT_TRUE(has(r.out, "which one --shard does not compute")) << r.out;
  }
  EXPECT_EQ(mad(kEval + " --shard 2/1 --out s2.csv").exit_code, kExitUsage);
  const auto missing = mad("merge m.csv s1.csv");
  EXPECT_EQ(missing.exit_code, kExitInput) << missing.out;
  EXPECT_TRUE(has(missing.out, "shard 2/2 is missing")) << missing.out;
  // A shard cut short by --limit: its pairs without rows are named.
  ASSERT_NE(mad(kEval + " --shard 2/2 --out s2.csv --limit 3").exit_code, kExitUsage);
  const auto cut = mad("merge m.csv s1.csv s2.csv");
  EXPECT_EQ(cut.exit_code, kExitInput) << cut.out;
  EXPECT_TRUE(has(cut.out, "has no row in the shard files: its shard did not finish")) << cut.out;
  ASSERT_NE(mad(kEval + " --shard 2/2 --out s2.csv --resume").exit_code, kExitUsage);
  write("m.csv", "kept");
  const auto exists = mad("merge m.csv s1.csv s2.csv");
  EXPECT_EQ(exists.exit_code, kExitUsage) << exists.out;
  EXPECT_EQ(read("m.csv"), "kept");
  const auto forced = mad("merge m.csv s1.csv s2.csv --force --bootstrap 10");
  EXPECT_EQ(forced.exit_code, kExitPartial) << forced.out;
  EXPECT_TRUE(has(forced.out, "SROCC [95% CI]")) << forced.out;
  EXPECT_EQ(lines("m.csv").size(), 1u + 49u);
  // Shards of another run (another --mad-version) are refused by name.
  ASSERT_NE(mad(kEval + " --shard 2/2 --out v2.csv --mad-version 2010").exit_code, kExitUsage);
  const auto mixed = mad("merge m2.csv s1.csv v2.csv");
  EXPECT_EQ(mixed.exit_code, kExitInput) << mixed.out;
  EXPECT_TRUE(has(mixed.out, "--mad-version 2010 against 2011")) << mixed.out;
}

// The Slurm script's eval form: each task with SLURM_ARRAY_TASK_ID set by hand, then the merge
// job with the options after `--`; and the submissions on the login node (stand-in sbatch).
TEST_F(EvalShards, SlurmScriptEvaluatesEachTasksShardAndMerges) {
  const std::string script = std::string(MAD_SOURCE_DIR) + "/docs/slurm/mad-shards.sh";
  // As a task resubmitted alone: N comes from the argument, not the array's size.
  const std::string env = "MAD='" + std::string(MAD_BINARY) + "' SLURM_ARRAY_TASK_COUNT=1 ";
  const std::string args = " eval data out 3 --backend cpu -- --json out/sum.json" + kStats;
  for (int i = 1; i <= 3; ++i) {
    const auto task = test::run_command("cd '" + dir_.string() + "' && " + env +
                                        "SLURM_ARRAY_TASK_ID=" + std::to_string(i) + " '" + script +
                                        "'" + args + " 2>&1");
    EXPECT_EQ(task.exit_code, 0) << task.out;  // a failed or missing pair is not a failure
  }
  const auto merge = test::run_command("cd '" + dir_.string() + "' && MAD_MERGE=1 " + env + "'" +
                                       script + "'" + args + " 2>&1");
  EXPECT_EQ(merge.exit_code, kExitPartial) << merge.out;
  EXPECT_TRUE(has(merge.out, "SROCC [95% CI]")) << merge.out;
  ASSERT_EQ(mad(kEval + " --out whole.csv --json whole.json" + kStats).exit_code, kExitPartial);
  expect_same_statistics("whole.json", "out/sum.json");
  EXPECT_EQ(lines("out/results.csv").size(), lines("whole.csv").size());

  write("bin/sbatch", "#!/bin/sh\necho \"$@\" >> \"$(dirname \"$0\")/calls\"\necho 77\n");
  std::filesystem::permissions(path("bin/sbatch"), std::filesystem::perms::owner_all);
  const auto submit = test::run_command("cd '" + dir_.string() + "' && PATH=\"" + path("bin") +
                                        ":$PATH\" '" + script +
                                        "' eval data sub 2 --backend cpu "
                                        "-- --seed 7 2>&1");
  EXPECT_EQ(submit.exit_code, 0) << submit.out;
  EXPECT_TRUE(has(submit.out, "array job 77 (shards 1-2 of 2, mad eval), merge job 77"))
      << submit.out;
  const auto calls = lines("bin/calls");
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_TRUE(has(calls[0], "--array=1-2 " + script + " eval " + path("data") + " " + path("sub") +
                                " 2 --backend cpu -- --seed 7"))
      << calls[0];
  EXPECT_TRUE(has(calls[1], "--dependency=afterany:77")) << calls[1];
  EXPECT_TRUE(has(calls[1], "--export=ALL " + script + " eval " + path("data"))) << calls[1];
  EXPECT_TRUE(has(calls[1], "-- --seed 7")) << calls[1];
  const auto typo = test::run_command("'" + script + "' evaluate data out 2 2>&1");
  EXPECT_EQ(typo.exit_code, 2) << typo.out;
  EXPECT_TRUE(has(typo.out, "the subcommand is score or eval, not 'evaluate'")) << typo.out;
}

}  // namespace
}  // namespace mad
