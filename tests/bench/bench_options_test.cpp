// `mad bench --repeat` and `--precision` on the groups they used to be ignored by (issue 28 §5):
// `--quick --kernels gray --sizes 64x64 --repeat 7 --precision float` exited 0 with u8 rows of 2
// runs. --repeat now fixes every row's timed runs, CPU and GPU alike; --precision is refused
// where no selected group has a precision choice or no device runs one, and chooses the GPU
// rows' precision where one does.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/test_support.h"

namespace mad {
namespace {

// Runs `mad bench ARGS`; standard error goes with standard output only when `with_errors`.
test::CommandResult bench(const std::string& args, bool with_errors) {
  return test::run_command(std::string(MAD_BINARY) + " bench " + args +
                           (with_errors ? " 2>&1" : " 2>/dev/null"));
}

nlohmann::json rows_of(const std::string& args) {
  const test::CommandResult r = bench(args + " --format json", false);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  if (r.exit_code != 0) return nlohmann::json::array();
  return nlohmann::json::parse(r.out)["rows"];
}

TEST(BenchOptions, RepeatFixesTheRunsOfEveryRow) {
  // The quick budget stops the CPU rows at 2 runs: 7 can only come from --repeat.
  for (const char* args : {"--quick --kernels gray --sizes 64x64 --repeat 7",
                           "--quick --kernels combine --repeat 7"}) {
    SCOPED_TRACE(args);
    const nlohmann::json rows = rows_of(args);
    ASSERT_FALSE(rows.empty());
    for (const auto& row : rows) EXPECT_EQ(row["runs"], 7) << row.dump();
  }
  // Without --repeat the quick budget still applies (the CPU rows: 2 runs).
  for (const auto& row : rows_of("--quick --kernels gray --sizes 64x64"))
    if (row["backend"] == "cpu") EXPECT_EQ(row["runs"], 2) << row.dump();
}

TEST(BenchOptions, PrecisionWithoutAStageGroupIsRefused) {
  for (const char* p : {"float", "double", "both"}) {
    const test::CommandResult r =
        bench(std::string("--quick --kernels gray,combine --sizes 64x64 --precision ") + p, true);
    EXPECT_EQ(r.exit_code, 2) << p << ": " << r.out;
    EXPECT_NE(r.out.find("--kernels selects none of them"), std::string::npos) << r.out;
  }
}

TEST(BenchOptions, PrecisionWithoutADeviceIsRefused) {
  if (test::gpu_available()) GTEST_SKIP() << "a CUDA device is present: see PrecisionPicks...";
  const test::CommandResult r = bench("--quick --kernels detection --precision float", true);
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("only the CPU reference runs, always in double"), std::string::npos)
      << r.out;
}

TEST(BenchOptions, PrecisionPicksTheGpuRows) {
  MAD_REQUIRE_GPU();
  for (const std::string p : {"float", "double"}) {
    int gpu_rows = 0;
    for (const auto& row : rows_of("--quick --kernels detection,fft --precision " + p)) {
      if (row["backend"] != "cuda") continue;
      ++gpu_rows;
      EXPECT_EQ(row["precision"], p) << row.dump();
    }
    EXPECT_GT(gpu_rows, 0) << p;
  }
}

}  // namespace
}  // namespace mad
