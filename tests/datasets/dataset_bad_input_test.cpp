// Malformed score files are rejected with FILE:LINE and the reason; missing images are listed,
// never dropped silently; layouts that contradict themselves are refused.
#include <gtest/gtest.h>

#include <filesystem>

#include "common/error.h"
#include "datasets/dataset.h"
#include "datasets/dataset_io.h"
#include "tests/datasets/tiny_datasets.h"

namespace mad::datasets {
namespace {
namespace fs = std::filesystem;

// The message of the InputError that reading `rel` as `kind` throws ("" when none is thrown).
std::string read_error(const test::TinyDatasets& d, const std::string& rel, DatasetKind kind,
                       const ReadOptions& o = {}) {
  try {
    read_dataset(d.path(rel), kind, o);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

void expect_has(const std::string& text, const std::string& needle) {
  EXPECT_NE(text.find(needle), std::string::npos) << "'" << needle << "' not in: " << text;
}

TEST(BadInput, TidScoreFilesNameTheLine) {
  const test::TinyDatasets d("bad_tid");
  d.write("tid2013/mos_with_names.txt", "5.1 I01_01_1.bmp\n4.2 I01_01_5.bmp\nabc I01_24_1.bmp\n");
  std::string e = read_error(d, "tid2013", DatasetKind::Tid2013);
  expect_has(e, "mos_with_names.txt:3:");
  expect_has(e, "'abc' is not a number");
  d.write("tid2013/mos_with_names.txt", "5.1 I01_01_1.bmp\n4.2 picture.bmp\n");
  expect_has(read_error(d, "tid2013", DatasetKind::Tid2013), "mos_with_names.txt:2: 'picture.bmp'");
  d.write("tid2013/mos_with_names.txt", "5.1 I01_01_1.bmp extra\n");
  expect_has(read_error(d, "tid2013", DatasetKind::Tid2013),
             "mos_with_names.txt:1: expected 'MOS NAME'");
  d.write("tid2013/mos_with_names.txt", "nan I01_01_1.bmp\n");
  expect_has(read_error(d, "tid2013", DatasetKind::Tid2013), "'nan' is not a number");
  // mos.txt whose length does not match the grid of names in distorted_images/.
  d.write("tid2008/mos.txt", "5\n4\n3\n2\n1\n2\n3\n");
  e = read_error(d, "tid2008", DatasetKind::Tid2008);
  expect_has(e, "7 scores");
  expect_has(e, "2 references x 2 types x 2 levels = 8");
  d.write("tid2008/mos.txt", "5\n4\n3\n2\n1\n2\n3\n4 4\n");
  expect_has(read_error(d, "tid2008", DatasetKind::Tid2008),
             "mos.txt:8: expected one MOS per line");
}

TEST(BadInput, KadidAndCsiqAndManifestNameTheLine) {
  const test::TinyDatasets d("bad_csv");
  d.write("kadid10k/dmos.csv",
          "dist_img,ref_img,dmos,var\nI01_01_01.png,I01.png,4.5,0.1\nI01_01_02.png,I01.png\n");
  expect_has(read_error(d, "kadid10k", DatasetKind::Kadid10k),
             "dmos.csv:3: expected 3 fields, got 2");
  d.write("kadid10k/dmos.csv", "image,reference,score\n");
  expect_has(read_error(d, "kadid10k", DatasetKind::Kadid10k), "dmos.csv:1: expected a header");
  d.write("kadid10k/dmos.csv", "dist_img,ref_img,dmos,var\nI01_01_01.png,I01.png,4.5x,0\n");
  expect_has(read_error(d, "kadid10k", DatasetKind::Kadid10k),
             "dmos.csv:2: dmos '4.5x' is not a number");

  d.write("csiq/csiq_dmos.csv",
          "image,dst_type,dst_lev,dmos\n1600,noise,1,0.1\n\n1600,sharpen,1,0.2\n");
  expect_has(read_error(d, "csiq", DatasetKind::Csiq),
             "csiq_dmos.csv:4: unknown dst_type 'sharpen'");
  d.write("csiq/csiq_dmos.csv", "image,dst_type,dst_lev,dmos\n1600,noise,1.5,0.1\n");
  expect_has(read_error(d, "csiq", DatasetKind::Csiq),
             "csiq_dmos.csv:2: dst_lev must be a positive integer");

  ReadOptions o;
  o.manifest = d.path("csv/manifest.csv");  // from the working folder, as any path
  d.write("csv/manifest.csv",
          "# higher_is_better: true\nref,dist,score\na.png,b.png,1\n\"c.png,d.png,2\n");
  expect_has(read_error(d, "csv", DatasetKind::Csv, o),
             "manifest.csv:4: unterminated quoted field");
  d.write("csv/manifest.csv", "# higher_is_better: maybe\nref,dist,score\n");
  expect_has(read_error(d, "csv", DatasetKind::Csv, o),
             "manifest.csv:1: higher_is_better must be true or false");
  d.write("csv/manifest.csv", "# higher_is_better: true\nref,dist,score\na.png,,1\n");
  expect_has(read_error(d, "csv", DatasetKind::Csv, o), "manifest.csv:3: empty image path");
  d.write("csv/manifest.csv", "ref,dist,quality\na.png,b.png,1\n");
  expect_has(read_error(d, "csv", DatasetKind::Csv, o),
             "manifest.csv:1: expected a header naming ref, dist and score");
}

TEST(BadInput, ManifestWithoutADirectionIsRefused) {
  const test::TinyDatasets d("bad_direction");
  d.write("csv/manifest.csv", "ref,dist,mos\na.png,b.png,1\n");
  ReadOptions o;
  o.manifest = d.path("csv/manifest.csv");  // from the working folder, as any path
  EXPECT_THROW(read_dataset(d.path("csv"), DatasetKind::Csv, o), InvalidArgument);
  o.higher_is_better = true;
  EXPECT_EQ(read_dataset(d.path("csv"), DatasetKind::Csv, o).score_name, "mos");
}

TEST(BadInput, MissingImagesAreListedByName) {
  const test::TinyDatasets d("bad_missing");
  fs::remove(d.path("tid2013/distorted_images/i02_24_5.bmp"));
  fs::remove(d.path("tid2013/reference_images/I01.BMP"));
  const Dataset ds = read_dataset(d.path("tid2013"), DatasetKind::Tid2013);
  ASSERT_EQ(ds.entries.size(), 8u);  // the reader keeps the entries
  const auto missing = find_missing_images(ds);
  ASSERT_EQ(missing.size(), 5u);  // I01 for its four pairs, and one distorted image
  EXPECT_EQ(missing[0].path, "reference_images/I01.bmp");  // named after the distorted file
  EXPECT_EQ(missing.back().path, "distorted_images/I02_24_5.bmp");  // as the score file spells it
  EXPECT_EQ(missing.back().entry, 7u);
}

TEST(BadInput, MissingScoreFilesAndFolders) {
  const test::TinyDatasets d("bad_files");
  fs::remove(d.path("kadid10k/dmos.csv"));
  expect_has(read_error(d, "kadid10k", DatasetKind::Kadid10k), "no dmos.csv");
  fs::remove(d.path("tid2013/mos_with_names.txt"));
  expect_has(read_error(d, "tid2013", DatasetKind::Tid2013),
             "neither mos_with_names.txt nor mos.txt");
  fs::remove_all(d.path("tid2008/distorted_images"));
  expect_has(read_error(d, "tid2008", DatasetKind::Tid2008), "is missing");
  fs::remove(d.path("csiq/csiq_dmos.csv"));
  expect_has(read_error(d, "csiq", DatasetKind::Csiq), "no CSV export of the DMOS sheet");
  fs::remove(d.path("live/dmos.mat"));  // present when libmatio wrote it
  expect_has(read_error(d, "live", DatasetKind::Live), "no dmos.mat");
}

TEST(ParseNumber, AcceptsPlainNumbersOnly) {
  EXPECT_DOUBLE_EQ(parse_number(" 5.51429 ", "f", 1, "MOS"), 5.51429);
  EXPECT_DOUBLE_EQ(parse_number("-1e-3", "f", 1, "MOS"), -1e-3);
  for (const char* bad : {"", "1,5", "0x10", "inf", "1e999", "5 5"})
    EXPECT_THROW(parse_number(bad, "f", 1, "MOS"), InputError) << bad;
}

}  // namespace
}  // namespace mad::datasets
