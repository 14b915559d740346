// Test-only writers for the image I/O tests: files are produced by the libraries' own encoders
// (libpng, libjpeg, libtiff, stb_image_write) so the decoders are checked against independent
// code, plus a scratch directory and raw byte helpers. Header-only because the test folder
// compiles only *_test.cpp files.
#pragma once

#include <png.h>

#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <jpeglib.h>
#include <unistd.h>  // getpid

#include <gtest/gtest.h>

#include "common/error.h"
#include "common/image_io.h"

namespace mad::test::io {

// A fresh directory under the system temp dir, removed with its contents at scope end.
class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("mad_image_io_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::string dir() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

inline void write_bytes(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << "cannot write " << path;
}

inline std::vector<std::uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Every proper prefix of the file `bytes`, written to `cut`, must be an InputError for
// load_gray_image (a truncated file never decodes). Leaves the first half in `cut`, for the
// caller to check the message it gives.
inline void expect_every_prefix_is_input_error(const std::vector<std::uint8_t>& bytes,
                                               const std::string& cut) {
  for (std::size_t n = 1; n < bytes.size(); ++n) {
    write_bytes(cut, std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + n));
    EXPECT_THROW(load_gray_image(cut), InputError) << "prefix of " << n << " bytes";
  }
  write_bytes(cut, std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + bytes.size() / 2));
}

// Seeded uniform samples in [0, max_value].
inline std::vector<std::uint16_t> random_samples(std::size_t count, unsigned max_value,
                                                 std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<unsigned> dist(0, max_value);
  std::vector<std::uint16_t> v(count);
  for (auto& s : v) s = static_cast<std::uint16_t>(dist(rng));
  return v;
}

// ---- libpng ----------------------------------------------------------------------------------

struct PngSpec {
  int width = 0, height = 0;
  int color_type = PNG_COLOR_TYPE_GRAY;
  int bit_depth = 8;
  std::vector<std::uint16_t> samples;  // one value per sample (palette: indices)
  std::vector<png_color> palette;
  std::vector<png_byte> trans;  // palette alpha (tRNS)
  bool interlace = false;
};

inline void png_test_error(png_structp png, png_const_charp) {
  png_longjmp(png, 1);
}

// setjmp target without C++ objects, mirroring the production discipline.
inline bool png_test_encode(png_structp png, png_infop info, std::FILE* f, const PngSpec* s,
                            png_bytep* rows) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_init_io(png, f);
  png_set_IHDR(png, info, s->width, s->height, s->bit_depth, s->color_type,
               s->interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (!s->palette.empty())
    png_set_PLTE(png, info, s->palette.data(), static_cast<int>(s->palette.size()));
  if (!s->trans.empty())
    png_set_tRNS(png, info, s->trans.data(), static_cast<int>(s->trans.size()), nullptr);
  png_write_info(png, info);
  if (s->bit_depth < 8) png_set_packing(png);  // rows hold one sample per byte
  png_write_image(png, rows);
  png_write_end(png, info);
  return true;
}

inline void write_png_file(const std::string& path, const PngSpec& s) {
  const int channels = s.color_type == PNG_COLOR_TYPE_RGB          ? 3
                       : s.color_type == PNG_COLOR_TYPE_RGB_ALPHA  ? 4
                       : s.color_type == PNG_COLOR_TYPE_GRAY_ALPHA ? 2
                                                                   : 1;
  const std::size_t per_row = static_cast<std::size_t>(s.width) * channels;
  ASSERT_EQ(s.samples.size(), per_row * s.height);
  const std::size_t bytes = s.bit_depth == 16 ? 2 : 1;
  std::vector<png_byte> packed(per_row * s.height * bytes);
  for (std::size_t i = 0; i < s.samples.size(); ++i) {
    if (bytes == 2) {
      packed[2 * i] = static_cast<png_byte>(s.samples[i] >> 8);
      packed[2 * i + 1] = static_cast<png_byte>(s.samples[i] & 0xff);
    } else {
      packed[i] = static_cast<png_byte>(s.samples[i]);
    }
  }
  std::vector<png_bytep> rows(s.height);
  for (int y = 0; y < s.height; ++y) rows[y] = packed.data() + y * per_row * bytes;
  png_structp png =
      png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, png_test_error, nullptr);
  png_infop info = png_create_info_struct(png);
  std::FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  const bool ok = png_test_encode(png, info, f, &s, rows.data());
  std::fclose(f);
  png_destroy_write_struct(&png, &info);
  ASSERT_TRUE(ok) << "libpng failed to write the test file " << path;
}

// ---- libjpeg ---------------------------------------------------------------------------------

struct JpegTestError {
  jpeg_error_mgr pub;
  std::jmp_buf jump;
};

inline void jpeg_test_error(j_common_ptr c) {
  std::longjmp(reinterpret_cast<JpegTestError*>(c->err)->jump, 1);
}

inline bool jpeg_test_encode(jpeg_compress_struct* c, JpegTestError* err, std::FILE* f, int w,
                             int h, int comps, J_COLOR_SPACE space, int quality,
                             const std::uint8_t* data) {
  if (setjmp(err->jump)) return false;
  jpeg_create_compress(c);
  jpeg_stdio_dest(c, f);
  c->image_width = static_cast<JDIMENSION>(w);
  c->image_height = static_cast<JDIMENSION>(h);
  c->input_components = comps;
  c->in_color_space = space;
  jpeg_set_defaults(c);
  jpeg_set_quality(c, quality, TRUE);
  jpeg_start_compress(c, TRUE);
  while (c->next_scanline < c->image_height) {
    JSAMPROW row =
        const_cast<JSAMPROW>(data + static_cast<std::size_t>(c->next_scanline) * w * comps);
    jpeg_write_scanlines(c, &row, 1);
  }
  jpeg_finish_compress(c);
  return true;
}

// Writes interleaved 8-bit samples (1: gray, 3: RGB, 4: CMYK) as a baseline JPEG.
inline void write_jpeg_file(const std::string& path, int w, int h, int comps,
                            const std::vector<std::uint8_t>& data, int quality = 90) {
  ASSERT_EQ(data.size(), static_cast<std::size_t>(w) * h * comps);
  const J_COLOR_SPACE space = comps == 1 ? JCS_GRAYSCALE : comps == 3 ? JCS_RGB : JCS_CMYK;
  jpeg_compress_struct c{};
  JpegTestError err;
  c.err = jpeg_std_error(&err.pub);
  err.pub.error_exit = jpeg_test_error;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  const bool ok = jpeg_test_encode(&c, &err, f, w, h, comps, space, quality, data.data());
  jpeg_destroy_compress(&c);
  std::fclose(f);
  ASSERT_TRUE(ok) << "libjpeg failed to write the test file " << path;
}

}  // namespace mad::test::io
