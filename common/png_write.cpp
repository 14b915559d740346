// PNG encoding through libpng: 8-bit images (1-4 channels) and 16-bit scaled maps.
// Same error discipline as png_read.cpp: the error callback longjmps to a setjmp in a function
// without C++ objects; the caller closes the file, deletes the partial output and throws.
#include <png.h>

#include <cerrno>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/image_io.h"
#include "common/image_io_detail.h"
#include "common/png_messages.h"

namespace mad {
namespace {

using io_detail::on_png_error;
using io_detail::on_png_warning;
using io_detail::PngMessage;

struct PngLayout {
  png_uint_32 width, height;
  int bit_depth, color_type;
};

// setjmp target; no C++ objects live in this frame.
bool write_png_rows(png_structp png, png_infop info, std::FILE* file, const PngLayout* layout,
                    png_bytep* rows) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_init_io(png, file);
  png_set_IHDR(png, info, layout->width, layout->height, layout->bit_depth, layout->color_type,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  png_write_image(png, rows);
  png_write_end(png, nullptr);
  return true;
}

struct PngWriteGuard {
  png_structp png = nullptr;
  png_infop info = nullptr;
  ~PngWriteGuard() { png_destroy_write_struct(&png, &info); }
};

[[noreturn]] void throw_write_error(const std::string& path, const std::string& reason) {
  throw Error("cannot write PNG '" + path + "': " + reason);
}

// Writes `packed` (rows of width*channels samples, 16-bit ones big-endian) to `path`. A failed
// write leaves no partial file behind.
void write_png(const std::string& path, const PngLayout& layout, int channels,
               std::vector<png_byte>& packed) {
  PngMessage error{};
  PngWriteGuard guard;
  guard.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &error, on_png_error, on_png_warning);
  if (!guard.png) throw_write_error(path, "libpng could not be initialised");
  guard.info = png_create_info_struct(guard.png);
  if (!guard.info) throw_write_error(path, "libpng could not be initialised");

  const std::size_t row_bytes =
      static_cast<std::size_t>(layout.width) * channels * (layout.bit_depth / 8);
  std::vector<png_bytep> rows(layout.height);
  for (std::size_t y = 0; y < layout.height; ++y) rows[y] = packed.data() + y * row_bytes;

  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) throw_write_error(path, std::string("cannot open file: ") + std::strerror(errno));
  const bool written = write_png_rows(guard.png, guard.info, file, &layout, rows.data());
  const bool closed = std::fclose(file) == 0;  // fclose flushes: a full disk shows up here
  if (!written || !closed) {
    std::remove(path.c_str());
    throw_write_error(path, written ? "error while closing the file" : error.text);
  }
}

}  // namespace

void save_png8(const std::string& path, const RawImage8& image) {
  io_detail::check_image8_for_write("save_png8", path, image, 4);
  static const int kColorType[] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
                                   PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA};
  std::vector<png_byte> packed(image.samples.begin(), image.samples.end());
  const PngLayout layout{static_cast<png_uint_32>(image.width),
                         static_cast<png_uint_32>(image.height), 8, kColorType[image.channels]};
  write_png(path, layout, image.channels, packed);
}

double save_png16_scaled(const std::string& path, ImageView<const double> map) {
  if (map.empty()) throw InvalidArgument("save_png16_scaled: empty map for '" + path + "'");
  // The scale comes from the largest finite value; NaN is written as 0 and +Inf saturates.
  double max_value = 0.0;
  for (int y = 0; y < map.height; ++y)
    for (int x = 0; x < map.width; ++x)
      if (std::isfinite(map(y, x)) && map(y, x) > max_value) max_value = map(y, x);
  const double scale = max_value > 0.0 ? 65535.0 / max_value : 1.0;

  std::vector<png_byte> packed(map.pixel_count() * 2);
  std::size_t i = 0;
  for (int y = 0; y < map.height; ++y) {
    for (int x = 0; x < map.width; ++x) {
      const double v = map(y, x);
      double level = std::isnan(v) ? 0.0 : std::round(v * scale);
      level = level < 0.0 ? 0.0 : (level > 65535.0 ? 65535.0 : level);
      const auto sample = static_cast<unsigned>(level);
      packed[i++] = static_cast<png_byte>(sample >> 8);  // PNG is big-endian
      packed[i++] = static_cast<png_byte>(sample & 0xff);
    }
  }
  const PngLayout layout{static_cast<png_uint_32>(map.width), static_cast<png_uint_32>(map.height),
                         16, PNG_COLOR_TYPE_GRAY};
  write_png(path, layout, 1, packed);
  return scale;
}

}  // namespace mad
