// The seed studies say what the seeds say (issue 28 §5): the one-pixel-per-thread histogram
// variants where the seeds time one pixel per thread, and the seeds' figures quoted as they
// stand.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "tests/support/test_support.h"
#include "tools/bench/study.h"

namespace mad {
namespace {

nlohmann::json study_json(const std::string& name) {
  const test::CommandResult r = test::run_command(std::string(MAD_BINARY) + " bench --study " +
                                                  name + " --quick --format json 2>/dev/null");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  return r.exit_code == 0 ? nlohmann::json::parse(r.out)["studies"][0] : nlohmann::json();
}

std::set<std::string> measured_as(const nlohmann::json& study) {
  std::set<std::string> out;
  for (const auto& row : study["rows"]) out.insert(row["ours_what"].get<std::string>());
  return out;
}

// Seed 001 line 25: "each thread visits a single input image matrix cell", for G and S alike.
TEST(StudyTruth, Seed001TimesOnePixelPerThread) {
  const nlohmann::json s = study_json("seed001-histogram-images");
  for (const auto& row : s["rows"]) {
    const std::string label = row["label"];
    if (label.find("S.kernel") != std::string::npos)
      EXPECT_EQ(row["ours_what"], "cuda shared_block_p1") << label;
    if (label.find("G.kernel") != std::string::npos)
      EXPECT_EQ(row["ours_what"], "cuda global_atomic") << label;
  }
}

// Seed 000 §7.2 (Figures 15, 17, 18) is one pixel per thread: no grid-stride shared variant.
TEST(StudyTruth, Seed000HistogramTimesOnePixelPerThread) {
  const std::set<std::string> what = measured_as(study_json("seed000-histogram"));
  EXPECT_EQ(what.count("cuda shared_block"), 0u);
  EXPECT_EQ(what.count("cuda shared_warp"), 0u);
  EXPECT_EQ(what.count("cuda shared_block_p1"), 1u);
  EXPECT_EQ(what.count("cuda shared_warp_p1"), 1u);
}

TEST(StudyTruth, SeedFiguresAreQuotedAsTheSeedGivesThem) {
  // Table 2: v_gradient's G.kernel 0.158923600 s over h_gradient's 0.008753978 s is 18.15x.
  const std::string seed001 = study_json("seed001-histogram-images").dump();
  EXPECT_NE(seed001.find("18.15x h_gradient's"), std::string::npos);
  EXPECT_EQ(seed001.find("15.1x"), std::string::npos);
  // Seed 002 prints "BINARITZATED IN = 1.629317 [seconds]" on line 220.
  const std::string seed002 = study_json("seed002-nick-windows").dump();
  EXPECT_NE(seed002.find("text, line 220"), std::string::npos);
  EXPECT_EQ(seed002.find("line 218"), std::string::npos);
  EXPECT_EQ(seed002.find("lines 218"), std::string::npos);
}

}  // namespace
}  // namespace mad
