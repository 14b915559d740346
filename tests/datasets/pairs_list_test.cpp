#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "common/error.h"
#include "datasets/csv.h"
#include "datasets/pairs_list.h"

namespace fs = std::filesystem;

namespace mad::datasets {
namespace {

TEST(Csv, SplitsQuotedFieldsAndCrlf) {
  EXPECT_EQ(split_csv_line("a,b,c\r"), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(split_csv_line("\"x,y\",\"he said \"\"hi\"\"\",z"),
            (std::vector<std::string>{"x,y", "he said \"hi\"", "z"}));
  EXPECT_EQ(split_csv_line("a,,"), (std::vector<std::string>{"a", "", ""}));
  EXPECT_THROW(split_csv_line("\"open"), InputError);
}

TEST(Csv, EscapeRoundTrips) {
  const std::vector<std::string> f = {"plain", "with,comma", "with \"quote\"", ""};
  EXPECT_EQ(split_csv_line(join_csv(f)), f);
}

class PairsListTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("mad_pairs_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& text) {
    const fs::path p = dir_ / "list.csv";
    std::ofstream(p) << text;
    return p.string();
  }
  fs::path dir_;
};

TEST_F(PairsListTest, HeaderInAnyOrderAndRelativePaths) {
  const auto rows =
      read_pairs_list(write("dist,score,ref\nd1.png,3,r.png\n# comment\n\n/abs/d2.png,1,r.png\n"));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].ref, (dir_ / "r.png").string());
  EXPECT_EQ(rows[0].dist, (dir_ / "d1.png").string());
  EXPECT_EQ(rows[0].line, 2);
  EXPECT_EQ(rows[1].dist, "/abs/d2.png");
  EXPECT_EQ(rows[1].line, 5);
}

TEST_F(PairsListTest, NoHeaderUsesTheFirstTwoColumns) {
  const auto rows = read_pairs_list(write("a.png,b.png\nc.png,d.png\n"));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].ref, (dir_ / "c.png").string());
}

TEST_F(PairsListTest, MalformedRowsCarryTheirErrorAndDoNotStopTheList) {
  const auto rows = read_pairs_list(write("ref,dist\nonly_one\n\"unterminated,x\nr.png,d.png\n"));
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_FALSE(rows[0].error.empty());
  EXPECT_FALSE(rows[1].error.empty());
  EXPECT_TRUE(rows[2].error.empty());
}

TEST(PairsList, MissingListIsAnInputError) {
  EXPECT_THROW(read_pairs_list("/nonexistent/list.csv"), InputError);
}

}  // namespace
}  // namespace mad::datasets
