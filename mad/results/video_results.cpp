#include "mad/results/video_results.h"

#include <cmath>
#include <limits>

#include "common/error.h"
#include "mad/results/result_json.h"

namespace mad::results {
namespace {

// An undefined figure (NaN) is an empty field, as a failed row's figures are: "nan" would read
// back as a number in some tools and not in others.
std::string figure_text(double v) { return std::isnan(v) ? std::string() : format_double(v); }

}  // namespace

VideoPairFigures::VideoPairFigures()
    : smad(std::numeric_limits<double>::quiet_NaN()),
      tmad(std::numeric_limits<double>::quiet_NaN()),
      stmad(std::numeric_limits<double>::quiet_NaN()) {}

const std::vector<std::string>& video_figure_names() {
  static const std::vector<std::string> names = {
      "mad_mean", "mad_min", "mad_max", "mad_harmonic_mean", "mad_p1", "mad_p5",
      "mad_p50",  "mad_p95", "smad",    "tmad",              "stmad"};
  return names;
}

void require_video_figure(const std::string& name, const std::string& option) {
  for (const auto& n : video_figure_names())
    if (n == name) return;
  std::string list;
  for (const auto& n : video_figure_names()) list += (list.empty() ? "" : ", ") + n;
  throw InvalidArgument(option + " '" + name + "' is not a figure of a video results row (" +
                        list + ")");
}

const std::vector<std::string>& video_results_header() {
  static const std::vector<std::string> h = [] {
    std::vector<std::string> v = {"ref", "dist", "frames"};
    for (const auto& n : video_figure_names()) v.push_back(n);
    v.insert(v.end(), {"width", "height", "pixel_format", "backend", "mad_version", "seconds",
                       "error", "backend_reason", "line"});
    return v;
  }();
  return h;
}

std::vector<std::string> video_csv_row(const std::string& ref, const std::string& dist,
                                       const VideoPairFigures* f, const std::string& error,
                                       const std::string& backend_reason, int line) {
  std::vector<std::string> row = {ref, dist};
  if (!f) {
    row.resize(video_results_header().size() - 3);
    row.insert(row.end(), {error, backend_reason, std::to_string(line)});
    return row;
  }
  row.push_back(std::to_string(f->frames));
  for (double v : {f->mad_mean, f->mad_min, f->mad_max, f->mad_harmonic_mean, f->mad_p1,
                   f->mad_p5, f->mad_p50, f->mad_p95, f->smad, f->tmad, f->stmad})
    row.push_back(figure_text(v));
  row.insert(row.end(), {std::to_string(f->width), std::to_string(f->height), f->pixel_format,
                         f->backend, f->mad_version, format_double(f->seconds), error,
                         backend_reason, std::to_string(line)});
  return row;
}

}  // namespace mad::results
