// `mad bench --list-studies` and `--study` (issue 11) through the real executable: every study
// of tools/bench/study.h's table runs in --quick form (CPU columns without a GPU) and produces its
// table with the seed's figures; JSON parses; HTML is well formed; unknown names and options that
// do not apply are refused with exit 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>

#include "tests/bench/bench_markup_check.h"
#include "tests/support/test_support.h"
#include "tools/bench/study.h"

namespace fs = std::filesystem;

namespace mad {
namespace {

test::CommandResult bench(const std::string& args, bool with_stderr = false) {
  return test::run_command(std::string(MAD_BINARY) + " bench " + args +
                           (with_stderr ? " 2>&1" : " 2>/dev/null"));
}

fs::path scratch_file(const std::string& name) {
  return fs::temp_directory_path() / ("mad_study_test_" + std::to_string(::getpid()) + name);
}

TEST(StudyCli, ListStudiesNamesEveryStudy) {
  const auto r = bench("--list-studies");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  for (const bench::Study& s : bench::study_table())
    EXPECT_NE(r.out.find(s.name + "  "), std::string::npos) << s.name << "\n" << r.out;
}

// One quick run of every study, as JSON: each has rows, the seed column is filled, and every
// CPU row carries our figure; GPU rows carry one exactly when a device ran them.
TEST(StudyCli, EveryStudyRunsQuickAndFillsItsColumns) {
  const auto r = bench("--study all --quick --format json");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["studies"].size(), bench::study_table().size());
  for (const auto& s : doc["studies"]) {
    SCOPED_TRACE(s["name"].get<std::string>());
    EXPECT_TRUE(s["quick"].get<bool>());
    ASSERT_FALSE(s["rows"].empty());
    EXPECT_FALSE(s["comparisons"].empty());
    int seeded = 0, cpu_rows = 0;
    for (const auto& row : s["rows"]) {
      if (!row["seed"].is_null()) {
        ++seeded;
        EXPECT_FALSE(row["seed"]["shown"].get<std::string>().empty());
        EXPECT_FALSE(row["seed"]["where"].get<std::string>().empty());
      }
      EXPECT_TRUE(row["ratio"].is_null()) << "no ratio in --quick runs";
      const std::string what = row["ours_what"];
      for (const char* k : {"kernels", "block_threads", "registers", "static_smem_bytes",
                            "dynamic_smem_bytes", "occupancy_pct"})
        EXPECT_TRUE(row.contains(k)) << k;
      if (what.rfind("cpu", 0) == 0) {
        ++cpu_rows;
        EXPECT_TRUE(row["ours_ms"].is_number()) << row.dump();
        EXPECT_TRUE(row["registers"].is_null()) << "a CPU row has no kernel: " << row.dump();
      } else if (!s["gpu"].get<bool>()) {
        EXPECT_TRUE(row["ours_ms"].is_null()) << row.dump();
      }
    }
    EXPECT_GT(seeded, 0);
    if (s["name"] != "seed002-nick-blocks") EXPECT_GT(cpu_rows, 0);
  }
}

TEST(StudyCli, TableAndHtmlOfOneStudy) {
  const fs::path html = scratch_file(".html");
  const auto r = bench("--study seed001-histogram-images --quick --html '" + html.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("== seed001-histogram-images"), std::string::npos) << r.out;
  // --quick runs a twelfth of each side: Table 1's 3000x3000 sequential (0.01157282 s) is not
  // set beside ours (study_truth_test.cpp checks the JSON keeps it).
  EXPECT_EQ(r.out.find("0.01157282 s"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("ours/seed"), std::string::npos) << r.out;
  // The comparisons all need the GPU's S and G kernels: without a device none is printed.
  EXPECT_EQ(r.out.find("same ordering") != std::string::npos, test::gpu_available()) << r.out;
  EXPECT_NE(r.out.find("resources"), std::string::npos) << "the kernel resources column";
  std::ifstream in(html);
  const std::string page{std::istreambuf_iterator<char>(in), {}};
  EXPECT_NE(page.find("<svg"), std::string::npos);
  EXPECT_EQ(page.find("<th>seed's figure</th>"), std::string::npos) << "no seed column in --quick";
  EXPECT_EQ(test::markup_fault(page), "");
  fs::remove(html);
}

TEST(StudyCli, UnknownStudyIsRefusedWithTheValidNames) {
  const auto r = bench("--study seed001-histogram-images,nope --quick", true);
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("nope"), std::string::npos) << r.out;
  for (const bench::Study& s : bench::study_table())
    EXPECT_NE(r.out.find(s.name), std::string::npos) << r.out;
}

TEST(StudyCli, OptionsThatDoNotApplyAreRefused) {
  for (const std::string args :
       {"--study all --kernels gray", "--study all --sizes 64x64", "--study all --repeat 3",
        "--study all --precision float", "--study all --markdown x.md",
        "--study all --format csv", "--study all --summary-from x.json",
        "--list-studies --quick", "--list-studies --study all", "--list-studies --sizes 8x8"}) {
    const auto r = bench(args, true);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.out;
    EXPECT_NE(r.out.find("--"), std::string::npos) << args << "\n" << r.out;
  }
}

}  // namespace
}  // namespace mad
