// The synthetic dataset generator: every one of the 25 distortion types on gray and RGB images,
// and the KADID-10k layout it writes (names, counts, channels, file formats).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/image_io.h"
#include "datasets/dataset.h"
#include "datasets/dataset_readers.h"
#include "datasets/synthetic_dataset.h"
#include "tests/support/test_support.h"

namespace mad::datasets {
namespace {

// Types that only move colour: on a gray image (three equal channels) they change nothing.
bool colour_only(int type) {
  return type == 4 || type == 7 || type == 8;
}

TEST(SyntheticDataset, TheTypesAreKadidsTwentyFive) {
  const std::set<int> types(std::begin(kSyntheticTypes), std::end(kSyntheticTypes));
  EXPECT_EQ(types.size(), 25u);
  EXPECT_EQ(*types.begin(), 1);
  EXPECT_EQ(*types.rbegin(), 25);
  // The first five are the original set, so a default dataset is what it always was.
  EXPECT_EQ(std::vector<int>(kSyntheticTypes, kSyntheticTypes + 5),
            (std::vector<int>{1, 11, 21, 22, 25}));
}

TEST(SyntheticDataset, EveryTypeDistortsGrayAndColourImagesDeterministically) {
  const RawImage8 gray = synthetic_reference(37, 35, 5u);
  const RawImage8 colour = synthetic_colour_reference(37, 35, 5u);
  ASSERT_EQ(colour.channels, 3);
  ASSERT_EQ(colour.samples.size(), 3u * 37 * 35);
  for (int type : kSyntheticTypes)
    for (const RawImage8* ref : {&gray, &colour})
      for (int level : {1, 5}) {
        SCOPED_TRACE("type " + std::to_string(type) + ", level " + std::to_string(level) +
                     ", channels " + std::to_string(ref->channels));
        const RawImage8 d = synthetic_distortion(*ref, type, level, 9u);
        EXPECT_EQ(d.width, ref->width);
        EXPECT_EQ(d.height, ref->height);
        EXPECT_EQ(d.channels, ref->channels);
        ASSERT_EQ(d.samples.size(), ref->samples.size());
        EXPECT_EQ(synthetic_distortion(*ref, type, level, 9u).samples, d.samples);
        if (level == 5 && !(ref->channels == 1 && colour_only(type)))
          EXPECT_NE(d.samples, ref->samples);
      }
  EXPECT_THROW(synthetic_distortion(gray, 26, 1, 1u), InvalidArgument);
  EXPECT_THROW(synthetic_distortion(gray, 1, 6, 1u), InvalidArgument);
  RawImage8 rgba = colour;
  rgba.channels = 4;
  EXPECT_THROW(synthetic_distortion(rgba, 1, 1, 1u), InvalidArgument);
}

TEST(SyntheticDataset, WritesKadidsLayoutInColour) {
  const auto dir = test::fresh_scratch_dir("synthetic_kadid");
  SyntheticSpec spec;
  spec.references = 2;
  spec.types = 25;
  spec.levels = 1;
  spec.colour = true;
  spec.width = 34;
  spec.height = 34;
  EXPECT_EQ(write_synthetic_kadid(dir.string(), spec), 50u);
  std::ifstream csv(dir / "dmos.csv");
  std::string line;
  std::size_t rows = 0;
  std::getline(csv, line);
  EXPECT_EQ(line, "dist_img,ref_img,dmos,var");
  while (std::getline(csv, line)) ++rows;
  EXPECT_EQ(rows, 50u);
  EXPECT_EQ(load_raw_image8((dir / "images" / "I02.png").string()).channels, 3);
  EXPECT_EQ(load_raw_image8((dir / "images" / "I02_24_01.png").string()).channels, 3);
  spec.types = 26;
  EXPECT_THROW(write_synthetic_kadid(dir.string(), spec), InvalidArgument);
}

// Whether this build decodes (and, through the same library, writes) `name`, e.g. "bmp".
bool decodes(const std::string& name) {
  const std::vector<std::string> formats = supported_formats();
  return std::find(formats.begin(), formats.end(), name) != formats.end();
}

// TIFF and BMP sets hold the same images as a PNG set, under names of their own extension, which
// dmos.csv gives and the KADID reader follows. BMP stores gray as three equal channels, whose
// gray (rgb2gray) is the original. A format the build does not write is refused, naming its
// library, before any file is written.
TEST(SyntheticDataset, WritesTheFormatAskedFor) {
  EXPECT_EQ(synthetic_image_format("png"), ImageFileFormat::kPng);
  EXPECT_NE(test::thrown_message<InvalidArgument>([] {
              synthetic_image_format("gif");
            }).find("'gif': expected png, tiff or bmp"),
            std::string::npos);
  EXPECT_THROW(synthetic_image_format("BMP"), InvalidArgument);  // names are lowercase
  for (const auto& [name, format, extension, library] :
       {std::tuple{"tiff", ImageFileFormat::kTiff, ".tif", "libtiff"},
        std::tuple{"bmp", ImageFileFormat::kBmp, ".bmp", "libstb"}}) {
    SCOPED_TRACE(name);
    EXPECT_STREQ(synthetic_extension(format), extension);
    const auto dir = test::fresh_scratch_dir(std::string("synthetic_") + name);
    SyntheticSpec spec;
    spec.references = 2;
    spec.types = 2;
    spec.levels = 1;
    spec.width = 35;
    spec.height = 34;
    spec.format = format;
    if (!decodes(name)) {
      const std::string m =
          test::thrown_message<InvalidArgument>([&] { write_synthetic_kadid(dir.string(), spec); });
      EXPECT_NE(m.find(std::string(library) + " was not found"), std::string::npos) << m;
      // A copy: a lambda may not capture a structured binding before C++20 (clang refuses it).
      EXPECT_NE(test::thrown_message<InvalidArgument>([n = name] {
                  synthetic_image_format(n);
                }).find(std::string(library) + " was not found"),
                std::string::npos);
      EXPECT_FALSE(std::filesystem::exists(dir / "images"));
      continue;
    }
    EXPECT_EQ(synthetic_image_format(name), format);
    ASSERT_EQ(write_synthetic_kadid(dir.string(), spec), 4u);
    const Dataset d = read_kadid(dir.string());
    ASSERT_EQ(d.entries.size(), 4u);
    EXPECT_EQ(d.entries[0].ref_name, std::string("images/I01") + extension);
    EXPECT_EQ(d.entries[3].dist_name, std::string("images/I02_11_01") + extension);
    for (const DatasetEntry& e : d.entries) {
      EXPECT_TRUE(std::filesystem::exists(e.ref)) << e.ref;
      EXPECT_TRUE(std::filesystem::exists(e.dist)) << e.dist;
    }
    // I02 and its white noise (type 11) at level 1, as the writer seeds them.
    const RawImage8 ref = synthetic_reference(35, 34, 1002u);
    const RawImage8 dist = synthetic_distortion(ref, 11, 1, 100000u + 2000u + 110u + 1u);
    for (const auto& [path, expected] :
         {std::pair{d.entries[3].ref, &ref}, std::pair{d.entries[3].dist, &dist}}) {
      const RawImage8 raw = load_raw_image8(path);
      EXPECT_EQ(raw.channels, format == ImageFileFormat::kBmp ? 3 : 1) << path;
      EXPECT_EQ(load_gray_image(path).gray8, expected->samples) << path;
    }
    std::filesystem::remove_all(dir);
  }
}

// The file names are KADID-10k's: a folder that holds anything is refused before a file is
// written (a real KADID-10k copy would be overwritten), unless overwrite is asked for.
TEST(SyntheticDataset, RefusesAFolderThatHoldsAnything) {
  const auto dir = test::fresh_scratch_dir("synthetic_refuse");
  std::ofstream(dir / "dmos.csv") << "dist_img,ref_img,dmos,var\nmine.png,I01.png,3,0\n";
  SyntheticSpec spec;
  spec.references = 1;
  spec.types = 1;
  spec.width = spec.height = 34;
  const std::string m =
      test::thrown_message<InvalidArgument>([&] { write_synthetic_kadid(dir.string(), spec); });
  EXPECT_NE(m.find("is not empty (1 entries, e.g. 'dmos.csv')"), std::string::npos) << m;
  EXPECT_FALSE(std::filesystem::exists(dir / "images"));
  std::ifstream kept(dir / "dmos.csv");
  std::string first, second;
  std::getline(kept, first);
  std::getline(kept, second);
  EXPECT_EQ(second, "mine.png,I01.png,3,0");
  EXPECT_EQ(write_synthetic_kadid(dir.string(), spec, {}, /*overwrite=*/true), 5u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace mad::datasets
