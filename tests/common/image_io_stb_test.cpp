// BMP (written by stb_image_write) and binary PGM/PPM (headers written by hand), decoded through
// stb_image; and the build without libstb.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/image_io.h"
#include "tests/common/image_io_test_util.h"

#ifdef MAD_HAVE_STB
#include <stb_image_write.h>
#endif

namespace mad {
namespace {

using test::io::TempDir;

// Binary PNM: "P5"/"P6" header (with a comment, as real files have) and big-endian samples.
std::vector<std::uint8_t> make_pnm(char kind, int w, int h, int maxval,
                                   const std::vector<std::uint16_t>& samples) {
  const std::string header = std::string("P") + kind + "\n# written by the mad tests\n" +
                             std::to_string(w) + " " + std::to_string(h) + "\n" +
                             std::to_string(maxval) + "\n";
  std::vector<std::uint8_t> b(header.begin(), header.end());
  for (std::uint16_t v : samples) {
    if (maxval > 255) b.push_back(static_cast<std::uint8_t>(v >> 8));
    b.push_back(static_cast<std::uint8_t>(v & 0xff));
  }
  return b;
}

#ifdef MAD_HAVE_STB

TEST(StbIo, BmpRoundTripsThroughRgb2gray) {
  TempDir dir;
  const int w = 29, h = 13;  // 29*3 bytes per row: BMP rows need padding
  for (int comp : {1, 3, 4}) {
    std::vector<std::uint8_t> px;
    for (std::uint16_t v : test::io::random_samples(w * h * comp, 255, 500 + comp))
      px.push_back(static_cast<std::uint8_t>(v));
    const std::string path = dir.file("c" + std::to_string(comp) + ".bmp");
    ASSERT_NE(stbi_write_bmp(path.c_str(), w, h, comp, px.data()), 0);
    const GrayImage g = load_gray_image(path);
    ASSERT_EQ(g.pixels.width(), w);
    ASSERT_EQ(g.pixels.height(), h);
    EXPECT_EQ(g.bit_depth, 8);
    for (int i = 0; i < w * h; ++i) {
      const std::uint8_t* p = &px[static_cast<std::size_t>(i) * comp];
      // stb_image_write stores gray as 24-bit RGB; rgb2gray gives the gray value back.
      const int expected = comp == 1 ? p[0] : rgb_to_gray_matlab(p[0], p[1], p[2]);
      ASSERT_EQ(g.pixels(i / w, i % w), expected) << "comp " << comp << " pixel " << i;
    }
  }
}

TEST(StbIo, Pnm8BitGrayAndColour) {
  TempDir dir;
  const auto gray = test::io::random_samples(23 * 9, 255, 510);
  test::io::write_bytes(dir.file("g.pgm"), make_pnm('5', 23, 9, 255, gray));
  const GrayImage g = load_gray_image(dir.file("g.pgm"));
  EXPECT_EQ(g.bit_depth, 8);
  EXPECT_TRUE(g.notes.empty());
  for (int i = 0; i < 23 * 9; ++i) ASSERT_EQ(g.pixels(i / 23, i % 23), gray[i]);

  const auto rgb = test::io::random_samples(23 * 9 * 3, 255, 511);
  test::io::write_bytes(dir.file("c.ppm"), make_pnm('6', 23, 9, 255, rgb));
  const GrayImage c = load_gray_image(dir.file("c.ppm"));
  EXPECT_EQ(c.source_channels, 3);
  for (int i = 0; i < 23 * 9; ++i)
    ASSERT_EQ(c.pixels(i / 23, i % 23),
              rgb_to_gray_matlab(static_cast<std::uint8_t>(rgb[3 * i]),
                                 static_cast<std::uint8_t>(rgb[3 * i + 1]),
                                 static_cast<std::uint8_t>(rgb[3 * i + 2])));
}

// 16-bit PGM is big-endian; values must come out in the right byte order whatever the stb
// version does, scaled by 255/65535.
TEST(StbIo, Pnm16BitIsBigEndianAndScaled) {
  TempDir dir;
  auto gray = test::io::random_samples(17 * 8, 65535, 520);
  gray[0] = 0x0102, gray[1] = 65535, gray[2] = 257;
  test::io::write_bytes(dir.file("g16.pgm"), make_pnm('5', 17, 8, 65535, gray));
  const GrayImage g = load_gray_image(dir.file("g16.pgm"));
  EXPECT_EQ(g.bit_depth, 16);
  EXPECT_DOUBLE_EQ(g.pixels(0, 0), 258 * 255.0 / 65535.0);
  EXPECT_EQ(g.pixels(0, 1), 255.0);
  EXPECT_EQ(g.pixels(0, 2), 1.0);
  for (int i = 0; i < 17 * 8; ++i) ASSERT_EQ(g.pixels(i / 17, i % 17), gray[i] * 255.0 / 65535.0);

  const auto rgb = test::io::random_samples(5 * 4 * 3, 65535, 521);
  test::io::write_bytes(dir.file("c16.ppm"), make_pnm('6', 5, 4, 65535, rgb));
  const GrayImage c = load_gray_image(dir.file("c16.ppm"));
  for (int i = 0; i < 20; ++i) {
    const long double v = 0.298936021293775L * rgb[3 * i] + 0.587043074451121L * rgb[3 * i + 1] +
                          0.114020904255103L * rgb[3 * i + 2];
    ASSERT_EQ(c.pixels(i / 5, i % 5), static_cast<double>(std::floor(v + 0.5L)) * 255.0 / 65535.0);
  }
}

TEST(StbIo, UnusualMaxvalIsNoted) {
  TempDir dir;
  const auto gray = test::io::random_samples(6 * 6, 1023, 530);
  test::io::write_bytes(dir.file("g10.pgm"), make_pnm('5', 6, 6, 1023, gray));
  const GrayImage g = load_gray_image(dir.file("g10.pgm"));
  ASSERT_FALSE(g.notes.empty());
  EXPECT_NE(g.notes[0].find("1023"), std::string::npos);
  for (int i = 0; i < 36; ++i) ASSERT_EQ(g.pixels(i / 6, i % 6), gray[i] * 255.0 / 65535.0);
}

// stb_image itself would return zero-filled or uninitialised pixels for these.
TEST(StbIo, TruncatedBmpAndPnmAreInputErrors) {
  TempDir dir;
  const auto gray = test::io::random_samples(20 * 20, 255, 540);
  const std::vector<std::uint8_t> pgm = make_pnm('5', 20, 20, 255, gray);
  for (std::size_t n : {std::size_t{2}, std::size_t{9}, pgm.size() / 2, pgm.size() - 1}) {
    const std::string path = dir.file("cut.pgm");
    test::io::write_bytes(path, std::vector<std::uint8_t>(pgm.begin(), pgm.begin() + n));
    EXPECT_THROW(load_gray_image(path), InputError) << n << " bytes";
  }
  std::vector<std::uint8_t> px(16 * 16 * 3, 77);
  ASSERT_NE(stbi_write_bmp(dir.file("full.bmp").c_str(), 16, 16, 3, px.data()), 0);
  const std::vector<std::uint8_t> bmp = test::io::read_bytes(dir.file("full.bmp"));
  for (std::size_t n : {std::size_t{2}, std::size_t{20}, bmp.size() / 2, bmp.size() - 1}) {
    const std::string path = dir.file("cut.bmp");
    test::io::write_bytes(path, std::vector<std::uint8_t>(bmp.begin(), bmp.begin() + n));
    EXPECT_THROW(load_gray_image(path), InputError) << n << " bytes";
  }
  test::io::write_bytes(dir.file("huge.pgm"), {'P', '5', ' ', '9', '9', '9', '9', '9', ' ', '9',
                                               '9', '9', '9', '9', ' ', '2', '5', '5', '\n'});
  EXPECT_THROW(load_gray_image(dir.file("huge.pgm")), InputError);
}

#else  // !MAD_HAVE_STB

TEST(StbIo, WithoutLibstbBmpAndPnmAreClearErrors) {
  TempDir dir;
  test::io::write_bytes(dir.file("g.pgm"), make_pnm('5', 2, 2, 255, {1, 2, 3, 4}));
  try {
    load_gray_image(dir.file("g.pgm"));
    ADD_FAILURE() << "PGM accepted without stb";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("support not built"), std::string::npos) << e.what();
  }
}

#endif

}  // namespace
}  // namespace mad
