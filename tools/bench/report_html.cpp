// The self-contained HTML report of `mad bench --html FILE`: inline CSS and SVG only, so it
// opens offline; written XHTML-style (every element closed, attributes quoted, text escaped).
#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

#include "common/html_escape.h"
#include "tools/bench/report.h"

namespace mad::bench {
namespace {

constexpr const char* kStyle =
    "body{font-family:sans-serif;margin:24px;color:#222;max-width:1200px}"
    "h2{border-bottom:1px solid #ccc;margin-top:32px}"
    "table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ddd;padding:2px "
    "6px;text-align:right}"
    "td.t,th.t{text-align:left}code{background:#f4f4f4;padding:1px 4px}"
    ".chart{display:block;margin:8px 0}.chart text{font-size:11px}.chart "
    "text.title{font-size:13px;font-weight:bold}"
    "li{margin:2px 0}";

long long pixels(const BenchRow& r) {
  return static_cast<long long>(r.width) * r.height;
}

void list(std::ostringstream& out, const std::vector<std::string>& lines) {
  out << "<ul>";
  for (const std::string& l : lines) out << "<li>" << html_escape(l) << "</li>";
  out << "</ul>\n";
}

// Bar charts: one per (case, GPU precision) at the largest size run, GPU variants and the
// CPU references of that case and size together.
void bar_charts(std::ostringstream& out, const std::vector<const BenchRow*>& rows) {
  std::vector<std::pair<std::string, std::string>> keys;  // (case, precision), in row order
  const bool any_gpu =
      std::any_of(rows.begin(), rows.end(), [](const BenchRow* r) { return r->backend == "cuda"; });
  for (const BenchRow* r : rows) {
    if (any_gpu && r->backend != "cuda") continue;
    const std::pair<std::string, std::string> k{r->case_name,
                                                any_gpu ? r->precision : std::string()};
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  }
  for (const auto& [case_name, precision] : keys) {
    long long largest = -1;
    for (const BenchRow* r : rows)
      if (r->case_name == case_name) largest = std::max(largest, pixels(*r));
    std::vector<Bar> bars;
    std::string size;
    for (const BenchRow* r : rows) {
      if (r->case_name != case_name || pixels(*r) != largest) continue;
      const bool cpu = r->backend == "cpu";
      if (!cpu && r->precision != precision) continue;
      size = format_size(r->width, r->height);
      Bar b{r->variant, r->median_ms, cpu, ""};
      if (cpu)
        b.annotation = std::to_string(r->threads) + " thread(s)";
      else if (present(r->speedup_vs_cpu_1t))
        b.annotation = format_number(r->speedup_vs_cpu_1t) + "x cpu1";
      if (!cpu && present(r->bw_share))
        b.annotation += ", " + format_number(100 * r->bw_share) + "% copy BW";
      bars.push_back(b);
    }
    out << svg_bar_chart(case_name + " " + size + (precision.empty() ? "" : " " + precision) +
                             ": median time",
                         bars, "ms")
        << '\n';
  }
}

// Speedup over one CPU thread against image size, one line per variant, per (case, precision).
void speedup_plots(std::ostringstream& out, const std::vector<const BenchRow*>& rows) {
  std::map<std::pair<std::string, std::string>, std::map<std::string, Series>> plots;
  std::vector<std::pair<std::string, std::string>> order;
  for (const BenchRow* r : rows) {
    if (!present(r->speedup_vs_cpu_1t) || r->variant == "cpu-1t" || r->width == 0) continue;
    const std::pair<std::string, std::string> k{r->case_name, r->precision};
    if (!plots.count(k)) order.push_back(k);
    Series& s = plots[k][r->variant];
    s.name = r->variant;
    s.points.emplace_back(static_cast<double>(pixels(*r)), r->speedup_vs_cpu_1t);
  }
  for (const auto& k : order) {
    std::vector<Series> series;
    for (auto& [name, s] : plots[k]) series.push_back(s);
    out << svg_line_plot(k.first + " " + k.second + ": speedup over one CPU thread vs size", series,
                         "pixels", "speedup", true, true)
        << '\n';
  }
}

// Launch-shape sweep (grid-stride pixels per thread) and Nick's window sweep.
void sweep_plots(std::ostringstream& out, const std::string& group,
                 const std::vector<const BenchRow*>& rows) {
  std::map<std::string, Series> ppt;
  for (const BenchRow* r : rows)
    if (r->backend == "cuda" && r->pixels_per_thread > 0 &&
        r->launch_shape.rfind("grid-stride", 0) == 0) {
      Series& s = ppt[format_size(r->width, r->height)];
      s.name = format_size(r->width, r->height);
      s.points.emplace_back(r->pixels_per_thread, r->gbps);
    }
  std::vector<Series> series;
  for (auto& [k, s] : ppt) series.push_back(s);
  out << svg_line_plot(group + ": grid-stride launch, pixels per thread vs GB/s", series,
                       "pixels per thread", "GB/s", true, false);
  if (group != "nick") return;
  std::map<std::string, std::map<std::string, Series>> by_size;
  for (const BenchRow* r : rows) {
    Series& s = by_size[format_size(r->width, r->height)][r->variant];
    s.name = r->variant;
    s.points.emplace_back(std::atoi(r->case_name.c_str() + 2), r->median_ms);
  }
  for (auto& [size, variants] : by_size) {
    std::vector<Series> lines;
    for (auto& [name, s] : variants) lines.push_back(s);
    out << svg_line_plot(
        "nick " + size + ": time vs window w (method 1 grows as w^2, integral flat)", lines,
        "window w", "ms", true, true);
  }
}

void row_table(std::ostringstream& out, const std::vector<const BenchRow*>& rows) {
  // The kernel resources are measurement.h's summarize_resources: the kernel of one run that
  // launched the most threads, and how many distinct kernels ran.
  const char* heads[] = {"case",    "size",         "prec",
                         "variant", "launch shape", "ms",
                         "spread%", "runs",         "total pinned ms",
                         "x cpu1",  "x cpuN",       "GB/s",
                         "%copyBW", "GFLOP/s",      "%peak",
                         "GOP/s",   "kernels",      "thr/blk",
                         "regs",    "smem B",       "dyn smem B",
                         "occ%",    "note"};
  constexpr int kColumns = static_cast<int>(sizeof heads / sizeof heads[0]);
  auto text_column = [](int i) { return i < 5 || i == kColumns - 1; };
  out << "<details><summary>all " << rows.size() << " rows</summary><table><tr>";
  for (int i = 0; i < kColumns; ++i)
    out << "<th" << (text_column(i) ? " class=\"t\"" : "") << ">" << heads[i] << "</th>";
  out << "</tr>\n";
  for (const BenchRow* r : rows) {
    const std::string cells[] = {r->case_name,
                                 format_size(r->width, r->height),
                                 r->precision,
                                 r->variant,
                                 r->launch_shape,
                                 format_number(r->median_ms),
                                 format_number(r->spread_pct),
                                 std::to_string(r->runs),
                                 format_number(r->total_pinned_ms),
                                 format_number(r->speedup_vs_cpu_1t),
                                 format_number(r->speedup_vs_cpu_all),
                                 format_number(r->gbps),
                                 present(r->bw_share) ? format_number(100 * r->bw_share) : "-",
                                 format_number(r->gflops),
                                 present(r->flop_share) ? format_number(100 * r->flop_share) : "-",
                                 format_number(r->gops),
                                 format_number(r->kernels),
                                 format_number(r->block_threads),
                                 format_number(r->registers),
                                 format_number(r->static_smem_bytes),
                                 format_number(r->dynamic_smem_bytes),
                                 format_number(r->occupancy_pct),
                                 r->note};
    static_assert(sizeof cells / sizeof cells[0] == kColumns, "one cell per heading");
    out << "<tr>";
    for (int i = 0; i < kColumns; ++i)
      out << "<td" << (text_column(i) ? " class=\"t\"" : "") << ">" << html_escape(cells[i])
          << "</td>";
    out << "</tr>\n";
  }
  out << "</table></details>\n";
}

}  // namespace

std::string html_escape(const std::string& text) {
  return mad::html_escape(text, /*apostrophe=*/true);
}

std::string format_html(const BenchReport& report) {
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\" /><title>mad bench: "
      << html_escape(report.device.gpu ? report.device.name : std::string("CPU only"))
      << "</title><style>" << kStyle
      << "</style></head>\n<body><h1>mad bench</h1>\n<p>Generated by <code>"
      << html_escape(report.command) << "</code>, started " << html_escape(report.started) << ", "
      << html_escape(format_number(report.elapsed_s)) << " s" << (report.quick ? " (--quick)" : "")
      << ".</p>\n<h2>Device</h2>\n";
  list(out, device_lines(report));
  out << "<h2>Goal figures</h2>\n";
  list(out, goal_summary(report));
  if (!report.notes.empty()) {
    out << "<h2>Notes</h2>\n";
    list(out, report.notes);
  }
  std::vector<std::string> groups;
  for (const BenchRow& r : report.rows)
    if (std::find(groups.begin(), groups.end(), r.group) == groups.end()) groups.push_back(r.group);
  for (const std::string& g : groups) {
    const auto rows = rows_of(report, g);
    out << "<h2 id=\"" << html_escape(g) << "\">" << html_escape(g) << "</h2>\n";
    bar_charts(out, rows);
    speedup_plots(out, rows);
    sweep_plots(out, g, rows);
    row_table(out, rows);
  }
  out << "</body></html>\n";
  return out.str();
}

}  // namespace mad::bench
