// `mad score` as a user runs it: outputs, JSON fields, maps, pairs lists and every bad-input
// path with its exit code (docs/cli.md "Exit codes").
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "common/error.h"
#include "common/gpu_info.h"
#include "tests/support/test_support.h"
#include "tests/tools/run_mad.h"

namespace fs = std::filesystem;

namespace mad {
namespace {

using RunResult = test::CommandResult;

using test::run_mad;

std::string img(const std::string& name) {
  return "'" + test::data_path("reference/images/" + name) + "'";
}

fs::path scratch_dir(const std::string& name) {
  const fs::path d =
      fs::temp_directory_path() / ("mad_cli_test_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

void write_file(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary) << bytes;
}

TEST(CliScore, PrintsMadHiLo) {
  const RunResult r = run_mad("score --backend cpu " + img("rocket_333x257.png") + " " +
                              img("rocket_333x257__jpeg_q30.png"));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("MAD "), std::string::npos);
  EXPECT_NE(r.out.find("HI "), std::string::npos);
  EXPECT_NE(r.out.find("LO "), std::string::npos);
}

// A lone pair's --out file is a --pairs results file of one row: as many fields as its header
// (the row once lacked the header's last column, `line`).
TEST(CliScore, ALonePairsOutFileHasItsHeadersColumns) {
  const fs::path dir = scratch_dir("lone_out");
  const std::string out = (dir / "one.csv").string();
  const RunResult r = run_mad("score --backend cpu " + img("rocket_333x257.png") + " " +
                              img("rocket_333x257__jpeg_q30.png") + " --out '" + out + "'");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::ifstream in(out);
  std::string header, row;
  ASSERT_TRUE(std::getline(in, header) && std::getline(in, row));
  const auto fields = [](const std::string& line) {
    return std::count(line.begin(), line.end(), ',') + 1;  // no field here holds a comma
  };
  EXPECT_EQ(fields(row), fields(header)) << header << "\n" << row;
  EXPECT_EQ(header.substr(header.rfind(',') + 1), "line");
  EXPECT_EQ(row.substr(row.rfind(',') + 1), "1");
  fs::remove_all(dir);
}

TEST(CliScore, JsonHasEveryFieldAndTheReferenceValues) {
  const RunResult r =
      run_mad("score --backend cpu --mad-version 2010 --json " + img("rocket_333x257.png") + " " +
              img("rocket_333x257__jpeg_q30.png"));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  for (const char* k : {"mad", "hi", "lo", "sig", "width", "height", "mad_version", "input_class",
                        "backend", "seconds"})
    EXPECT_TRUE(j.contains(k)) << k;
  EXPECT_NEAR(j["mad"].get<double>(), 5.8515378423509139, 1e-9 * 5.85);
  EXPECT_NEAR(j["hi"].get<double>(), 7.6349873846403638, 1e-9 * 7.63);
  EXPECT_EQ(j["width"], 257);
  EXPECT_EQ(j["height"], 333);
  EXPECT_EQ(j["mad_version"], 2010);
  EXPECT_EQ(j["input_class"], "uint8");
  EXPECT_EQ(j["backend"], "cpu");
}

TEST(CliScore, Version2011ScalesHiBy200) {
  const std::string pair = img("rocket_333x257.png") + " " + img("rocket_333x257__jpeg_q30.png");
  const auto a =
      nlohmann::json::parse(run_mad("score --backend cpu --json --mad-version 2010 " + pair).out);
  const auto b = nlohmann::json::parse(run_mad("score --backend cpu --json " + pair).out);
  EXPECT_EQ(b["mad_version"], 2011);
  EXPECT_DOUBLE_EQ(b["hi"].get<double>(), 200.0 * a["hi"].get<double>());
  EXPECT_EQ(b["lo"].get<double>(), a["lo"].get<double>());
}

TEST(CliScore, WritesMapsWithTheirScale) {
  const fs::path dir = scratch_dir("maps");
  const RunResult r =
      run_mad("score --backend cpu --json --maps '" + dir.string() + "' " +
              img("rocket_333x257.png") + " " + img("rocket_333x257__jpeg_q30.png"));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(fs::exists(dir / "map_hi.png"));
  EXPECT_TRUE(fs::exists(dir / "map_lo.png"));
  EXPECT_GT(j["maps"]["map_hi"]["png_scale"].get<double>(), 0.0);
  fs::remove_all(dir);
}

TEST(CliScore, BadInputsFailWithClearMessagesAndExitCodes) {
  const fs::path dir = scratch_dir("bad");
  write_file(dir / "empty.png", "");
  write_file(dir / "text.png", "this is not an image\n");
  {
    std::ifstream in(test::data_path("reference/images/rocket_333x257.png"), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), {});
    write_file(dir / "truncated.png", bytes.substr(0, bytes.size() / 2));
  }
  const std::string good = img("rocket_333x257.png");
  struct Case {
    std::string args;
    int code;
    std::string needle;
  } cases[] = {
      {"score " + good + " /nonexistent/x.png", kExitInput, "x.png"},
      {"score " + good + " '" + (dir / "empty.png").string() + "'", kExitInput, "empty.png"},
      {"score " + good + " '" + (dir / "text.png").string() + "'", kExitInput, "text.png"},
      {"score " + good + " '" + (dir / "truncated.png").string() + "'", kExitInput,
       "truncated.png"},
      {"score " + good + " " + img("camera_512.png"), kExitInput, "same size"},
      {"score --mad-version 1999 " + good + " " + good, kExitUsage, "2011, 2010 or stmad"},
      {"score --backend gpu " + good + " " + good, kExitUsage, "backend"},
      {"score", kExitUsage, "REF"},
      {"frobnicate", kExitUsage, ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.args);
    const RunResult r = run_mad(c.args);
    EXPECT_EQ(r.exit_code, c.code) << r.out;
    EXPECT_NE(r.out.find(c.needle), std::string::npos) << r.out;
  }
  fs::remove_all(dir);
}

// --backend auto with one pair the CPU finishes before CUDA would start: the CPU runs, says why,
// and --threads takes effect (with a GPU-only option the GPU is asked, as before).
TEST(CliScore, AutoScoresALoneSmallPairOnTheCpu) {
  const RunResult r = run_mad("score --threads 16 --json " + img("rocket_333x257.png") + " " +
                              img("rocket_333x257__jpeg_q30.png"));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["backend"], "cpu");
  if (gpu_backend_compiled())
    EXPECT_EQ(j["backend_reason"].get<std::string>().rfind("auto: one 257x333 pair", 0), 0u)
        << j["backend_reason"];
  else
    EXPECT_EQ(j["backend_reason"], "auto: built without CUDA");
}

TEST(CliScore, PairsListScoresTheGoodRowsAndReportsTheBadOne) {
  const fs::path dir = scratch_dir("pairs");
  const std::string images = test::data_path("reference/images");
  write_file(dir / "list.csv",
             "ref,dist\n" + images + "/rocket_333x257.png," + images +
                 "/rocket_333x257__blur_s1.5.png\n" + images + "/rocket_333x257.png,missing.png\n" +
                 images + "/rocket_333x257.png," + images + "/rocket_333x257__jpeg_q30.png\n");
  const RunResult r =
      run_mad("score --backend cpu --mad-version 2010 --pairs '" + (dir / "list.csv").string() +
              "' --out '" + (dir / "out.csv").string() + "'");
  EXPECT_EQ(r.exit_code, kExitPartial) << r.out;
  EXPECT_NE(r.out.find("missing.png"), std::string::npos) << r.out;
  std::ifstream in(dir / "out.csv");
  std::string line;
  std::vector<std::string> lines;
  while (std::getline(in, line)) lines.push_back(line);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0].rfind("ref,dist,mad", 0), 0u);
  EXPECT_NE(lines[2].find("missing.png"), std::string::npos);
  EXPECT_NE(lines[3].find("5.85153784"), std::string::npos)
      << lines[3];  // April-2010 MAD of the pair
  fs::remove_all(dir);
}

TEST(CliScore, ListVariants) {
  const RunResult r = run_mad("score --list-variants");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_FALSE(r.out.empty());
}

}  // namespace
}  // namespace mad
