// Outputs of `mad bench --study` (tools/bench/study.h): the list, the terminal table, JSON and
// the HTML report (per study a table of the three columns seed / ours / ratio, the comparisons
// and an inline SVG plot from report_svg.cpp).
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "tools/bench/model.h"
#include "tools/bench/report.h"
#include "tools/bench/study.h"

namespace mad::bench {
namespace {

std::string number(double v, const char* format) {
  char buf[48];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string ratio_text(double r) {
  return present(r) ? number(r, "%.3g") : "-";
}

std::string seed_text(const StudyRow& row) {
  return row.seed ? format_seed_figure(*row.seed) : "-";
}

std::string ours_text(const StudyRow& row) {
  return present(row.ours_ms) ? format_ms(row.ours_ms) : "- (" + row.ours_note + ")";
}

std::string pad(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

// Said once above all studies: what this run leaves out, and why.
std::vector<std::string> run_preamble(const std::vector<StudyResult>& results) {
  std::vector<std::string> lines;
  if (results.empty()) return lines;
  if (!results.front().gpu)
    lines.push_back(
        "no CUDA device (or a build without the CUDA backend): the GPU rows and the comparisons "
        "that need them are left out; the CPU rows and the seed's claims are shown");
  if (results.front().quick)
    lines.push_back(
        "--quick: sizes reduced (a sixteenth of each side or less) and few runs, so the seed's "
        "figures, taken at the seed's sizes, are not set beside ours (the JSON keeps them)");
  return lines;
}

std::string agreement_text(const StudyResult& r) {
  const Agreement a = count_agreement(r);
  return "agree with the seed: " + std::to_string(a.same) + " of " + std::to_string(a.compared) +
         " comparisons";
}

// Ours per series, and (full runs only) the seed's numeric times in ms per series, against x.
std::vector<Series> plot_series(const StudyResult& r) {
  std::map<std::string, Series> ours, seed;
  std::vector<std::string> order;
  for (const StudyRow& row : r.rows) {
    if (!present(row.x) || row.series.empty()) continue;
    if (!ours.count(row.series)) order.push_back(row.series);
    Series& o = ours[row.series];
    o.name = "ours: " + row.series;
    if (present(row.ours_ms) && (!r.log_y || row.ours_ms > 0))
      o.points.emplace_back(row.x, row.ours_ms);
    if (row.seed && present(row.seed->value) && !r.quick) {
      const double scale = row.seed->unit == "s" ? 1e3 : row.seed->unit == "us" ? 1e-3 : 1.0;
      Series& s = seed[row.series];
      s.name = "seed: " + row.series;
      s.points.emplace_back(row.x, row.seed->value * scale);
    }
  }
  std::vector<Series> out;
  for (const std::string& name : order) {
    if (seed.count(name)) out.push_back(seed[name]);
    out.push_back(ours[name]);
  }
  return out;
}

}  // namespace

Agreement count_agreement(const StudyResult& r) {
  Agreement a;
  for (const StudyComparison& c : r.comparisons) {
    if (c.verdict.rfind("same ordering: yes", 0) == 0) ++a.same, ++a.compared;
    if (c.verdict.rfind("same ordering: no", 0) == 0) ++a.compared;
  }
  return a;
}

bool wants_device(const StudyResult& r, const StudyRow& row) {
  return !r.gpu && !present(row.ours_ms);
}

bool wants_device(const StudyResult& r, const StudyComparison& c) {
  return !r.gpu && c.ours == "ours: not measured";
}

std::string format_resources(const ResourceSummary& r) {
  if (!present(r.kernels)) return "-";
  std::string text = format_number(r.registers) + " regs, smem " +
                     format_number(r.static_smem_bytes) + "+" +
                     format_number(r.dynamic_smem_bytes) + " B, " +
                     format_number(r.block_threads) + " thr/blk, occ " +
                     format_number(r.occupancy_pct) + "%";
  if (r.kernels > 1) text += ", " + format_number(r.kernels) + " kernels";
  return text;
}

std::string format_ms(double ms) {
  if (!present(ms)) return "-";
  return number(ms, std::fabs(ms) < 0.1 ? "%.4f ms" : "%.3f ms");
}

std::string format_seed_figure(const SeedFigure& f) {
  if (!f.text.empty()) return f.text;
  if (!present(f.value)) return "-";
  // Fixed notation with the trailing zeros dropped: 0.000076 as the seed prints it, not 7.6e-05.
  std::string text = number(f.value, "%.12f");
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  return text + " " + f.unit;
}

std::string format_study_list() {
  std::string out;
  std::size_t width = 0;
  for (const Study& s : study_table()) width = std::max(width, s.name.size());
  for (const Study& s : study_table()) out += pad(s.name, width + 2) + s.summary + "\n";
  return out;
}

std::string format_studies_table(const std::vector<StudyResult>& results) {
  std::ostringstream out;
  for (const std::string& line : run_preamble(results)) out << line << "\n";
  if (!run_preamble(results).empty()) out << "\n";
  for (const StudyResult& r : results) {
    out << "== " << r.name << ": seed " << r.seed_file << ", " << r.section << "\n"
        << r.description << "\n"
        << "seed's machine: " << r.seed_device << "\n";
    for (const std::string& n : r.notes) out << "note: " << n << "\n";
    // The seed's column and ours / seed only where ours ran at the seed's sizes.
    const bool with_seed = !r.quick;
    std::size_t w_label = 5, w_seed = 4, w_ours = 4, w_res = 9;
    for (const StudyRow& row : r.rows) {
      if (wants_device(r, row)) continue;
      w_label = std::max(w_label, row.label.size());
      w_seed = std::max(w_seed, seed_text(row).size());
      w_ours = std::max(w_ours, ours_text(row).size());
      w_res = std::max(w_res, format_resources(row.resources).size());
    }
    out << pad("label", w_label + 2) << (with_seed ? pad("seed", w_seed + 2) : "")
        << pad("ours", w_ours + 2) << (with_seed ? pad("ours/seed", 11) : "")
        << pad("resources", w_res + 2) << "(ours measured as; seed's source)\n";
    for (const StudyRow& row : r.rows) {
      if (wants_device(r, row)) continue;
      out << pad(row.label, w_label + 2) << (with_seed ? pad(seed_text(row), w_seed + 2) : "")
          << pad(ours_text(row), w_ours + 2) << (with_seed ? pad(ratio_text(row.ratio), 11) : "")
          << pad(format_resources(row.resources), w_res + 2) << "(" << row.ours_what
          << (row.seed ? "; " + row.seed->where : std::string()) << ")\n";
    }
    for (const StudyComparison& c : r.comparisons)
      if (!wants_device(r, c))
        out << "* " << c.subject << ": " << c.seed << "; " << c.ours << "; " << c.verdict << "\n";
    if (r.gpu) out << agreement_text(r) << "\n";  // without a device nothing was compared
    out << "\n";
  }
  return out.str();
}

nlohmann::json studies_json(const std::vector<StudyResult>& results,
                            const StudiesProvenance& provenance) {
  auto num = [](double v) { return present(v) ? nlohmann::json(v) : nlohmann::json(); };
  nlohmann::json doc = {{"format", "mad-studies/1"},
                        {"command", provenance.command},
                        {"started", provenance.started},
                        {"gpu", !results.empty() && results.front().gpu},
                        {"quick", !results.empty() && results.front().quick},
                        {"device",
                         {{"name", provenance.device},
                          {"driver", provenance.driver},
                          {"runtime", provenance.runtime},
                          {"cpu", provenance.cpu},
                          {"cpu_threads", provenance.cpu_threads}}},
                        {"notes", run_preamble(results)},
                        {"studies", nlohmann::json::array()}};
  for (const StudyResult& r : results) {
    nlohmann::json s = {{"name", r.name},           {"seed_file", r.seed_file},
                        {"section", r.section},     {"description", r.description},
                        {"seed_device", r.seed_device}, {"quick", r.quick},
                        {"gpu", r.gpu},             {"notes", r.notes},
                        {"rows", nlohmann::json::array()},
                        {"comparisons", nlohmann::json::array()}};
    const Agreement a = count_agreement(r);
    s["agreement"] = {{"same", a.same}, {"compared", a.compared}};
    for (const StudyRow& row : r.rows) {
      nlohmann::json j = {{"label", row.label},         {"series", row.series},
                          {"x", num(row.x)},            {"ours_what", row.ours_what},
                          {"ours_ms", num(row.ours_ms)}, {"ours_note", row.ours_note},
                          {"ratio", num(row.ratio)},    {"seed", nullptr}};
      const ResourceSummary& k = row.resources;
      j["kernels"] = num(k.kernels);
      j["block_threads"] = num(k.block_threads);
      j["registers"] = num(k.registers);
      j["static_smem_bytes"] = num(k.static_smem_bytes);
      j["dynamic_smem_bytes"] = num(k.dynamic_smem_bytes);
      j["occupancy_pct"] = num(k.occupancy_pct);
      if (row.seed)
        j["seed"] = {{"value", num(row.seed->value)},
                     {"unit", row.seed->unit},
                     {"where", row.seed->where},
                     {"text", row.seed->text},
                     {"shown", format_seed_figure(*row.seed)}};
      s["rows"].push_back(j);
    }
    for (const StudyComparison& c : r.comparisons)
      s["comparisons"].push_back({{"subject", c.subject},
                                  {"seed", c.seed},
                                  {"ours", c.ours},
                                  {"verdict", c.verdict}});
    doc["studies"].push_back(s);
  }
  return doc;
}

std::string format_studies_html(const std::vector<StudyResult>& results,
                                const std::vector<std::string>& device_lines) {
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><meta "
       "charset=\"utf-8\"/><title>mad bench: the seeds' studies</title><style>"
       "body{font-family:sans-serif;max-width:72em;margin:1em auto}table{border-collapse:"
       "collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}"
       "td.n{text-align:right}</style></head><body>\n<h1>The seeds' studies</h1>\n<p>";
  for (const std::string& line : device_lines) h << html_escape(line) << "<br/>";
  for (const std::string& line : run_preamble(results)) h << html_escape(line) << "<br/>";
  h << "</p>\n<p>The seed's figures are absolute times on the seed's machine, as the seed gives "
       "them; only the comparisons (speedups, orderings, growth) carry over to ours.</p>\n";
  for (const StudyResult& r : results) {
    h << "<h2 id=\"" << html_escape(r.name) << "\">" << html_escape(r.name) << "</h2>\n<p>Seed "
      << html_escape(r.seed_file) << ", " << html_escape(r.section) << ". "
      << html_escape(r.description) << " Seed's machine: " << html_escape(r.seed_device)
      << ".</p>\n<ul>";
    for (const std::string& n : r.notes) h << "<li>" << html_escape(n) << "</li>";
    const bool with_seed = !r.quick;  // as in the table
    h << "</ul>\n<table><tr><th>label</th>"
      << (with_seed ? "<th>seed's figure</th>" : "") << "<th>ours</th>"
      << (with_seed ? "<th>ours / seed</th>" : "")
      << "<th>kernel resources</th><th>ours measured as</th><th>seed's source</th></tr>\n";
    for (const StudyRow& row : r.rows) {
      if (wants_device(r, row)) continue;
      h << "<tr><td>" << html_escape(row.label) << "</td>";
      if (with_seed) h << "<td class=\"n\">" << html_escape(seed_text(row)) << "</td>";
      h << "<td class=\"n\">" << html_escape(ours_text(row)) << "</td>";
      if (with_seed) h << "<td class=\"n\">" << ratio_text(row.ratio) << "</td>";
      h << "<td>" << html_escape(format_resources(row.resources)) << "</td><td>"
        << html_escape(row.ours_what) << "</td><td>"
        << html_escape(row.seed ? row.seed->where : "") << "</td></tr>\n";
    }
    h << "</table>\n<ul>";
    for (const StudyComparison& c : r.comparisons)
      if (!wants_device(r, c))
        h << "<li><b>" << html_escape(c.subject) << "</b>: " << html_escape(c.seed) << "; "
          << html_escape(c.ours) << "; " << html_escape(c.verdict) << "</li>";
    h << "</ul>\n<p>" << (r.gpu ? html_escape(agreement_text(r)) : "") << "</p>\n"
      << svg_line_plot(r.plot_title, plot_series(r), r.x_label, r.y_label, r.log_x, r.log_y)
      << "\n";
  }
  h << "</body></html>\n";
  return h.str();
}

}  // namespace mad::bench
