// The direct BMP reader (common/bmp_direct_read.cpp) against stb_image: wherever it accepts a
// file it must return exactly what stbi_load_from_memory(..., 0) returns, and decode_stb must
// then have taken it (bmp_direct_decodes); every other file must be declined and decode as it
// did before the reader existed (stb's samples, or an InputError). Files are written here byte
// by byte, so the header size, masks, palette, row order, padding and each defect are under the
// test's control; a second set comes from the project's own BMP writer (save_bmp8).
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/image_io.h"
#include "common/image_io_detail.h"
#include "tests/common/image_io_test_util.h"

#ifdef MAD_HAVE_STB
#include <stb_image.h>

namespace mad {
namespace {

using io_detail::decode_bmp_direct;
using io_detail::DecodedImage;
using Bytes = std::vector<std::uint8_t>;

constexpr std::uint32_t kRgbMasks[3] = {0x00FF0000u, 0x0000FF00u, 0x000000FFu};

enum class Alpha { kRandom, kZero };

// A BMP file described field by field. `height` < 0 is a top-down file.
struct BmpSpec {
  int width = 1, height = 1;
  int bpp = 24;
  std::uint32_t header = 40;  // 12 (OS/2), 40, 56, 108 or 124
  std::uint32_t compression = 0;
  // Written after a 40-byte header when compression is 3 (three of them), and inside 56, 108
  // and 124-byte headers (four).
  std::array<std::uint32_t, 4> masks = {kRgbMasks[0], kRgbMasks[1], kRgbMasks[2], 0};
  std::vector<std::array<std::uint8_t, 3>> palette;  // R, G, B of each entry
  int palette_gap = 0;                               // bytes between the palette and the pixel data
  int offset_extra = 0;  // added to the pixel data offset the header gives
  int max_index = -1;    // 8/4/1-bit: largest index drawn (-1: the palette's last entry)
  std::uint16_t planes = 1;
  Alpha alpha = Alpha::kRandom;  // the fourth byte of 32-bit pixels
  std::uint32_t seed = 1;
};

void put16(Bytes& b, std::uint32_t v) {
  b.push_back(static_cast<std::uint8_t>(v));
  b.push_back(static_cast<std::uint8_t>(v >> 8));
}
void put32(Bytes& b, std::uint32_t v) {
  put16(b, v & 0xFFFFu);
  put16(b, v >> 16);
}

std::vector<std::array<std::uint8_t, 3>> gray_palette(int entries, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::array<std::uint8_t, 3>> p(entries);
  for (auto& e : p) {
    const auto g = static_cast<std::uint8_t>(rng());
    e = {g, g, g};
  }
  return p;
}

Bytes assemble(const BmpSpec& s) {
  const bool masks_after_header = s.header == 40 && s.compression == 3;
  const std::size_t rows = static_cast<std::size_t>(s.height < 0 ? -s.height : s.height);
  const std::size_t stride =
      (static_cast<std::size_t>(s.width < 0 ? 0 : s.width) * s.bpp + 31) / 32 * 4;
  const std::size_t entry_bytes = s.header == 12 ? 3 : 4;
  const std::size_t offset = 14 + s.header + (masks_after_header ? 12 : 0) +
                             entry_bytes * s.palette.size() + s.palette_gap + s.offset_extra;
  Bytes b = {'B', 'M'};
  put32(b, static_cast<std::uint32_t>(offset + stride * rows));
  put32(b, 0);
  put32(b, static_cast<std::uint32_t>(offset));
  put32(b, s.header);
  if (s.header == 12) {
    put16(b, static_cast<std::uint32_t>(s.width));
    put16(b, static_cast<std::uint32_t>(s.height));
    put16(b, s.planes);
    put16(b, static_cast<std::uint32_t>(s.bpp));
  } else {
    put32(b, static_cast<std::uint32_t>(s.width));
    put32(b, static_cast<std::uint32_t>(s.height));
    put16(b, s.planes);
    put16(b, static_cast<std::uint32_t>(s.bpp));
    put32(b, s.compression);
    put32(b, static_cast<std::uint32_t>(stride * rows));
    put32(b, 2835);  // 72 dpi
    put32(b, 2835);
    put32(b, static_cast<std::uint32_t>(s.palette.size()));
    put32(b, 0);
    if (masks_after_header)
      for (int i = 0; i < 3; ++i) put32(b, s.masks[i]);
    if (s.header >= 56)
      for (std::uint32_t m : s.masks) put32(b, m);
    if (s.header >= 108) {
      put32(b, 0x73524742u);                     // 'sRGB'
      for (int i = 0; i < 12; ++i) put32(b, 0);  // endpoints, gamma
    }
    if (s.header == 124)
      for (int i = 0; i < 4; ++i) put32(b, i == 0 ? 4 : 0);  // intent, profile, reserved
  }
  for (const auto& e : s.palette) {
    b.insert(b.end(), {e[2], e[1], e[0]});
    if (s.header != 12) b.push_back(0x5A);  // the reserved byte: read by nobody
  }
  for (int i = 0; i < s.palette_gap + s.offset_extra; ++i) b.push_back(0xEE);
  std::mt19937 rng(s.seed);
  const int max_index = s.max_index >= 0 ? s.max_index : static_cast<int>(s.palette.size()) - 1;
  std::uniform_int_distribution<int> index(0, max_index < 0 ? 0 : max_index);
  const std::size_t width = static_cast<std::size_t>(s.width < 0 ? 0 : s.width);
  for (std::size_t r = 0; r < rows; ++r) {
    Bytes row(stride);
    for (auto& v : row) v = static_cast<std::uint8_t>(rng());  // padding bytes too
    if (s.bpp == 8)
      for (std::size_t x = 0; x < width; ++x) row[x] = static_cast<std::uint8_t>(index(rng));
    if (s.bpp == 32 && s.alpha == Alpha::kZero)
      for (std::size_t x = 0; x < width; ++x) row[4 * x + 3] = 0;
    b.insert(b.end(), row.begin(), row.end());
  }
  return b;
}

struct StbResult {
  bool ok = false;
  int width = 0, height = 0, channels = 0;
  Bytes samples;
};

StbResult stb_decode(const Bytes& b) {
  StbResult r;
  stbi_uc* p = stbi_load_from_memory(b.data(), static_cast<int>(b.size()), &r.width, &r.height,
                                     &r.channels, 0);
  if (!p) return r;
  r.ok = true;
  r.samples.assign(p, p + static_cast<std::size_t>(r.width) * r.height * r.channels);
  stbi_image_free(p);
  return r;
}

void expect_same(const DecodedImage& d, const StbResult& stb, const std::string& what) {
  ASSERT_TRUE(stb.ok) << what << ": stb refuses the file";
  ASSERT_EQ(d.width, stb.width) << what;
  ASSERT_EQ(d.height, stb.height) << what;
  ASSERT_EQ(d.channels, stb.channels) << what;
  ASSERT_EQ(d.bit_depth, 8) << what;
  ASSERT_EQ(d.samples8.size(), stb.samples.size()) << what;
  for (std::size_t i = 0; i < stb.samples.size(); ++i)
    ASSERT_EQ(d.samples8[i], stb.samples[i]) << what << ": sample " << i;
}

// The direct reader accepts `bytes` with stb's result, and decode_stb returns it through the
// direct path.
DecodedImage expect_direct(const Bytes& bytes, const std::string& what) {
  const std::optional<DecodedImage> direct = decode_bmp_direct(bytes);
  EXPECT_TRUE(direct.has_value()) << what << ": declined";
  if (!direct) return {};
  const StbResult stb = stb_decode(bytes);
  expect_same(*direct, stb, what);
  const std::size_t before = io_detail::bmp_direct_decodes();
  const DecodedImage dispatched =
      io_detail::decode_stb("t.bmp", bytes, io_detail::FileFormat::kBmp);
  EXPECT_EQ(io_detail::bmp_direct_decodes(), before + 1) << what << ": not the direct path";
  expect_same(dispatched, stb, what + " (decode_stb)");
  return *direct;
}

// The direct reader declines `bytes`, and decode_stb gives stb's samples without it, or, where
// `stb_reads` is false, an InputError.
void expect_declined(const Bytes& bytes, bool stb_reads, const std::string& what) {
  EXPECT_FALSE(decode_bmp_direct(bytes).has_value()) << what << ": accepted";
  const std::size_t before = io_detail::bmp_direct_decodes();
  if (stb_reads) {
    const DecodedImage d = io_detail::decode_stb("t.bmp", bytes, io_detail::FileFormat::kBmp);
    expect_same(d, stb_decode(bytes), what + " (decode_stb)");
  } else {
    EXPECT_THROW(io_detail::decode_stb("t.bmp", bytes, io_detail::FileFormat::kBmp), InputError)
        << what;
  }
  EXPECT_EQ(io_detail::bmp_direct_decodes(), before) << what << ": counted as direct";
}

struct Shape {
  const char* name;
  int bpp;
  std::uint32_t header, compression;
  std::array<std::uint32_t, 4> masks;
  int palette;  // gray entries (8-bit)
  int gap;
  Alpha alpha;
};

constexpr std::array<std::uint32_t, 4> kStd = {0x00FF0000u, 0x0000FF00u, 0x000000FFu, 0};
constexpr std::array<std::uint32_t, 4> kStdA = {0x00FF0000u, 0x0000FF00u, 0x000000FFu, 0xFF000000u};
constexpr std::array<std::uint32_t, 4> kNone = {0, 0, 0, 0};

const Shape kHandled[] = {
    {"24-bit", 24, 40, 0, kStd, 0, 0, Alpha::kRandom},
    {"24-bit V4", 24, 108, 0, kStd, 0, 0, Alpha::kRandom},
    {"24-bit V5", 24, 124, 0, kStd, 0, 0, Alpha::kRandom},
    {"32-bit BI_RGB", 32, 40, 0, kStd, 0, 0, Alpha::kRandom},
    {"32-bit BI_RGB alpha 0", 32, 40, 0, kStd, 0, 0, Alpha::kZero},
    // BI_RGB ignores the header's masks, even none.
    {"32-bit V5 BI_RGB no masks", 32, 124, 0, kNone, 0, 0, Alpha::kRandom},
    {"32-bit V5 BI_RGB alpha 0", 32, 124, 0, kStdA, 0, 0, Alpha::kZero},
    {"32-bit BITFIELDS", 32, 40, 3, kStd, 0, 0, Alpha::kRandom},
    {"32-bit V4 BITFIELDS", 32, 108, 3, kStd, 0, 0, Alpha::kRandom},
    {"32-bit V4 BITFIELDS alpha", 32, 108, 3, kStdA, 0, 0, Alpha::kRandom},
    {"32-bit V5 BITFIELDS alpha 0", 32, 124, 3, kStdA, 0, 0, Alpha::kZero},
    {"8-bit gray", 8, 40, 0, kStd, 256, 0, Alpha::kRandom},
    {"8-bit gray 17 entries, gap 3", 8, 40, 0, kStd, 17, 3, Alpha::kRandom},
    {"8-bit gray V5 1 entry", 8, 124, 0, kStd, 1, 0, Alpha::kRandom},
};

BmpSpec spec_of(const Shape& sh, int w, int h, std::uint32_t seed) {
  BmpSpec s;
  s.width = w, s.height = h, s.bpp = sh.bpp, s.header = sh.header, s.compression = sh.compression;
  s.masks = sh.masks, s.palette_gap = sh.gap, s.alpha = sh.alpha, s.seed = seed;
  if (sh.palette) s.palette = gray_palette(sh.palette, seed + 7);
  return s;
}

TEST(BmpDirectRead, MatchesStbOnEveryHandledShape) {
  std::vector<std::array<int, 2>> sizes;
  for (int w = 1; w <= 9; ++w)
    for (int h : {1, 2, 3, 5}) sizes.push_back({w, h});
  sizes.push_back({33, 17});
  sizes.push_back({61, 47});
  std::uint32_t seed = 100;
  for (const Shape& sh : kHandled)
    for (const auto& [w, h] : sizes)
      for (bool top_down : {false, true}) {
        const std::string what = std::string(sh.name) + " " + std::to_string(w) + "x" +
                                 std::to_string(h) + (top_down ? " top-down" : " bottom-up");
        expect_direct(assemble(spec_of(sh, w, top_down ? -h : h, ++seed)), what);
        if (HasFatalFailure()) return;
      }
}

// What stb does with 8-bit palettes and with alpha, pinned here as well as by the comparison.
TEST(BmpDirectRead, PaletteAndAlphaRules) {
  const Shape& gray = kHandled[11];
  const DecodedImage g = expect_direct(assemble(spec_of(gray, 5, 3, 1)), "gray");
  EXPECT_EQ(g.channels, 3);  // stb expands every 8-bit palette to RGB
  for (std::size_t i = 0; i < g.samples8.size(); i += 3) {
    ASSERT_EQ(g.samples8[i], g.samples8[i + 1]);
    ASSERT_EQ(g.samples8[i], g.samples8[i + 2]);
  }
  // BI_RGB 32-bit with every alpha byte 0: stb takes it as opaque.
  const DecodedImage rgb0 = expect_direct(assemble(spec_of(kHandled[4], 6, 4, 2)), "BI_RGB 0");
  ASSERT_EQ(rgb0.channels, 4);
  for (std::size_t i = 3; i < rgb0.samples8.size(); i += 4) ASSERT_EQ(rgb0.samples8[i], 255);
  // BI_BITFIELDS with an alpha mask: alpha as stored, zeros too.
  const DecodedImage bf0 = expect_direct(assemble(spec_of(kHandled[10], 6, 4, 3)), "BITFIELDS 0");
  ASSERT_EQ(bf0.channels, 4);
  for (std::size_t i = 3; i < bf0.samples8.size(); i += 4) ASSERT_EQ(bf0.samples8[i], 0);
  // BI_BITFIELDS without an alpha mask: RGB.
  EXPECT_EQ(expect_direct(assemble(spec_of(kHandled[7], 6, 4, 4)), "BITFIELDS").channels, 3);
}

TEST(BmpDirectRead, OtherFilesAreDeclinedAndDecodeThroughStbAsBefore) {
  auto spec = [](int bpp, std::uint32_t header, std::uint32_t compression) {
    BmpSpec s;
    s.width = 7, s.height = 5, s.bpp = bpp, s.header = header, s.compression = compression;
    return s;
  };
  // Each a 7x5 file of its bpp, header size and compression, `edit` making it what it is.
  const struct {
    const char* what;
    bool stb_reads;  // else stb refuses it and decode_stb still says InputError
    int bpp;
    std::uint32_t header, compression;
    void (*edit)(BmpSpec&);
  } declined[] = {
      {"16-bit 555", true, 16, 40, 0, nullptr},
      {"16-bit 565 bitfields", true, 16, 40, 3,
       [](BmpSpec& s) {
         s.masks = {0xF800, 0x07E0, 0x001F, 0};
       }},
      {"8-bit colour palette", true, 8, 40, 0,
       [](BmpSpec& s) {
         s.palette = gray_palette(256, 5);
         s.palette[200] = {10, 20, 30};
       }},
      {"4-bit gray palette", true, 4, 40, 0, [](BmpSpec& s) { s.palette = gray_palette(16, 6); }},
      {"1-bit", true, 1, 40, 0,
       [](BmpSpec& s) {
         s.palette = {{0, 0, 0}, {255, 255, 255}};
       }},
      {"OS/2 24-bit", true, 24, 12, 0, nullptr},
      {"V3 header 24-bit", true, 24, 56, 0, nullptr},
      {"32-bit BGR masks", true, 32, 40, 3,  // R and B swapped
       [](BmpSpec& s) {
         s.masks = {0x000000FFu, 0x0000FF00u, 0x00FF0000u, 0};
       }},
      {"32-bit 4-bit alpha mask", true, 32, 124, 3,
       [](BmpSpec& s) {
         s.masks = {0x00FF0000u, 0x0000FF00u, 0x000000FFu, 0x0F000000u};
       }},
      {"32-bit RGBA masks", true, 32, 124, 3,
       [](BmpSpec& s) {
         s.masks = {0xFF000000u, 0x00FF0000u, 0x0000FF00u, 0x000000FFu};
       }},
      {"RLE8", false, 8, 40, 1, [](BmpSpec& s) { s.palette = gray_palette(256, 7); }},
      {"24-bit BI_BITFIELDS", false, 24, 40, 3, nullptr},
      {"24-bit with a gap before the pixels", false, 24, 40, 0,
       [](BmpSpec& s) { s.offset_extra = 4; }},
      {"32-bit V5 with a gap before the pixels", false, 32, 124, 0,
       [](BmpSpec& s) { s.offset_extra = 1; }},
      {"8-bit without a palette", false, 8, 40, 0, nullptr},
      {"2 planes", false, 24, 40, 0, [](BmpSpec& s) { s.planes = 2; }},
  };
  for (const auto& d : declined) {
    BmpSpec s = spec(d.bpp, d.header, d.compression);
    if (d.edit) d.edit(s);
    expect_declined(assemble(s), d.stb_reads, d.what);
  }

  // An index past the palette: stb reads its uninitialised palette slots, so there is nothing
  // to compare; the direct reader must not guess.
  BmpSpec s = spec(8, 40, 0);
  s.palette = gray_palette(4, 8);
  s.max_index = 200;
  EXPECT_FALSE(decode_bmp_direct(assemble(s)).has_value()) << "index past the palette";
}

// Every proper prefix of a handled file is declined, and decode_stb gives an InputError.
TEST(BmpDirectRead, EveryTruncationIsAnInputError) {
  const Bytes files[] = {
      assemble(spec_of(kHandled[0], 5, 3, 11)),    // 24-bit, padded rows
      assemble(spec_of(kHandled[10], 3, -2, 12)),  // V5 BITFIELDS, top-down
      assemble(spec_of(kHandled[7], 2, 2, 13)),    // masks after a 40-byte header
      assemble(spec_of(kHandled[12], 7, 3, 14)),   // 8-bit, short palette and a gap
  };
  for (const Bytes& full : files) {
    ASSERT_TRUE(decode_bmp_direct(full).has_value());
    for (std::size_t n = 0; n < full.size(); ++n) {
      const Bytes cut(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
      ASSERT_FALSE(decode_bmp_direct(cut).has_value()) << n << " of " << full.size() << " bytes";
      ASSERT_THROW(io_detail::decode_stb("t.bmp", cut, io_detail::FileFormat::kBmp), InputError)
          << n << " of " << full.size() << " bytes";
    }
  }
  // And through the files' whole path.
  test::io::TempDir dir;
  test::io::expect_every_prefix_is_input_error(files[0], dir.file("cut.bmp"));
}

TEST(BmpDirectRead, CorruptHeadersAreDeclinedAndInputErrors) {
  const Bytes good = assemble(spec_of(kHandled[0], 4, 4, 21));
  auto with32 = [&](std::size_t at, std::uint32_t v) {
    Bytes b = good;
    for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
    return b;
  };
  expect_declined(with32(18, 0), false, "zero width");
  expect_declined(with32(18, static_cast<std::uint32_t>(-4)), false, "negative width");
  expect_declined(with32(22, 0), false, "zero height");
  expect_declined(with32(18, 0x7FFFFFFFu), false, "absurd width");
  expect_declined(with32(22, 0x80000000u), false, "height -2^31");
  expect_declined(with32(18, (1u << 24) + 1), false, "width past stb's limit");
  expect_declined(with32(10, static_cast<std::uint32_t>(good.size())), false, "offset at the end");
  expect_declined(with32(10, 0xFFFFFFFFu), false, "offset 2^32-1");
  expect_declined(with32(14, 1000), false, "header size 1000");
  Bytes b = good;
  b[28] = 0;  // 0 bits per pixel
  expect_declined(b, false, "depth 0");
  // A 16384 x 16385 header (over kMaxPixels) on a file that holds 4x4 pixels.
  Bytes big = with32(18, 16384);
  for (int i = 0; i < 4; ++i) big[22 + i] = static_cast<std::uint8_t>(16385u >> (8 * i));
  expect_declined(big, false, "over kMaxPixels");
}

// The BMPs mad writes (save_bmp8: `mad eval --make-synthetic --synthetic-format bmp`, mad
// preprocess) come back through the direct path, gray as three equal channels.
TEST(BmpDirectRead, ProjectWrittenBmpsRoundTrip) {
  test::io::TempDir dir;
  for (const auto& [w, h] : std::vector<std::array<int, 2>>{{1, 1}, {7, 5}, {33, 17}, {512, 384}})
    for (int channels : {1, 3}) {
      RawImage8 image;
      image.width = w, image.height = h, image.channels = channels;
      for (std::uint16_t v : test::io::random_samples(static_cast<std::size_t>(w) * h * channels,
                                                      255, 30 + w + channels))
        image.samples.push_back(static_cast<std::uint8_t>(v));
      const std::string path = dir.file("w.bmp");
      save_bmp8(path, image);
      const std::string what =
          std::to_string(w) + "x" + std::to_string(h) + " c" + std::to_string(channels);
      expect_direct(test::io::read_bytes(path), what);
      const std::size_t before = io_detail::bmp_direct_decodes();
      const RawImage8 back = load_raw_image8(path);
      EXPECT_EQ(io_detail::bmp_direct_decodes(), before + 1) << what;
      ASSERT_EQ(back.width, w);
      ASSERT_EQ(back.height, h);
      ASSERT_EQ(back.channels, 3);
      for (std::size_t i = 0; i < back.samples.size(); ++i)
        ASSERT_EQ(back.samples[i], image.samples[channels == 1 ? i / 3 : i]) << what << " " << i;
      // The GPU workers' form keeps the same samples.
      const SourceImage source = load_source_image(path, true);
      ASSERT_TRUE(source.has_colour()) << what;
      EXPECT_EQ(source.colour.samples, back.samples) << what;
    }
}

}  // namespace
}  // namespace mad

#endif  // MAD_HAVE_STB
