// PNG round trips: files written by libpng in the test, read by load_gray_image /
// load_raw_image8; and the two PNG writers read back.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/image_io.h"
#include "tests/common/image_io_test_util.h"

namespace mad {
namespace {

using test::io::PngSpec;
using test::io::random_samples;
using test::io::TempDir;

bool has_note(const GrayImage& g, const std::string& fragment) {
  for (const std::string& n : g.notes)
    if (n.find(fragment) != std::string::npos) return true;
  return false;
}

// Independent form of the colour rule: long-double weighted sum rounded half away from zero,
// then 16-bit values scaled by 255/65535 (spec §2, §14).
double expected_colour_gray(unsigned r, unsigned g, unsigned b, bool wide) {
  const long double v = 0.298936021293775L * r + 0.587043074451121L * g + 0.114020904255103L * b;
  const double rounded = static_cast<double>(std::floor(v + 0.5L));
  return wide ? rounded * 255.0 / 65535.0 : rounded;
}

PngSpec make_spec(int w, int h, int color_type, int depth, int channels, std::uint32_t seed) {
  PngSpec s;
  s.width = w, s.height = h, s.color_type = color_type, s.bit_depth = depth;
  s.samples = random_samples(static_cast<std::size_t>(w) * h * channels, (1u << depth) - 1, seed);
  return s;
}

TEST(PngIo, Gray8RoundTripIsExact) {
  TempDir dir;
  const PngSpec s = make_spec(61, 47, PNG_COLOR_TYPE_GRAY, 8, 1, 1);
  test::io::write_png_file(dir.file("g8.png"), s);
  const GrayImage g = load_gray_image(dir.file("g8.png"));
  ASSERT_EQ(g.pixels.width(), 61);
  ASSERT_EQ(g.pixels.height(), 47);
  EXPECT_EQ(g.bit_depth, 8);
  EXPECT_EQ(g.source_channels, 1);
  EXPECT_TRUE(g.notes.empty());
  for (int y = 0; y < 47; ++y)
    for (int x = 0; x < 61; ++x) ASSERT_EQ(g.pixels(y, x), s.samples[y * 61 + x]);
}

TEST(PngIo, Gray16IsScaledToNonInteger255) {
  TempDir dir;
  PngSpec s = make_spec(17, 5, PNG_COLOR_TYPE_GRAY, 16, 1, 2);
  s.samples[0] = 0, s.samples[1] = 65535, s.samples[2] = 257, s.samples[3] = 1;
  s.samples[4] = 32768;
  test::io::write_png_file(dir.file("g16.png"), s);
  const GrayImage g = load_gray_image(dir.file("g16.png"));
  EXPECT_EQ(g.bit_depth, 16);
  EXPECT_FALSE(g.is_8bit());
  EXPECT_EQ(g.pixels(0, 0), 0.0);
  EXPECT_EQ(g.pixels(0, 1), 255.0);
  EXPECT_EQ(g.pixels(0, 2), 1.0);
  EXPECT_NEAR(g.pixels(0, 3), 0.0038910505836575876, 1e-17);
  EXPECT_NEAR(g.pixels(0, 4), 127.50194552529183, 1e-12);
  for (int y = 0; y < 5; ++y)
    for (int x = 0; x < 17; ++x) ASSERT_EQ(g.pixels(y, x), s.samples[y * 17 + x] * 255.0 / 65535.0);
  try {
    load_raw_image8(dir.file("g16.png"));
    ADD_FAILURE() << "16-bit file accepted by load_raw_image8";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("16-bit"), std::string::npos) << e.what();
  }
}

TEST(PngIo, GrayAlphaIgnoresAlphaWithNote) {
  TempDir dir;
  const PngSpec s = make_spec(9, 7, PNG_COLOR_TYPE_GRAY_ALPHA, 8, 2, 3);
  test::io::write_png_file(dir.file("ga.png"), s);
  const GrayImage g = load_gray_image(dir.file("ga.png"));
  EXPECT_EQ(g.source_channels, 2);
  EXPECT_TRUE(has_note(g, "alpha"));
  for (int i = 0; i < 63; ++i) ASSERT_EQ(g.pixels(i / 9, i % 9), s.samples[2 * i]);
}

// 8- and 16-bit RGB and RGBA through the MATLAB colour rule; load_raw_image8 keeps the
// interleaved 8-bit samples untouched.
TEST(PngIo, ColourRoundTripsFollowRgb2gray) {
  struct Case {
    int color_type, depth, channels;
  };
  const Case cases[] = {{PNG_COLOR_TYPE_RGB, 8, 3},
                        {PNG_COLOR_TYPE_RGB_ALPHA, 8, 4},
                        {PNG_COLOR_TYPE_RGB, 16, 3},
                        {PNG_COLOR_TYPE_RGB_ALPHA, 16, 4}};
  TempDir dir;
  for (const Case& c : cases) {
    const PngSpec s = make_spec(31, 19, c.color_type, c.depth, c.channels, 40 + c.channels);
    const std::string path =
        dir.file("c" + std::to_string(c.depth) + std::to_string(c.channels) + ".png");
    test::io::write_png_file(path, s);
    const GrayImage g = load_gray_image(path);
    EXPECT_EQ(g.bit_depth, c.depth);
    EXPECT_EQ(g.source_channels, c.channels);
    EXPECT_EQ(has_note(g, "alpha"), c.channels == 4);
    for (int i = 0; i < 31 * 19; ++i) {
      const std::uint16_t* p = &s.samples[static_cast<std::size_t>(i) * c.channels];
      ASSERT_EQ(g.pixels(i / 31, i % 31), expected_colour_gray(p[0], p[1], p[2], c.depth == 16))
          << "pixel " << i << " depth " << c.depth;
      if (c.depth == 8) {
        ASSERT_EQ(g.pixels(i / 31, i % 31), rgb_to_gray_matlab(static_cast<std::uint8_t>(p[0]),
                                                               static_cast<std::uint8_t>(p[1]),
                                                               static_cast<std::uint8_t>(p[2])));
      }
    }
    if (c.depth == 8) {
      const RawImage8 raw = load_raw_image8(path);
      EXPECT_EQ(raw.channels, c.channels);
      ASSERT_EQ(raw.samples.size(), s.samples.size());
      for (std::size_t i = 0; i < s.samples.size(); ++i) ASSERT_EQ(raw.samples[i], s.samples[i]);
    }
  }
}

TEST(PngIo, PaletteIsExpanded) {
  TempDir dir;
  PngSpec s = make_spec(13, 11, PNG_COLOR_TYPE_PALETTE, 4, 1, 5);
  for (auto& v : s.samples) v %= 4;
  s.palette = {{255, 0, 0}, {0, 255, 0}, {10, 20, 30}, {255, 206, 117}};
  test::io::write_png_file(dir.file("pal.png"), s);
  const std::uint8_t expected[] = {76, 150, 18, 211};  // rgb2gray of each palette entry
  GrayImage g = load_gray_image(dir.file("pal.png"));
  EXPECT_EQ(g.source_channels, 3);
  EXPECT_TRUE(has_note(g, "palette"));
  for (int i = 0; i < 13 * 11; ++i) ASSERT_EQ(g.pixels(i / 13, i % 13), expected[s.samples[i]]);

  s.trans = {255, 128, 0, 255};  // palette transparency becomes an alpha channel
  test::io::write_png_file(dir.file("pal_t.png"), s);
  g = load_gray_image(dir.file("pal_t.png"));
  EXPECT_EQ(g.source_channels, 4);
  EXPECT_TRUE(has_note(g, "alpha"));
  for (int i = 0; i < 13 * 11; ++i) ASSERT_EQ(g.pixels(i / 13, i % 13), expected[s.samples[i]]);
}

TEST(PngIo, LowBitGrayIsExpandedToFullRange) {
  TempDir dir;
  for (int depth : {1, 2, 4}) {
    const PngSpec s = make_spec(21, 6, PNG_COLOR_TYPE_GRAY, depth, 1, 60 + depth);
    const std::string path = dir.file("low" + std::to_string(depth) + ".png");
    test::io::write_png_file(path, s);
    const GrayImage g = load_gray_image(path);
    EXPECT_EQ(g.bit_depth, 8);
    const int factor = 255 / ((1 << depth) - 1);  // 255, 85, 17
    for (int i = 0; i < 21 * 6; ++i) ASSERT_EQ(g.pixels(i / 21, i % 21), s.samples[i] * factor);
  }
}

TEST(PngIo, InterlacedAndTinyImages) {
  TempDir dir;
  PngSpec s = make_spec(33, 29, PNG_COLOR_TYPE_GRAY, 8, 1, 7);
  s.interlace = true;
  test::io::write_png_file(dir.file("adam7.png"), s);
  const GrayImage g = load_gray_image(dir.file("adam7.png"));
  for (int i = 0; i < 33 * 29; ++i) ASSERT_EQ(g.pixels(i / 33, i % 33), s.samples[i]);

  const PngSpec one = make_spec(1, 1, PNG_COLOR_TYPE_GRAY, 8, 1, 8);
  test::io::write_png_file(dir.file("one.png"), one);
  const GrayImage g1 = load_gray_image(dir.file("one.png"));
  ASSERT_EQ(g1.pixels.pixel_count(), 1u);
  EXPECT_EQ(g1.pixels(0, 0), one.samples[0]);
}

TEST(PngIo, SavePng8RoundTrips) {
  TempDir dir;
  for (int channels = 1; channels <= 4; ++channels) {
    RawImage8 img;
    img.width = 37, img.height = 23, img.channels = channels;
    for (std::uint16_t v : random_samples(37 * 23 * channels, 255, 90 + channels))
      img.samples.push_back(static_cast<std::uint8_t>(v));
    const std::string path = dir.file("s" + std::to_string(channels) + ".png");
    save_png8(path, img);
    const RawImage8 back = load_raw_image8(path);
    EXPECT_EQ(back.width, 37);
    EXPECT_EQ(back.height, 23);
    EXPECT_EQ(back.channels, channels);
    EXPECT_EQ(back.samples, img.samples);
  }
}

TEST(PngIo, SavePng8RejectsBadInput) {
  TempDir dir;
  RawImage8 img;
  img.width = 2, img.height = 2, img.channels = 5, img.samples.assign(20, 0);
  EXPECT_THROW(save_png8(dir.file("bad.png"), img), InvalidArgument);
  img.channels = 1;  // 20 samples for a 2x2 gray image
  EXPECT_THROW(save_png8(dir.file("bad.png"), img), InvalidArgument);
  img.samples.assign(4, 7);
  const std::string unwritable = dir.file("no_such_dir/out.png");
  try {
    save_png8(unwritable, img);
    ADD_FAILURE() << "write into a missing directory succeeded";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(unwritable), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("bad.png")));
}

// The stored 16-bit level of a gray PNG, recovered exactly from the 0..255 double.
int stored_level(double gray) {
  return static_cast<int>(std::lround(gray * 65535.0 / 255.0));
}

TEST(PngIo, SavePng16ScaledMapsMaximumTo65535) {
  TempDir dir;
  // A padded pitch (7 > width 5) checks that the writer follows the view's rows.
  Image<double> map(5, 4, -1.0, 7);
  const double values[] = {0.0,  2.5, 1.25, 1e-6, 0.3333, -0.5, 2.4999, 0.1, 2.0, 1.0,
                           0.75, 0.5, 0.25, 2.5,  1.7,    1.9,  0.9,    0.8, 0.7, 0.6};
  for (int i = 0; i < 20; ++i) map(i / 5, i % 5) = values[i];
  const std::string path = dir.file("map16.png");
  const double scale = save_png16_scaled(path, map.cview());
  EXPECT_DOUBLE_EQ(scale, 65535.0 / 2.5);
  const GrayImage g = load_gray_image(path);
  ASSERT_EQ(g.bit_depth, 16);
  for (int i = 0; i < 20; ++i) {
    const long expected = std::max(0L, std::lround(values[i] * scale));  // negatives clamp to 0
    ASSERT_EQ(stored_level(g.pixels(i / 5, i % 5)), expected) << "value " << values[i];
    if (values[i] >= 0) {
      EXPECT_NEAR(stored_level(g.pixels(i / 5, i % 5)) / scale, values[i], 0.5 / scale);
    }
  }
  EXPECT_EQ(stored_level(g.pixels(0, 1)), 65535);
}

TEST(PngIo, SavePng16ScaledZeroAndNonFiniteMaps) {
  TempDir dir;
  Image<double> zeros(4, 3, 0.0);
  EXPECT_EQ(save_png16_scaled(dir.file("zero.png"), zeros.cview()), 1.0);
  const GrayImage gz = load_gray_image(dir.file("zero.png"));
  for (int i = 0; i < 12; ++i) EXPECT_EQ(gz.pixels(i / 4, i % 4), 0.0);

  Image<double> odd(3, 1, 0.0);
  odd(0, 0) = std::numeric_limits<double>::quiet_NaN();
  odd(0, 1) = std::numeric_limits<double>::infinity();
  odd(0, 2) = 4.0;
  EXPECT_DOUBLE_EQ(save_png16_scaled(dir.file("odd.png"), odd.cview()), 65535.0 / 4.0);
  const GrayImage go = load_gray_image(dir.file("odd.png"));
  EXPECT_EQ(stored_level(go.pixels(0, 0)), 0);      // NaN
  EXPECT_EQ(stored_level(go.pixels(0, 1)), 65535);  // +Inf saturates
  EXPECT_EQ(stored_level(go.pixels(0, 2)), 65535);  // the finite maximum
  EXPECT_THROW(save_png16_scaled(dir.file("empty.png"), Image<double>().cview()), InvalidArgument);
}

}  // namespace
}  // namespace mad
