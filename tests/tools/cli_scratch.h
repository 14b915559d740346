// A scratch folder for tests that run the real `mad`: two 48x40 gray PNGs (ref.png, dist.png),
// file helpers, and `mad` run from inside the folder (so relative paths are the folder's).
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <string>
#include <vector>

#include "mad/results/csv.h"
#include "tests/support/test_support.h"
#include "tests/tools/run_mad.h"

namespace mad::test {

class CliScratch : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fresh_scratch_dir(std::string("mad_cli_") +
                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    write_random_png((dir_ / "ref.png").string(), 48, 40, 1);
    write_random_png((dir_ / "dist.png").string(), 48, 40, 2);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // `mad ARGS` run in the scratch folder, stdout and stderr together.
  CommandResult mad(const std::string& args) const {
    return run_command("cd '" + dir_.string() + "' && " + MAD_BINARY + " " + args + " 2>&1");
  }
  // `mad ARGS` with stderr dropped (stdout alone).
  CommandResult mad_stdout(const std::string& args) const {
    return run_command("cd '" + dir_.string() + "' && " + MAD_BINARY + " " + args +
                       " 2>/dev/null");
  }
  void write(const std::string& name, const std::string& text) const {
    std::filesystem::create_directories((dir_ / name).parent_path());
    std::ofstream(dir_ / name, std::ios::binary) << text;
  }
  std::string read(const std::string& name) const {
    std::ifstream in(dir_ / name, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  std::vector<std::string> lines(const std::string& name) const {
    std::ifstream in(dir_ / name);
    std::vector<std::string> out;
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
  }
  // The rows of a results CSV (header first) without `column` (e.g. "seconds", which differs
  // run to run).
  std::vector<std::vector<std::string>> csv_rows_without(const std::string& name,
                                                         const std::string& column) const {
    std::vector<std::vector<std::string>> out;
    const auto all = lines(name);
    if (all.empty()) return out;
    const auto header = results::split_csv_line(all[0]);
    const auto at = std::find(header.begin(), header.end(), column) - header.begin();
    for (const auto& l : all) {
      auto f = results::split_csv_line(l);
      if (at < static_cast<std::ptrdiff_t>(f.size())) f.erase(f.begin() + at);
      out.push_back(f);
    }
    return out;
  }
  bool exists(const std::string& name) const { return std::filesystem::exists(dir_ / name); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  std::filesystem::path dir_;
};

// True when `text` contains `needle`.
inline bool has(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

// A run that must end with `exit_code` and say each of `needles`: one gtest verdict that names
// everything that is wrong (the exit code, each missing text) and shows the whole output.
inline ::testing::AssertionResult exits_saying(const CommandResult& r, int exit_code,
                                               std::initializer_list<std::string> needles) {
  std::string wrong;
  if (r.exit_code != exit_code)
    wrong +=
        "exit code " + std::to_string(r.exit_code) + ", not " + std::to_string(exit_code) + "\n";
  for (const std::string& needle : needles)
    if (!has(r.out, needle)) wrong += "no '" + needle + "' in the output\n";
  if (wrong.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << wrong << "output:\n" << r.out;
}

}  // namespace mad::test
