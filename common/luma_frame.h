// One video frame's luma plane as a clip reader delivers it (common/clip_reader.h), and its
// values on MAD's 0..255 scale. Only luma is scored, as ST-MAD and vmaf do (docs/video.md).
//
//  * 8-bit samples are MAD's 0..255 values as they are;
//  * samples of more than 8 bits (10, 12, 16) are scaled to 0..255 without rounding:
//    value = sample * 255 / (2^bit_depth - 1), the product exact in double and then one
//    correctly rounded division, so every reader and backend gets the same doubles.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/image.h"
#include "common/image_io.h"

namespace mad {

struct LumaFrame {
  int width = 0, height = 0;
  int bit_depth = 8;                     // 8 .. 16
  std::vector<std::uint8_t> samples8;    // bit_depth 8: width*height, row-major
  std::vector<std::uint16_t> samples16;  // bit_depth above 8: width*height, row-major

  std::size_t pixels() const {
    return static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  }
  // Sample i (row-major) on the 0..255 scale, by the rule above.
  double value(std::size_t i) const {
    if (bit_depth <= 8) return samples8[i];
    return static_cast<double>(samples16[i]) * 255.0 /
           static_cast<double>((1u << bit_depth) - 1u);
  }
};

// The frame as a double plane on the 0..255 scale (value() of every sample).
Image<double> luma_values(const LumaFrame& frame);

// The frame as the scorers take an image (mad/batch_scorer.h): an 8-bit frame as the uint8
// plane alone (SourceImage::gray8_only: the GPU uploads one byte a pixel), a deeper one as its
// double plane with its bit depth. The frame's samples are moved out.
SourceImage to_source_image(LumaFrame&& frame);

}  // namespace mad
