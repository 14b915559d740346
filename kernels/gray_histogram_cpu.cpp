// CPU reference of the fused gray+histogram (kernels/gray_histogram.h): the two references
// in turn.
#include "kernels/gray_histogram.h"

namespace mad::kernels {

Histogram gray_histogram_cpu(const RgbView8& rgb, GrayWeighting weighting,
                             ImageView<std::uint8_t> gray) {
  gray_cpu(rgb, weighting, gray);
  return histogram_cpu(gray);
}

}  // namespace mad::kernels
