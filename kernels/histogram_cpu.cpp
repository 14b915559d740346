// CPU reference of the 256-bin histogram (kernels/histogram.h).
#include <limits>
#include <string>

#include "common/error.h"
#include "kernels/histogram.h"

namespace mad::kernels {

void validate_histogram_input(ImageView<const std::uint8_t> gray) {
  if (gray.empty() || gray.data == nullptr)
    throw InputError("histogram: the image is empty (" + std::to_string(gray.width) + "x" +
                     std::to_string(gray.height) + ")");
  if (gray.pixel_count() > std::numeric_limits<std::uint32_t>::max())
    throw InputError("histogram: " + std::to_string(gray.pixel_count()) +
                     " pixels overflow the 32-bit bins");
}

Histogram histogram_cpu(ImageView<const std::uint8_t> gray) {
  validate_histogram_input(gray);
  Histogram h{};
  for (int y = 0; y < gray.height; ++y) {
    const std::uint8_t* row = gray.row(y);
    for (int x = 0; x < gray.width; ++x) ++h[row[x]];
  }
  return h;
}

}  // namespace mad::kernels
