// The direct PNG reader (common/png_direct_read.cpp) against libpng's path: wherever it accepts
// a file it must return libpng's samples exactly, and it must decline every file it does not
// handle completely, so that libpng gives its result or its error. Files are assembled here
// chunk by chunk (zlib's compress2 and crc32) so the filter byte of every row, the IDAT split,
// the ancillary chunks and each defect are under the test's control; a second set is written by
// libpng's own encoder.
#include <zlib.h>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/error.h"
#include "common/image_io_detail.h"
#include "tests/common/image_io_test_util.h"

namespace mad {
namespace {

using io_detail::decode_png;
using io_detail::decode_png_libpng;
using io_detail::DecodedImage;

void put_be32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(v >> shift));
}

// A PNG file built from parts, so each test can break exactly one thing.
struct PngParts {
  std::uint32_t width = 1, height = 1;
  int bit_depth = 8, colour_type = 0, interlace = 0;
  std::vector<std::uint8_t> zlib;         // the whole zlib stream of the image data
  std::vector<std::size_t> idat_splits;   // stream offsets where a new IDAT chunk starts
  std::vector<std::string> before_idat;   // chunk types (with 4 data bytes) before IDAT
  std::vector<std::string> between_idat;  // inserted after the first IDAT chunk
  std::vector<std::string> after_idat;    // after the last IDAT chunk
  bool iend = true;
  bool bad_idat_crc = false, bad_iend_crc = false, bad_ancillary_crc = false;
  std::vector<std::uint8_t> after_iend;  // bytes after the file's end
};

void put_chunk(std::vector<std::uint8_t>& out, const char* type, const std::uint8_t* data,
               std::size_t length, bool bad_crc = false) {
  put_be32(out, static_cast<std::uint32_t>(length));
  const std::size_t type_at = out.size();
  out.insert(out.end(), type, type + 4);
  out.insert(out.end(), data, data + length);
  std::uint32_t crc =
      static_cast<std::uint32_t>(crc32(0, out.data() + type_at, static_cast<uInt>(4 + length)));
  put_be32(out, bad_crc ? crc ^ 1u : crc);
}

std::vector<std::uint8_t> assemble(const PngParts& p) {
  std::vector<std::uint8_t> out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  std::vector<std::uint8_t> ihdr;
  put_be32(ihdr, p.width);
  put_be32(ihdr, p.height);
  ihdr.insert(ihdr.end(),
              {static_cast<std::uint8_t>(p.bit_depth), static_cast<std::uint8_t>(p.colour_type), 0,
               0, static_cast<std::uint8_t>(p.interlace)});
  put_chunk(out, "IHDR", ihdr.data(), ihdr.size());
  const std::uint8_t small[4] = {1, 2, 3, 4};
  for (const auto& t : p.before_idat) put_chunk(out, t.c_str(), small, 4, p.bad_ancillary_crc);
  std::vector<std::size_t> cuts = {0};
  cuts.insert(cuts.end(), p.idat_splits.begin(), p.idat_splits.end());
  cuts.push_back(p.zlib.size());
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
    put_chunk(out, "IDAT", p.zlib.data() + cuts[i], cuts[i + 1] - cuts[i], p.bad_idat_crc);
    if (i == 0)
      for (const auto& t : p.between_idat) put_chunk(out, t.c_str(), small, 4);
  }
  for (const auto& t : p.after_idat) put_chunk(out, t.c_str(), small, 4, p.bad_ancillary_crc);
  if (p.iend) put_chunk(out, "IEND", nullptr, 0, p.bad_iend_crc);
  out.insert(out.end(), p.after_iend.begin(), p.after_iend.end());
  return out;
}

std::vector<std::uint8_t> compress(const std::vector<std::uint8_t>& raw) {
  uLongf size = compressBound(static_cast<uLong>(raw.size()));
  std::vector<std::uint8_t> z(size);
  EXPECT_EQ(compress2(z.data(), &size, raw.data(), static_cast<uLong>(raw.size()), 6), Z_OK);
  z.resize(size);
  return z;
}

int channels_of(int colour_type) {
  return colour_type == 2 ? 3 : colour_type == 4 ? 2 : colour_type == 6 ? 4 : 1;
}

// Filtered image data: each row a random filter byte in 0..4 (or `filter` when >= 0) and random
// bytes. Every such stream is valid PNG data; unfiltering defines the image.
std::vector<std::uint8_t> random_filtered_rows(std::uint32_t width, std::uint32_t height,
                                               int channels, std::uint32_t seed, int filter = -1) {
  std::mt19937 rng(seed);
  std::vector<std::uint8_t> raw;
  for (std::uint32_t y = 0; y < height; ++y) {
    raw.push_back(static_cast<std::uint8_t>(filter >= 0 ? filter : rng() % 5));
    for (std::uint32_t i = 0; i < width * static_cast<std::uint32_t>(channels); ++i)
      raw.push_back(static_cast<std::uint8_t>(rng() % 4 == 0 ? 0 : rng()));  // some runs of 0
  }
  return raw;
}

// An 8-bit image of `colour_type` whose filtered rows are `raw`, in one IDAT chunk.
PngParts parts(std::uint32_t width, std::uint32_t height, int colour_type,
               const std::vector<std::uint8_t>& raw) {
  PngParts p;
  p.width = width;
  p.height = height;
  p.colour_type = colour_type;
  p.zlib = compress(raw);
  return p;
}

PngParts random_parts(std::uint32_t width, std::uint32_t height, int colour_type,
                      std::uint32_t seed, int filter = -1) {
  return parts(width, height, colour_type,
               random_filtered_rows(width, height, channels_of(colour_type), seed, filter));
}

void expect_same(const DecodedImage& a, const DecodedImage& b, const std::string& what) {
  EXPECT_EQ(a.width, b.width) << what;
  EXPECT_EQ(a.height, b.height) << what;
  EXPECT_EQ(a.channels, b.channels) << what;
  EXPECT_EQ(a.bit_depth, b.bit_depth) << what;
  EXPECT_TRUE(a.samples8 == b.samples8) << what << ": samples differ";
  EXPECT_TRUE(a.samples16 == b.samples16) << what;
  EXPECT_EQ(a.notes, b.notes) << what;
}

// The direct reader accepts `bytes` and agrees with libpng sample for sample.
void expect_accepted_and_equal(const std::vector<std::uint8_t>& bytes, const std::string& what) {
#ifdef MAD_HAVE_LIBDEFLATE
  const std::optional<DecodedImage> direct = io_detail::decode_png_direct(bytes);
  ASSERT_TRUE(direct.has_value()) << what << ": declined";
  expect_same(*direct, decode_png_libpng("t.png", bytes), what);
#else
  (void)bytes;
  (void)what;
#endif
}

// The direct reader declines `bytes`, and decode_png then behaves exactly as libpng's path:
// the same samples, or an InputError with the same message.
void expect_declined(const std::vector<std::uint8_t>& bytes, const std::string& what) {
#ifdef MAD_HAVE_LIBDEFLATE
  EXPECT_FALSE(io_detail::decode_png_direct(bytes).has_value()) << what << ": accepted";
#endif
  std::string libpng_error, combined_error;
  std::optional<DecodedImage> libpng, combined;
  try {
    libpng = decode_png_libpng("t.png", bytes);
  } catch (const InputError& e) {
    libpng_error = e.what();
  }
  try {
    combined = decode_png("t.png", bytes);
  } catch (const InputError& e) {
    combined_error = e.what();
  }
  EXPECT_EQ(combined_error, libpng_error) << what;
  ASSERT_EQ(combined.has_value(), libpng.has_value()) << what;
  if (combined) expect_same(*combined, *libpng, what);
}

class PngDirectRead : public ::testing::Test {
 protected:
  void SetUp() override {
#ifndef MAD_HAVE_LIBDEFLATE
    GTEST_SKIP() << "built without libdeflate: every PNG goes through libpng";
#endif
  }
};

TEST_F(PngDirectRead, RandomRowsOfEveryFilterMatchLibpng) {
  const std::uint32_t sizes[][2] = {{1, 1}, {2, 3}, {3, 1}, {34, 34}, {37, 29}, {97, 5}, {5, 97}};
  std::uint32_t seed = 1;
  for (int colour_type : {0, 2, 4, 6})
    for (const auto& s : sizes)
      for (int filter = -1; filter <= 4; ++filter) {
        expect_accepted_and_equal(assemble(random_parts(s[0], s[1], colour_type, ++seed, filter)),
                                  "colour type " + std::to_string(colour_type) + ", " +
                                      std::to_string(s[0]) + "x" + std::to_string(s[1]) +
                                      ", filter " + std::to_string(filter));
      }
}

TEST_F(PngDirectRead, SplitImageDataAncillaryChunksAndTrailingBytesAreAccepted) {
  PngParts p = random_parts(61, 43, 2, 7);
  for (std::size_t at = 1; at < p.zlib.size(); at += 1 + at / 2) p.idat_splits.push_back(at);
  expect_accepted_and_equal(assemble(p), "IDAT in many pieces");
  p.before_idat = {"tEXt", "pHYs", "gAMA"};
  p.after_idat = {"tIME", "zzZz"};
  expect_accepted_and_equal(assemble(p), "ancillary chunks around the image data");
  p.bad_ancillary_crc = true;  // libpng warns and discards them; so do we
  expect_accepted_and_equal(assemble(p), "ancillary chunks with bad CRCs");
  p.after_iend = {1, 2, 3, 4, 5};
  expect_accepted_and_equal(assemble(p), "bytes after IEND");
}

// Above 32 MiB of image data the reader uses buffers of its own instead of the thread's.
TEST_F(PngDirectRead, ALargeImageMatchesLibpng) {
  constexpr std::uint32_t kWidth = 4001, kHeight = 3001;
  std::vector<std::uint8_t> raw;
  std::mt19937 rng(9);
  for (std::uint32_t y = 0; y < kHeight; ++y) {
    raw.push_back(static_cast<std::uint8_t>(y % 5));
    for (std::uint32_t i = 0; i < kWidth * 3; ++i)
      raw.push_back(static_cast<std::uint8_t>(i % 97 == 0 ? rng() : 0));
  }
  expect_accepted_and_equal(assemble(parts(kWidth, kHeight, 2, raw)), "4001x3001 RGB");
  // And a small one after it, through the thread's buffers again.
  expect_accepted_and_equal(assemble(random_parts(3, 2, 2, 4)), "3x2 RGB after the large one");
}

TEST_F(PngDirectRead, FilesWrittenByLibpngDecodeToTheirSamples) {
  for (int colour_type : {PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                          PNG_COLOR_TYPE_RGB_ALPHA}) {
    test::io::TempDir dir;
    test::io::PngSpec spec;
    spec.width = 129;
    spec.height = 67;
    spec.color_type = colour_type;
    const std::size_t n = std::size_t{129} * 67 * channels_of(colour_type);
    spec.samples = test::io::random_samples(n, 255, 40 + colour_type);
    // Smooth areas too, so libpng's adaptive filtering picks more than one filter type.
    for (std::size_t i = 0; i < n / 2; ++i) spec.samples[i] = static_cast<std::uint16_t>(i % 7);
    const std::string path = dir.file("w.png");
    test::io::write_png_file(path, spec);
    const auto bytes = test::io::read_bytes(path);
    expect_accepted_and_equal(bytes, "libpng-written colour type " + std::to_string(colour_type));
#ifdef MAD_HAVE_LIBDEFLATE
    const auto direct = io_detail::decode_png_direct(bytes);
    ASSERT_TRUE(direct.has_value());
    ASSERT_EQ(direct->samples8.size(), n);
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_EQ(direct->samples8[i], spec.samples[i]) << "sample " << i;
#endif
  }
}

TEST_F(PngDirectRead, OtherFormsAreLeftToLibpng) {
  struct Form {
    int colour_type, bit_depth;
    bool interlace;
    unsigned max_value;
  };
  const Form forms[] = {
      {PNG_COLOR_TYPE_GRAY, 16, false, 65535}, {PNG_COLOR_TYPE_RGB, 16, false, 65535},
      {PNG_COLOR_TYPE_GRAY, 4, false, 15},     {PNG_COLOR_TYPE_GRAY, 1, false, 1},
      {PNG_COLOR_TYPE_RGB, 8, true, 255},      {PNG_COLOR_TYPE_PALETTE, 8, false, 2}};
  for (const Form& f : forms) {
    test::io::TempDir dir;
    test::io::PngSpec spec;
    spec.width = 23;
    spec.height = 19;
    spec.color_type = f.colour_type;
    spec.bit_depth = f.bit_depth;
    spec.interlace = f.interlace;
    if (f.colour_type == PNG_COLOR_TYPE_PALETTE) spec.palette = {{0, 0, 0}, {9, 8, 7}, {255, 1, 2}};
    spec.samples =
        test::io::random_samples(std::size_t{23} * 19 * channels_of(f.colour_type), f.max_value, 5);
    test::io::write_png_file(dir.file("f.png"), spec);
    expect_declined(test::io::read_bytes(dir.file("f.png")),
                    "colour type " + std::to_string(f.colour_type) + ", " +
                        std::to_string(f.bit_depth) + " bits" +
                        (f.interlace ? ", interlaced" : ""));
  }
}

TEST_F(PngDirectRead, DefectsAreLeftToLibpng) {
  const PngParts good = random_parts(33, 21, 6, 11);
  expect_accepted_and_equal(assemble(good), "the unbroken file");
  auto broken = [&](auto change, const std::string& what) {
    PngParts p = good;
    change(p);
    expect_declined(assemble(p), what);
  };
  broken([](PngParts& p) { p.bad_idat_crc = true; }, "IDAT CRC");
  broken([](PngParts& p) { p.bad_iend_crc = true; }, "IEND CRC");
  broken([](PngParts& p) { p.iend = false; }, "no IEND");
  broken([](PngParts& p) { p.zlib.back() ^= 0x55; }, "Adler-32 of the stream");
  broken([](PngParts& p) { p.zlib[p.zlib.size() / 2] ^= 0xff; }, "a corrupt deflate block");
  broken([](PngParts& p) { p.zlib.push_back(0); }, "a byte after the zlib stream");
  broken([](PngParts& p) { p.zlib.resize(p.zlib.size() - 9); }, "a cut zlib stream");
  broken([](PngParts& p) { p.zlib = compress(random_filtered_rows(33, 20, 4, 3)); },
         "one row short");
  broken([](PngParts& p) { p.zlib = compress(random_filtered_rows(33, 22, 4, 3)); },
         "one row too many");
  broken([](PngParts& p) { p.zlib = compress(random_filtered_rows(33, 21, 4, 3, 5)); },
         "filter type 5");
  broken(
      [](PngParts& p) {
        p.idat_splits = {40};
        p.between_idat = {"tEXt"};
      },
      "IDAT chunks that are not consecutive");
  broken([](PngParts& p) { p.before_idat = {"PLTE"}; }, "a PLTE chunk");
  broken([](PngParts& p) { p.before_idat = {"ABCD"}; }, "an unknown critical chunk");
  broken([](PngParts& p) { p.before_idat = {"t3Xt"}; }, "a chunk type that is not letters");
  broken([](PngParts& p) { p.interlace = 1; }, "interlacing");
  broken([](PngParts& p) { p.width = 0; }, "zero width");
  broken([](PngParts& p) { p.width = 1000001; }, "beyond libpng's width limit");
  broken(
      [](PngParts& p) {
        p.width = 20000;
        p.height = 20000;
      },
      "beyond kMaxPixels");
  // Every proper prefix of a good file is left to libpng (which refuses each).
  const auto bytes = assemble(good);
  for (std::size_t n = 0; n < bytes.size(); n += 7)
    expect_declined(std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + n),
                    "prefix of " + std::to_string(n) + " bytes");
}

}  // namespace
}  // namespace mad
