// libFuzzer target: common/image_io_detail.h's BMP and binary PGM/PPM decoder (stb_image behind
// mad's own header and size checks), then the gray conversion. As in load_gray_image, the
// decoder is only reached for bytes whose magic names BMP ("BM") or PNM ("P5"/"P6" +
// whitespace); other inputs are skipped. Any bytes must give an image or an InputError, and a
// BMP that decodes must hold its pixel rows (an image made of missing data would be scored as
// if it were real). Seeds: tests/fuzz/corpus/stb/ (tests/fuzz/make_seeds.cpp).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/error.h"
#include "common/image_io_detail.h"
#include "tests/fuzz/image_decode_check.h"

namespace {

// Bytes an uncompressed BMP needs (BITMAPFILEHEADER offset + padded rows), from the header as
// the BMP specification lays it out; 0 when the header is too short to say.
std::size_t bmp_required_bytes(const std::vector<std::uint8_t>& b, int height) {
  auto u16 = [&](std::size_t o) { return static_cast<std::size_t>(b[o] | (b[o + 1] << 8)); };
  auto u32 = [&](std::size_t o) { return u16(o) | (u16(o + 2) << 16); };
  if (b.size() < 30) return 0;
  const std::size_t offset = u32(10), dib = u32(14);
  const std::size_t width = dib == 12 ? u16(18) : u32(18);
  const std::size_t bpp = dib == 12 ? u16(24) : u16(28);
  const std::size_t stride = (width * bpp + 31) / 32 * 4;
  return offset + stride * static_cast<std::size_t>(height);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using mad::io_detail::FileFormat;
  const std::vector<std::uint8_t> bytes(data, data + size);
  const FileFormat format = mad::io_detail::sniff_format(bytes);
  if (format != FileFormat::kBmp && format != FileFormat::kPnm) return 0;
  mad::io_detail::DecodedImage decoded;
  try {
    decoded = mad::io_detail::decode_stb("fuzz.img", bytes, format);
  } catch (const mad::InputError&) {
    return 0;
  }
  if (format == FileFormat::kBmp)
    mad::fuzz::require(bytes.size() >= bmp_required_bytes(bytes, decoded.height),
                       "a decoded BMP holds all of its pixel rows");
  mad::fuzz::check_decoded_and_convert(std::move(decoded));
  return 0;
}
