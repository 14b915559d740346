// A tiny 8-bit gray PNG reader for the detection tests, on libpng's simplified API. It refuses
// anything but 8-bit gray files, so a reference image can never be silently converted (the
// product's loader, common/image_io, is tested on its own).
#pragma once

#include <png.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/image.h"

namespace mad::test {

inline Image<double> load_png_gray8(const std::string& path) {
  png_image img{};
  img.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&img, path.c_str()))
    throw std::runtime_error("cannot read PNG " + path + ": " + img.message);
  if (img.format != PNG_FORMAT_GRAY) {  // 16-bit files report a LINEAR format
    png_image_free(&img);
    throw std::runtime_error("not an 8-bit gray PNG: " + path);
  }
  std::vector<std::uint8_t> buf(PNG_IMAGE_SIZE(img));
  if (!png_image_finish_read(&img, nullptr, buf.data(), 0, nullptr))
    throw std::runtime_error("cannot decode PNG " + path + ": " + img.message);
  const int w = static_cast<int>(img.width), h = static_cast<int>(img.height);
  Image<double> out(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) out(y, x) = buf[static_cast<std::size_t>(y) * w + x];
  return out;
}

}  // namespace mad::test
