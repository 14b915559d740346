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

using test::exits_saying;
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
    // Besides the columns found, the message says what would be read (ref,dist).
    EXPECT_TRUE(exits_saying(mad("score --backend cpu --pairs list.csv --out out.csv"), kExitInput,
                             {l.needle, "ref,dist"}));
    EXPECT_FALSE(exists("out.csv"));
  }
}

// A row whose image is missing is scored as a failed row, with its raw paths and its line.
TEST_F(ListCheck, AFailedRowKeepsItsRawPathsAndLine) {
  write("list.csv", "ref,dist\nref.png,dist.png\nref.png,gone.png\n");
  EXPECT_TRUE(exits_saying(mad("score --backend cpu --pairs list.csv --out out.csv"), kExitPartial,
                           {"line 3: "}));
  const auto rows = lines("out.csv");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].substr(rows[0].rfind(',') + 1), "line");
  EXPECT_TRUE(has(rows[2], "gone.png")) << rows[2];
  EXPECT_EQ(rows[2].substr(rows[2].rfind(',') + 1), "3");
}

// Issue 39: the whole list is checked before scoring, not only its first row. Every malformed
// line (one column, an unterminated quote, extra columns, an empty path), wherever it is, is
// named with its line and why, the run exits 3 and nothing is written. Empty trailing fields
// lose nothing and pass.
TEST_F(ListCheck, EveryMalformedLineIsNamedBeforeAnythingIsScored) {
  write("list.csv",
        "ref,dist\nref.png,dist.png\nref.png,dist.png,\nonly_one.png\n\"ref.png,dist.png\n"
        "ref.png,dist.png,extra.png\nref.png,\nref.png,dist.png\n");
  const auto r = mad("score --backend cpu --pairs list.csv --out out.csv -q");
  EXPECT_TRUE(exits_saying(
      r, kExitInput,
      {"list.csv:4: expected a reference and a distorted path, found 1 column: 'only_one.png'",
       "list.csv:5: unterminated",
       "list.csv:6: found 3 columns: 'ref.png', 'dist.png', 'extra.png' where the list's first "
       "row has 2",
       "list.csv:7: expected a reference and a distorted path, found 2 columns: 'ref.png', ''",
       "4 malformed lines", "nothing was scored"}));
  EXPECT_FALSE(has(r.out, "list.csv:3")) << r.out;  // "a,b," is a pair
  EXPECT_FALSE(exists("out.csv"));
  // The same refusal for a shard (every shard of the list, before it is planned).
  EXPECT_TRUE(exits_saying(mad("score --backend cpu --pairs list.csv --shard 2/2 --out s2.csv -q"),
                           kExitInput, {"list.csv:6: found 3 columns"}));
  EXPECT_FALSE(exists("s2.csv"));
}

// Relative paths resolve against the list's folder (docs/cli.md). A list kept in a subfolder
// but written relative to the working folder is refused with that hint, before scoring; the
// same list written relative to its folder is scored.
TEST_F(ListCheck, PathsThatOnlyResolveFromTheWorkingFolderGetTheHint) {
  write("lists/list.csv", "ref.png,dist.png\nref.png,dist.png\n");
  EXPECT_TRUE(
      exits_saying(mad("score --backend cpu --pairs lists/list.csv --out out.csv"), kExitInput,
                   {"'lists/ref.png' does not exist", "do from the working folder ('ref.png')",
                    "resolve against the list's folder (lists)"}));
  EXPECT_FALSE(exists("out.csv"));
  write("lists/good.csv", "../ref.png,../dist.png\n");
  EXPECT_EQ(mad("score --backend cpu --pairs lists/good.csv --out good.csv -q").exit_code,
            kExitOk);
  // Files that exist nowhere get no hint: those rows fail one by one, as before.
  write("lists/gone.csv", "gone.png,gone_too.png\n");
  const auto gone = mad("score --backend cpu --pairs lists/gone.csv -q");
  EXPECT_EQ(gone.exit_code, kExitPartial) << gone.out;
}

TEST_F(ListCheck, AListOfNoPairIsRefused) {
  for (const char* text : {"", "ref,dist\n", "# only a comment\n\n"}) {
    SCOPED_TRACE(text);
    write("list.csv", text);
    EXPECT_TRUE(exits_saying(mad("score --backend cpu --pairs list.csv --out out.csv"), kExitInput,
                             {"no pairs in list.csv"}));
    EXPECT_FALSE(exists("out.csv"));
  }
}

}  // namespace
}  // namespace mad
