// The eval report for a paper (issue 28, item 7): the bootstrap's few-references warning in the
// JSON summary, the terminal table and the HTML report; per-type fitted curves in the figure;
// the figure as a standalone SVG; the table as CSV and as LaTeX.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "datasets/eval_report.h"

namespace mad::datasets {
namespace {

EvalReport report_with(std::size_t overall_refs, std::size_t type_refs) {
  EvalReport r;
  r.dataset = "tiny";
  r.have_stats = true;
  r.stats.overall.name = "all";
  r.stats.overall.pairs = 40;
  r.stats.overall.references = overall_refs;
  GroupStats t;
  t.name = "blur";
  t.pairs = 10;
  t.references = type_refs;
  r.stats.per_type.push_back(t);
  return r;
}

TEST(IntervalWarning, NamesGroupsWithTooFewReferences) {
  const EvalReport r = report_with(kFewestIntervalReferences, 2);
  const auto w = interval_warnings(r);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("'blur'"), std::string::npos);
  EXPECT_NE(w[0].find("only 2 reference"), std::string::npos);
  EXPECT_TRUE(interval_warnings(report_with(kFewestIntervalReferences, 12)).empty());
}

TEST(IntervalWarning, NoIntervalNoWarning) {
  GroupStats g;
  g.name = "one";
  g.pairs = 1;  // a single pair has no interval to warn about
  g.references = 1;
  EXPECT_EQ(interval_warning(g), "");
  EvalReport r = report_with(2, 2);
  r.have_stats = false;
  EXPECT_TRUE(interval_warnings(r).empty());
}

TEST(IntervalWarning, EveryRenderingCarriesIt) {
  const EvalReport r = report_with(3, 2);
  const auto j = report_to_json(r);
  ASSERT_EQ(j["warnings"].size(), 2u);
  EXPECT_NE(j["warnings"][0].get<std::string>().find("'all'"), std::string::npos);
  const std::string text = report_to_text(r);
  EXPECT_NE(text.find("warning: 'all'"), std::string::npos);
  EXPECT_NE(text.find("warning: 'blur'"), std::string::npos);
  const std::string html = report_to_html(r);
  EXPECT_NE(html.find("class=\"warn\">Warning: 'blur'"), std::string::npos);
}

// A report of a run that scored `scored` pairs in `seconds` on `workers` workers.
EvalReport timed_report(double seconds, int workers, std::size_t scored) {
  EvalReport r = report_with(20, 20);
  r.score_seconds = seconds;
  r.settings.workers = workers;
  r.counts.scored_now = scored;
  return r;
}

TEST(DecodingBound, TheSummarySaysSoWithTheDecodersCeiling) {
  // Issue 26: 10,000 pairs in 2 s on one worker, which waited 1.6 s for decoding; 16 threads
  // decoded 10,081 images at 2 ms each (about 1.01 images a pair): the ceiling is
  // 16 / 2 ms x 10,000 / 10,081 = 7,936 pairs/s.
  EvalReport r = timed_report(2.0, 1, 10000);
  r.decoded_images = 10081;
  r.decode_seconds = 10081 * 0.002;
  r.decode_threads = 16;
  r.decode_wait_seconds = 1.6;
  const std::string bound = report_to_text(r);
  EXPECT_NE(bound.find("bounded by decoding: the workers waited on it 80% of their time; 16 "
                       "decoding thread(s) at 2.00 ms an image feed at most 7936 pairs/s"),
            std::string::npos)
      << bound;
  r.decode_wait_seconds = 0.4;  // a GPU-bound run: nothing to say
  EXPECT_EQ(report_to_text(r).find("bounded by decoding"), std::string::npos);
}

TEST(WorkerTiming, TheSummaryGivesTheSteadyRateApartFromTheStart) {
  // Issue 26: two GPU workers, their first pairs back at 0.98 and 1.02 s, then 172.4 and 174.6
  // pairs/s: 347.0 pairs/s once running, whatever the run's one rate says.
  EvalReport r = timed_report(2.6, 2, 640);
  r.steady_from_pair = 32;
  r.worker_timing = {{320, 0.98, 2.58, 172.4}, {320, 1.02, 2.6, 174.6}};
  const std::string text = report_to_text(r);
  EXPECT_NE(text.find("steady: 347.0 pairs/s from each worker's pair 32 on (172.4 + 174.6); the "
                      "workers' first pairs back at 0.98, 1.02 s"),
            std::string::npos)
      << text;
  const nlohmann::json run = report_to_json(r)["run"];
  EXPECT_DOUBLE_EQ(run["steady_pairs_per_second"].get<double>(), 347.0);
  EXPECT_EQ(run["steady_from_pair"], 32);
  ASSERT_EQ(run["workers"].size(), 2u);
  EXPECT_EQ(run["workers"][1]["pairs"], 320);
  EXPECT_DOUBLE_EQ(run["workers"][1]["first_seconds"].get<double>(), 1.02);
  EXPECT_DOUBLE_EQ(run["workers"][0]["steady_pairs_per_second"].get<double>(), 172.4);
  // A worker with too few pairs for a steady rate: no sum (it would understate the run).
  r.worker_timing[1].steady_pairs_per_second = 0.0;
  EXPECT_EQ(report_to_text(r).find("steady:"), std::string::npos);
  EXPECT_EQ(report_to_json(r)["run"]["steady_pairs_per_second"].get<double>(), 0.0);
  r.worker_timing.clear();  // not measured (a merged report)
  EXPECT_EQ(report_to_text(r).find("steady:"), std::string::npos);
}

// Two types with their own fits and points; one statistic NaN; awkward names for CSV and LaTeX.
EvalReport paper_report() {
  EvalReport r = report_with(20, 20);
  r.dataset = "kadid10k";
  r.score_name = "DMOS";
  r.stats.per_type[0].name = "white_noise, strong";
  GroupStats t2;
  t2.name = "blur";
  t2.pairs = 30;
  t2.references = 20;
  r.stats.per_type.push_back(t2);
  for (auto* g : {&r.stats.overall, &r.stats.per_type[0], &r.stats.per_type[1]}) {
    g->fit.ok = true;
    g->fit.beta = {-3.0, 0.2, 40.0 + g->pairs, 0.0, 3.0};
    g->srocc = {0.91234567890123, {0.9, 0.92}};
    g->plcc = {0.85, {0.8, 0.87}};
    g->rmse = {0.4, {0.35, 0.45}};
  }
  r.stats.per_type[1].krocc.value = NAN;  // e.g. a constant sample
  for (int i = 0; i < 40; ++i)
    r.points.push_back({10.0 + 2 * i, 4.0 - 0.07 * i, "ref" + std::to_string(i % 20),
                        i % 2 ? "blur" : "white_noise, strong"});
  return r;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(EvalFigure, DrawsEachTypesFittedCurve) {
  const std::string html = report_to_html(paper_report());
  EXPECT_EQ(count(html, "class=\"type-fit\""), 2u);
  EXPECT_NE(html.find("fit per type"), std::string::npos);
}

TEST(EvalFigure, StandaloneSvgIsTheReportsFigure) {
  const EvalReport r = paper_report();
  const std::string svg = report_figure_svg(r);
  ASSERT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
  EXPECT_NE(report_to_html(r).find(scatter_svg(r)), std::string::npos);
  EvalReport empty;
  EXPECT_EQ(report_figure_svg(empty), "");
}

TEST(EvalTable, CsvHasEveryGroupAtFullPrecision) {
  const std::string csv = report_table_csv(paper_report());
  std::istringstream in(csv);
  std::string header, all, noise, blur;
  std::getline(in, header), std::getline(in, all), std::getline(in, noise), std::getline(in, blur);
  EXPECT_EQ(header.rfind("type,pairs,references,srocc,srocc_ci_lo,srocc_ci_hi,krocc,", 0), 0u);
  ASSERT_EQ(all.rfind("all,40,20,", 0), 0u);
  EXPECT_EQ(std::stod(all.substr(10)), 0.91234567890123);           // round-trips exactly
  EXPECT_EQ(noise.rfind("\"white_noise, strong\",10,20,", 0), 0u);  // quoted: it has a comma
  EXPECT_NE(blur.find(",0.90000000000000002,0.92000000000000004,,,,"), std::string::npos)
      << blur;  // KROCC NaN (and its unset interval) are empty fields
  EXPECT_EQ(count(csv, "\r\n"), 4u);
  EXPECT_EQ(report_table_csv(EvalReport{}).find("\r\n") + 2, report_table_csv(EvalReport{}).size());
}

TEST(EvalTable, LatexEscapesNamesAndMarksMissingValues) {
  const std::string tex = report_table_latex(paper_report());
  EXPECT_NE(tex.find("\\begin{tabular}{lrrllll}"), std::string::npos);
  EXPECT_NE(tex.find("white\\_noise, strong & 10 & 20 & 0.912 {\\small [0.900, 0.920]}"),
            std::string::npos)
      << tex;
  EXPECT_NE(tex.find("blur & 30 & 20 & 0.912 {\\small [0.900, 0.920]} & --"), std::string::npos);
  EXPECT_EQ(count(tex, "\\midrule"), 2u);  // under the header and under the overall row
  EXPECT_NE(tex.find("\\end{tabular}"), std::string::npos);
}

// Issue 39: a 6-pair set read PLCC 1.0000 with no word of the 5-parameter fit under it, and the
// plotted fit was not monotone. Every rendering says both.
EvalReport tiny_fit_report(const LogisticParams& beta) {
  EvalReport r = report_with(kFewestIntervalReferences, kFewestIntervalReferences);
  r.stats.overall.pairs = 6;
  r.stats.per_type.clear();
  r.stats.overall.fit.ok = true;
  r.stats.overall.fit.beta = beta;
  for (int i = 0; i < 6; ++i) r.points.push_back({1.0 + i, 5.0 - 0.5 * i, "r", ""});
  return r;
}

// `warnings` holds one warning, and it says `part`.
void expect_one_warning(const std::vector<std::string>& warnings, const std::string& part) {
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find(part), std::string::npos) << warnings[0];
}

TEST(FitWarning, FewerPairsThanFivePerParameterAreNamed) {
  EvalReport r = tiny_fit_report({0.0, 1.0, 0.0, -0.5, 5.5});  // a falling line: monotone
  expect_one_warning(fit_warnings(r),
                     "'all': PLCC and RMSE come from a 5-parameter logistic fitted to 6 pairs, "
                     "fewer than 25");
  r.stats.overall.pairs = kFewestTrustedFitPairs;
  EXPECT_TRUE(fit_warnings(r).empty());
  r.stats.overall.pairs = 6;
  r.stats.overall.fit.ok = false;  // no fit, no PLCC: nothing to distrust
  EXPECT_TRUE(fit_warnings(r).empty());
}

TEST(FitWarning, ACurveThatTurnsBackOverTheDataIsNamed) {
  // q' = -0.5 + 12 s(1 - s): rises around x = 3.5, falls at the ends of 1 .. 6.
  EvalReport r = tiny_fit_report({4.0, 3.0, 3.5, -0.5, 3.0});
  r.stats.overall.pairs = 30;
  expect_one_warning(fit_warnings(r),
                     "'all': the fitted logistic rises and falls over the pairs' MAD 1.000 .. "
                     "6.000 (not monotone)");
  r.points = {{5.0, 1.0, "r", ""}, {6.0, 1.0, "r", ""}};  // only its falling tail
  EXPECT_TRUE(fit_warnings(r).empty());
}

TEST(FitWarning, EveryRenderingCarriesIt) {
  const EvalReport r = tiny_fit_report({4.0, 3.0, 3.5, -0.5, 3.0});  // both warnings
  const auto j = report_to_json(r);
  ASSERT_EQ(j["warnings"].size(), 2u);
  EXPECT_NE(j["warnings"][0].get<std::string>().find("fitted to 6 pairs"), std::string::npos);
  EXPECT_NE(j["warnings"][1].get<std::string>().find("not monotone"), std::string::npos);
  const std::string text = report_to_text(r);
  EXPECT_NE(text.find("warning: 'all': PLCC and RMSE come from"), std::string::npos) << text;
  EXPECT_NE(text.find("warning: 'all': the fitted logistic rises and falls"), std::string::npos);
  const std::string html = report_to_html(r);
  EXPECT_NE(html.find("class=\"warn\">Warning: 'all': PLCC and RMSE come from"),
            std::string::npos);
  EXPECT_NE(html.find("class=\"warn\">Warning: 'all': the fitted logistic"), std::string::npos);
}

// Issue 39: a --make-synthetic set's report was titled "MAD on kadid10k".
TEST(SyntheticReport, EveryRenderingSaysTheScoresAreInvented) {
  EvalReport r = report_with(20, 20);
  r.dataset = "kadid10k";
  for (bool synthetic : {false, true}) {
    r.synthetic = synthetic;
    const auto j = report_to_json(r);
    EXPECT_EQ(j["dataset"]["synthetic"], synthetic);
    EXPECT_EQ(j["dataset"].contains("scores"), synthetic);
    const std::string html = report_to_html(r);
    const std::string text = report_to_text(r);
    const std::string title = "MAD on kadid10k (synthetic: invented scores)";
    EXPECT_EQ(html.find("<h1>" + title + "</h1>") != std::string::npos, synthetic);
    EXPECT_EQ(html.find("<title>mad eval: " + title) != std::string::npos, synthetic);
    EXPECT_EQ(text.rfind(title + ": the subjective scores are invented", 0) == 0, synthetic)
        << text;
    EXPECT_EQ(report_table_latex(r).find(title) != std::string::npos, synthetic);
  }
  EXPECT_NE(report_to_json(r)["dataset"]["scores"].get<std::string>().find("invented"),
            std::string::npos);
}

}  // namespace
}  // namespace mad::datasets
