// JPEG decoding: files written by libjpeg in the test. Flat images decode exactly; colour goes
// through rgb2gray; CMYK, truncated and corrupt files are InputErrors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/image_io.h"
#include "tests/common/image_io_test_util.h"
#include "tests/support/test_support.h"

namespace mad {
namespace {

using test::io::TempDir;

// A flat 8x8 block has only a DC coefficient, (100 - 128) * 8 = -224. libjpeg's DC quantiser
// is 16 at quality 50, 8 at 75, 3 at 90 and 1 at 100: -224 is reconstructed exactly, or (q90)
// as -225, i.e. 1/8 of a level off, which the IDCT's rounding maps back to exactly 100.
TEST(JpegIo, FlatGrayDecodesExactly) {
  TempDir dir;
  for (int quality : {50, 75, 90, 100}) {
    const std::string path = dir.file("flat" + std::to_string(quality) + ".jpg");
    test::io::write_jpeg_file(path, 64, 40, 1, std::vector<std::uint8_t>(64 * 40, 100), quality);
    const GrayImage g = load_gray_image(path);
    ASSERT_EQ(g.pixels.width(), 64);
    ASSERT_EQ(g.pixels.height(), 40);
    EXPECT_EQ(g.bit_depth, 8);
    EXPECT_EQ(g.source_channels, 1);
    for (int y = 0; y < 40; ++y)
      for (int x = 0; x < 64; ++x) ASSERT_EQ(g.pixels(y, x), 100.0) << "quality " << quality;
  }
}

// RGB -> YCbCr -> RGB loses at most one level per channel for a flat colour, so the gray value
// is within one level of rgb2gray of the original colour.
constexpr double kFlatColourTolerance = 1.0;

TEST(JpegIo, FlatColourGoesThroughRgb2gray) {
  TempDir dir;
  const std::string path = dir.file("flat_rgb.jpg");
  std::vector<std::uint8_t> rgb;
  for (int i = 0; i < 48 * 32; ++i) rgb.insert(rgb.end(), {200, 100, 50});
  test::io::write_jpeg_file(path, 48, 32, 3, rgb, 95);
  const GrayImage g = load_gray_image(path);
  EXPECT_EQ(g.source_channels, 3);
  const RawImage8 raw = load_raw_image8(path);
  ASSERT_EQ(raw.channels, 3);
  for (int i = 0; i < 48 * 32; ++i) {
    const std::uint8_t* p = &raw.samples[static_cast<std::size_t>(i) * 3];
    // The gray plane is exactly rgb2gray of the decoded RGB ...
    ASSERT_EQ(g.pixels(i / 48, i % 48), rgb_to_gray_matlab(p[0], p[1], p[2]));
    // ... and close to rgb2gray of what was encoded (124.19 -> 124).
    ASSERT_NEAR(g.pixels(i / 48, i % 48), 124.0, kFlatColourTolerance);
  }
}

// A smooth gray ramp at quality 95: the decoded image stays within a few levels.
constexpr double kRampTolerance = 4.0;  // quality-95 quantisation error on a gentle ramp

TEST(JpegIo, GrayRampDecodesClosely) {
  TempDir dir;
  const int w = 57, h = 35;  // not multiples of 8: partial blocks at the edges
  std::vector<std::uint8_t> ramp(static_cast<std::size_t>(w) * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      ramp[static_cast<std::size_t>(y) * w + x] = static_cast<std::uint8_t>(2 * x + y);
  test::io::write_jpeg_file(dir.file("ramp.jpg"), w, h, 1, ramp, 95);
  const GrayImage g = load_gray_image(dir.file("ramp.jpg"));
  ASSERT_EQ(g.pixels.width(), w);
  ASSERT_EQ(g.pixels.height(), h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      ASSERT_NEAR(g.pixels(y, x), ramp[static_cast<std::size_t>(y) * w + x], kRampTolerance);
}

TEST(JpegIo, CmykIsRejectedClearly) {
  TempDir dir;
  const std::string path = dir.file("cmyk.jpg");
  test::io::write_jpeg_file(path, 16, 16, 4, std::vector<std::uint8_t>(16 * 16 * 4, 60));
  const std::string m =
      test::thrown_message<InputError>([&] { load_gray_image(path); }, "CMYK JPEG accepted");
  EXPECT_NE(m.find("CMYK"), std::string::npos) << m;
}

// Every prefix of a valid JPEG fails: a cut inside the entropy-coded data or before EOI makes
// libjpeg warn "premature end", which the reader treats as an error.
TEST(JpegIo, TruncatedJpegAtEveryLengthIsInputError) {
  TempDir dir;
  const std::string full = dir.file("full.jpg");
  std::vector<std::uint8_t> rgb;
  for (std::uint16_t v : test::io::random_samples(8 * 8 * 3, 255, 21))
    rgb.push_back(static_cast<std::uint8_t>(v));
  test::io::write_jpeg_file(full, 8, 8, 3, rgb, 80);
  const std::vector<std::uint8_t> bytes = test::io::read_bytes(full);
  ASSERT_NO_THROW(load_gray_image(full));
  const std::string cut = dir.file("cut.jpg");
  test::io::expect_every_prefix_is_input_error(bytes, cut);
  try {
    load_gray_image(cut);
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("invalid JPEG data"), std::string::npos) << e.what();
  }
}

// Random damage to the compressed data may or may not be detectable, but must never crash:
// the result is either an image of the right size or an InputError.
// A decompression bomb (fuzzing found it: 195 arithmetic-coded bytes decoding to 65296 x 2112
// gray pixels) is an InputError before any pixel is decoded; real files far below the bound
// decode, a flat 1024 x 1024 image (about 250 pixels a byte, near the Huffman ceiling) included.
TEST(JpegIo, DecompressionBombIsRefused) {
  const std::string bomb =
      test::data_path("../fuzz/regressions/jpeg/sof9_arithmetic_65296x2112_gray_195_bytes.jpg");
  const std::string message = test::thrown_message<InputError>([&] { load_gray_image(bomb); });
  EXPECT_NE(message.find("65296 x 2112 pixels from 195 bytes"), std::string::npos) << message;
  EXPECT_NE(message.find("decompression bomb"), std::string::npos) << message;

  TempDir dir;
  const std::string flat = dir.file("flat1024.jpg");
  test::io::write_jpeg_file(flat, 1024, 1024, 1, std::vector<std::uint8_t>(1024 * 1024, 100), 50);
  EXPECT_EQ(load_gray_image(flat).pixels.width(), 1024);
}

TEST(JpegIo, CorruptedBytesNeverCrash) {
  TempDir dir;
  std::vector<std::uint8_t> gray;
  for (std::uint16_t v : test::io::random_samples(64 * 64, 255, 22))
    gray.push_back(static_cast<std::uint8_t>(v));
  test::io::write_jpeg_file(dir.file("src.jpg"), 64, 64, 1, gray, 70);
  const std::vector<std::uint8_t> bytes = test::io::read_bytes(dir.file("src.jpg"));
  const std::vector<std::uint16_t> noise = test::io::random_samples(150 * 3, 0xffff, 23);
  int rejected = 0;
  for (int trial = 0; trial < 150; ++trial) {
    std::vector<std::uint8_t> damaged = bytes;
    for (int k = 0; k < 3; ++k) {
      const std::size_t at = 2 + noise[trial * 3 + k] % (damaged.size() - 2);  // keep SOI
      damaged[at] = static_cast<std::uint8_t>(damaged[at] ^ (1 + noise[trial * 3 + k] % 255));
    }
    test::io::write_bytes(dir.file("bad.jpg"), damaged);
    try {
      const GrayImage g = load_gray_image(dir.file("bad.jpg"));
      EXPECT_GT(g.pixels.pixel_count(), 0u);
    } catch (const InputError&) {
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 0);  // header damage at least is always caught
}

}  // namespace
}  // namespace mad
