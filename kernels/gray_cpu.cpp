// CPU reference for gray/darken and the RgbView8 helpers (see kernels/gray.h).
#include <string>

#include "common/error.h"
#include "common/image_io.h"
#include "common/parallel.h"
#include "kernels/gray.h"
#include "kernels/gray_formula.h"

namespace mad::kernels {

std::size_t RgbView8::extent_bytes() const {
  if (width <= 0 || height <= 0) return 0;
  const std::size_t rows = static_cast<std::size_t>(pitch) * (height - 1);
  if (layout == RgbLayout::Interleaved) return rows + static_cast<std::size_t>(width) * channels;
  return static_cast<std::size_t>(2 * plane_stride) + rows + width;
}

void validate_rgb(const RgbView8& rgb) {
  if (rgb.width <= 0 || rgb.height <= 0)
    throw InputError("gray: the image is empty (" + std::to_string(rgb.width) + "x" +
                     std::to_string(rgb.height) + ")");
  if (rgb.data == nullptr) throw InvalidArgument("gray: image data is null");
  if (rgb.layout == RgbLayout::Interleaved) {
    if (rgb.channels != 3 && rgb.channels != 4)
      throw InputError("gray needs an RGB (3-channel) or RGBA (4-channel) image, got " +
                       std::to_string(rgb.channels) + " channel(s)");
    if (rgb.pitch < static_cast<std::ptrdiff_t>(rgb.width) * rgb.channels)
      throw InvalidArgument("gray: row pitch is smaller than a row");
  } else {
    if (rgb.channels != 3) throw InvalidArgument("gray: planar images have exactly 3 planes");
    if (rgb.pitch < rgb.width) throw InvalidArgument("gray: plane pitch is smaller than a row");
    if (rgb.plane_stride < rgb.pitch * (rgb.height - 1) + rgb.width)
      throw InvalidArgument("gray: planes overlap (plane stride smaller than a plane)");
  }
}

RgbView8 interleaved_rgb(ImageView<const std::uint8_t> samples, int channels) {
  if (channels != 3 && channels != 4)
    throw InputError("gray needs an RGB (3-channel) or RGBA (4-channel) image, got " +
                     std::to_string(channels) + " channel(s)");
  if (samples.width % channels != 0)
    throw InvalidArgument("gray: a row of " + std::to_string(samples.width) +
                          " samples is not a whole number of " + std::to_string(channels) +
                          "-channel pixels");
  RgbView8 v;
  v.data = samples.data;
  v.width = samples.width / channels;
  v.height = samples.height;
  v.pitch = samples.pitch;
  v.layout = RgbLayout::Interleaved;
  v.channels = channels;
  validate_rgb(v);
  return v;
}

RgbView8 planar_rgb(const std::uint8_t* planes, int width, int height, std::ptrdiff_t pitch,
                    std::ptrdiff_t plane_stride) {
  RgbView8 v;
  v.data = planes;
  v.width = width;
  v.height = height;
  v.pitch = pitch;
  v.layout = RgbLayout::Planar;
  v.channels = 3;
  v.plane_stride = plane_stride;
  validate_rgb(v);
  return v;
}

void gray_cpu(const RgbView8& rgb, GrayWeighting weighting, ImageView<std::uint8_t> out) {
  validate_rgb(rgb);
  if (out.width != rgb.width || out.height != rgb.height)
    throw InvalidArgument("gray: output size differs from the input size");
  parallel_for(rgb.height, [&](int y) {
    std::uint8_t* dst = out.row(y);
    for (int x = 0; x < rgb.width; ++x) {
      const std::uint8_t r = rgb.sample(y, x, 0), g = rgb.sample(y, x, 1), b = rgb.sample(y, x, 2);
      // The MATLAB weighting is #2's conversion itself, so both stay bit-identical by
      // construction; the kernels' fixed-point form is proved equal to it by a test.
      dst[x] = weighting == GrayWeighting::Matlab ? rgb_to_gray_matlab(r, g, b)
                                                  : gray_darken_exact(r, g, b);
    }
  });
}

Image<std::uint8_t> gray_cpu(const RgbView8& rgb, GrayWeighting weighting) {
  validate_rgb(rgb);
  Image<std::uint8_t> out(rgb.width, rgb.height);
  gray_cpu(rgb, weighting, out.view());
  return out;
}

}  // namespace mad::kernels
