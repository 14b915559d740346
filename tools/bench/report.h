// `mad bench` (issue 5): per-kernel timing comparisons of every registered GPU variant against
// the CPU reference, with transfers, bytes and FLOPs, as a terminal table, CSV, JSON, a
// self-contained HTML report and Markdown; `--summary-from bench.json` prints the goal figures.
//
// This header is the report outputs, all computed from a finished BenchReport
// (tools/bench/model.h); what is measured and how is in tools/bench/runners.h. The command
// itself is tools/cli_bench.cpp.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tools/bench/model.h"

namespace mad::bench {

// Lines naming the device (name, driver, runtime, clocks, SMs, measured copy bandwidth and
// the ceilings) and the host, or saying that only the CPU columns were measured.
std::vector<std::string> device_lines(const BenchReport& report);

// The goal figures of issue 5, about 15 lines, each "n/a (...)" when the report lacks the
// rows it needs: A5 fastest vs original; pipeline ms per pair at 512x512 and 1080x800 (double);
// batched 512x384 float pairs/s; device memory per pair; the preprocessing kernels' share of
// the copy bandwidth at 8192x8192 (or the largest size run); histogram monochrome/random;
// Nick's O(1) variants vs method 1 over the window sweep; the pipeline against pyiqa's 141 ms
// (512x384) and 475 ms (1080x800), figures quoted by the issue, not measured here.
std::vector<std::string> goal_summary(const BenchReport& report);

// Terminal table: the device header, then one block per group.
std::string format_table(const BenchReport& report);

// Markdown page: how it was produced, the device, the goal summary and one table per group.
std::string format_markdown(const BenchReport& report);

// Self-contained HTML (no scripts, no external resources; XHTML-style, every element closed):
// device and goal summary; per group a bar chart of every variant's median time (with the CPU
// references) for each (case, precision) at the largest size run, speedup-over-one-CPU-thread
// against size plots, the grid-stride pixels-per-thread sweep, Nick's window sweep, and the
// full table.
std::string format_html(const BenchReport& report);

// &, <, >, " and ' escaped for HTML text and attribute values (mad::html_escape with the
// apostrophe, as the bench report has always escaped it).
std::string html_escape(const std::string& text);

// Rows of one group in report order.
std::vector<const BenchRow*> rows_of(const BenchReport& report, const std::string& group);

// ---- Inline SVG charts for the HTML report: plain strings, no scripts and no external
// resources, every element closed (the report must open offline and parse as XML).
struct Bar {
  std::string label;
  double value = 0;        // > 0; bars with a non-positive or missing value are left out
  bool reference = false;  // a CPU reference: drawn grey
  std::string annotation;  // text after the value, e.g. "12x cpu1"
};

// Horizontal bars, one per entry, on a linear axis, or a log axis when the values span more
// than a factor of 20 (said in the title). Returns "" when no bar has a positive value.
std::string svg_bar_chart(const std::string& title, const std::vector<Bar>& bars,
                          const std::string& unit);

struct Series {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (x, y), both > 0 on log axes
};

// Polylines with markers and a legend; log axes where asked. Returns "" when no series has
// two or more usable points.
std::string svg_line_plot(const std::string& title, const std::vector<Series>& series,
                          const std::string& x_label, const std::string& y_label, bool log_x,
                          bool log_y);

}  // namespace mad::bench
