#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/error.h"
#include "mad/results/csv.h"
#include "mad/results/pairs_list.h"
#include "tests/support/test_support.h"

namespace fs = std::filesystem;

namespace mad::results {
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
  // A malformed row keeps what it holds, as written, so that its result row can be found.
  EXPECT_EQ(rows[0].ref, "only_one");
  EXPECT_EQ(rows[0].line, 2);
  EXPECT_EQ(rows[1].ref, "\"unterminated,x");
  EXPECT_EQ(rows[1].line, 3);
}

// Issue 28: the column names IQA tools use are headers, not a first pair that fails.
TEST_F(PairsListTest, KnownHeadersAndTabs) {
  for (const char* text : {"reference,distorted\nr.png,d.png\n", "REF_PATH,x,DIST_PATH\nr.png,1,d.png\n",
                           "ref\tdist\nr.png\td.png\n", "r.png\td.png\n",
                           "# list\n\nr.png , d.png, 3.5\n"}) {
    SCOPED_TRACE(text);
    const auto rows = read_pairs_list(write(text));
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_TRUE(rows[0].error.empty()) << rows[0].error;
    EXPECT_EQ(rows[0].ref, (dir_ / "r.png").string());
    EXPECT_EQ(rows[0].dist, (dir_ / "d.png").string());
  }
}

TEST_F(PairsListTest, AnUnknownShapeIsRefusedNamingTheColumns) {
  const test::TextCase cases[] = {
      {"image_a,image_b\nr.png,d.png\n", "list.csv:1: found 2 columns: 'image_a', 'image_b';"},
      {"\n# c\nr.png\n", "list.csv:3: found 1 column: 'r.png';"},
      {"a\tb\tc\n", "found 3 columns: 'a', 'b', 'c' (tab-separated)"},
      {"\"open,d.png\n", "list.csv:1: unterminated quoted field"},
  };
  for (const auto& c : cases) {
    const std::string path = write(c.text);
    const std::string m = test::thrown_message<InputError>([&] { read_pairs_list(path); });
    EXPECT_NE(m.find(c.needle), std::string::npos) << m;
  }
}

TEST(PairsList, MissingListIsAnInputError) {
  EXPECT_THROW(read_pairs_list("/nonexistent/list.csv"), InputError);
}

// Paths as users name files: spaces, commas, quotes and non-ASCII characters, in a pairs
// list written by hand or by join_csv, read back exactly; a UTF-8 BOM; and a list of 10^6
// rows streamed in memory that does not grow with the list.
const std::vector<std::string> kAwkwardNames = {
    "plain.png",          "with space.png",
    " leading space.png", "trailing space.png ",
    "a,comma.png",        "it's \"quoted\".png",
    "#hash.png",          "caf\xC3\xA9 \xE6\x97\xA5\xE6\x9C\xAC.png",
    "tab\tinside.png",    ""};

TEST(CsvPaths, JoinCsvRoundTripsThroughBothSplitters) {
  EXPECT_EQ(split_csv_line(join_csv(kAwkwardNames)), kAwkwardNames);
  EXPECT_EQ(split_csv_line_trimmed(join_csv(kAwkwardNames)), kAwkwardNames);
  EXPECT_EQ(csv_escape(" lead"), "\" lead\"");
  EXPECT_EQ(csv_escape("trail\t"), "\"trail\t\"");
  EXPECT_EQ(csv_escape("#x"), "\"#x\"");
  EXPECT_EQ(csv_escape("caf\xC3\xA9.png"), "caf\xC3\xA9.png");  // UTF-8 needs no quotes
  EXPECT_EQ(csv_escape("x#y"), "x#y");
}

TEST(CsvPaths, TrimmedSplitterKeepsQuotedTextExactly) {
  EXPECT_EQ(split_csv_line_trimmed("  a.png , \" b .png \" ,c\r"),
            (std::vector<std::string>{"a.png", " b .png ", "c"}));
  EXPECT_EQ(split_csv_line_trimmed("it's \"x\".png, d.png"),
            (std::vector<std::string>{"it's \"x\".png", "d.png"}));
  EXPECT_EQ(split_csv_line_trimmed("\"a,\"\"b\"\"\",,"),
            (std::vector<std::string>{"a,\"b\"", "", ""}));
  EXPECT_THROW(split_csv_line_trimmed("\"open, x"), InputError);
  EXPECT_THROW(split_csv_line_trimmed("\"closed\"junk, x"), InputError);
}

TEST_F(PairsListTest, AwkwardPathsWrittenByJoinCsvAreReadExactly) {
  std::string text = "ref,dist\n";
  for (std::size_t i = 0; i + 1 < kAwkwardNames.size(); ++i)
    text += join_csv({kAwkwardNames[i], "d/" + kAwkwardNames[i]}) + "\n";
  const std::vector<PairRow> rows = read_pairs_list(write(text));
  ASSERT_EQ(rows.size(), kAwkwardNames.size() - 1);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_TRUE(rows[i].error.empty()) << rows[i].error;
    EXPECT_EQ(rows[i].ref, (dir_ / kAwkwardNames[i]).string()) << i;
    EXPECT_EQ(rows[i].dist, (dir_ / "d" / kAwkwardNames[i]).string()) << i;
  }
}

TEST_F(PairsListTest, ByteOrderMarkAndHandWrittenQuotes) {
  const std::vector<PairRow> rows =
      read_pairs_list(write("\xEF\xBB\xBF"
                            "dist , ref\r\nit's \"d\".png , \"r, 1.png\"\r\n"));
  ASSERT_EQ(rows.size(), 1u);  // the header was recognised despite the BOM
  EXPECT_EQ(rows[0].line, 2);
  EXPECT_EQ(rows[0].ref, (dir_ / "r, 1.png").string());
  EXPECT_EQ(rows[0].dist, (dir_ / "it's \"d\".png").string());
}

long resident_kib() {
  std::ifstream status("/proc/self/status");
  std::string key;
  long value = -1;
  while (status >> key)
    if (key == "VmRSS:") return status >> value ? value : -1;
  return -1;
}

// 10^6 rows stream: the reader's memory does not grow with the list (all the rows held at once
// would take well over 100 MiB).
TEST_F(PairsListTest, AMillionRowsStreamInFlatMemory) {
  if (test::kAddressSanitizer) GTEST_SKIP() << "resident memory under ASan measures its quarantine";
  const int kRows = 1000000;
  {
    std::ofstream out(dir_ / "list.csv");
    out << "ref,dist\n";
    for (int i = 0; i < kRows; ++i)
      out << "references/reference_image_" << i << ".png,distorted/distorted_image_" << i
          << ".png\n";
  }
  const long before = resident_kib();
  PairsListReader reader((dir_ / "list.csv").string());
  PairRow row;
  int count = 0;
  long peak = before;
  while (reader.next(row)) {
    ASSERT_TRUE(row.error.empty()) << row.error;
    if (++count % 100000 == 0) peak = std::max(peak, resident_kib());
  }
  EXPECT_EQ(count, kRows);
  EXPECT_EQ(row.line, kRows + 1);
  EXPECT_EQ(
      row.dist,
      (dir_ / "distorted" / ("distorted_image_" + std::to_string(kRows - 1) + ".png")).string());
  if (before < 0) GTEST_SKIP() << "no /proc/self/status to measure memory";
  EXPECT_LT(peak - before, 16 * 1024) << "resident memory grew by " << peak - before << " KiB";
}

}  // namespace
}  // namespace mad::results
