#include "common/luma_frame.h"

#include <utility>

namespace mad {

Image<double> luma_values(const LumaFrame& frame) {
  Image<double> out(frame.width, frame.height);
  const std::size_t n = frame.pixels();
  double* dst = out.data();
  for (std::size_t i = 0; i < n; ++i) dst[i] = frame.value(i);
  return out;
}

SourceImage to_source_image(LumaFrame&& frame) {
  SourceImage source;
  source.gray.bit_depth = frame.bit_depth;
  source.gray.source_channels = 1;
  if (frame.bit_depth <= 8) {
    source.gray8_width = frame.width;
    source.gray8_height = frame.height;
    source.gray.gray8 = std::move(frame.samples8);
  } else {
    source.gray.pixels = luma_values(frame);
    frame.samples16 = {};
  }
  return source;
}

}  // namespace mad
