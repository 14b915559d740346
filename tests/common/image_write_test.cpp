// The 8-bit writers `mad kernel` uses (PNG, TIFF, BMP by the output's extension), and images
// of extreme shapes through every reader: 1xN, Nx1, and 65536 or more pixels on a side (read,
// or refused with a clear InputError; never a crash, an overflow or a silently wrong shape).
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <utility>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/image_io.h"
#include "tests/common/image_io_test_util.h"

namespace mad {
namespace {

using test::io::TempDir;

RawImage8 ramp(int width, int height, int channels) {
  RawImage8 img{width, height, channels, {}};
  const std::size_t count = static_cast<std::size_t>(width) * height * channels;
  img.samples.resize(count);
  for (std::size_t i = 0; i < count; ++i) img.samples[i] = static_cast<std::uint8_t>(i * 7 + i / 5);
  return img;
}

// `img` as a reader of BMP gives it back: stb writes gray as three equal channels.
RawImage8 as_bmp_reads(const RawImage8& img) {
  if (img.channels != 1) return img;
  RawImage8 rgb{img.width, img.height, 3, {}};
  for (std::uint8_t v : img.samples) rgb.samples.insert(rgb.samples.end(), {v, v, v});
  return rgb;
}

void expect_same(const RawImage8& got, const RawImage8& want, const std::string& label) {
  EXPECT_EQ(got.width, want.width) << label;
  EXPECT_EQ(got.height, want.height) << label;
  EXPECT_EQ(got.channels, want.channels) << label;
  EXPECT_TRUE(got.samples == want.samples) << label;
}

TEST(ImageWrite, FormatFollowsTheExtension) {
  EXPECT_EQ(output_format_for_path("a/b.png"), ImageFileFormat::kPng);
  EXPECT_EQ(output_format_for_path("B.PNG"), ImageFileFormat::kPng);
  EXPECT_EQ(lowercase_extension("dir.x/Name.TiFf"), ".tiff");
  EXPECT_EQ(lowercase_extension("dir.png/name"), "");
  for (const char* refused : {"out.jpg", "out.jpeg", "out.gif", "out", "dir.png/out", "out.png.gz",
                              "out.pgm", "out.ppm"}) {
    try {
      output_format_for_path(refused);
      ADD_FAILURE() << refused << " accepted";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(".png"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(refused), std::string::npos) << e.what();
    }
  }
  if (tiff_supported()) {
    EXPECT_EQ(output_format_for_path("x.tif"), ImageFileFormat::kTiff);
    EXPECT_EQ(output_format_for_path("x.TIFF"), ImageFileFormat::kTiff);
  } else {
    EXPECT_THROW(output_format_for_path("x.tif"), InvalidArgument);
  }
#ifdef MAD_HAVE_STB
  EXPECT_EQ(output_format_for_path("x.bmp"), ImageFileFormat::kBmp);
#else
  EXPECT_THROW(output_format_for_path("x.bmp"), InvalidArgument);
#endif
}

// Each writable format, gray and colour, odd sizes and the 1xN / Nx1 extremes, written then
// read back exactly (the file starts with the format's own magic bytes).
TEST(ImageWrite, EveryWritableFormatRoundTrips) {
  TempDir dir;
  struct Case {
    const char* ext;
    const char* magic;
  };
  std::vector<Case> cases = {{".png", "\x89PNG"}};
  if (tiff_supported()) cases.push_back({".tif", "II*"});
#ifdef MAD_HAVE_STB
  cases.push_back({".bmp", "BM"});
#endif
  for (const Case& c : cases) {
    for (int channels : {1, 3}) {
      for (const auto& [w, h] :
           std::vector<std::pair<int, int>>{{61, 47}, {1, 9}, {9, 1}, {1, 1}}) {
        const std::string label = std::string(c.ext) + " " + std::to_string(w) + "x" +
                                  std::to_string(h) + "x" + std::to_string(channels);
        const std::string path = dir.file("img" + std::string(c.ext));
        const RawImage8 img = ramp(w, h, channels);
        save_image8(path, img, output_format_for_path(path));
        const std::vector<std::uint8_t> bytes = test::io::read_bytes(path);
        const std::string magic(c.magic);
        ASSERT_GE(bytes.size(), magic.size()) << label;
        EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + magic.size()), magic) << label;
        const RawImage8 back = load_raw_image8(path);
        expect_same(back, std::string(c.ext) == ".bmp" ? as_bmp_reads(img) : img, label);
      }
    }
  }
}

TEST(ImageWrite, WritersRefuseBadImagesAndLeaveNoFile) {
  TempDir dir;
  const RawImage8 short_buffer{2, 2, 1, std::vector<std::uint8_t>(3, 0)};  // 3 samples for 2x2
  const RawImage8 gray_alpha = ramp(4, 4, 2);
  if (tiff_supported()) {
    EXPECT_THROW(save_tiff8(dir.file("a.tif"), short_buffer), InvalidArgument);
    EXPECT_THROW(save_tiff8(dir.file("no_dir/a.tif"), ramp(4, 4, 1)), Error);
  }
#ifdef MAD_HAVE_STB
  EXPECT_THROW(save_bmp8(dir.file("a.bmp"), short_buffer), InvalidArgument);
  EXPECT_THROW(save_bmp8(dir.file("a.bmp"), gray_alpha), InvalidArgument);
  EXPECT_THROW(save_bmp8(dir.file("no_dir/a.bmp"), ramp(4, 4, 1)), Error);
#else
  EXPECT_THROW(save_bmp8(dir.file("a.bmp"), ramp(4, 4, 1)), Error);
#endif
  EXPECT_FALSE(std::filesystem::exists(dir.file("a.tif")));
  EXPECT_FALSE(std::filesystem::exists(dir.file("a.bmp")));
}

// 1xN, Nx1 and sides of 65536 and more: every reader gives the exact shape and samples. (JPEG
// stores its sides in 16 bits and libjpeg writes at most 65500, so JPEG stops there.)
TEST(ImageShapes, ThinAndLongImagesReadInEveryFormat) {
  TempDir dir;
  std::vector<std::pair<int, int>> shapes = {{1, 300},   {300, 1},   {65536, 1},
                                             {1, 65536}, {70001, 2}, {2, 70001}};
  for (const auto& [w, h] : shapes) {
    const RawImage8 gray = ramp(w, h, 1);
    const std::string size = std::to_string(w) + "x" + std::to_string(h);
    std::vector<std::string> files = {dir.file(size + ".png")};
    save_png8(files.back(), gray);
    if (tiff_supported()) {
      files.push_back(dir.file(size + ".tif"));
      save_tiff8(files.back(), gray);
    }
#ifdef MAD_HAVE_STB
    const std::string header = "P5\n" + std::to_string(w) + " " + std::to_string(h) + "\n255\n";
    std::vector<std::uint8_t> pgm(header.begin(), header.end());
    pgm.insert(pgm.end(), gray.samples.begin(), gray.samples.end());
    files.push_back(dir.file(size + ".pgm"));
    test::io::write_bytes(files.back(), pgm);
#endif
    for (const std::string& path : files) {
      expect_same(load_raw_image8(path), gray, path);
      const GrayImage g = load_gray_image(path);
      EXPECT_EQ(g.pixels.width(), w) << path;
      EXPECT_EQ(g.pixels.height(), h) << path;
      EXPECT_EQ(g.gray8, gray.samples) << path;
    }
#ifdef MAD_HAVE_STB
    const RawImage8 rgb = ramp(w, h, 3);
    save_bmp8(dir.file(size + ".bmp"), rgb);
    expect_same(load_raw_image8(dir.file(size + ".bmp")), rgb, size + ".bmp");
#endif
  }
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{65500, 1}, {1, 65500}, {1, 1}}) {
    const RawImage8 flat{w, h, 1, std::vector<std::uint8_t>(static_cast<std::size_t>(w) * h, 77)};
    const std::string path = dir.file("flat.jpg");
    test::io::write_jpeg_file(path, w, h, 1, flat.samples, 95);
    expect_same(load_raw_image8(path), flat, std::to_string(w) + "x" + std::to_string(h) + ".jpg");
  }
}

}  // namespace
}  // namespace mad
