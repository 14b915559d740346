// The tiny native-layout datasets of tests/data/datasets, completed at test time: the score
// files are committed (readable, hand-made scores), the images are synthesised here into a
// scratch copy (datasets/synthetic_dataset.h pixels; BMP written by hand for TID and LIVE, PNG
// for the rest), and LIVE's .mat files are written with libmatio when the build has it.
//
// Image names deliberately differ in case from the score files where the real datasets do:
// TID2013 lists I01_01_1.bmp for the file i01_01_1.bmp; TID2008 here has upper-case
// distorted names and lower-case reference names. KADID's I02 is 72x64 while I01 is 64x64,
// so a run meets mixed image sizes.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/image_io.h"
#include "datasets/live_mat.h"
#include "datasets/synthetic_dataset.h"
#include "tests/support/test_support.h"

namespace mad::test {
namespace tiny {
namespace fs = std::filesystem;

// 8-bit palettised gray BMP (BITMAPINFOHEADER, 256 gray palette entries, bottom-up rows
// padded to 4 bytes): the format of the TID and LIVE images.
inline void write_bmp8(const fs::path& path, const RawImage8& img) {
  const int stride = (img.width + 3) / 4 * 4;
  const std::uint32_t offset = 14 + 40 + 256 * 4, size = offset + stride * img.height;
  std::string b;
  const auto u16 = [&](std::uint32_t v) {
    b += char(v & 255);
    b += char((v >> 8) & 255);
  };
  const auto u32 = [&](std::uint32_t v) {
    u16(v & 0xFFFF);
    u16(v >> 16);
  };
  b += "BM";
  u32(size), u32(0), u32(offset);
  u32(40), u32(img.width), u32(img.height), u16(1), u16(8), u32(0), u32(stride * img.height);
  u32(2835), u32(2835), u32(256), u32(0);
  for (int i = 0; i < 256; ++i) b += char(i), b += char(i), b += char(i), b += char(0);
  for (int y = img.height - 1; y >= 0; --y) {
    for (int x = 0; x < img.width; ++x)
      b += char(img.samples[static_cast<std::size_t>(y) * img.width + x]);
    b.append(static_cast<std::size_t>(stride - img.width), '\0');
  }
  std::ofstream(path, std::ios::binary) << b;
}

// Reference `ref` (1-based) of size w x h, or its version at distortion slot `slot` (0..4:
// blur, noise, pixelate, quantization, contrast) and the layout's level 1..5. The synthetic
// strength is the level + 2 (capped at 5): milder distortions of such small images stay below
// MAD's detection threshold, where d_detect = 0 and so MAD = 0 (spec §5), and a dataset whose
// scores are all 0 has no statistics to test.
inline RawImage8 image(int ref, int slot, int level, int w = 64, int h = 64) {
  const RawImage8 r = datasets::synthetic_reference(w, h, 7000u + static_cast<std::uint32_t>(ref));
  if (slot < 0) return r;
  return datasets::synthetic_distortion(r, datasets::kSyntheticTypes[slot % 5],
                                        std::min(5, level + 2), 99u + ref);
}

inline void put(const fs::path& path, const RawImage8& img) {
  fs::create_directories(path.parent_path());
  if (path.extension() == ".png" || path.extension() == ".PNG")
    save_png8(path.string(), img);
  else
    write_bmp8(path, img);
}

inline std::string two(int v) {
  return (v < 10 ? "0" : "") + std::to_string(v);
}

inline void make_images(const fs::path& root) {
  for (int r = 1; r <= 2; ++r) {
    put(root / "tid2013/reference_images" / ("I" + two(r) + ".BMP"), image(r, -1, 0));
    put(root / "tid2008/reference_images" / ("i" + two(r) + ".bmp"), image(r, -1, 0));
    for (int t : {1, 24})  // additive noise, sparse sampling (contrast stands in)
      for (int l : {1, 5})
        put(root / "tid2013/distorted_images" /
                ("i" + two(r) + "_" + two(t) + "_" + std::to_string(l) + ".bmp"),
            image(r, t == 1 ? 1 : 4, l));
    for (int t : {1, 2})  // two kinds of additive noise
      for (int l : {1, 2})
        put(root / "tid2008/distorted_images" /
                ("I" + two(r) + "_" + two(t) + "_" + std::to_string(l) + ".BMP"),
            image(r, 1, l + t - 1));
    const int w = r == 1 ? 64 : 72;  // mixed sizes across references
    put(root / "kadid10k/images" / ("I" + two(r) + ".png"), image(r, -1, 0, w));
    for (int t : {1, 11})  // Gaussian blur, white noise
      for (int l : {1, 2})
        put(root / "kadid10k/images" / ("I" + two(r) + "_" + two(t) + "_" + two(l) + ".png"),
            image(r, t == 1 ? 0 : 1, l, w));
    const std::string name = r == 1 ? "1600" : "cactus";
    put(root / "csiq/src_imgs" / (name + ".png"), image(r, -1, 0));
    for (int l : {1, 2}) {
      put(root / "csiq/dst_imgs/awgn" / (name + ".AWGN." + std::to_string(l) + ".png"),
          image(r, 1, l));
      put(root / "csiq/dst_imgs/blur" / (name + ".BLUR." + std::to_string(l) + ".png"),
          image(r, 0, l));
    }
  }
  // LIVE: references bikes (1) and houses (2); per folder the images of its info.txt.
  put(root / "live/refimgs/bikes.bmp", image(1, -1, 0));
  put(root / "live/refimgs/houses.bmp", image(2, -1, 0));
  const char* folders[] = {"jp2k", "jpeg", "wn", "gblur", "fastfading"};
  for (int f = 0; f < 5; ++f)
    for (int n = 1; n <= (f == 0 ? 3 : 2); ++n)
      put(root / "live" / folders[f] / ("img" + std::to_string(n) + ".bmp"),
          image(n % 2 + 1, f, n));
}

// LIVE's score vectors over jp2k img1..3, jpeg, wn, gblur, fastfading img1..2 (the order of
// the folders' info.txt); jp2k/img3 is a reference copy (orgs = 1, DMOS 0).
inline const std::vector<double>& live_dmos() {
  static const std::vector<double> v = {40.1, 25.3, 0.0,  55.2, 30.9, 20.4,
                                        61.0, 35.5, 48.7, 52.3, 44.0};
  return v;
}

inline void make_live_mat(const fs::path& root) {
  if (!datasets::mat_files_supported()) return;
  const std::vector<std::string> names = {"bikes.bmp", "houses.bmp", "bikes.bmp",  "houses.bmp",
                                          "bikes.bmp", "bikes.bmp",  "houses.bmp", "houses.bmp",
                                          "bikes.bmp", "bikes.bmp",  "houses.bmp"};
  std::vector<double> orgs(live_dmos().size(), 0.0);
  orgs[2] = 1.0;
  datasets::write_mat_file((root / "live/dmos.mat").string(),
                           {{"dmos", live_dmos()}, {"orgs", orgs}}, {});
  datasets::write_mat_file((root / "live/refnames_all.mat").string(), {},
                           {{"refnames_all", names}});
}

}  // namespace tiny

// A scratch copy of tests/data/datasets with every image in place; removed with the object.
class TinyDatasets {
 public:
  explicit TinyDatasets(const std::string& tag)
      : root_(std::filesystem::temp_directory_path() /
              ("mad_tiny_" + tag + "_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_);
    std::filesystem::copy(data_path("datasets"), root_, std::filesystem::copy_options::recursive);
    tiny::make_images(root_);
    tiny::make_live_mat(root_);
  }
  ~TinyDatasets() { std::filesystem::remove_all(root_); }
  std::string path(const std::string& rel = "") const { return (root_ / rel).string(); }
  void write(const std::string& rel, const std::string& text) const {
    std::ofstream(root_ / rel, std::ios::binary | std::ios::trunc) << text;
  }

 private:
  std::filesystem::path root_;
};

}  // namespace mad::test
