// The library side of `mad bench`: derived figures, the JSON/CSV round trip, argument parsing,
// launch shapes read off variant names, the goal summary and the SVG charts, on hand-made
// reports whose right answers are known.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "tests/bench/bench_markup_check.h"
#include "tools/bench/report.h"
#include "tools/bench/model.h"
#include "tools/bench/runners.h"

namespace mad::bench {
namespace {

BenchRow row(const std::string& group, const std::string& case_name, const std::string& variant,
             double ms, int w = 512, int h = 512, const std::string& precision = "double") {
  BenchRow r;
  r.group = group, r.case_name = case_name, r.variant = variant, r.width = w, r.height = h;
  r.precision = precision;
  r.backend = variant.rfind("cpu", 0) == 0 ? "cpu" : "cuda";
  r.median_ms = r.min_ms = r.max_ms = ms;
  r.runs = 1;
  return r;
}

BenchReport device_report() {
  BenchReport rep;
  rep.device.gpu = true;
  rep.device.name = "Test GPU";
  rep.device.copy_bandwidth_gbps = 1000;
  rep.device.peak_fp64_gflops = 500;
  rep.device.peak_fp32_gflops = 2000;
  return rep;
}

TEST(BenchReport, FinalizeDerivesSpeedupsRatesAndShares) {
  BenchReport rep = device_report();
  rep.rows = {row("gray", "rgb", "cpu-1t", 10), row("gray", "rgb", "cpu-all", 2),
              row("gray", "rgb", "v", 0.5), row("gray", "rgb", "other-size", 0.5, 64, 64)};
  BenchRow& gpu = rep.rows[2];
  gpu.min_ms = 0.4, gpu.max_ms = 0.6;
  gpu.bytes_moved = 1e9;   // 1 GB in 0.5 ms = 2000 GB/s
  gpu.flops = 1e8;         // 200 GFLOP/s
  gpu.op_count = "exact";  // a share of the peak only for executed counts
  gpu.h2d_pinned_ms = 1, gpu.d2h_pinned_ms = 2;
  finalize_rows(rep);
  const BenchRow& g = rep.rows[2];
  EXPECT_DOUBLE_EQ(g.speedup_vs_cpu_1t, 20);
  EXPECT_DOUBLE_EQ(g.speedup_vs_cpu_all, 4);
  EXPECT_DOUBLE_EQ(g.gbps, 2000);
  EXPECT_DOUBLE_EQ(g.bw_share, 2.0);
  EXPECT_DOUBLE_EQ(g.gflops, 200);
  EXPECT_DOUBLE_EQ(g.flop_share, 0.4);  // against FP64: the row is double
  EXPECT_NEAR(g.spread_pct, 40, 1e-9);
  EXPECT_DOUBLE_EQ(g.total_pinned_ms, 3.5);
  EXPECT_FALSE(present(g.total_pageable_ms));
  EXPECT_DOUBLE_EQ(rep.rows[0].speedup_vs_cpu_1t, 1);
  EXPECT_DOUBLE_EQ(rep.rows[1].speedup_vs_cpu_1t, 5);
  EXPECT_FALSE(present(rep.rows[0].bw_share));   // shares are for GPU rows only
  EXPECT_FALSE(present(rep.rows[3].cpu_1t_ms));  // no CPU reference at 64x64
}

// Issue 11 item 6: a nominal count has no %peak; integer work is GOP/s, not GFLOP/s; FLOPs of
// an 8-bit kernel's double decision are set against the FP64 peak.
TEST(BenchReport, PeakShareOnlyForExactFloatingPointCounts) {
  BenchReport rep = device_report();
  rep.rows = {row("a5", "40_subbands", "a5-fast", 0.5), row("nick", "w=15", "m1", 0.5),
              row("gray", "rgb", "g", 0.5)};
  rep.rows[0].flops = 1e8;  // op_count unstated: nominal
  rep.rows[1].precision = "u8";
  rep.rows[1].flops = 1e8, rep.rows[1].flop_precision = "double";
  rep.rows[1].int_ops = 2e8, rep.rows[1].op_count = "exact";
  rep.rows[2].precision = "u8";
  rep.rows[2].flops = 0, rep.rows[2].int_ops = 1e8, rep.rows[2].op_count = "exact";
  finalize_rows(rep);
  EXPECT_EQ(rep.rows[0].op_count, "nominal");
  EXPECT_DOUBLE_EQ(rep.rows[0].gflops, 200);
  EXPECT_FALSE(present(rep.rows[0].flop_share));
  EXPECT_DOUBLE_EQ(rep.rows[1].flop_share, 0.4);  // 200 GFLOP/s of FP64's 500
  EXPECT_DOUBLE_EQ(rep.rows[1].gops, 400);
  EXPECT_FALSE(present(rep.rows[2].gflops));
  EXPECT_FALSE(present(rep.rows[2].flop_share));
  EXPECT_DOUBLE_EQ(rep.rows[2].gops, 200);
  const nlohmann::json j = to_json(rep);
  EXPECT_EQ(j["schema"], 3);
  EXPECT_EQ(j["rows"][1]["op_count"], "exact");
  EXPECT_EQ(j["rows"][1]["flop_precision"], "double");
  EXPECT_DOUBLE_EQ(j["rows"][2]["int_ops"].get<double>(), 1e8);
  EXPECT_EQ(report_from_json(j).schema, 3);
  nlohmann::json old = j;
  old.erase("schema");
  EXPECT_EQ(report_from_json(old).schema, 1);
}

TEST(BenchReport, JsonRoundTripKeepsEveryFieldAndMissingValues) {
  BenchReport rep = device_report();
  rep.command = "mad bench --quick";
  rep.notes = {"a note"};
  BenchRow r = row("nick", "w=15", "integral", 1.25);
  r.note = "has, a comma and \"quotes\"";
  r.pixels_per_thread = 4;
  r.bytes_moved = 123;
  rep.rows = {r};
  finalize_rows(rep);
  const BenchReport back = report_from_json(nlohmann::json::parse(to_json(rep).dump()));
  EXPECT_EQ(back.command, rep.command);
  EXPECT_EQ(back.notes, rep.notes);
  EXPECT_EQ(back.device.name, "Test GPU");
  EXPECT_DOUBLE_EQ(back.device.copy_bandwidth_gbps, 1000);
  ASSERT_EQ(back.rows.size(), 1u);
  EXPECT_EQ(to_csv(back), to_csv(rep));  // every field, missing ones included
  EXPECT_FALSE(present(back.rows[0].flops));
  EXPECT_EQ(back.rows[0].pixels_per_thread, 4);
  EXPECT_THROW(report_from_json(nlohmann::json::parse("{\"rows\": []}")), InputError);
}

TEST(BenchReport, CsvQuotesTextAndNamesEveryField) {
  BenchReport rep;
  BenchRow r = row("gray", "rgb", "cpu-1t", 1);
  r.note = "a, b";
  rep.rows = {r};
  const std::string csv = to_csv(rep);
  const std::string header = csv.substr(0, csv.find('\n'));
  const std::string line = csv.substr(csv.find('\n') + 1, csv.size() - csv.find('\n') - 2);
  EXPECT_EQ(test::csv_cells(header), row_field_names());
  const auto cells = test::csv_cells(line);
  ASSERT_EQ(cells.size(), row_field_names().size());
  EXPECT_EQ(cells[7], "a, b");  // "note" is the eighth text field
}

// Issue 11 item 6: kernel resources in every output; null / empty / "-" for a CPU row.
TEST(BenchReport, KernelResourcesInEveryOutput) {
  BenchReport rep = device_report();
  BenchRow gpu = row("gray", "rgb", "pixel_2d_32x8", 0.5);
  gpu.kernels = 2, gpu.block_threads = 256, gpu.registers = 38;
  gpu.static_smem_bytes = 4096, gpu.dynamic_smem_bytes = 512, gpu.occupancy_pct = 62.5;
  rep.rows = {gpu, row("gray", "rgb", "cpu-1t", 4)};
  finalize_rows(rep);
  const nlohmann::json j = to_json(rep);
  const nlohmann::json& g = j["rows"][0];
  EXPECT_EQ(g["kernels"], 2);
  EXPECT_EQ(g["block_threads"], 256);
  EXPECT_EQ(g["registers"], 38);
  EXPECT_EQ(g["static_smem_bytes"], 4096);
  EXPECT_EQ(g["dynamic_smem_bytes"], 512);
  EXPECT_EQ(g["occupancy_pct"], 62.5);
  EXPECT_EQ(g["median_ms"], 0.5);  // the fields before schema 3 are still there
  for (const char* k : {"kernels", "block_threads", "registers", "static_smem_bytes",
                        "dynamic_smem_bytes", "occupancy_pct"}) {
    ASSERT_TRUE(j["rows"][1].contains(k)) << k;
    EXPECT_TRUE(j["rows"][1][k].is_null()) << k;
  }
  const BenchReport back = report_from_json(j);
  EXPECT_EQ(back.rows[0].registers, 38);
  EXPECT_EQ(back.rows[0].occupancy_pct, 62.5);
  EXPECT_FALSE(present(back.rows[1].registers));

  const std::string csv = to_csv(rep);
  const auto lines = [&] {
    std::vector<std::string> out;
    std::size_t at = 0;
    for (std::size_t nl; (nl = csv.find('\n', at)) != std::string::npos; at = nl + 1)
      out.push_back(csv.substr(at, nl - at));
    return out;
  }();
  ASSERT_EQ(lines.size(), 3u);
  const auto header = test::csv_cells(lines[0]);
  const auto gpu_cells = test::csv_cells(lines[1]), cpu_cells = test::csv_cells(lines[2]);
  auto cell = [&](const std::vector<std::string>& cells, const std::string& name) {
    const auto at = std::find(header.begin(), header.end(), name);
    EXPECT_NE(at, header.end()) << name;
    return at == header.end() ? std::string("?") : cells.at(at - header.begin());
  };
  EXPECT_EQ(cell(gpu_cells, "registers"), "38");
  EXPECT_EQ(cell(gpu_cells, "kernels"), "2");
  EXPECT_EQ(cell(gpu_cells, "block_threads"), "256");
  EXPECT_EQ(cell(gpu_cells, "static_smem_bytes"), "4096");
  EXPECT_EQ(cell(gpu_cells, "dynamic_smem_bytes"), "512");
  EXPECT_EQ(cell(gpu_cells, "occupancy_pct"), "62.5");
  EXPECT_EQ(cell(cpu_cells, "registers"), "");
  EXPECT_EQ(cell(cpu_cells, "occupancy_pct"), "");

  const std::string table = format_table(rep);
  for (const char* h : {"kernels", "thr/blk", "regs", "smem B", "dyn smem B", "occ%"})
    EXPECT_NE(table.find(h), std::string::npos) << h;
  EXPECT_NE(table.find("62.5"), std::string::npos);
  const std::string md = format_markdown(rep);
  EXPECT_NE(md.find("| regs |"), std::string::npos);
  EXPECT_NE(md.find("| occ% |"), std::string::npos);
  const std::string html = format_html(rep);
  EXPECT_NE(html.find("<th>regs</th>"), std::string::npos);
  EXPECT_NE(html.find("<th>occ%</th>"), std::string::npos);
  EXPECT_NE(html.find("<td>62.5</td>"), std::string::npos);
}

TEST(BenchConfig, ParsesListsAndSizes) {
  const auto sizes = parse_sizes("512x384, 1080X800");
  ASSERT_EQ(sizes.size(), 2u);
  EXPECT_EQ(sizes[1].width, 1080);
  EXPECT_EQ(sizes[1].height, 800);
  for (const char* bad : {"512", "512x", "x384", "0x10", "12x-3", "5x5x5", ""})
    EXPECT_THROW(parse_sizes(bad), InvalidArgument) << bad;
  EXPECT_EQ(parse_list("nick,gray", bench_groups(), "--kernels"),
            (std::vector<std::string>{"gray", "nick"}));
  EXPECT_EQ(parse_list("all", bench_groups(), "--kernels"), bench_groups());
  // The groups, in the order run.cpp's table runs and reports them.
  EXPECT_EQ(bench_groups(), (std::vector<std::string>{"gray", "darken", "histogram", "smooth",
                                                      "nick", "convolve", "detection", "a5",
                                                      "csf", "fft", "log_gabor", "appearance",
                                                      "combine", "pipeline"}));
  EXPECT_THROW(parse_list("gray,nope", bench_groups(), "--kernels"), InvalidArgument);
}

TEST(BenchConfig, NickSweepsWindowsUpTo1080p) {
  const BenchConfig full = default_config(false);
  EXPECT_EQ(full.nick_windows_for({1920, 1080}), (std::vector<int>{3, 7, 15, 31, 51, 75, 101}));
  EXPECT_EQ(full.nick_windows_for({8192, 8192}), (std::vector<int>{15}));
  EXPECT_EQ(full.nick_windows_for({40, 40}), (std::vector<int>{3, 7, 15, 31}));
  EXPECT_EQ(full.sizes_for("gray").back().width, 8192);
  EXPECT_GE(full.gpu_runs, 20);
  const BenchConfig quick = default_config(true);
  for (const std::string& g : bench_groups())
    for (const Size s : quick.sizes_for(g)) EXPECT_LE(s.width * s.height, 160 * 120) << g;
}

// --windows (issue 11 item 4): plain decimals in Nick's [2, 101], each once, replacing the
// sweep at every size; windows larger than the image are left out.
TEST(BenchConfig, WindowsListReplacesTheNickSweep) {
  EXPECT_EQ(parse_windows("2, 10,100,101,10"), (std::vector<int>{2, 10, 100, 101}));
  for (const char* bad : {"1", "102", "017", "0x11", "+5", "-3", "5.0", "1e2", "", ","})
    EXPECT_THROW(parse_windows(bad), InvalidArgument) << bad;
  BenchConfig c = default_config(false);
  c.nick_windows = {2, 50, 100};
  EXPECT_EQ(c.nick_windows_for({8192, 8192}), (std::vector<int>{2, 50, 100}));
  EXPECT_EQ(c.nick_windows_for({64, 64}), (std::vector<int>{2, 50}));
}

TEST(BenchConfig, LaunchShapesFromVariantNames) {
  auto shape = [](const std::string& v) {
    BenchRow r;
    r.variant = v;
    describe_launch_shape(r);
    return r;
  };
  EXPECT_EQ(shape("pixel_1d").launch_shape, "1-D blocks");
  EXPECT_EQ(shape("pixel_1d").pixels_per_thread, 1);
  EXPECT_EQ(shape("pixel_2d_32x8").launch_shape, "2-D 32x8 blocks");
  EXPECT_EQ(shape("grid_stride_p16").pixels_per_thread, 16);
  EXPECT_EQ(shape("grid_stride_p16").grid, "dynamic");
  EXPECT_EQ(shape("grid_stride_fixed").grid, "fixed");
  EXPECT_EQ(shape("vector4").pixels_per_thread, 4);
  EXPECT_EQ(shape("method2_32x32").launch_shape, "2-D 32x32 blocks");
  EXPECT_EQ(shape("shared_warp").launch_shape, "");
  EXPECT_EQ(shape("shared_warp_p30").pixels_per_thread, 30);
  EXPECT_EQ(shape("shared_warp_fixed_60x45").grid, "fixed");
  EXPECT_EQ(shape("global_32x16_p15").launch_shape, "2-D 32x16 blocks");
  EXPECT_EQ(shape("global_32x16_p15").pixels_per_thread, 15);
}

TEST(BenchSummary, GoalFiguresComeFromTheRows) {
  BenchReport rep = device_report();
  rep.rows = {row("a5", "40_subbands", "a5-original", 10),
              row("a5", "40_subbands", "a5-cta-per-block", 2),
              row("a5", "40_subbands", "a5-fast", 0.5),
              // The one-subband mean rows (Table 9) are faster and must not count.
              row("a5", "mean_1_subband", "a5-shared-unrolled-cf", 0.01),
              row("histogram", "uniform_random", "shared_warp", 1, 8192, 8192, "u8"),
              row("histogram", "monochrome", "shared_warp", 1.5, 8192, 8192, "u8"),
              row("nick", "w=3", "integral", 2, 1920, 1080, "u8"),
              row("nick", "w=101", "integral", 2.2, 1920, 1080, "u8"),
              row("nick", "w=3", "warp_scan", 0.2, 1920, 1080, "u8"),
              row("nick", "w=101", "warp_scan", 0.4, 1920, 1080, "u8"),
              row("nick", "w=3", "method1_16x16", 1, 1920, 1080, "u8"),
              row("nick", "w=101", "method1_16x16", 500, 1920, 1080, "u8"),
              row("pipeline", "pair", "single", 4.7, 512, 384),
              row("pipeline", "pair", "single", 19, 1080, 800)};
  finalize_rows(rep);
  std::string all;
  for (const std::string& l : goal_summary(rep)) all += l + "\n";
  EXPECT_NE(all.find("fastest a5-fast 0.5 ms vs a5-original 10.0 ms = 20.0x"), std::string::npos)
      << all;
  EXPECT_NE(all.find("shared_warp 1.5x"), std::string::npos) << all;
  EXPECT_NE(all.find("integral 1.1x"), std::string::npos) << all;
  EXPECT_NE(all.find("sliding_columns n/a, warp_scan 2x"), std::string::npos) << all;
  EXPECT_NE(all.find("method1_16x16 500x"), std::string::npos) << all;
  EXPECT_NE(all.find("512x384 4.7 ms vs 141 ms = 30.0x faster"), std::string::npos) << all;
  EXPECT_NE(all.find("1080x800 19.0 ms vs 475 ms = 25.0x faster"), std::string::npos) << all;
  // pyiqa's quoted times are an H100's: on another device the line names it.
  EXPECT_NE(all.find("from an H100; mad on Test GPU)"), std::string::npos) << all;
  rep.device.name = "NVIDIA H100 80GB HBM3";
  all.clear();
  for (const std::string& l : goal_summary(rep)) all += l + "\n";
  EXPECT_NE(all.find("from an H100; the same kind of GPU)"), std::string::npos) << all;
}

TEST(BenchHtml, ChartsAndPagesAreWellFormed) {
  EXPECT_EQ(html_escape("a<b & \"c\">'"), "a&lt;b &amp; &quot;c&quot;&gt;&#39;");
  const std::string bars =
      svg_bar_chart("t <1>", {{"cpu", 100, true, ""}, {"gpu", 0.1, false, "1000x"}}, "ms");
  EXPECT_NE(bars.find("log scale"), std::string::npos);  // 1000x range
  EXPECT_EQ(test::markup_fault(bars), "");
  EXPECT_EQ(svg_bar_chart("empty", {{"x", kMissing, false, ""}}, "ms"), "");
  const std::string plot =
      svg_line_plot("p", {{"a", {{1, 1}, {10, 100}}}, {"single", {{5, 5}}}}, "x", "y", true, true);
  EXPECT_EQ(test::markup_fault(plot), "");
  EXPECT_EQ(plot.find("single"), std::string::npos);  // one point is no line
  BenchReport rep = device_report();
  rep.rows = {row("gray", "rgb", "cpu-1t", 10, 64, 64), row("gray", "rgb", "v", 1, 64, 64),
              row("gray", "rgb", "cpu-1t", 40, 128, 128), row("gray", "rgb", "v", 2, 128, 128)};
  finalize_rows(rep);
  const std::string page = format_html(rep);
  EXPECT_EQ(test::markup_fault(page), "");
  EXPECT_NE(page.find("<polyline"), std::string::npos);
  EXPECT_EQ(test::markup_fault("<p><b></p></b>"),
            "</p> closes <b>");  // the checker itself can fail
}

}  // namespace
}  // namespace mad::bench
