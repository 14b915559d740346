// The checks the image fuzz targets apply to a decoder's output: the invariants that
// common/image_io.cpp's decode_file() and to_gray() rely on, then the gray conversion itself.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "common/image_io_detail.h"
#include "tests/fuzz/fuzz_support.h"

namespace mad::fuzz {

// `decoded` came back from a codec without an exception: its header must pass check_header's
// limits, exactly one sample vector of the announced size must be filled, and the gray plane
// must hold finite values on 0..255.
inline void check_decoded_and_convert(io_detail::DecodedImage&& decoded) {
  require(decoded.width > 0 && decoded.height > 0, "decoded image has a positive size");
  const std::size_t pixels = static_cast<std::size_t>(decoded.width) * decoded.height;
  require(pixels <= io_detail::kMaxPixels, "decoded image is within kMaxPixels");
  require(decoded.channels >= 1 && decoded.channels <= 4, "decoded channels in 1..4");
  const std::size_t samples = pixels * static_cast<std::size_t>(decoded.channels);
  if (decoded.bit_depth == 8) {
    require(decoded.samples8.size() == samples && decoded.samples16.empty(),
            "8-bit decode fills samples8 with width*height*channels values");
  } else {
    require(decoded.bit_depth == 16, "decoded bit depth is 8 or 16");
    require(decoded.samples16.size() == samples && decoded.samples8.empty(),
            "16-bit decode fills samples16 with width*height*channels values");
  }
  const int width = decoded.width, height = decoded.height;
  const GrayImage gray = io_detail::to_gray(std::move(decoded));
  require(gray.pixels.width() == width && gray.pixels.height() == height,
          "gray plane has the decoded size");
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const double v = gray.pixels(y, x);
      require(std::isfinite(v) && v >= 0.0 && v <= 255.0, "gray values lie in 0..255");
    }
}

// The whole body of a single-format decoder target: `data` through `decode` (one of
// io_detail's decode_png/decode_jpeg/decode_tiff), an InputError being the expected refusal of
// corrupt data, anything decoded then checked and converted. Always returns 0 (libFuzzer).
using DecodeFunction = io_detail::DecodedImage (*)(const std::string& path,
                                                   const std::vector<std::uint8_t>& bytes);
inline int decode_check_and_convert(DecodeFunction decode, const std::string& path,
                                    const std::uint8_t* data, std::size_t size) {
  const std::vector<std::uint8_t> bytes(data, data + size);
  io_detail::DecodedImage decoded;
  try {
    decoded = decode(path, bytes);
  } catch (const InputError&) {
    return 0;  // rejected with a message: the expected outcome for corrupt data
  }
  check_decoded_and_convert(std::move(decoded));
  return 0;
}

}  // namespace mad::fuzz
