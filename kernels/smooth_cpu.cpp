// CPU reference of the 5x5 triangular smoothing (kernels/smooth.h): the direct clipped sum,
// with the weight sum accumulated tap by tap (not the closed form the kernels use).
#include <algorithm>
#include <string>

#include "common/error.h"
#include "common/parallel.h"
#include "kernels/smooth.h"

namespace mad::kernels {

void validate_smooth_input(ImageView<const std::uint8_t> samples, int channels) {
  if (channels < 1 || channels > 4)
    throw InputError("smooth needs an image with 1 to 4 channels, got " + std::to_string(channels));
  if (samples.empty() || samples.data == nullptr)
    throw InputError("smooth: the image is empty (" + std::to_string(samples.width / channels) +
                     "x" + std::to_string(samples.height) + ")");
  if (samples.width % channels != 0)
    throw InvalidArgument("smooth: a row of " + std::to_string(samples.width) +
                          " samples is not a whole number of " + std::to_string(channels) +
                          "-channel pixels");
}

void validate_smooth_output(ImageView<const std::uint8_t> src, int channels,
                            ImageView<std::uint8_t> dst) {
  validate_smooth_input(src, channels);
  if (dst.width != src.width || dst.height != src.height)
    throw InvalidArgument("smooth: output size differs from the input size");
}

namespace {

// The Clip rule: taps outside the image are dropped and W is summed tap by tap.
void smooth_clip_cpu(ImageView<const std::uint8_t> src, int channels, ImageView<std::uint8_t> dst) {
  const int width = src.width / channels, height = src.height;
  parallel_for(height, [&](int y) {
    const int dy0 = std::max(-kSmoothRadius, -y), dy1 = std::min(kSmoothRadius, height - 1 - y);
    for (int x = 0; x < width; ++x) {
      const int dx0 = std::max(-kSmoothRadius, -x), dx1 = std::min(kSmoothRadius, width - 1 - x);
      for (int c = 0; c < channels; ++c) {
        int sum = 0, weights = 0;
        for (int dy = dy0; dy <= dy1; ++dy)
          for (int dx = dx0; dx <= dx1; ++dx) {
            const int w = smooth_weight(dy, dx);
            sum += w * src(y + dy, (x + dx) * channels + c);
            weights += w;
          }
        dst(y, x * channels + c) = smooth_round(sum, weights);
      }
    }
  });
}

// The Wrap rule, the torus: every tap is inside after the modulo, so all 25 weights count
// (W = 35).
void smooth_wrap_cpu(ImageView<const std::uint8_t> src, int channels, ImageView<std::uint8_t> dst) {
  const int width = src.width / channels, height = src.height;
  parallel_for(height, [&](int y) {
    for (int x = 0; x < width; ++x)
      for (int c = 0; c < channels; ++c) {
        int sum = 0;
        for (int dy = -kSmoothRadius; dy <= kSmoothRadius; ++dy)
          for (int dx = -kSmoothRadius; dx <= kSmoothRadius; ++dx)
            sum += smooth_weight(dy, dx) * src(smooth_wrap_index(y + dy, height),
                                               smooth_wrap_index(x + dx, width) * channels + c);
        dst(y, x * channels + c) = smooth_round(sum, kSmoothWeightSum);
      }
  });
}

}  // namespace

const char* smooth_border_name(SmoothBorder border) {
  return border == SmoothBorder::Wrap ? "wrap" : "clip";
}

SmoothBorder parse_smooth_border(const std::string& name) {
  for (SmoothBorder b : {SmoothBorder::Clip, SmoothBorder::Wrap})
    if (name == smooth_border_name(b)) return b;
  throw InvalidArgument("unknown border '" + name + "' (expected clip or wrap)");
}

void smooth_cpu(ImageView<const std::uint8_t> src, int channels, ImageView<std::uint8_t> dst,
                SmoothBorder border) {
  validate_smooth_output(src, channels, dst);
  if (border == SmoothBorder::Wrap)
    smooth_wrap_cpu(src, channels, dst);
  else
    smooth_clip_cpu(src, channels, dst);
}

Image<std::uint8_t> smooth_cpu(ImageView<const std::uint8_t> src, int channels,
                               SmoothBorder border) {
  return smooth_image(src, channels,
                      [&](ImageView<std::uint8_t> dst) { smooth_cpu(src, channels, dst, border); });
}

}  // namespace mad::kernels
