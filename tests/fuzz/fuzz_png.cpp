// libFuzzer target: common/image_io_detail.h's PNG decoder on raw bytes, then the gray
// conversion: the path load_gray_image takes once the magic bytes name this format. Any bytes
// must give an image or an InputError. The decoder tries the direct reader first (8-bit
// non-interlaced files, png_direct_read.cpp, when built with libdeflate) and otherwise libpng
// (every colour type, bit depth, palette, interlacing); wherever the direct reader accepts a
// file, libpng must accept it too and return the same samples. Seeds: tests/fuzz/corpus/png/
// (tests/fuzz/make_seeds.cpp).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/error.h"
#include "common/image_io_detail.h"
#include "tests/fuzz/image_decode_check.h"

namespace {

// The direct reader against libpng on the same bytes (differential).
void check_direct_reader_agrees(const std::uint8_t* data, std::size_t size) {
#ifdef MAD_HAVE_LIBDEFLATE
  using namespace mad;
  const std::vector<std::uint8_t> bytes(data, data + size);
  const auto direct = io_detail::decode_png_direct(bytes);
  if (!direct) return;  // declined: libpng alone decides, which the main check covers
  io_detail::DecodedImage reference;
  try {
    reference = io_detail::decode_png_libpng("fuzz.png", bytes);
  } catch (const InputError&) {
    fuzz::require(false, "libpng refuses a file the direct PNG reader accepted");
  }
  fuzz::require(direct->width == reference.width && direct->height == reference.height &&
                    direct->channels == reference.channels &&
                    direct->bit_depth == reference.bit_depth,
                "the direct PNG reader and libpng agree on the header");
  fuzz::require(direct->samples8 == reference.samples8 && direct->samples16.empty(),
                "the direct PNG reader and libpng agree on every sample");
#else
  (void)data;
  (void)size;
#endif
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  check_direct_reader_agrees(data, size);
  return mad::fuzz::decode_check_and_convert(mad::io_detail::decode_png, "fuzz.png", data, size);
}
