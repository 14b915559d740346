// What the eval report warns of (every rendering carries the same lines): intervals resting on
// too few references, and logistic fits whose PLCC and RMSE cannot be trusted; and the groups
// and the title that every rendering shows.
#include <algorithm>
#include <limits>

#include "datasets/eval_report.h"

namespace mad::datasets {
namespace {

// The group's fit warnings: too few pairs under the curve, and a curve that turns back over the
// MAD range of the group's points ("all": every point; a type: its own).
void add_fit_warnings(const EvalReport& r, const GroupStats& g, bool overall,
                      std::vector<std::string>& out) {
  if (!g.fit.ok) return;  // no fit: PLCC and RMSE are already "-"
  if (g.pairs < kFewestTrustedFitPairs)
    out.push_back("'" + g.name + "': PLCC and RMSE come from a 5-parameter logistic fitted to " +
                  std::to_string(g.pairs) + " pairs, fewer than " +
                  std::to_string(kFewestTrustedFitPairs) +
                  " (5 per parameter): the curve can follow the points, so they overstate the "
                  "agreement");
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const Observation& p : r.points)
    if (overall || p.type == g.name) lo = std::min(lo, p.mad), hi = std::max(hi, p.mad);
  if (lo <= hi && !logistic5_monotone(g.fit.beta, lo, hi))
    out.push_back("'" + g.name + "': the fitted logistic rises and falls over the pairs' MAD " +
                  format_stat(lo, 3) + " .. " + format_stat(hi, 3) +
                  " (not monotone): PLCC and RMSE reward a curve that ranks some pairs against "
                  "its own trend");
}

}  // namespace

std::vector<const GroupStats*> report_groups(const EvalReport& r) {
  std::vector<const GroupStats*> groups;
  if (!r.have_stats) return groups;
  groups.push_back(&r.stats.overall);
  for (const auto& g : r.stats.per_type) groups.push_back(&g);
  return groups;
}

std::vector<std::string> interval_warnings(const EvalReport& r) {
  std::vector<std::string> out;
  for (const GroupStats* g : report_groups(r))
    if (std::string w = interval_warning(*g); !w.empty()) out.push_back(w);
  return out;
}

std::vector<std::string> fit_warnings(const EvalReport& r) {
  std::vector<std::string> out;
  for (const GroupStats* g : report_groups(r)) add_fit_warnings(r, *g, g == &r.stats.overall, out);
  return out;
}

std::vector<std::string> report_warnings(const EvalReport& r) {
  std::vector<std::string> out = interval_warnings(r);
  for (std::string& w : fit_warnings(r)) out.push_back(std::move(w));
  return out;
}

std::string report_title(const EvalReport& r) {
  return "MAD on " + r.dataset + (r.synthetic ? " (synthetic: invented scores)" : "");
}

}  // namespace mad::datasets
