// docs/studies.md quotes counts of a GPU run of the studies ("seed000-gray-grids (7 of 7");
// the run is kept as docs/studies-h200.json (`mad bench --study all --format json` on the
// device), so each count is checked against that file's `agreement` (issue 28 §5: each claim
// can be checked). While the file is not in the tree the comparison skips.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

namespace fs = std::filesystem;

namespace mad {
namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

const fs::path kDocs = fs::path(MAD_SOURCE_DIR) / "docs";
// "seed000-gray-grids (7 of 7": a study, then its agreeing and compared orderings.
const std::regex kCount(R"((seed\d{3}-[a-z0-9-]+) \((\d+) of (\d+))");

TEST(StudyDocs, CountsAreWrittenAsTheCheckReadsThem) {
  const std::string page = slurp(kDocs / "studies.md");
  ASSERT_FALSE(page.empty());
  EXPECT_NE(page.find("docs/studies-h200.json"), std::string::npos);
  const auto counts = std::distance(std::sregex_iterator(page.begin(), page.end(), kCount),
                                    std::sregex_iterator());
  EXPECT_GE(counts, 4) << "the H200 section's counts no longer match `name (N of M`";
}

TEST(StudyDocs, EveryCountMatchesTheKeptRun) {
  const fs::path kept = kDocs / "studies-h200.json";
  if (!fs::exists(kept)) GTEST_SKIP() << kept << " is not in the tree yet";
  const auto doc = nlohmann::json::parse(slurp(kept));
  EXPECT_TRUE(doc["gpu"].get<bool>()) << "the kept run must have measured the GPU rows";
  EXPECT_FALSE(doc["quick"].get<bool>()) << "the kept run must use the seeds' sizes";
  const std::string page = slurp(kDocs / "studies.md");
  int checked = 0;
  for (auto it = std::sregex_iterator(page.begin(), page.end(), kCount);
       it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1];
    const nlohmann::json* study = nullptr;
    for (const auto& s : doc["studies"])
      if (s["name"] == name) study = &s;
    ASSERT_NE(study, nullptr) << name << " is not in " << kept;
    EXPECT_EQ((*study)["agreement"]["same"], std::stoi((*it)[2])) << name;
    EXPECT_EQ((*study)["agreement"]["compared"], std::stoi((*it)[3])) << name;
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

}  // namespace
}  // namespace mad
