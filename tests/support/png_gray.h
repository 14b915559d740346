// A tiny 8-bit gray PNG reader for the tests, on libpng's simplified API. The product's image
// loader (common/image_io) is tested on its own; reference images are read without it.
#pragma once

#include <png.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/image.h"
#include "tests/support/test_support.h"

namespace mad::test {

// Reads an 8-bit gray PNG as raw values 0..255 in doubles. Anything else (colour, 16-bit,
// palette) is refused rather than converted, so a test never sees a silently altered image.
inline Image<double> read_gray8_png(const std::string& path) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str()))
    throw std::runtime_error("cannot read " + path + ": " + image.message);
  if (image.format != PNG_FORMAT_GRAY || (image.flags & PNG_IMAGE_FLAG_16BIT_sRGB) != 0) {
    png_image_free(&image);
    throw std::runtime_error(path + " is not an 8-bit gray PNG");
  }
  std::vector<png_byte> pixels(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr))
    throw std::runtime_error("cannot decode " + path + ": " + image.message);
  Image<double> out(static_cast<int>(image.width), static_cast<int>(image.height));
  for (int y = 0; y < out.height(); ++y)
    for (int x = 0; x < out.width(); ++x)
      out(y, x) = pixels[static_cast<std::size_t>(y) * image.width + x];
  return out;
}

// The reference photograph tests/data/reference/images/<file>.
inline Image<double> load_reference_image(const std::string& file) {
  return read_gray8_png(data_path("reference/images/" + file));
}

}  // namespace mad::test
