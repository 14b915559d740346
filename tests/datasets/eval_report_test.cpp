// The eval report's renderings of the bootstrap's few-references warning (issue 28, item 7):
// a group whose interval resamples fewer than kFewestIntervalReferences references is named
// in the JSON summary, the terminal table and the HTML report; one with enough is not.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace mad::datasets
