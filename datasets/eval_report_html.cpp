// The HTML rendering of an EvalReport: one self-contained file (inline CSS and SVG, no
// scripts, no fonts or images fetched), readable offline and archivable with the results.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "common/html_escape.h"
#include "datasets/eval_report.h"

namespace mad::datasets {
namespace {

std::string num(double v, int decimals = 2) {
  char b[32];
  std::snprintf(b, sizeof b, "%.*f", decimals, v);
  return b;
}

// Tick step of 1, 2 or 5 times a power of ten giving about five intervals.
double tick_step(double range) {
  if (!(range > 0)) return 1.0;
  const double raw = range / 5.0, p = std::pow(10.0, std::floor(std::log10(raw)));
  const double m = raw / p;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

}  // namespace

// The figure: every pair, the pooled fit and each type's. Its own SVG element, so the report
// embeds it and report_figure_svg writes it as a file.
std::string scatter_svg(const EvalReport& r) {
  if (r.points.empty()) return "";
  const double W = 760, H = 480, L = 64, R = 190, T = 16, B = 48;  // plot margins (legend right)
  double x0 = r.points[0].mad, x1 = x0, y0 = r.points[0].subjective, y1 = y0;
  for (const auto& p : r.points) {
    x0 = std::min(x0, p.mad), x1 = std::max(x1, p.mad);
    y0 = std::min(y0, p.subjective), y1 = std::max(y1, p.subjective);
  }
  const double xs = tick_step(x1 - x0), ys = tick_step(y1 - y0);
  x0 = std::floor(x0 / xs) * xs, x1 = std::ceil(x1 / xs) * xs;
  y0 = std::floor(y0 / ys) * ys, y1 = std::ceil(y1 / ys) * ys;
  if (x1 <= x0) x1 = x0 + xs;
  if (y1 <= y0) y1 = y0 + ys;
  const auto px = [&](double x) { return L + (x - x0) / (x1 - x0) * (W - L - R); };
  const auto py = [&](double y) { return H - B - (y - y0) / (y1 - y0) * (H - T - B); };
  std::ostringstream s;
  s << "<svg width=\"" << W << "\" height=\"" << H
    << "\" viewBox=\"0 0 " << W << " " << H << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  s << "<rect x=\"" << L << "\" y=\"" << T << "\" width=\"" << W - L - R << "\" height=\""
    << H - T - B << "\" fill=\"none\" stroke=\"#444\"/>\n";
  for (double x = x0; x <= x1 + xs * 1e-9; x += xs)
    s << "<line x1=\"" << num(px(x)) << "\" y1=\"" << H - B << "\" x2=\"" << num(px(x))
      << "\" y2=\"" << H - B + 4 << "\" stroke=\"#444\"/><text x=\"" << num(px(x)) << "\" y=\""
      << H - B + 16 << "\" text-anchor=\"middle\">" << num(x, xs < 1 ? 2 : 0) << "</text>\n";
  for (double y = y0; y <= y1 + ys * 1e-9; y += ys)
    s << "<line x1=\"" << L - 4 << "\" y1=\"" << num(py(y)) << "\" x2=\"" << L << "\" y2=\""
      << num(py(y)) << "\" stroke=\"#444\"/><text x=\"" << L - 7 << "\" y=\"" << num(py(y) + 4)
      << "\" text-anchor=\"end\">" << num(y, ys < 1 ? 2 : 0) << "</text>\n";
  s << "<text x=\"" << (L + W - R) / 2 << "\" y=\"" << H - 10 << "\" text-anchor=\"middle\">MAD ("
    << html_escape(r.settings.mad_version) << "; higher = worse)</text>\n";
  s << "<text transform=\"translate(16," << (T + H - B) / 2
    << ") rotate(-90)\" text-anchor=\"middle\">" << html_escape(r.score_name)
    << " (higher = " << (r.higher_is_better ? "better" : "worse") << ")</text>\n";
  std::map<std::string, std::string> colour;
  for (const auto& p : r.points)
    if (!colour.count(p.type)) colour[p.type] = "";
  std::size_t k = 0;
  for (auto& [type, c] : colour) c = kPalette[k++ % std::size(kPalette)];
  for (const auto& p : r.points)
    s << "<circle cx=\"" << num(px(p.mad)) << "\" cy=\"" << num(py(p.subjective))
      << "\" r=\"2.5\" fill=\"" << colour[p.type] << "\" fill-opacity=\"0.6\"/>\n";
  if (r.have_stats && r.stats.overall.fit.ok) {
    s << "<polyline fill=\"none\" stroke=\"#000\" stroke-width=\"2\" points=\"";
    for (int i = 0; i <= 200; ++i) {
      const double x = x0 + (x1 - x0) * i / 200.0;
      const double y = std::clamp(logistic5(r.stats.overall.fit.beta, x), y0, y1);
      s << num(px(x)) << "," << num(py(y)) << " ";
    }
    s << "\"/>\n";
  }
  // Each type's own fit, thin and in its points' colour, over the MAD range of its points: a
  // paper compares how the mapping bends per distortion, which the pooled curve hides.
  std::map<std::string, std::pair<double, double>> span;
  for (const auto& p : r.points) {
    auto [it, fresh] = span.emplace(p.type, std::make_pair(p.mad, p.mad));
    it->second = {std::min(it->second.first, p.mad), std::max(it->second.second, p.mad)};
  }
  if (r.have_stats)
    for (const auto& g : r.stats.per_type) {
      if (!g.fit.ok || !span.count(g.name)) continue;
      const auto [a, b] = span[g.name];
      s << "<polyline class=\"type-fit\" fill=\"none\" stroke=\"" << colour[g.name]
        << "\" stroke-width=\"1.2\" points=\"";
      for (int i = 0; i <= 100; ++i) {
        const double x = a + (b - a) * i / 100.0;
        s << num(px(x)) << "," << num(py(std::clamp(logistic5(g.fit.beta, x), y0, y1))) << " ";
      }
      s << "\"/>\n";
    }
  double ly = T + 8;
  s << "<line x1=\"" << W - R + 12 << "\" y1=\"" << ly << "\" x2=\"" << W - R + 30 << "\" y2=\""
    << ly << "\" stroke=\"#000\" stroke-width=\"2\"/><text x=\"" << W - R + 36 << "\" y=\""
    << ly + 4 << "\">logistic fit (all)</text>\n";
  if (!r.stats.per_type.empty()) {
    ly += 15;
    s << "<line x1=\"" << W - R + 12 << "\" y1=\"" << ly << "\" x2=\"" << W - R + 30 << "\" y2=\""
      << ly << "\" stroke=\"#888\" stroke-width=\"1.2\"/><text x=\"" << W - R + 36 << "\" y=\""
      << ly + 4 << "\">fit per type (colour)</text>\n";
  }
  for (const auto& [type, c] : colour) {
    ly += 15;
    s << "<circle cx=\"" << W - R + 21 << "\" cy=\"" << ly << "\" r=\"4\" fill=\"" << c
      << "\"/><text x=\"" << W - R + 36 << "\" y=\"" << ly + 4 << "\">"
      << html_escape(type.empty() ? "(no type)" : type.substr(0, 26)) << "</text>\n";
  }
  s << "</svg>\n";
  return s.str();
}

namespace {

std::string cell(const Metric& m) {
  return "<td>" + format_stat(m.value) + "</td><td class=\"ci\">[" + format_stat(m.ci.lo, 3) +
         ", " + format_stat(m.ci.hi, 3) + "]</td>";
}

std::string group_row(const GroupStats& g, bool bold) {
  return std::string(bold ? "<tr class=\"all\">" : "<tr>") + "<td>" + html_escape(g.name) +
         "</td><td>" + std::to_string(g.pairs) + "</td><td>" + std::to_string(g.references) +
         "</td>" + cell(g.srocc) + cell(g.krocc) + cell(g.plcc) + cell(g.rmse) + "</tr>\n";
}

}  // namespace

std::string report_to_html(const EvalReport& r) {
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>mad eval: "
    << html_escape(report_title(r))
    << "</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:1100px}"
    << "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;"
    << "text-align:right}td:first-child,th:first-child{text-align:left}tr.all{font-weight:bold}"
    << ".ci{color:#666;font-size:90%}.note{color:#555}.warn{color:#a40}</style></head><body>\n";
  h << "<h1>" << html_escape(report_title(r)) << "</h1>\n<p class=\"note\">" << html_escape(r.root)
    << " &mdash; run started " << html_escape(r.started) << "</p>\n";
  if (r.synthetic) h << "<p class=\"warn\">Warning: " << html_escape(kSyntheticScores) << "</p>\n";
  h << "<p>" << html_escape(sign_convention(r)) << "</p>\n";
  const std::string figure = scatter_svg(r);
  h << (figure.empty() ? "<p>No scored pairs to plot.</p>" : figure);
  h << "<h2>Agreement (95% bootstrap intervals, " << r.settings.bootstrap.resamples
    << " resamples of reference images)</h2>\n";
  if (!r.have_stats) {
    h << "<p>Fewer than two scored pairs: no statistics.</p>\n";
  } else {
    h << "<table><tr><th>type</th><th>pairs</th><th>refs</th><th>SROCC</th><th>95% CI</th>"
      << "<th>KROCC</th><th>95% CI</th><th>PLCC</th><th>95% CI</th><th>RMSE</th><th>95% "
         "CI</th></tr>\n"
      << group_row(r.stats.overall, true);
    for (const auto& g : r.stats.per_type) h << group_row(g, false);
    h << "</table>\n";
    for (const auto& w : report_warnings(r))
      h << "<p class=\"warn\">Warning: " << html_escape(w) << "</p>\n";
  }
  const auto& s = r.settings;
  const auto& c = r.counts;
  h << "<h2>Settings and timing</h2>\n<table>";
  const std::pair<std::string, std::string> rows[] = {
      {"MAD version", s.mad_version},
      {"backend", s.backend},
      {"precision", s.precision},
      {"input class", s.input_class},
      {"A5 variant", s.a5_variant.empty() ? "-" : s.a5_variant},
      {"workers", std::to_string(s.workers)},
      {"results file", s.results_file},
      {"pairs in the dataset", std::to_string(c.entries)},
      {"scored in this run", std::to_string(c.scored_now)},
      {"from a previous run (--resume)", std::to_string(c.finished_before)},
      {"failed", std::to_string(c.failed_now)},
      {"missing images / pairs skipped",
       std::to_string(c.missing_images) + " / " + std::to_string(c.skipped_missing)},
      {"not run (--limit)", std::to_string(c.not_run)},
      {"scoring time", num(r.score_seconds) + " s (" + num(pairs_per_second(r)) + " pairs/s)"},
      {"statistics time", num(r.stats_seconds) + " s"},
      {"bootstrap seed", std::to_string(s.bootstrap.seed)}};
  for (const auto& [k, v] : rows)
    h << "<tr><td>" << html_escape(k) << "</td><td>" << html_escape(v) << "</td></tr>";
  for (const auto& d : s.devices) h << "<tr><td>device</td><td>" << html_escape(d) << "</td></tr>";
  h << "</table>\n";
  for (const auto& n : r.notes) h << "<p class=\"note\">" << html_escape(n) << "</p>\n";
  if (!r.missing.empty()) {
    h << "<details><summary>" << r.missing.size() << " missing images</summary><ul>";
    for (const auto& m : r.missing) h << "<li>" << html_escape(m) << "</li>";
    h << "</ul></details>\n";
  }
  if (!r.failures.empty()) {
    h << "<details><summary>" << r.failures.size() << " failed pairs</summary><ul>";
    for (const auto& f : r.failures)
      h << "<li>" << html_escape(f.dist) << ": " << html_escape(f.error) << "</li>";
    h << "</ul></details>\n";
  }
  h << "</body></html>\n";
  return h.str();
}

}  // namespace mad::datasets
