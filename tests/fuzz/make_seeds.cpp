// Writes the image seed corpora of the fuzz targets: tests/fuzz/corpus/{png,jpeg,tiff,stb}/.
// Files come from the libraries' own encoders (libpng, libjpeg, libtiff) or, for BMP and PNM
// whose layouts are a few header fields, from the byte layouts of their specifications. Images
// are tiny (a few hundred bytes) so the fuzzers run thousands of executions per second, and
// cover the variants the decoders branch on: colour types, bit depths, palettes, interlacing,
// progressive scans, strips/tiles, planar layouts, compressions, top-down BMPs, PNM comments.
//
//   fuzz_make_seeds tests/fuzz/corpus      (the outputs are committed; rerun after changes)
#include <png.h>
#include <tiffio.h>

#include <algorithm>
#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include <jpeglib.h>

#include "tests/support/tiff_layout.h"

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;

namespace {

fs::path g_root;

void save(const std::string& folder, const std::string& name, const Bytes& b) {
  fs::create_directories(g_root / folder);
  std::ofstream out(g_root / folder / name, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  if (!out) throw std::runtime_error("cannot write " + name);
}

// A deterministic pattern with edges and gradients (decoders take different paths for flat
// and busy data), `channels` interleaved samples of 0..max per pixel.
std::vector<unsigned> pattern(int w, int h, int channels, unsigned max) {
  std::vector<unsigned> v(static_cast<std::size_t>(w) * h * channels);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < channels; ++c)
        v[(static_cast<std::size_t>(y) * w + x) * channels + c] =
            ((x * 37 + y * 91 + c * 53) * 2654435761u >> 7) % (max + 1);
  return v;
}

// ---- PNG (libpng) ----------------------------------------------------------------------------

void png_write_to(png_structp png, png_bytep data, png_size_t n) {
  auto* out = static_cast<Bytes*>(png_get_io_ptr(png));
  out->insert(out->end(), data, data + n);
}
void png_flush_noop(png_structp) {}
void png_fail(png_structp png, png_const_charp) {
  png_longjmp(png, 1);
}

struct PngSeed {
  int w, h, color_type, bit_depth, channels;
  bool interlace, palette, trns;
};

// setjmp target without C++ objects in its frame.
bool png_encode(png_structp png, png_infop info, const PngSeed* s, png_bytep* rows, png_colorp plte,
                png_bytep alpha) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_set_IHDR(png, info, s->w, s->h, s->bit_depth, s->color_type,
               s->interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (s->palette) png_set_PLTE(png, info, plte, 16);
  if (s->trns) png_set_tRNS(png, info, alpha, 16, nullptr);
  png_write_info(png, info);
  if (s->bit_depth < 8) png_set_packing(png);
  png_write_image(png, rows);
  png_write_end(png, info);
  return true;
}

Bytes make_png(const PngSeed& s) {
  const unsigned max = s.palette ? 15 : (1u << s.bit_depth) - 1;
  const auto v = pattern(s.w, s.h, s.channels, max);
  const int bytes = s.bit_depth == 16 ? 2 : 1;
  const std::size_t row = static_cast<std::size_t>(s.w) * s.channels * bytes;
  Bytes pixels(row * s.h);
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (bytes == 2) {
      pixels[2 * i] = static_cast<std::uint8_t>(v[i] >> 8);
      pixels[2 * i + 1] = static_cast<std::uint8_t>(v[i]);
    } else {
      pixels[i] = static_cast<std::uint8_t>(v[i]);
    }
  }
  std::vector<png_bytep> rows(s.h);
  for (int y = 0; y < s.h; ++y) rows[y] = pixels.data() + y * row;
  png_color plte[16];
  png_byte alpha[16];
  for (int i = 0; i < 16; ++i) {
    plte[i] = {static_cast<png_byte>(i * 16), static_cast<png_byte>(255 - i * 9),
               static_cast<png_byte>(i * 5)};
    alpha[i] = static_cast<png_byte>(255 - i * 12);
  }
  Bytes out;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, png_fail, nullptr);
  png_infop info = png_create_info_struct(png);
  png_set_write_fn(png, &out, png_write_to, png_flush_noop);
  const bool ok = png_encode(png, info, &s, rows.data(), plte, alpha);
  png_destroy_write_struct(&png, &info);
  if (!ok) throw std::runtime_error("libpng failed");
  return out;
}

// ---- JPEG (libjpeg) --------------------------------------------------------------------------

struct JpegFail {
  jpeg_error_mgr pub;
  std::jmp_buf jump;
};
void jpeg_fail(j_common_ptr c) {
  std::longjmp(reinterpret_cast<JpegFail*>(c->err)->jump, 1);
}

struct JpegSeed {
  int w, h, comps;
  bool progressive;
  int restart_rows;
  int quality;
};

bool jpeg_encode(jpeg_compress_struct* c, JpegFail* err, const JpegSeed* s,
                 const std::uint8_t* data, unsigned char** buf, unsigned long* size) {
  if (setjmp(err->jump)) return false;
  jpeg_create_compress(c);
  jpeg_mem_dest(c, buf, size);
  c->image_width = static_cast<JDIMENSION>(s->w);
  c->image_height = static_cast<JDIMENSION>(s->h);
  c->input_components = s->comps;
  c->in_color_space = s->comps == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(c);
  jpeg_set_quality(c, s->quality, TRUE);
  if (s->progressive) jpeg_simple_progression(c);
  c->restart_in_rows = s->restart_rows;
  jpeg_start_compress(c, TRUE);
  while (c->next_scanline < c->image_height) {
    JSAMPROW row = const_cast<JSAMPROW>(data + c->next_scanline * s->w * s->comps);
    jpeg_write_scanlines(c, &row, 1);
  }
  jpeg_finish_compress(c);
  return true;
}

Bytes make_jpeg(const JpegSeed& s) {
  const auto v = pattern(s.w, s.h, s.comps, 255);
  const Bytes data(v.begin(), v.end());
  jpeg_compress_struct c{};
  JpegFail err;
  c.err = jpeg_std_error(&err.pub);
  err.pub.error_exit = jpeg_fail;
  unsigned char* buf = nullptr;
  unsigned long size = 0;
  const bool ok = jpeg_encode(&c, &err, &s, data.data(), &buf, &size);
  jpeg_destroy_compress(&c);
  Bytes out(buf, buf + (ok ? size : 0));
  std::free(buf);
  if (!ok) throw std::runtime_error("libjpeg failed");
  return out;
}

// ---- TIFF (libtiff, through a temporary file) -------------------------------------------------

struct TiffSeed {
  int w, h, spp, bps;
  std::uint16_t photometric, compression;
  bool planar;
  int tile;  // 0: strips (2 rows each), else the tile side (a multiple of 16)
};

Bytes make_tiff(const TiffSeed& s) {
  const fs::path tmp = fs::temp_directory_path() / "mad_fuzz_seed.tif";
  TIFF* t = TIFFOpen(tmp.c_str(), "w");
  if (!t) throw std::runtime_error("libtiff cannot create a file");
  mad::test::set_tiff_layout(t, s.w, s.h, s.spp, s.bps, s.photometric, s.compression, s.planar);
  if (s.compression == COMPRESSION_JPEG) {
    TIFFSetField(t, TIFFTAG_JPEGQUALITY, 75);
    TIFFSetField(t, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);  // RGB in, YCbCr stored
  }
  const int planes = s.planar ? s.spp : 1;
  const int per_pixel = s.planar ? 1 : s.spp;
  const int bytes = s.bps / 8;
  const auto v = pattern(s.w, s.h, s.spp, (1u << s.bps) - 1);
  auto sample_bytes = [&](int x, int y, int plane, int k, std::uint8_t* dst) {
    const unsigned val = v[(static_cast<std::size_t>(y) * s.w + x) * s.spp + plane + k];
    if (bytes == 1) {
      dst[0] = static_cast<std::uint8_t>(val);
    } else {
      const std::uint16_t u = static_cast<std::uint16_t>(val);
      std::memcpy(dst, &u, 2);  // libtiff takes host order
    }
  };
  bool ok = true;
  if (s.tile == 0) {
    TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, s.compression == COMPRESSION_JPEG ? 16 : 2);
    Bytes line(static_cast<std::size_t>(s.w) * per_pixel * bytes);
    for (int p = 0; p < planes; ++p)
      for (int y = 0; y < s.h; ++y) {
        for (int x = 0; x < s.w; ++x)
          for (int k = 0; k < per_pixel; ++k)
            sample_bytes(x, y, p, k, &line[(static_cast<std::size_t>(x) * per_pixel + k) * bytes]);
        ok &= TIFFWriteScanline(t, line.data(), y, static_cast<std::uint16_t>(p)) >= 0;
      }
  } else {
    TIFFSetField(t, TIFFTAG_TILEWIDTH, s.tile);
    TIFFSetField(t, TIFFTAG_TILELENGTH, s.tile);
    Bytes tile(static_cast<std::size_t>(s.tile) * s.tile * per_pixel * bytes);
    for (int p = 0; p < planes; ++p)
      for (int ty = 0; ty < s.h; ty += s.tile)
        for (int tx = 0; tx < s.w; tx += s.tile) {
          std::fill(tile.begin(), tile.end(), 0);
          for (int y = ty; y < std::min(s.h, ty + s.tile); ++y)
            for (int x = tx; x < std::min(s.w, tx + s.tile); ++x)
              for (int k = 0; k < per_pixel; ++k)
                sample_bytes(
                    x, y, p, k,
                    &tile[((static_cast<std::size_t>(y - ty) * s.tile + (x - tx)) * per_pixel + k) *
                          bytes]);
          ok &= TIFFWriteTile(t, tile.data(), tx, ty, 0, static_cast<std::uint16_t>(p)) >= 0;
        }
  }
  TIFFClose(t);
  std::ifstream in(tmp, std::ios::binary);
  Bytes out((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  fs::remove(tmp);
  if (!ok || out.empty()) throw std::runtime_error("libtiff failed");
  return out;
}

// ---- BMP and PNM (written from their specifications) ------------------------------------------

void put_le(Bytes& b, std::uint32_t v, int n) {
  for (int i = 0; i < n; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

// Uncompressed BITMAPINFOHEADER file: bpp 8 (16-entry palette), 24 or 32; rows padded to 4
// bytes, bottom-up unless top_down (negative height).
Bytes make_bmp(int w, int h, int bpp, bool top_down) {
  const int colors = bpp == 8 ? 16 : 0;
  const std::uint32_t stride = (static_cast<std::uint32_t>(w) * bpp + 31) / 32 * 4;
  const std::uint32_t offset = 14 + 40 + 4 * colors;
  Bytes b = {'B', 'M'};
  put_le(b, offset + stride * h, 4);
  put_le(b, 0, 4);
  put_le(b, offset, 4);
  put_le(b, 40, 4);
  put_le(b, static_cast<std::uint32_t>(w), 4);
  put_le(b, static_cast<std::uint32_t>(top_down ? -h : h), 4);
  put_le(b, 1, 2);
  put_le(b, static_cast<std::uint32_t>(bpp), 2);
  put_le(b, 0, 4);  // BI_RGB
  put_le(b, stride * h, 4);
  put_le(b, 2835, 4);
  put_le(b, 2835, 4);
  put_le(b, static_cast<std::uint32_t>(colors), 4);
  put_le(b, 0, 4);
  for (int i = 0; i < colors; ++i) put_le(b, 0x00102030u * static_cast<std::uint32_t>(i), 4);
  const auto v = pattern(w, h, bpp / 8, bpp == 8 ? 15 : 255);
  for (int r = 0; r < h; ++r) {
    const std::size_t start = b.size();
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < bpp / 8; ++c)
        b.push_back(
            static_cast<std::uint8_t>(v[(static_cast<std::size_t>(r) * w + x) * (bpp / 8) + c]));
    while (b.size() - start < stride) b.push_back(0);
  }
  return b;
}

// Binary PGM (P5) or PPM (P6) with an optional comment; maxval > 255 stores big-endian pairs.
Bytes make_pnm(int w, int h, bool color, unsigned maxval, bool comment) {
  std::string head = color ? "P6\n" : "P5\n";
  if (comment) head += "# seed for fuzz_stb\n";
  head += std::to_string(w) + " " + std::to_string(h) + "\n" + std::to_string(maxval) + "\n";
  Bytes b(head.begin(), head.end());
  for (unsigned v : pattern(w, h, color ? 3 : 1, maxval)) {
    if (maxval > 255) b.push_back(static_cast<std::uint8_t>(v >> 8));
    b.push_back(static_cast<std::uint8_t>(v));
  }
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR (e.g. tests/fuzz/corpus)\n", argv[0]);
    return 2;
  }
  g_root = argv[1];
  TIFFSetWarningHandler(nullptr);
  try {
    // One row a seed file: its name and the encoder's settings.
    const struct {
      const char* name;
      PngSeed seed;
    } pngs[] = {
        {"gray8.png", {9, 7, PNG_COLOR_TYPE_GRAY, 8, 1, false, false, false}},
        {"gray1.png", {13, 5, PNG_COLOR_TYPE_GRAY, 1, 1, false, false, false}},
        {"gray4_interlaced.png", {11, 9, PNG_COLOR_TYPE_GRAY, 4, 1, true, false, false}},
        {"gray16.png", {6, 5, PNG_COLOR_TYPE_GRAY, 16, 1, false, false, false}},
        {"gray_alpha8.png", {5, 4, PNG_COLOR_TYPE_GRAY_ALPHA, 8, 2, false, false, false}},
        {"rgb8_interlaced.png", {10, 9, PNG_COLOR_TYPE_RGB, 8, 3, true, false, false}},
        {"rgb16.png", {5, 4, PNG_COLOR_TYPE_RGB, 16, 3, false, false, false}},
        {"rgba8.png", {6, 6, PNG_COLOR_TYPE_RGB_ALPHA, 8, 4, false, false, false}},
        {"palette4_trns.png", {8, 6, PNG_COLOR_TYPE_PALETTE, 4, 1, false, true, true}},
        {"palette8.png", {7, 5, PNG_COLOR_TYPE_PALETTE, 8, 1, false, true, false}},
    };
    for (const auto& p : pngs) save("png", p.name, make_png(p.seed));

    const struct {
      const char* name;
      JpegSeed seed;
    } jpegs[] = {
        {"gray_baseline.jpg", {16, 8, 1, false, 0, 80}},
        {"rgb_baseline.jpg", {17, 9, 3, false, 0, 75}},
        {"rgb_progressive.jpg", {16, 16, 3, true, 0, 60}},
        {"gray_progressive_restart.jpg", {24, 16, 1, true, 1, 90}},
        {"rgb_restart.jpg", {32, 16, 3, false, 1, 50}},
    };
    for (const auto& j : jpegs) save("jpeg", j.name, make_jpeg(j.seed));

    const struct {
      const char* name;
      TiffSeed seed;
    } tiffs[] = {
        {"gray8_strips.tif", {9, 7, 1, 8, PHOTOMETRIC_MINISBLACK, COMPRESSION_NONE, false, 0}},
        {"gray8_miniswhite_lzw.tif",
         {9, 7, 1, 8, PHOTOMETRIC_MINISWHITE, COMPRESSION_LZW, false, 0}},
        {"gray16_tiles.tif", {20, 18, 1, 16, PHOTOMETRIC_MINISBLACK, COMPRESSION_NONE, false, 16}},
        {"gray_alpha8_deflate.tif",
         {6, 5, 2, 8, PHOTOMETRIC_MINISBLACK, COMPRESSION_ADOBE_DEFLATE, false, 0}},
        {"rgb8_packbits.tif", {7, 6, 3, 8, PHOTOMETRIC_RGB, COMPRESSION_PACKBITS, false, 0}},
        {"rgb16_planar.tif", {5, 4, 3, 16, PHOTOMETRIC_RGB, COMPRESSION_NONE, true, 0}},
        {"rgba8_planar_tiles.tif", {17, 16, 4, 8, PHOTOMETRIC_RGB, COMPRESSION_NONE, true, 16}},
        {"ycbcr_jpeg.tif", {16, 16, 3, 8, PHOTOMETRIC_YCBCR, COMPRESSION_JPEG, false, 0}},
    };
    for (const auto& t : tiffs) save("tiff", t.name, make_tiff(t.seed));

    save("stb", "bmp8_palette.bmp", make_bmp(7, 5, 8, false));
    save("stb", "bmp24.bmp", make_bmp(5, 4, 24, false));
    save("stb", "bmp24_topdown.bmp", make_bmp(6, 3, 24, true));
    save("stb", "bmp32.bmp", make_bmp(4, 4, 32, false));
    save("stb", "gray8.pgm", make_pnm(7, 5, false, 255, true));
    save("stb", "gray16.pgm", make_pnm(5, 4, false, 65535, false));
    save("stb", "rgb8.ppm", make_pnm(4, 3, true, 255, false));
    save("stb", "rgb_maxval1000.ppm", make_pnm(3, 3, true, 1000, true));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_make_seeds: %s\n", e.what());
    return 1;
  }
  return 0;
}
