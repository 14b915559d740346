// The exit codes of the real `mad` binary (common/error.h, docs/cli.md "Exit codes"), one test per
// code, over the subcommands main() wires: 0 success, 2 usage, 3 input, 4 GPU, 5 partial.
// Small synthetic images keep each run short. cli_score_test.cpp checks messages and outputs;
// this file checks that every documented code is reachable and that docs/cli.md's table agrees
// with common/error.h.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <string>

#include "common/error.h"
#include "common/gpu_info.h"
#include "common/image_io.h"
#include "tests/support/test_support.h"
#include "tests/tools/run_mad.h"

namespace fs = std::filesystem;

namespace mad {
namespace {

using MadRun = test::CommandResult;

using test::run_mad;

// A scratch folder with two 48x40 gray PNGs (a pair), a 20x20 one (too small for MAD), a
// 40x48 one (other size), an RGB one (for `mad kernel gray`), a corrupt one and pairs lists.
class ExitCodes : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = test::fresh_scratch_dir("mad_exit_codes");
    auto png = [](const std::string& name, int w, int h, std::uint32_t seed, int channels = 1) {
      test::write_random_png((dir_ / name).string(), w, h, seed, channels);
    };
    png("ref.png", 48, 40, 1);
    png("dist.png", 48, 40, 2);
    png("small.png", 20, 20, 3);
    png("tall.png", 40, 48, 4);
    png("rgb.png", 48, 40, 5, 3);  // the gray kernel's input
    std::ofstream(dir_ / "corrupt.png", std::ios::binary) << "\x89PNG\r\n\x1a\n garbage";
    std::ofstream(dir_ / "good.csv") << "ref,dist\nref.png,dist.png\ndist.png,ref.png\n";
    std::ofstream(dir_ / "partial.csv") << "ref,dist\nref.png,dist.png\nref.png,missing.png\n"
                                           "ref.png,small.png\nref.png,corrupt.png\n";
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  static std::string f(const std::string& name) { return "'" + (dir_ / name).string() + "'"; }
  static fs::path dir_;
};
fs::path ExitCodes::dir_;

TEST_F(ExitCodes, ZeroOnSuccess) {
  for (const std::string args :
       {"score --backend cpu " + f("ref.png") + " " + f("dist.png"),
        "score --backend cpu --json --threads 1 " + f("ref.png") + " " + f("ref.png"),
        "score --backend cpu --pairs " + f("good.csv") + " --out " + f("good_out.csv"),
        "kernel gray --backend cpu " + f("rgb.png") + " " + f("gray_out.png"),
        std::string("--help"), std::string("score --help"), std::string("--version")}) {
    const MadRun r = run_mad(args);
    EXPECT_EQ(r.exit_code, kExitOk) << args << "\n" << r.out;
  }
}

TEST_F(ExitCodes, TwoForUsageErrors) {
  for (const std::string args :
       {std::string(""), std::string("frobnicate"), std::string("score --no-such-option"),
        std::string("score"),  // neither REF DIST nor --pairs
        "score --backend gpu " + f("ref.png") + " " + f("dist.png"),
        "score --precision half " + f("ref.png") + " " + f("dist.png"),
        "score --threads many " + f("ref.png") + " " + f("dist.png"),
        "score --pairs " + f("good.csv") + " " + f("ref.png") + " " + f("dist.png"),
        "score --pairs " + f("good.csv") + " --maps " + f("maps"),
        "score " + f("ref.png") + " " + f("dist.png") + " " + f("dist.png"),  // extra positional
        "kernel no-such-kernel --backend cpu " + f("rgb.png") + " " + f("x.png")}) {
    const MadRun r = run_mad(args);
    EXPECT_EQ(r.exit_code, kExitUsage) << args << "\n" << r.out;
  }
}

TEST_F(ExitCodes, ThreeForInputErrors) {
  for (const std::string args :
       {"score --backend cpu " + f("ref.png") + " " + f("missing.png"),
        "score --backend cpu " + f("ref.png") + " " + f("corrupt.png"),
        "score --backend cpu " + f("ref.png") + " " + f("tall.png"),         // size mismatch
        "score --backend cpu " + f("small.png") + " " + f("small.png"),      // below 34x34
        "score --backend cpu " + f("ref.png") + " '" + dir_.string() + "'",  // a folder
        "score --backend cpu --pairs " + f("no_such_list.csv"),
        "kernel gray --backend cpu " + f("missing.png") + " " + f("x.png")}) {
    const MadRun r = run_mad(args);
    EXPECT_EQ(r.exit_code, kExitInput) << args << "\n" << r.out;
    EXPECT_NE(r.out.find("error"), std::string::npos) << r.out;
  }
}

TEST_F(ExitCodes, FiveWhenSomePairsFailAndEveryRowIsWritten) {
  const MadRun r =
      run_mad("score --backend cpu --pairs " + f("partial.csv") + " --out " + f("partial_out.csv"));
  EXPECT_EQ(r.exit_code, kExitPartial) << r.out;
  std::ifstream in(dir_ / "partial_out.csv");
  int lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  EXPECT_EQ(lines, 5) << "header + 4 rows, failures included";
}

TEST_F(ExitCodes, FourWhenCudaIsRequiredWithoutADevice) {
  // Only asserted where it must hold: no CUDA backend compiled, or no device present.
  if (gpu_backend_compiled() && gpu_device_available())
    GTEST_SKIP() << "a CUDA device is present: --backend cuda is valid here";
  for (const std::string args :
       {"score --backend cuda " + f("ref.png") + " " + f("dist.png"),
        "score --backend cuda --pairs " + f("good.csv") + " --out " + f("cuda_out.csv"),
        "kernel gray --backend cuda " + f("rgb.png") + " " + f("gray_cuda.png")}) {
    const MadRun r = run_mad(args);
    EXPECT_EQ(r.exit_code, kExitGpu) << args << "\n" << r.out;
  }
}

TEST(ExitCodesDocs, ReadmeTableMatchesErrorH) {
  std::ifstream in(std::string(MAD_SOURCE_DIR) + "/docs/cli.md");
  ASSERT_TRUE(in) << "docs/cli.md not found";
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  const std::regex row(R"(\n\| ([0-9]) \| ([^|\n]+) \|)");
  std::map<int, std::string> documented;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), row); it != std::sregex_iterator();
       ++it)
    documented[std::stoi((*it)[1])] = (*it)[2];
  const std::pair<int, const char*> expected[] = {{kExitOk, "success"},  {kExitFailure, "internal"},
                                                  {kExitUsage, "usage"}, {kExitInput, "input"},
                                                  {kExitGpu, "GPU"},     {kExitPartial, "failed"}};
  for (const auto& [code, word] : expected) {
    ASSERT_TRUE(documented.count(code)) << "exit code " << code << " is not in docs/cli.md's table";
    EXPECT_NE(documented[code].find(word), std::string::npos)
        << "docs/cli.md row " << code << ": " << documented[code];
  }
  EXPECT_EQ(documented.size(), std::size(expected)) << "docs/cli.md documents codes error.h lacks";
}

}  // namespace
}  // namespace mad
