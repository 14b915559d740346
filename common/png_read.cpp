// PNG decoding. decode_png tries png_direct_read.cpp's reader first (the common 8-bit files,
// through libdeflate, when built with it) and otherwise libpng's classic API: 1/2/4/8/16-bit gray,
// gray+alpha, RGB, RGBA and palette (expanded to RGB or RGBA). No gamma or background transform is
// applied, so the samples are the stored values, as MATLAB's imread returns them.
//
// Error handling: libpng reports errors by calling our error callback, which must not return.
// It copies the message into plain storage and longjmps back to a setjmp in a small function
// that holds no object with a destructor; that function returns false and the C++ caller,
// whose frame the longjmp never crosses, cleans up through RAII and throws InputError.
#include <png.h>

#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/image_io_detail.h"
#include "common/png_messages.h"

namespace mad::io_detail {
namespace {

// Everything libpng's callbacks touch. Plain data: a longjmp may leave through the callbacks.
struct PngReadContext {
  const std::uint8_t* data;
  std::size_t size;
  std::size_t offset;
  PngMessage error;
};

void read_from_memory(png_structp png, png_bytep out, png_size_t count) {
  auto* ctx = static_cast<PngReadContext*>(png_get_io_ptr(png));
  if (count > ctx->size - ctx->offset) png_error(png, "unexpected end of file (truncated)");
  std::memcpy(out, ctx->data + ctx->offset, count);
  ctx->offset += count;
}

struct PngHeader {
  png_uint_32 width, height;
  int file_bit_depth, file_color_type;  // as stored
  int bit_depth, channels;              // after the expand transforms
};

// setjmp target for header parsing; holds no C++ objects (see the file banner).
bool read_png_header(png_structp png, png_infop info, PngHeader* header) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_read_info(png, info);
  header->width = png_get_image_width(png, info);
  header->height = png_get_image_height(png, info);
  header->file_bit_depth = png_get_bit_depth(png, info);
  header->file_color_type = png_get_color_type(png, info);
  if (header->file_color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (header->file_color_type == PNG_COLOR_TYPE_GRAY && header->file_bit_depth < 8)
    png_set_expand_gray_1_2_4_to_8(png);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  header->bit_depth = png_get_bit_depth(png, info);
  header->channels = png_get_channels(png, info);
  return true;
}

// setjmp target for the pixel data; `rows` point into storage the caller owns.
bool read_png_rows(png_structp png, png_bytep* rows) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_read_image(png, rows);
  png_read_end(png, nullptr);  // also verifies the chunks after the image data
  return true;
}

// Owns the libpng read structures in the C++ caller's frame.
struct PngReadGuard {
  png_structp png = nullptr;
  png_infop info = nullptr;
  ~PngReadGuard() { png_destroy_read_struct(&png, info ? &info : nullptr, nullptr); }
};

}  // namespace

DecodedImage decode_png_libpng(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  PngReadContext ctx{bytes.data(), bytes.size(), 0, {}};
  PngReadGuard guard;
  guard.png =
      png_create_read_struct(PNG_LIBPNG_VER_STRING, &ctx.error, on_png_error, on_png_warning);
  if (!guard.png) throw_input_error(path, "libpng could not be initialised");
  guard.info = png_create_info_struct(guard.png);
  if (!guard.info) throw_input_error(path, "libpng could not be initialised");
  png_set_read_fn(guard.png, &ctx, read_from_memory);

  PngHeader header{};
  if (!read_png_header(guard.png, guard.info, &header))
    throw_input_error(path, std::string("invalid PNG data: ") + ctx.error.text);
  check_header(path, header.width, header.height, header.channels, header.bit_depth);

  const std::size_t width = header.width, height = header.height;
  // Deflate never expands data more than 1032:1, so the file must hold at least 1/1032 of the
  // stored rows (ignoring filter bytes). A header claiming more is a truncated or forged file:
  // refuse it before allocating the rows (a 68-byte file would otherwise cost 2 GiB).
  const std::size_t stored_channels = header.file_color_type == PNG_COLOR_TYPE_GRAY_ALPHA ? 2
                                      : header.file_color_type == PNG_COLOR_TYPE_RGB      ? 3
                                      : header.file_color_type == PNG_COLOR_TYPE_RGB_ALPHA
                                          ? 4
                                          : 1;  // gray, palette
  const std::size_t stored_bytes = width * stored_channels * header.file_bit_depth / 8 * height;
  if (stored_bytes / 1032 > bytes.size())
    throw_input_error(path, "truncated PNG data (" + std::to_string(bytes.size()) +
                                " bytes cannot hold a " + std::to_string(width) + " x " +
                                std::to_string(height) + " image)");
  const std::size_t row_bytes = png_get_rowbytes(guard.png, guard.info);
  const std::size_t bytes_per_sample = header.bit_depth / 8;
  if (row_bytes != width * header.channels * bytes_per_sample)
    throw_input_error(path, "unexpected PNG row layout");
  std::vector<png_byte> buffer(row_bytes * height);
  std::vector<png_bytep> rows(height);
  for (std::size_t y = 0; y < height; ++y) rows[y] = buffer.data() + y * row_bytes;
  if (!read_png_rows(guard.png, rows.data()))
    throw_input_error(path, std::string("invalid PNG data: ") + ctx.error.text);

  DecodedImage out;
  out.width = static_cast<int>(width);
  out.height = static_cast<int>(height);
  out.channels = header.channels;
  out.bit_depth = header.bit_depth;
  if (header.bit_depth == 8) {
    out.samples8 = std::move(buffer);
  } else {
    // PNG stores 16-bit samples big-endian.
    out.samples16.resize(buffer.size() / 2);
    for (std::size_t i = 0; i < out.samples16.size(); ++i)
      out.samples16[i] = static_cast<std::uint16_t>((buffer[2 * i] << 8) | buffer[2 * i + 1]);
  }
  if (header.file_color_type == PNG_COLOR_TYPE_PALETTE)
    out.notes.push_back("palette expanded to RGB");
  if (header.file_color_type == PNG_COLOR_TYPE_GRAY && header.file_bit_depth < 8)
    out.notes.push_back(std::to_string(header.file_bit_depth) + "-bit gray expanded to 0..255");
  return out;
}

DecodedImage decode_png(const std::string& path, const std::vector<std::uint8_t>& bytes) {
#ifdef MAD_HAVE_LIBDEFLATE
  if (std::optional<DecodedImage> direct = decode_png_direct(bytes)) return std::move(*direct);
#endif
  return decode_png_libpng(path, bytes);
}

}  // namespace mad::io_detail
