// TIFF: files written by libtiff in the test (strips and tiles, contiguous and planar, 8/16-bit
// gray/RGB/RGBA, compressed and not), the float writer, and the build without libtiff.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/image_io.h"
#include "tests/common/image_io_test_util.h"

#ifdef MAD_HAVE_TIFF
#include <tiffio.h>

#include "tests/support/test_support.h"
#include "tests/support/tiff_layout.h"
#endif

namespace mad {
namespace {

using test::io::TempDir;

#ifdef MAD_HAVE_TIFF

struct TiffSpec {
  int width = 0, height = 0, spp = 1, bps = 8;
  int photometric = PHOTOMETRIC_MINISBLACK;
  bool tiled = false, planar = false;
  int compression = COMPRESSION_NONE;
  std::vector<std::uint16_t> samples;  // interleaved
};

struct TiffCloser {
  void operator()(TIFF* t) const { TIFFClose(t); }
};

// Gathers the samples of rows [y0, y0+rows) and columns [x0, x0+cols) of one plane (or all
// samples when `plane` < 0) into libtiff's layout, padding to `stride` pixels per row.
std::vector<std::uint8_t> gather(const TiffSpec& s, int x0, int y0, int cols, int rows, int stride,
                                 int plane) {
  const int per_pixel = plane < 0 ? s.spp : 1;
  const int bytes = s.bps / 8;
  std::vector<std::uint8_t> out(static_cast<std::size_t>(stride) * rows * per_pixel * bytes, 0);
  for (int r = 0; r < rows && y0 + r < s.height; ++r)
    for (int c = 0; c < cols && x0 + c < s.width; ++c)
      for (int k = 0; k < per_pixel; ++k) {
        const std::size_t src =
            (static_cast<std::size_t>(y0 + r) * s.width + x0 + c) * s.spp + (plane < 0 ? k : plane);
        const std::size_t dst = (static_cast<std::size_t>(r) * stride + c) * per_pixel + k;
        const std::uint16_t v = s.samples[src];
        std::memcpy(out.data() + dst * bytes, &v, bytes);  // host order; libtiff swaps if needed
      }
  return out;
}

void write_tiff_file(const std::string& path, const TiffSpec& s) {
  std::unique_ptr<TIFF, TiffCloser> tif(TIFFOpen(path.c_str(), "w"));
  ASSERT_TRUE(tif);
  TIFF* t = tif.get();
  test::set_tiff_layout(t, s.width, s.height, s.spp, s.bps, s.photometric, s.compression, s.planar);
  const int planes = s.planar ? s.spp : 1;
  if (s.tiled) {
    const int tile = 16;
    TIFFSetField(t, TIFFTAG_TILEWIDTH, tile);
    TIFFSetField(t, TIFFTAG_TILELENGTH, tile);
    for (int p = 0; p < planes; ++p)
      for (int y = 0; y < s.height; y += tile)
        for (int x = 0; x < s.width; x += tile) {
          std::vector<std::uint8_t> buf = gather(s, x, y, tile, tile, tile, s.planar ? p : -1);
          ASSERT_GE(TIFFWriteTile(t, buf.data(), x, y, 0, static_cast<std::uint16_t>(p)), 0);
        }
  } else {
    TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, 3);  // several strips, the last one partial
    for (int p = 0; p < planes; ++p)
      for (int y = 0; y < s.height; ++y) {
        std::vector<std::uint8_t> row = gather(s, 0, y, s.width, 1, s.width, s.planar ? p : -1);
        ASSERT_GE(TIFFWriteScanline(t, row.data(), y, static_cast<std::uint16_t>(p)), 0);
      }
  }
}

TiffSpec make_spec(int w, int h, int spp, int bps, std::uint32_t seed) {
  TiffSpec s;
  s.width = w, s.height = h, s.spp = spp, s.bps = bps;
  s.photometric = spp >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;
  s.samples = test::io::random_samples(static_cast<std::size_t>(w) * h * spp,
                                       bps == 8 ? 255u : 65535u, seed);
  return s;
}

double expected_gray(const TiffSpec& s, std::size_t pixel) {
  const std::uint16_t* p = &s.samples[pixel * s.spp];
  const bool wide = s.bps == 16;
  if (s.spp < 3) return wide ? p[0] * 255.0 / 65535.0 : p[0];
  const long double v =
      0.298936021293775L * p[0] + 0.587043074451121L * p[1] + 0.114020904255103L * p[2];
  const double rounded = static_cast<double>(std::floor(v + 0.5L));
  return wide ? rounded * 255.0 / 65535.0 : rounded;
}

void expect_round_trip(const TiffSpec& s, const std::string& label) {
  TempDir dir;
  const std::string path = dir.file("t.tif");
  write_tiff_file(path, s);
  const GrayImage g = load_gray_image(path);
  ASSERT_EQ(g.pixels.width(), s.width) << label;
  ASSERT_EQ(g.pixels.height(), s.height) << label;
  EXPECT_EQ(g.bit_depth, s.bps) << label;
  EXPECT_EQ(g.source_channels, s.spp) << label;
  for (int i = 0; i < s.width * s.height; ++i)
    ASSERT_EQ(g.pixels(i / s.width, i % s.width), expected_gray(s, i)) << label << " pixel " << i;
}

TEST(TiffIo, StripAndTileLayoutsRoundTrip) {
  for (int bps : {8, 16})
    for (int spp : {1, 2, 3, 4})
      for (bool tiled : {false, true})
        for (bool planar : {false, true}) {
          TiffSpec s = make_spec(37, 20, spp, bps, 100 + bps + spp * 4 + tiled * 2 + planar);
          s.tiled = tiled, s.planar = planar;
          expect_round_trip(s, std::to_string(bps) + "-bit spp " + std::to_string(spp) +
                                   (tiled ? " tiled" : " strips") + (planar ? " planar" : ""));
        }
}

TEST(TiffIo, CompressedFilesRoundTrip) {
  for (int compression : {COMPRESSION_LZW, COMPRESSION_ADOBE_DEFLATE, COMPRESSION_PACKBITS}) {
    TiffSpec s = make_spec(45, 31, 3, 16, 200 + compression);
    s.compression = compression;
    expect_round_trip(s, "compression " + std::to_string(compression));
  }
}

// JPEG-in-TIFF stores YCbCr; the reader asks libtiff's JPEG codec for RGB. A flat colour
// survives the YCbCr round trip within a level per channel (cf. the JPEG tests).
constexpr double kYCbCrFlatTolerance = 1.0;

TEST(TiffIo, JpegCompressedYCbCrIsReadAsRgb) {
  TempDir dir;
  const std::string path = dir.file("ycbcr.tif");
  {
    std::unique_ptr<TIFF, TiffCloser> tif(TIFFOpen(path.c_str(), "w"));
    ASSERT_TRUE(tif);
    TIFF* t = tif.get();
    TIFFSetField(t, TIFFTAG_IMAGEWIDTH, 32);
    TIFFSetField(t, TIFFTAG_IMAGELENGTH, 32);
    TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, 3);
    TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, 8);
    TIFFSetField(t, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(t, TIFFTAG_COMPRESSION, COMPRESSION_JPEG);
    TIFFSetField(t, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_YCBCR);
    TIFFSetField(t, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);  // we hand it RGB rows
    TIFFSetField(t, TIFFTAG_JPEGQUALITY, 95);
    TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, 16);
    std::vector<std::uint8_t> row;
    for (int x = 0; x < 32; ++x) row.insert(row.end(), {200, 100, 50});
    for (int y = 0; y < 32; ++y) ASSERT_GE(TIFFWriteScanline(t, row.data(), y, 0), 0);
  }
  const GrayImage g = load_gray_image(path);
  EXPECT_EQ(g.source_channels, 3);
  for (int y = 0; y < 32; ++y)
    for (int x = 0; x < 32; ++x)
      ASSERT_NEAR(g.pixels(y, x), 124.0, kYCbCrFlatTolerance) << y << "," << x;  // rgb2gray 124.19
}

TEST(TiffIo, MinIsWhiteIsInverted) {
  TempDir dir;
  TiffSpec s = make_spec(10, 4, 1, 8, 300);
  s.photometric = PHOTOMETRIC_MINISWHITE;
  write_tiff_file(dir.file("w.tif"), s);
  const GrayImage g = load_gray_image(dir.file("w.tif"));
  for (int i = 0; i < 40; ++i) ASSERT_EQ(g.pixels(i / 10, i % 10), 255 - s.samples[i]);
  EXPECT_FALSE(g.notes.empty());
}

TEST(TiffIo, MultiPageReadsTheFirstPageWithNote) {
  TempDir dir;
  const std::string path = dir.file("pages.tif");
  const TiffSpec first = make_spec(8, 6, 1, 8, 310);
  {
    std::unique_ptr<TIFF, TiffCloser> tif(TIFFOpen(path.c_str(), "w"));
    ASSERT_TRUE(tif);
    for (int page = 0; page < 2; ++page) {
      TIFF* t = tif.get();
      const int w = page == 0 ? 8 : 5;
      TIFFSetField(t, TIFFTAG_IMAGEWIDTH, w);
      TIFFSetField(t, TIFFTAG_IMAGELENGTH, 6);
      TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, 1);
      TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, 8);
      TIFFSetField(t, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
      for (int y = 0; y < 6; ++y) {
        std::vector<std::uint8_t> row(w, 9);
        if (page == 0) row = gather(first, 0, y, 8, 1, 8, -1);
        ASSERT_GE(TIFFWriteScanline(t, row.data(), y, 0), 0);
      }
      ASSERT_TRUE(TIFFWriteDirectory(t));
    }
  }
  const GrayImage g = load_gray_image(path);
  ASSERT_EQ(g.pixels.width(), 8);
  for (int i = 0; i < 48; ++i) ASSERT_EQ(g.pixels(i / 8, i % 8), first.samples[i]);
  ASSERT_EQ(g.notes.size(), 1u);
  EXPECT_NE(g.notes[0].find("first of 2"), std::string::npos) << g.notes[0];
}

TEST(TiffIo, SaveTiffFloatRoundTripsAndIsNotAnInputImage) {
  TempDir dir;
  Image<double> map(6, 5, 0.0, 9);  // padded pitch
  for (int y = 0; y < 5; ++y)
    for (int x = 0; x < 6; ++x) map(y, x) = 0.1 * x - 1.7 * y + 1e-3 * x * y;
  const std::string path = dir.file("map.tif");
  save_tiff_float(path, map.cview());

  std::unique_ptr<TIFF, TiffCloser> tif(TIFFOpen(path.c_str(), "r"));
  ASSERT_TRUE(tif);
  std::uint16_t bps = 0, format = 0, spp = 0;
  TIFFGetField(tif.get(), TIFFTAG_BITSPERSAMPLE, &bps);
  TIFFGetField(tif.get(), TIFFTAG_SAMPLEFORMAT, &format);
  TIFFGetFieldDefaulted(tif.get(), TIFFTAG_SAMPLESPERPIXEL, &spp);
  EXPECT_EQ(bps, 32);
  EXPECT_EQ(format, SAMPLEFORMAT_IEEEFP);
  EXPECT_EQ(spp, 1);
  std::vector<float> row(6);
  for (int y = 0; y < 5; ++y) {
    ASSERT_GE(TIFFReadScanline(tif.get(), row.data(), y, 0), 0);
    for (int x = 0; x < 6; ++x) ASSERT_EQ(row[x], static_cast<float>(map(y, x)));
  }
  const std::string m = test::thrown_message<InputError>([&] { load_gray_image(path); },
                                                         "float TIFF accepted as an input image");
  EXPECT_NE(m.find("floating-point"), std::string::npos) << m;
}

// NaN and infinities cannot enter MAD through a 32-bit float TIFF (a map written by
// `mad score --maps` of a degenerate pair holds them): every float TIFF is an InputError that
// names the sample format, whatever its values, before any sample reaches a computation.
TEST(TiffIo, FloatTiffWithNanOrInfIsAnInputError) {
  TempDir dir;
  const double specials[] = {std::nan(""), HUGE_VAL, -HUGE_VAL};
  for (double special : specials) {
    Image<double> map(5, 3, 0.5);
    map(1, 2) = special;
    const std::string path = dir.file("special.tif");
    save_tiff_float(path, map.cview());
    for (int reader = 0; reader < 2; ++reader) {
      try {
        if (reader == 0)
          load_gray_image(path);
        else
          load_raw_image8(path);
        ADD_FAILURE() << "float TIFF holding " << special << " accepted";
      } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("floating-point"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
      }
    }
  }
}

// A minimal little-endian 8-bit gray TIFF built by hand with the directory BEFORE the pixel
// data (libtiff itself writes it last), so that cutting the file keeps a valid directory and
// only the strip is short.
std::vector<std::uint8_t> directory_first_tiff(int w, int h, const std::vector<std::uint8_t>& px) {
  std::vector<std::uint8_t> b = {'I', 'I', 42, 0, 8, 0, 0, 0};
  auto put16 = [&](unsigned v) { b.push_back(v & 0xff), b.push_back((v >> 8) & 0xff); };
  auto put32 = [&](std::uint32_t v) { put16(v & 0xffff), put16(v >> 16); };
  const unsigned entries = 9;
  const std::uint32_t data_offset = 8 + 2 + entries * 12 + 4;
  auto entry = [&](unsigned tag, unsigned type, std::uint32_t value) {
    put16(tag), put16(type), put32(1);
    if (type == 3)
      put16(value), put16(0);
    else
      put32(value);
  };
  put16(entries);
  entry(256, 3, w);            // ImageWidth
  entry(257, 3, h);            // ImageLength
  entry(258, 3, 8);            // BitsPerSample
  entry(259, 3, 1);            // Compression: none
  entry(262, 3, 1);            // Photometric: min-is-black
  entry(273, 4, data_offset);  // StripOffsets
  entry(277, 3, 1);            // SamplesPerPixel
  entry(278, 3, h);            // RowsPerStrip: one strip
  entry(279, 4, w * h);        // StripByteCounts
  put32(0);                    // no next directory
  b.insert(b.end(), px.begin(), px.end());
  return b;
}

TEST(TiffIo, TruncatedAndCorruptTiffAreInputErrors) {
  TempDir dir;
  TiffSpec s = make_spec(40, 30, 3, 16, 400);
  write_tiff_file(dir.file("full.tif"), s);
  const std::vector<std::uint8_t> bytes = test::io::read_bytes(dir.file("full.tif"));
  const std::string cut = dir.file("cut.tif");
  for (std::size_t n = 1; n < bytes.size(); n += 97) {
    test::io::write_bytes(cut, std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + n));
    EXPECT_THROW(load_gray_image(cut), InputError) << "prefix of " << n << " bytes";
  }
  std::vector<std::uint8_t> header_only = {'I', 'I', 42, 0, 0xff, 0xff, 0xff, 0x7f};
  test::io::write_bytes(cut, header_only);
  EXPECT_THROW(load_gray_image(cut), InputError);

  // The hand-built file is valid as a whole ...
  std::vector<std::uint8_t> px;
  for (std::uint16_t v : test::io::random_samples(19 * 7, 255, 401))
    px.push_back(static_cast<std::uint8_t>(v));
  const std::vector<std::uint8_t> good = directory_first_tiff(19, 7, px);
  test::io::write_bytes(cut, good);
  const GrayImage g = load_gray_image(cut);
  for (int i = 0; i < 19 * 7; ++i) ASSERT_EQ(g.pixels(i / 19, i % 19), px[i]);
  // ... and with the strip cut short it is an InputError, not a partly filled image.
  test::io::write_bytes(cut, std::vector<std::uint8_t>(good.begin(), good.end() - 40));
  try {
    load_gray_image(cut);
    ADD_FAILURE() << "short strip accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("invalid TIFF data"), std::string::npos) << e.what();
  }
}

#else  // !MAD_HAVE_TIFF

TEST(TiffIo, WithoutLibtiffTiffIsAClearError) {
  TempDir dir;
  const std::string path = dir.file("a.tif");
  test::io::write_bytes(path, {'I', 'I', 42, 0, 8, 0, 0, 0, 0, 0});
  try {
    load_gray_image(path);
    ADD_FAILURE() << "TIFF accepted without libtiff";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("TIFF support not built"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(tiff_supported());
  EXPECT_THROW(save_tiff_float(dir.file("m.tif"), Image<double>(2, 2, 1.0).cview()), Error);
}

#endif

}  // namespace
}  // namespace mad
