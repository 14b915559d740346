#include "detection/luminance.h"

#include <array>
#include <cmath>

#include "common/error.h"
#include "common/parallel.h"

namespace mad::detection {
namespace {

// The original builds k*v^(2.2/3) for v = 0..255 and indexes it; the same pow gives the same
// values, so a table is only a speed-up for integer-valued input.
const std::array<double, 256>& luminance_table() {
  static const std::array<double, 256> table = [] {
    std::array<double, 256> t{};
    for (int v = 0; v < 256; ++v)
      t[v] = kLuminanceScale * std::pow(static_cast<double>(v), kLuminanceExponent);
    return t;
  }();
  return table;
}

}  // namespace

double luminance_value(double raw, bool uint8_luminance) {
  const double j =
      (uint8_luminance && raw > kUint8LuminanceMaxIndex) ? kUint8LuminanceMaxIndex : raw;
  if (j >= 0.0 && j <= 255.0 && j == std::floor(j)) return luminance_table()[static_cast<int>(j)];
  return kLuminanceScale * std::pow(j, kLuminanceExponent);
}

void luminance_cpu(ImageView<const double> in, bool uint8_luminance, ImageView<double> out) {
  if (in.width != out.width || in.height != out.height)
    throw InvalidArgument("luminance_cpu: input and output shapes differ");
  parallel_for(in.height, [&](int y) {
    const double* src = in.row(y);
    double* dst = out.row(y);
    for (int x = 0; x < in.width; ++x) dst[x] = luminance_value(src[x], uint8_luminance);
  });
}

}  // namespace mad::detection
