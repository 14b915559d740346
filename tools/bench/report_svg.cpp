// Inline SVG bar charts and line plots for the HTML report (declared in tools/bench/report.h).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "tools/bench/report.h"

namespace mad::bench {
namespace {

const char* const kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                                "#e377c2", "#17becf", "#bcbd22", "#393b79", "#637939", "#843c39"};
constexpr int kPaletteSize = sizeof(kPalette) / sizeof(kPalette[0]);

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string text(double x, double y, const std::string& s, const char* anchor = "start",
                 const char* cls = "") {
  return "<text x=\"" + fmt(x) + "\" y=\"" + fmt(y) + "\" text-anchor=\"" + anchor + "\"" +
         (*cls ? std::string(" class=\"") + cls + "\"" : std::string()) + ">" + html_escape(s) +
         "</text>";
}

// Tick labels: whole numbers without a decimal point ("10", not "10.0").
std::string tick(double v) {
  if (std::fabs(v) >= 1 && std::fabs(v) < 1e6 && std::fabs(v - std::round(v)) < 1e-9) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  return format_number(v);
}

bool usable(double v, bool log_axis) {
  return std::isfinite(v) && (!log_axis || v > 0);
}

// Maps a value onto [0, 1] of an axis spanning [lo, hi].
struct Axis {
  double lo = 0, hi = 1;
  bool log = false;
  double at(double v) const {
    return log ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo))
               : (v - lo) / (hi - lo);
  }
  std::vector<double> ticks() const {
    std::vector<double> t;
    if (log) {
      for (double e = std::floor(std::log10(lo)); e <= std::ceil(std::log10(hi)) + 1e-9; e += 1)
        if (std::pow(10.0, e) >= lo * 0.999 && std::pow(10.0, e) <= hi * 1.001)
          t.push_back(std::pow(10.0, e));
      if (t.size() < 2) t = {lo, hi};
    } else {
      for (int i = 0; i <= 4; ++i) t.push_back(lo + (hi - lo) * i / 4.0);
    }
    return t;
  }
};

Axis make_axis(double lo, double hi, bool log) {
  Axis a;
  a.log = log;
  if (log) {
    a.lo = std::pow(10.0, std::floor(std::log10(lo)));
    a.hi = std::pow(10.0, std::ceil(std::log10(hi)));
    if (a.hi <= a.lo) a.hi = a.lo * 10;
  } else {
    a.lo = std::min(0.0, lo);
    a.hi = hi > a.lo ? hi * 1.05 : a.lo + 1;
  }
  return a;
}

}  // namespace

std::string svg_bar_chart(const std::string& title, const std::vector<Bar>& bars,
                          const std::string& unit) {
  std::vector<const Bar*> shown;
  for (const Bar& b : bars)
    if (std::isfinite(b.value) && b.value > 0) shown.push_back(&b);
  if (shown.empty()) return "";
  double lo = shown[0]->value, hi = lo;
  for (const Bar* b : shown) lo = std::min(lo, b->value), hi = std::max(hi, b->value);
  const bool log = hi / lo > 20;
  const double floor_value = lo / 3;  // on a log axis the smallest bar keeps a visible length
  const double label_w = 250, bar_x = 258, bar_w = 330, row_h = 18, top = 26;
  const double height = top + row_h * shown.size() + 8;
  std::ostringstream s;
  s << "<svg class=\"chart\" width=\"760\" height=\"" << fmt(height) << "\" viewBox=\"0 0 760 "
    << fmt(height) << "\">";
  s << text(4, 16, title + " (" + unit + (log ? ", log scale" : "") + ")", "start", "title");
  for (std::size_t i = 0; i < shown.size(); ++i) {
    const Bar& b = *shown[i];
    const double y = top + row_h * i;
    const double frac =
        log ? std::log(b.value / floor_value) / std::log(hi / floor_value) : b.value / hi;
    const double w = std::max(1.0, frac * bar_w);
    s << text(label_w, y + 13, b.label, "end");
    s << "<rect x=\"" << fmt(bar_x) << "\" y=\"" << fmt(y + 3) << "\" width=\"" << fmt(w)
      << "\" height=\"13\" fill=\"" << (b.reference ? "#9e9e9e" : kPalette[0]) << "\" />";
    s << text(bar_x + w + 5, y + 13,
              format_number(b.value) + (b.annotation.empty() ? "" : "  " + b.annotation));
  }
  s << "</svg>";
  return s.str();
}

std::string svg_line_plot(const std::string& title, const std::vector<Series>& series,
                          const std::string& x_label, const std::string& y_label, bool log_x,
                          bool log_y) {
  std::vector<Series> kept;
  for (const Series& in : series) {
    Series out{in.name, {}};
    for (const auto& p : in.points)
      if (usable(p.first, log_x) && usable(p.second, log_y)) out.points.push_back(p);
    std::sort(out.points.begin(), out.points.end());
    if (out.points.size() >= 2) kept.push_back(std::move(out));
  }
  if (kept.empty()) return "";
  double x0 = kept[0].points[0].first, x1 = x0, y0 = kept[0].points[0].second, y1 = y0;
  for (const Series& se : kept)
    for (const auto& [x, y] : se.points)
      x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
  const Axis ax = make_axis(x0, x1 > x0 ? x1 : x0 * 2, log_x),
             ay = make_axis(y0, y1 > y0 ? y1 : y0 * 2, log_y);
  const double left = 64, top = 42, pw = 380, ph = 220, width = 760, height = top + ph + 46;
  auto px = [&](double x) { return left + ax.at(x) * pw; };
  auto py = [&](double y) { return top + ph - ay.at(y) * ph; };
  std::ostringstream s;
  s << "<svg class=\"chart\" width=\"" << fmt(width) << "\" height=\"" << fmt(height)
    << "\" viewBox=\"0 0 " << fmt(width) << ' ' << fmt(height) << "\">";
  s << text(4, 16, title, "start", "title");
  s << "<rect x=\"" << fmt(left) << "\" y=\"" << fmt(top) << "\" width=\"" << fmt(pw)
    << "\" height=\"" << fmt(ph) << "\" fill=\"none\" stroke=\"#888\" />";
  for (double t : ax.ticks()) {
    s << "<line x1=\"" << fmt(px(t)) << "\" y1=\"" << fmt(top) << "\" x2=\"" << fmt(px(t))
      << "\" y2=\"" << fmt(top + ph) << "\" stroke=\"#eee\" />"
      << text(px(t), top + ph + 14, tick(t), "middle");
  }
  for (double t : ay.ticks()) {
    s << "<line x1=\"" << fmt(left) << "\" y1=\"" << fmt(py(t)) << "\" x2=\"" << fmt(left + pw)
      << "\" y2=\"" << fmt(py(t)) << "\" stroke=\"#eee\" />"
      << text(left - 4, py(t) + 4, tick(t), "end");
  }
  s << text(left + pw / 2, top + ph + 32, x_label + (log_x ? " (log)" : ""), "middle");
  s << text(4, top - 10, y_label + (log_y ? " (log)" : ""));
  for (std::size_t i = 0; i < kept.size(); ++i) {
    const char* color = kPalette[i % kPaletteSize];
    s << "<polyline fill=\"none\" stroke=\"" << color << "\" stroke-width=\"1.5\" points=\"";
    for (const auto& [x, y] : kept[i].points) s << fmt(px(x)) << ',' << fmt(py(y)) << ' ';
    s << "\" />";
    for (const auto& [x, y] : kept[i].points)
      s << "<circle cx=\"" << fmt(px(x)) << "\" cy=\"" << fmt(py(y)) << "\" r=\"2.5\" fill=\""
        << color << "\" />";
    const double ly = top + 6 + 15 * i;
    s << "<rect x=\"" << fmt(left + pw + 12) << "\" y=\"" << fmt(ly)
      << "\" width=\"10\" height=\"10\" fill=\"" << color << "\" />"
      << text(left + pw + 26, ly + 9, kept[i].name);
  }
  s << "</svg>";
  return s.str();
}

}  // namespace mad::bench
