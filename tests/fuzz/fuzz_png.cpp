// libFuzzer target: common/image_io_detail.h's PNG decoder (libpng: every colour type, bit depth,
// palette, interlacing) on raw bytes, then the gray conversion:
// the path load_gray_image takes once the magic bytes name this format. Any bytes must give
// an image or an InputError. Seeds: tests/fuzz/corpus/png/ (tests/fuzz/make_seeds.cpp).
#include <cstddef>
#include <cstdint>

#include "common/image_io_detail.h"
#include "tests/fuzz/image_decode_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return mad::fuzz::decode_check_and_convert(mad::io_detail::decode_png, "fuzz.png", data, size);
}
