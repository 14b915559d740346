// ClipFormat's sizes and names, and the raw formats by ffmpeg's pixel format names.
#include <string>
#include <vector>

#include "common/clip_reader.h"
#include "common/error.h"

namespace mad {
namespace {

constexpr ChromaSubsampling kChromas[] = {ChromaSubsampling::k420, ChromaSubsampling::k422,
                                          ChromaSubsampling::k444, ChromaSubsampling::kMono};
constexpr int kDepths[] = {8, 10, 12, 16};

// Samples of one chroma plane. Odd sizes round up, as ffmpeg lays planes out
// (AV_CEIL_RSHIFT): a 4:2:0 frame of 5x3 has chroma planes of 3x2.
std::size_t chroma_samples(const ClipFormat& f) {
  const std::size_t w = static_cast<std::size_t>(f.width), h = static_cast<std::size_t>(f.height);
  switch (f.chroma) {
    case ChromaSubsampling::k420: return ((w + 1) / 2) * ((h + 1) / 2);
    case ChromaSubsampling::k422: return ((w + 1) / 2) * h;
    case ChromaSubsampling::k444: return w * h;
    case ChromaSubsampling::kMono: return 0;
  }
  return 0;
}

std::size_t sample_bytes(const ClipFormat& f) {
  return f.bit_depth > 8 ? 2 : 1;
}

}  // namespace

std::size_t ClipFormat::luma_bytes() const {
  return static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * sample_bytes(*this);
}

std::size_t ClipFormat::frame_bytes() const {
  return luma_bytes() + 2 * chroma_samples(*this) * sample_bytes(*this);
}

std::string ClipFormat::pixel_format() const {
  std::string name;
  switch (chroma) {
    case ChromaSubsampling::k420: name = "yuv420p"; break;
    case ChromaSubsampling::k422: name = "yuv422p"; break;
    case ChromaSubsampling::k444: name = "yuv444p"; break;
    case ChromaSubsampling::kMono: name = "gray"; break;
  }
  if (bit_depth > 8) name += std::to_string(bit_depth) + "le";
  return name;
}

double ClipFormat::fps() const {
  return fps_num > 0 && fps_den > 0 ? static_cast<double>(fps_num) / fps_den : 0.0;
}

ClipFormat raw_clip_format(const std::string& pixel_format, int width, int height) {
  if (width <= 0 || height <= 0)
    throw InvalidArgument("a raw clip needs a positive --width and --height (got " +
                          std::to_string(width) + "x" + std::to_string(height) + ")");
  std::string accepted;
  for (ChromaSubsampling chroma : kChromas)
    for (int depth : kDepths) {
      ClipFormat f;
      f.width = width;
      f.height = height;
      f.chroma = chroma;
      f.bit_depth = depth;
      if (f.pixel_format() == pixel_format) return f;
      accepted += (accepted.empty() ? "" : " ") + f.pixel_format();
    }
  throw InvalidArgument("unsupported --pixel-format '" + pixel_format +
                        "' for a raw clip; accepted (planar, little-endian): " + accepted);
}

}  // namespace mad
