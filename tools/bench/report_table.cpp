// The terminal table and the Markdown page of `mad bench`, from one column list: a column is
// shown for a group only when at least one of its rows has a value there.
#include <algorithm>
#include <functional>
#include <sstream>

#include "tools/bench/report.h"

namespace mad::bench {
namespace {

struct Column {
  const char* header;
  bool text;  // identity column: left-aligned, always shown for case and variant
  std::function<std::string(const BenchRow&)> cell;
};

std::string num(double v) {
  return format_number(v);
}
std::string share(double v) {
  return present(v) ? format_number(100 * v) : "-";
}

const std::vector<Column>& columns() {
  static const std::vector<Column> cols = {
      {"case", true, [](const BenchRow& r) { return r.case_name; }},
      {"size", true, [](const BenchRow& r) { return format_size(r.width, r.height); }},
      {"ch", true,
       [](const BenchRow& r) {
         return r.channels == 1 ? std::string("-") : std::to_string(r.channels);
       }},
      {"prec", true, [](const BenchRow& r) { return r.precision; }},
      {"variant", true, [](const BenchRow& r) { return r.variant; }},
      {"launch shape", true,
       [](const BenchRow& r) {
         return r.launch_shape.empty() ? std::string("-") : r.launch_shape;
       }},
      {"ms", false, [](const BenchRow& r) { return num(r.median_ms); }},
      {"spread%", false, [](const BenchRow& r) { return num(r.spread_pct); }},
      {"runs", false, [](const BenchRow& r) { return std::to_string(r.runs); }},
      {"h2d pin", false, [](const BenchRow& r) { return num(r.h2d_pinned_ms); }},
      {"d2h pin", false, [](const BenchRow& r) { return num(r.d2h_pinned_ms); }},
      {"total pin", false, [](const BenchRow& r) { return num(r.total_pinned_ms); }},
      {"total page", false, [](const BenchRow& r) { return num(r.total_pageable_ms); }},
      {"x cpu1", false, [](const BenchRow& r) { return num(r.speedup_vs_cpu_1t); }},
      {"x cpuN", false, [](const BenchRow& r) { return num(r.speedup_vs_cpu_all); }},
      {"GB/s", false, [](const BenchRow& r) { return num(r.gbps); }},
      {"%copyBW", false, [](const BenchRow& r) { return share(r.bw_share); }},
      {"GFLOP/s", false, [](const BenchRow& r) { return num(r.gflops); }},
      {"%peak", false, [](const BenchRow& r) { return share(r.flop_share); }},
      {"GOP/s", false, [](const BenchRow& r) { return num(r.gops); }},
      {"pairs/s", false, [](const BenchRow& r) { return num(r.pairs_per_s); }},
      {"MiB/pair", false,
       [](const BenchRow& r) { return num(r.device_bytes_per_pair / 1048576.0); }},
      // Kernel resources (measurement.h's summarize_resources: the kernel that launched the
      // most threads, and how many distinct kernels ran).
      {"kernels", false, [](const BenchRow& r) { return num(r.kernels); }},
      {"thr/blk", false, [](const BenchRow& r) { return num(r.block_threads); }},
      {"regs", false, [](const BenchRow& r) { return num(r.registers); }},
      {"smem B", false, [](const BenchRow& r) { return num(r.static_smem_bytes); }},
      {"dyn smem B", false, [](const BenchRow& r) { return num(r.dynamic_smem_bytes); }},
      {"occ%", false, [](const BenchRow& r) { return num(r.occupancy_pct); }},
  };
  return cols;
}

// The columns with at least one value among `rows` (identity columns always).
std::vector<const Column*> used_columns(const std::vector<const BenchRow*>& rows) {
  std::vector<const Column*> out;
  for (const Column& c : columns()) {
    bool any = std::string(c.header) == "case" || std::string(c.header) == "variant";
    for (const BenchRow* r : rows) any = any || c.cell(*r) != "-";
    if (any) out.push_back(&c);
  }
  return out;
}

std::vector<std::string> groups_in(const BenchReport& report) {
  std::vector<std::string> out;
  for (const BenchRow& r : report.rows)
    if (std::find(out.begin(), out.end(), r.group) == out.end()) out.push_back(r.group);
  return out;
}

}  // namespace

std::vector<std::string> device_lines(const BenchReport& report) {
  const DeviceInfo& d = report.device;
  std::vector<std::string> lines;
  if (d.gpu) {
    lines.push_back("device: " + d.name + " (sm_" + std::to_string(d.cc_major) +
                    std::to_string(d.cc_minor) + ", " + std::to_string(d.sm_count) + " SMs, " +
                    num(d.memory_bytes / 1073741824.0) + " GiB, L2 " + num(d.l2_bytes / 1048576.0) +
                    " MiB)");
    lines.push_back("driver: CUDA " + d.driver + ", runtime " + d.runtime + "; clocks: SM " +
                    num(d.sm_clock_mhz) + " MHz, memory " + num(d.mem_clock_mhz) + " MHz, bus " +
                    std::to_string(d.bus_width_bits) + " bit");
    lines.push_back("copy bandwidth (measured, D2D, read + write): " + num(d.copy_bandwidth_gbps) +
                    " GB/s; theoretical DRAM: " + num(d.peak_bandwidth_gbps) + " GB/s");
    lines.push_back("peak FLOP rate (estimate: SMs x clock x lanes x 2): FP64 " +
                    num(d.peak_fp64_gflops) + " GFLOP/s (" + std::to_string(d.fp64_lanes) +
                    " lanes/SM), FP32 " + num(d.peak_fp32_gflops) + " GFLOP/s (" +
                    std::to_string(d.fp32_lanes) + " lanes/SM)");
  } else {
    lines.push_back(
        "device: no CUDA device used (none present or a CPU-only build): CPU columns only");
  }
  lines.push_back("host: " + (d.cpu_name.empty() ? std::string("unknown CPU") : d.cpu_name) + ", " +
                  std::to_string(d.cpu_threads) + " threads");
  return lines;
}

std::string format_table(const BenchReport& report) {
  std::ostringstream out;
  for (const std::string& line : device_lines(report)) out << line << '\n';
  for (const std::string& group : groups_in(report)) {
    const auto rows = rows_of(report, group);
    const auto cols = used_columns(rows);
    std::vector<std::size_t> width(cols.size());
    for (std::size_t c = 0; c < cols.size(); ++c) {
      width[c] = std::string(cols[c]->header).size();
      for (const BenchRow* r : rows) width[c] = std::max(width[c], cols[c]->cell(*r).size());
    }
    out << "\n== " << group << " ==\n";
    auto line = [&](const std::function<std::string(std::size_t)>& text) {
      for (std::size_t c = 0; c < cols.size(); ++c) {
        const std::string t = text(c);
        const bool left = cols[c]->text;
        out << (c ? "  " : "")
            << (left ? t + std::string(width[c] - t.size(), ' ')
                     : std::string(width[c] - t.size(), ' ') + t);
      }
      out << '\n';
    };
    line([&](std::size_t c) { return std::string(cols[c]->header); });
    for (const BenchRow* r : rows) line([&](std::size_t c) { return cols[c]->cell(*r); });
  }
  out << "\n== goals ==\n";
  for (const std::string& line : goal_summary(report)) out << line << '\n';
  for (const std::string& note : report.notes) out << "note: " << note << '\n';
  return out.str();
}

std::string format_markdown(const BenchReport& report) {
  std::ostringstream out;
  out << "# mad bench results\n\nGenerated by `" << report.command << "` (started "
      << report.started << ", " << num(report.elapsed_s) << " s"
      << (report.quick ? ", --quick" : "") << ").\n\n## Device\n\n";
  for (const std::string& line : device_lines(report)) out << "- " << line << '\n';
  out << "\n## Goal figures\n\n";
  for (const std::string& line : goal_summary(report)) out << "- " << line << '\n';
  out << "\n## Method\n\nGPU times are CUDA-event medians after warm-up (`runs` timed runs; spread "
         "= (max - min) / "
         "median); the preprocessing kernels rotate input copies through more than the L2. CPU "
         "references run on one "
         "thread (`cpu-1t`) and on all threads (`cpu-all`); `x cpu1` / `x cpuN` are speedups over "
         "them. Transfers "
         "(`h2d`/`d2h`, pinned and pageable) move one run's input and output; `total` = h2d + "
         "kernel + d2h. Bytes and "
         "FLOPs follow the counting rules in the comments of `tools/bench/*.cpp`; `%copyBW` is "
         "against the "
         "copy bandwidth measured in the same run, `%peak` against the estimated peak FLOP rate, "
         "for exact operation counts only (`op_count`; "
         "nominal counts such as spec §11's model leave it blank); integer operations are `GOP/s`, "
         "never set against the FLOP peak. `kernels`, `thr/blk`, `regs`, `smem B` (static), `dyn "
         "smem B` "
         "and `occ%` (theoretical occupancy) come from the CUDA runtime's function attributes and "
         "occupancy calculator for the kernel of one run that launched the most threads; they are "
         "blank where no kernel of ours was recorded (CPU rows, host-timed pipeline rows, cuFFT's "
         "and CUB's own kernels).\n";
  for (const std::string& group : groups_in(report)) {
    const auto rows = rows_of(report, group);
    const auto cols = used_columns(rows);
    out << "\n## " << group << "\n\n|";
    for (const Column* c : cols) out << ' ' << c->header << " |";
    out << "\n|";
    for (std::size_t c = 0; c < cols.size(); ++c) out << (cols[c]->text ? "---|" : "--:|");
    out << '\n';
    for (const BenchRow* r : rows) {
      out << '|';
      for (const Column* c : cols) out << ' ' << c->cell(*r) << " |";
      out << '\n';
    }
  }
  if (!report.notes.empty()) {
    out << "\n## Notes\n\n";
    for (const std::string& note : report.notes) out << "- " << note << '\n';
  }
  return out.str();
}

}  // namespace mad::bench
