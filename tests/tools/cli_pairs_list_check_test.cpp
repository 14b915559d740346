// Issue 28 section 3: a pairs list is checked before anything is scored. Known headers
// (ref,dist; reference,distorted; ...) and tab-separated lists are read; any other shape is
// refused with exit 3 naming the columns found, before --out is written; a failed row keeps
// its raw paths and its line; a list of no pair is refused.
#include <gtest/gtest.h>

#include <string>

#include "common/error.h"
#include "tests/support/test_support.h"
#include "tests/tools/cli_scratch.h"

namespace mad {
namespace {

using test::has;

class ListCheck : public test::CliScratch {};

// The MAD column of the rows of a results CSV (header skipped).
std::vector<std::string> mad_column(const std::vector<std::string>& rows) {
  std::vector<std::string> out;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const std::size_t a = rows[i].find(',');
    const std::size_t b = rows[i].find(',', a + 1);
    const std::size_t c = rows[i].find(',', b + 1);
    out.push_back(rows[i].substr(b + 1, c - b - 1));
  }
  return out;
}

TEST_F(ListCheck, KnownHeadersAndTabsAreRead) {
  const std::string want_row = "ref.png,dist.png";
  write("plain.csv", "ref.png,dist.png\n");
  ASSERT_EQ(mad("score --backend cpu --pairs plain.csv --out plain_out.csv").exit_code, kExitOk);
  const auto want = mad_column(lines("plain_out.csv"));
  ASSERT_EQ(want.size(), 1u);
  const struct {
    const char* name;
    const char* text;
  } lists[] = {
      {"long.csv", "reference,distorted\nref.png,dist.png\n"},
      {"upper.csv", "Distorted , Reference\ndist.png,ref.png\n"},
      {"tabs.tsv", "ref\tdist\nref.png\tdist.png\n"},
      {"tabs_no_header.tsv", "ref.png\tdist.png\n"},
      {"paths.csv", "id,ref_path,dist_path\n7,ref.png,dist.png\n"},
  };
  for (const auto& l : lists) {
    SCOPED_TRACE(l.name);
    write(l.name, l.text);
    const auto r = mad(std::string("score --backend cpu --pairs ") + l.name + " --out o.csv --force");
    EXPECT_EQ(r.exit_code, kExitOk) << r.out;
    EXPECT_EQ(mad_column(lines("o.csv")), want);
  }
}

TEST_F(ListCheck, UnknownColumnsAreRefusedBeforeAnythingIsWritten) {
  const test::TextCase lists[] = {
      {"image_a,image_b\nref.png,dist.png\n", "found 2 columns: 'image_a', 'image_b'"},
      {"ref.png\ndist.png\n", "found 1 column: 'ref.png'"},
      {"# a comment\n\nsrc\ttest\tmos\nref.png\tdist.png\t3\n",
       "found 3 columns: 'src', 'test', 'mos' (tab-separated)"},
  };
  for (const auto& l : lists) {
    SCOPED_TRACE(l.text);
    write("list.csv", l.text);
    const auto r = mad("score --backend cpu --pairs list.csv --out out.csv");
    EXPECT_EQ(r.exit_code, kExitInput) << r.out;
    EXPECT_TRUE(has(r.out, l.needle)) << r.out;
    EXPECT_TRUE(has(r.out, "ref,dist")) << r.out;  // says what would be read
    EXPECT_FALSE(exists("out.csv"));
  }
}

TEST_F(ListCheck, AFailedRowKeepsItsRawPathsAndLine) {
  write("list.csv", "ref,dist\nref.png,dist.png\nonly_one.png\nref.png,gone.png\n");
  const auto r = mad("score --backend cpu --pairs list.csv --out out.csv");
  EXPECT_EQ(r.exit_code, kExitPartial) << r.out;
  EXPECT_TRUE(has(r.out, "line 3: ")) << r.out;
  const auto rows = lines("out.csv");
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].substr(rows[0].rfind(',') + 1), "line");
  EXPECT_EQ(rows[2].rfind("only_one.png,,", 0), 0u) << rows[2];
  EXPECT_TRUE(has(rows[2], "found 1 column")) << rows[2];
  EXPECT_EQ(rows[2].substr(rows[2].rfind(',') + 1), "3");
  EXPECT_TRUE(has(rows[3], "gone.png")) << rows[3];
  EXPECT_EQ(rows[3].substr(rows[3].rfind(',') + 1), "4");
}

TEST_F(ListCheck, AListOfNoPairIsRefused) {
  for (const char* text : {"", "ref,dist\n", "# only a comment\n\n"}) {
    SCOPED_TRACE(text);
    write("list.csv", text);
    const auto r = mad("score --backend cpu --pairs list.csv --out out.csv");
    EXPECT_EQ(r.exit_code, kExitInput) << r.out;
    EXPECT_TRUE(has(r.out, "no pairs in list.csv")) << r.out;
    EXPECT_FALSE(exists("out.csv"));
  }
}

}  // namespace
}  // namespace mad
