// The native-layout readers on the tiny datasets (tests/data/datasets + tiny_datasets.h):
// entries, scores, names in either case, types, levels, direction and layout detection.
#include <gtest/gtest.h>

#include <filesystem>

#include "common/error.h"
#include "datasets/dataset.h"
#include "datasets/dataset_readers.h"
#include "tests/datasets/tiny_datasets.h"
#include "tests/support/test_support.h"

namespace mad::datasets {
namespace {
namespace fs = std::filesystem;

class Readers : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { data_ = new test::TinyDatasets("readers"); }
  static void TearDownTestSuite() { delete data_; }
  static std::string dir(const std::string& rel) { return data_->path(rel); }
  // Reads the tiny dataset `rel` as `kind`, after checking that detection names that kind.
  static Dataset read_detected(const std::string& rel, DatasetKind kind) {
    EXPECT_EQ(detect_dataset_kind(dir(rel)), kind);
    return read_dataset(dir(rel), kind);
  }
  static test::TinyDatasets* data_;
};
test::TinyDatasets* Readers::data_ = nullptr;

std::string file_name(const std::string& p) {
  return fs::path(p).filename().string();
}

TEST_F(Readers, Tid2013WithNamesFindsLowerCaseFilesForUpperCaseNames) {
  const Dataset d = read_detected("tid2013", DatasetKind::Tid2013);  // type 24 exists
  ASSERT_EQ(d.entries.size(), 8u);
  EXPECT_TRUE(d.higher_is_better);
  EXPECT_EQ(d.score_name, "MOS");
  const DatasetEntry& e = d.entries[0];
  EXPECT_DOUBLE_EQ(e.subjective, 5.51429);
  EXPECT_EQ(file_name(e.dist), "i01_01_1.bmp");  // listed as I01_01_1.bmp
  EXPECT_EQ(file_name(e.ref), "I01.BMP");
  EXPECT_EQ(e.dist_name, "distorted_images/i01_01_1.bmp");
  EXPECT_EQ(e.ref_name, "reference_images/I01.BMP");
  EXPECT_EQ(e.type, "01 additive Gaussian noise");
  EXPECT_EQ(e.level, "1");
  EXPECT_EQ(e.line, 1);
  EXPECT_EQ(d.entries[3].type, "24 sparse sampling and reconstruction");
  EXPECT_EQ(d.entries[3].level, "5");
  EXPECT_DOUBLE_EQ(d.entries[7].subjective, 2.97297);
  EXPECT_TRUE(find_missing_images(d).empty());
}

TEST_F(Readers, Tid2008MosOnlyFollowsTheReferenceTypeLevelGrid) {
  const Dataset d = read_detected("tid2008", DatasetKind::Tid2008);
  ASSERT_EQ(d.entries.size(), 8u);
  // Grid order: (ref, type, level) = (1,1,1), (1,1,2), (1,2,1), ... with mos.txt's lines.
  const char* names[] = {"I01_01_1.BMP", "I01_01_2.BMP", "I01_02_1.BMP", "I01_02_2.BMP",
                         "I02_01_1.BMP", "I02_01_2.BMP", "I02_02_1.BMP", "I02_02_2.BMP"};
  const double mos[] = {5.9706, 5.4375, 4.9333, 3.9412, 6.1143, 5.2000, 4.8485, 4.0286};
  for (int i = 0; i < 8; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(file_name(d.entries[i].dist), names[i]);
    EXPECT_DOUBLE_EQ(d.entries[i].subjective, mos[i]);
    EXPECT_EQ(d.entries[i].line, i + 1);
  }
  EXPECT_EQ(file_name(d.entries[0].ref), "i01.bmp");  // upper-case name, lower-case file
  EXPECT_EQ(d.entries[2].type, "02 additive noise in color components");
  EXPECT_TRUE(find_missing_images(d).empty());
  ASSERT_FALSE(d.notes.empty());
  EXPECT_NE(d.notes[0].find("2x2x2"), std::string::npos);
}

// An entry's image names (relative to the dataset folder) and its distortion type.
void expect_entry(const DatasetEntry& e, const std::string& dist_name, const std::string& ref_name,
                  const std::string& type) {
  EXPECT_EQ(e.dist_name, dist_name);
  EXPECT_EQ(e.ref_name, ref_name);
  EXPECT_EQ(e.type, type);
}

TEST_F(Readers, Kadid10k) {
  const Dataset d = read_detected("kadid10k", DatasetKind::Kadid10k);
  ASSERT_EQ(d.entries.size(), 8u);
  EXPECT_TRUE(d.higher_is_better);  // KADID's "dmos" is a mean opinion
  expect_entry(d.entries[0], "images/I01_01_01.png", "images/I01.png", "01 Gaussian blur");
  expect_entry(d.entries[3], "images/I01_11_02.png", "images/I01.png", "11 white noise");
  EXPECT_EQ(d.entries[3].level, "2");
  EXPECT_DOUBLE_EQ(d.entries[3].subjective, 3.17);
  EXPECT_EQ(d.entries[3].line, 5);
  EXPECT_TRUE(find_missing_images(d).empty());
}

TEST_F(Readers, CsiqSheetExportMapsTypesToFoldersAndTags) {
  const Dataset d = read_detected("csiq", DatasetKind::Csiq);
  ASSERT_EQ(d.entries.size(), 8u);
  EXPECT_FALSE(d.higher_is_better);
  expect_entry(d.entries[0], "dst_imgs/awgn/1600.AWGN.1.png", "src_imgs/1600.png", "awgn");
  expect_entry(d.entries[3], "dst_imgs/blur/1600.BLUR.2.png", "src_imgs/1600.png", "blur");
  EXPECT_DOUBLE_EQ(d.entries[3].subjective, 0.183);
  EXPECT_EQ(d.entries[4].ref_name, "src_imgs/cactus.png");
  EXPECT_TRUE(find_missing_images(d).empty());
}

TEST_F(Readers, LiveReadsMatFilesOrExplainsThatLibmatioIsNeeded) {
  if (!live_mat_supported()) {
    // The test data has no .mat files without libmatio to write them: give the detector the
    // file names and check the reader's advice.
    data_->write("live/dmos.mat", "not read");
    data_->write("live/refnames_all.mat", "not read");
    try {
      read_dataset(dir("live"), DatasetKind::Live);
      FAIL() << "expected InputError";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("libmatio"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("--manifest"), std::string::npos) << e.what();
    }
    return;
  }
  const Dataset d = read_detected("live", DatasetKind::Live);
  ASSERT_EQ(d.entries.size(), 10u);  // 11 scores, one reference copy (orgs = 1) skipped
  EXPECT_FALSE(d.higher_is_better);
  EXPECT_EQ(d.entries[0].dist_name, "jp2k/img1.bmp");
  EXPECT_EQ(d.entries[0].ref_name, "refimgs/bikes.bmp");
  EXPECT_EQ(d.entries[0].level, "0.8");
  EXPECT_DOUBLE_EQ(d.entries[1].subjective, 25.3);
  EXPECT_EQ(d.entries[2].dist_name, "jpeg/img1.bmp");  // jp2k/img3 skipped
  EXPECT_EQ(d.entries[2].ref_name, "refimgs/houses.bmp");
  EXPECT_DOUBLE_EQ(d.entries[2].subjective, 55.2);
  EXPECT_EQ(d.entries[9].type, "fastfading");
  EXPECT_DOUBLE_EQ(d.entries[9].subjective, 44.0);
  EXPECT_TRUE(find_missing_images(d).empty());
}

TEST(LiveMat, RealignedScoresWinAndInfoMustAgreeWithRefnames) {
  if (!live_mat_supported()) GTEST_SKIP() << "built without libmatio";
  const test::TinyDatasets d("live_realigned");
  // dmos_realigned.mat carries dmos_new but no orgs: the flags come from dmos.mat.
  std::vector<double> realigned = test::tiny::live_dmos();
  for (double& v : realigned) v += 1.0;
  write_mat_file(d.path("live/dmos_realigned.mat"), {{"dmos_new", realigned}}, {});
  const Dataset ds = read_dataset(d.path("live"), DatasetKind::Live);
  ASSERT_EQ(ds.entries.size(), 10u);
  EXPECT_DOUBLE_EQ(ds.entries[0].subjective, 41.1);
  // An info.txt naming another reference than refnames_all is refused at its line.
  d.write("live/wn/info.txt", "bikes.bmp img1.bmp 0.05\nbikes.bmp img2.bmp 0.5\n");
  const std::string m =
      test::thrown_message<InputError>([&] { read_dataset(d.path("live"), DatasetKind::Live); });
  EXPECT_NE(m.find("info.txt:2: img2 has reference 'bikes.bmp'"), std::string::npos) << m;
}

TEST_F(Readers, ManifestResolvesRelativePathsAndTakesItsDirection) {
  ReadOptions o;
  o.manifest = dir("csv") + "/manifest.csv";  // from the working folder, as any path
  const Dataset d = read_dataset(dir("csv"), DatasetKind::Csv, o);
  ASSERT_EQ(d.entries.size(), 9u);
  EXPECT_TRUE(d.higher_is_better);  // "# higher_is_better: true"
  EXPECT_EQ(d.entries[0].type, "blur");
  EXPECT_EQ(d.entries[0].dist_name, "../kadid10k/images/I01_01_01.png");
  EXPECT_TRUE(fs::exists(d.entries[0].dist));
  o.higher_is_better = false;  // the option overrides the file
  EXPECT_FALSE(read_dataset(dir("csv"), DatasetKind::Csv, o).higher_is_better);
  // One listed image does not exist: reported by name, with its entry.
  const auto missing = find_missing_images(d);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].entry, 8u);
  EXPECT_EQ(missing[0].path, "../kadid10k/images/I02_11_03.png");
  EXPECT_EQ(detect_dataset_kind(dir("csv")), DatasetKind::Csv);
}

TEST_F(Readers, DetectionAndNamesOfKinds) {
  EXPECT_THROW(detect_dataset_kind(dir("live/jp2k")), InputError);
  EXPECT_THROW(detect_dataset_kind(dir("no_such_folder")), InputError);
  EXPECT_EQ(parse_dataset_kind("KADID10K"), DatasetKind::Kadid10k);
  EXPECT_EQ(to_string(parse_dataset_kind("tid2008")), "tid2008");
  EXPECT_THROW(parse_dataset_kind("tid2000"), InvalidArgument);
  EXPECT_EQ(tid_type_name(17), "contrast change");
  EXPECT_EQ(kadid_type_name(25), "contrast change");
}

TEST(OrderByReference, GroupsEachReferenceInFirstAppearanceOrder) {
  std::vector<DatasetEntry> e(5);
  const char* refs[] = {"b", "a", "b", "c", "a"};
  for (int i = 0; i < 5; ++i) e[i].ref = refs[i];
  EXPECT_EQ(order_by_reference(e), (std::vector<std::size_t>{0, 2, 1, 4, 3}));
}

}  // namespace
}  // namespace mad::datasets
