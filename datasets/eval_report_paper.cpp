// The eval report's parts a paper takes as they are (issue 28, item 7): the figure as its own
// SVG file, and the agreement table as CSV (for a spreadsheet or a plotting script) and as
// LaTeX (booktabs), each overall first and then per distortion type.
#include <cmath>
#include <cstdio>
#include <string>

#include "datasets/eval_report.h"

namespace mad::datasets {
namespace {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string csv_number(double v) {
  if (!std::isfinite(v)) return "";
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", v);  // round-trips: the table is data, not a view
  return b;
}

std::string latex_text(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
      case '%':
      case '$':
      case '#':
      case '_':
      case '{':
      case '}': out += '\\', out += c; break;
      case '~': out += "\\textasciitilde{}"; break;
      case '^': out += "\\textasciicircum{}"; break;
      case '\\': out += "\\textbackslash{}"; break;
      default: out += c;
    }
  }
  return out;
}

std::string latex_metric(const Metric& m) {
  if (!std::isfinite(m.value)) return "--";
  std::string s = format_stat(m.value, 3);
  if (std::isfinite(m.ci.lo) && std::isfinite(m.ci.hi))
    s += " {\\small [" + format_stat(m.ci.lo, 3) + ", " + format_stat(m.ci.hi, 3) + "]}";
  return s;
}

}  // namespace

std::string report_figure_svg(const EvalReport& r) {
  const std::string figure = scatter_svg(r);
  if (figure.empty()) return "";
  // A file needs the namespace that HTML's inline <svg> implies.
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"" +
         figure.substr(4);
}

std::string report_table_csv(const EvalReport& r) {
  std::string out = "type,pairs,references";
  for (const char* m : {"srocc", "krocc", "plcc", "rmse"})
    out += std::string(",") + m + "," + m + "_ci_lo," + m + "_ci_hi";
  out += "\r\n";
  for (const GroupStats* g : report_groups(r)) {
    out +=
        csv_field(g->name) + "," + std::to_string(g->pairs) + "," + std::to_string(g->references);
    for (const Metric* m : {&g->srocc, &g->krocc, &g->plcc, &g->rmse})
      out += "," + csv_number(m->value) + "," + csv_number(m->ci.lo) + "," + csv_number(m->ci.hi);
    out += "\r\n";
  }
  return out;
}

std::string report_table_latex(const EvalReport& r) {
  std::string out = "% " + latex_text(report_title(r)) + ": " + latex_text(sign_convention(r)) +
                    "\n% 95% bootstrap intervals by reference image; needs \\usepackage{booktabs}\n"
                    "\\begin{tabular}{lrrllll}\n\\toprule\n"
                    "Type & Pairs & Refs & SROCC & KROCC & PLCC & RMSE \\\\\n\\midrule\n";
  for (const GroupStats* g : report_groups(r)) {
    out += latex_text(g->name) + " & " + std::to_string(g->pairs) + " & " +
           std::to_string(g->references);
    for (const Metric* m : {&g->srocc, &g->krocc, &g->plcc, &g->rmse})
      out += " & " + latex_metric(*m);
    out += " \\\\\n";
    if (g == &r.stats.overall && !r.stats.per_type.empty()) out += "\\midrule\n";
  }
  return out + "\\bottomrule\n\\end{tabular}\n";
}

}  // namespace mad::datasets
