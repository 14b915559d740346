// `mad bench --quick` as CI runs it, through the real executable: the JSON, CSV, HTML and
// Markdown outputs, `--summary-from`, and bad arguments with their exit codes. Without a GPU
// only CPU rows exist; with one, the GPU rows must be there too.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/support/test_support.h"
#include "tests/bench/bench_markup_check.h"

namespace fs = std::filesystem;

namespace mad {
namespace {

struct BenchRun {
  int exit_code = -1;
  std::string out;  // standard output only
  std::string err;
};

fs::path scratch() {
  static const fs::path d = [] {
    const fs::path p = fs::temp_directory_path() / ("mad_bench_test_" + std::to_string(::getpid()));
    fs::create_directories(p);
    return p;
  }();
  return d;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

BenchRun run_bench(const std::string& args) {
  const fs::path err = scratch() / "stderr.txt";
  const std::string cmd = std::string(MAD_BINARY) + " bench " + args + " 2>'" + err.string() + "'";
  const mad::test::CommandResult c = mad::test::run_command(cmd);
  BenchRun r;
  r.exit_code = c.exit_code;
  r.out = c.out;
  r.err = slurp(err);
  return r;
}

const std::vector<std::string> kGroups = {"gray",      "darken",     "histogram", "smooth",  "nick",
                                          "convolve",  "detection",  "a5",        "csf",     "fft",
                                          "log_gabor", "appearance", "combine",   "pipeline"};
const std::vector<std::string> kRowFields = {"group",
                                             "case",
                                             "variant",
                                             "backend",
                                             "precision",
                                             "width",
                                             "height",
                                             "threads",
                                             "launch_shape",
                                             "runs",
                                             "median_ms",
                                             "min_ms",
                                             "max_ms",
                                             "spread_pct",
                                             "bytes_moved",
                                             "flops",
                                             "h2d_pinned_ms",
                                             "d2h_pinned_ms",
                                             "h2d_pageable_ms",
                                             "d2h_pageable_ms",
                                             "total_pinned_ms",
                                             "total_pageable_ms",
                                             "cpu_1t_ms",
                                             "cpu_all_ms",
                                             "speedup_vs_cpu_1t",
                                             "speedup_vs_cpu_all",
                                             "gbps",
                                             "gflops",
                                             "bw_share",
                                             "flop_share",
                                             "int_ops",
                                             "gops",
                                             "op_count",
                                             "flop_precision",
                                             "kernels",
                                             "block_threads",
                                             "registers",
                                             "static_smem_bytes",
                                             "dynamic_smem_bytes",
                                             "occupancy_pct",
                                             "pairs_per_s"};

// One quick JSON run shared by the tests that only read it.
const nlohmann::json& quick_json() {
  static const nlohmann::json j = [] {
    const BenchRun r = run_bench("--quick --format json");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::ofstream(scratch() / "quick.json") << r.out;
    return nlohmann::json::parse(r.out);
  }();
  return j;
}

TEST(BenchCli, QuickJsonHasEveryGroupAndField) {
  const auto& j = quick_json();
  EXPECT_EQ(j["format"], "mad-bench/1");
  EXPECT_EQ(j["schema"], 3);
  EXPECT_EQ(j["quick"], true);
  for (const char* k :
       {"gpu", "name", "driver", "copy_bandwidth_gbps", "peak_fp64_gflops", "cpu_threads"})
    EXPECT_TRUE(j["device"].contains(k)) << k;
  ASSERT_TRUE(j["rows"].is_array());
  std::set<std::string> groups, cpu_groups, gpu_groups;
  for (const auto& row : j["rows"]) {
    for (const std::string& f : kRowFields)
      ASSERT_TRUE(row.contains(f)) << f << " in " << row.dump();
    groups.insert(row["group"].get<std::string>());
    if (row["variant"] == "cpu-1t") cpu_groups.insert(row["group"].get<std::string>());
    if (row["backend"] == "cuda") gpu_groups.insert(row["group"].get<std::string>());
    if (row["backend"] == "cpu") EXPECT_TRUE(row["registers"].is_null()) << row.dump();
    // Kernel resources (issue 11 item 6): every GPU row of our own kernels has them.
    if (row["backend"] == "cuda" && (row["group"] == "gray" || row["group"] == "a5")) {
      ASSERT_TRUE(row["registers"].is_number() && row["occupancy_pct"].is_number()) << row.dump();
      EXPECT_GT(row["registers"].get<double>(), 0) << row.dump();
      EXPECT_GT(row["occupancy_pct"].get<double>(), 0) << row.dump();
      EXPECT_LE(row["occupancy_pct"].get<double>(), 100) << row.dump();
    }
  }
  for (const std::string& g : kGroups) {
    EXPECT_TRUE(groups.count(g)) << g;
    EXPECT_TRUE(cpu_groups.count(g)) << "no CPU reference row in " << g;
  }
  if (test::gpu_available()) {
    EXPECT_TRUE(j["device"]["gpu"].get<bool>());
    for (const char* g :
         {"gray", "histogram", "smooth", "nick", "convolve", "detection", "a5", "fft", "pipeline"})
      EXPECT_TRUE(gpu_groups.count(g)) << "no GPU row in " << g;
  } else {
    EXPECT_TRUE(gpu_groups.empty());
    EXPECT_FALSE(j["device"]["gpu"].get<bool>());
  }
}

TEST(BenchCli, QuickJsonNumbersArePositiveAndFinite) {
  for (const auto& row : quick_json()["rows"]) {
    const std::string id = row["group"].get<std::string>() + "/" + row["case"].get<std::string>() +
                           "/" + row["variant"].get<std::string>();
    ASSERT_TRUE(row["median_ms"].is_number()) << id;
    const double med = row["median_ms"], lo = row["min_ms"], hi = row["max_ms"];
    EXPECT_TRUE(std::isfinite(med) && med > 0) << id;
    EXPECT_LE(lo, med) << id;
    EXPECT_LE(med, hi) << id;
    EXPECT_GE(row["runs"].get<int>(), 1) << id;
    for (const auto& [key, v] : row.items()) {
      if (!v.is_number()) continue;
      EXPECT_TRUE(std::isfinite(v.get<double>()) && v.get<double>() >= 0) << id << " " << key;
    }
    if (row["variant"] == "cpu-1t") {
      EXPECT_EQ(row["speedup_vs_cpu_1t"].get<double>(), 1.0) << id;
    }
    if (row["backend"] == "cpu") {
      EXPECT_GE(row["threads"].get<int>(), 1) << id;
    }
    if (row["bytes_moved"].is_number() && row["bytes_moved"].get<double>() > 0) {
      EXPECT_GT(row["gbps"].get<double>(), 0) << id;
    }
  }
}

TEST(BenchCli, QuickCsvHasAHeaderAndOneLinePerRow) {
  const BenchRun r = run_bench("--quick --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream in(r.out);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  const auto header = test::csv_cells(line);
  for (const std::string& f : kRowFields)
    EXPECT_NE(std::find(header.begin(), header.end(), f), header.end()) << f;
  const auto col = [&](const char* name) {
    return std::find(header.begin(), header.end(), name) - header.begin();
  };
  std::size_t rows = 0;
  while (std::getline(in, line)) {
    const auto cells = test::csv_cells(line);
    ASSERT_EQ(cells.size(), header.size()) << line;
    const double med = std::stod(cells[col("median_ms")]);
    EXPECT_TRUE(std::isfinite(med) && med > 0) << line;
    ++rows;
  }
  EXPECT_EQ(rows, quick_json()["rows"].size());  // the same configuration makes the same rows
}

TEST(BenchCli, QuickHtmlIsWellFormedAndSelfContained) {
  const fs::path html = scratch() / "bench.html";
  const fs::path md = scratch() / "bench.md";
  const BenchRun r =
      run_bench("--quick --html '" + html.string() + "' --markdown '" + md.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("host: "), std::string::npos);  // the table's header
  EXPECT_NE(r.out.find("== gray =="), std::string::npos);
  const std::string page = slurp(html);
  ASSERT_FALSE(page.empty());
  EXPECT_EQ(test::markup_fault(page), "");
  EXPECT_NE(page.find("<svg"), std::string::npos);
  EXPECT_NE(page.find("<polyline"), std::string::npos);  // a speedup-vs-size plot
  for (const char* banned : {"http://", "https://", "<script", "src=", "<link"})
    EXPECT_EQ(page.find(banned), std::string::npos) << banned;
  for (const char* bad : {"nan", "inf\""})
    EXPECT_EQ(page.find(std::string("=\"") + bad), std::string::npos) << bad;
  const std::string text = slurp(md);
  EXPECT_EQ(text.rfind("# mad bench results", 0), 0u);
  EXPECT_NE(text.find("| case |"), std::string::npos);
  EXPECT_NE(text.find("mad bench --quick"), std::string::npos);  // the command that produced it
}

TEST(BenchCli, SummaryFromAJsonReport) {
  quick_json();  // writes quick.json
  const fs::path md = scratch() / "from_json.md";
  const BenchRun r = run_bench("--summary-from '" + (scratch() / "quick.json").string() +
                               "' --markdown '" + md.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = std::count(r.out.begin(), r.out.end(), '\n');
  EXPECT_GE(lines, 10);
  EXPECT_LE(lines, 20);
  for (const char* k : {"A5 double", "pipeline double", "batched 512x384 float", "copy-bandwidth",
                        "histogram", "nick", "pyiqa", "rows: "})
    EXPECT_NE(r.out.find(k), std::string::npos) << k;
  EXPECT_NE(slurp(md).find("## gray"), std::string::npos);
}

TEST(BenchCli, SelectsGroupsAndSizes) {
  const BenchRun r = run_bench("--quick --format json --kernels nick,combine --sizes 40x36");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  std::set<std::string> groups, windows;
  for (const auto& row : j["rows"]) {
    groups.insert(row["group"].get<std::string>());
    if (row["group"] == "nick") {
      EXPECT_EQ(row["width"], 40);
      EXPECT_EQ(row["height"], 36);
      windows.insert(row["case"].get<std::string>());
    }
  }
  EXPECT_EQ(groups, (std::set<std::string>{"nick", "combine"}));
  EXPECT_EQ(windows, (std::set<std::string>{"w=3", "w=15", "w=31"}));
}

// The A5 rows' compulsory traffic (group_stages.cpp's a5_row): each subband read once at the
// precision's size, one mean a block written on one subband, three statistics a block on each
// of a pair's 40 subbands (20 per image), and the bytes moved their sum.
TEST(BenchCli, A5RowsCountTheirCompulsoryTraffic) {
  const BenchRun r = run_bench("--quick --format json --kernels a5 --sizes 64x48");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = nlohmann::json::parse(r.out)["rows"];
  const double n = 64.0 * 48;
  double blocks = 0;  // from the one-subband rows' output: one mean a block
  for (const auto& row : rows)
    if (row["case"] == "mean_1_subband") blocks = row["bytes_out"].get<double>() / 8;
  ASSERT_GT(blocks, 0);
  std::set<std::string> cases;
  for (const auto& row : rows) {
    const double real = row["precision"] == "float" ? 4 : 8;
    const double in = row["bytes_in"], out = row["bytes_out"];
    EXPECT_EQ(row["bytes_moved"].get<double>(), in + out) << row.dump();
    const std::string c = row["case"];
    cases.insert(c);
    const double subbands = c == "mean_1_subband" ? 1 : 40, stats = c == "mean_1_subband" ? 1 : 3;
    EXPECT_EQ(in, subbands * n * real) << row.dump();
    EXPECT_EQ(out, stats * subbands * blocks * real) << row.dump();
    if (c == "mean_1_subband") EXPECT_EQ(row["flops"].get<double>(), 256 * blocks) << row.dump();
  }
  EXPECT_EQ(cases, (std::set<std::string>{"mean_1_subband", "40_subbands"}));
}

TEST(BenchCli, BadArgumentsAreUsageErrors) {
  const BenchRun kernels = run_bench("--quick --kernels gray,nope");
  EXPECT_EQ(kernels.exit_code, 2);
  EXPECT_NE(kernels.err.find("nope"), std::string::npos) << kernels.err;
  EXPECT_EQ(run_bench("--quick --sizes 12").exit_code, 2);
  EXPECT_EQ(run_bench("--quick --sizes 0x5").exit_code, 2);
  EXPECT_EQ(run_bench("--quick --format xml").exit_code, 2);
  EXPECT_EQ(run_bench("--quick --precision half").exit_code, 2);
  EXPECT_EQ(run_bench("--quick --repeat -3").exit_code, 2);
  // 0 used to mean "the default" silently; octal and hex were read as numbers (issue 14).
  for (const char* repeat : {"0", "017", "0x10", "2.5"}) {
    const BenchRun r = run_bench(std::string("--quick --kernels combine --repeat ") + repeat);
    EXPECT_EQ(r.exit_code, 2) << repeat;
    EXPECT_NE(r.err.find("--repeat"), std::string::npos) << r.err;
  }
  EXPECT_EQ(run_bench("--summary-from x.json --quick").exit_code, 2);
  EXPECT_EQ(run_bench("--summary-from '" + (scratch() / "missing.json").string() + "'").exit_code,
            3);
  std::ofstream(scratch() / "not_a_report.json") << "{\"rows\": 3}";
  EXPECT_EQ(
      run_bench("--summary-from '" + (scratch() / "not_a_report.json").string() + "'").exit_code,
      3);
}

}  // namespace
}  // namespace mad
