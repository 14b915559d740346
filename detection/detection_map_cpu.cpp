#include "detection/detection_map.h"

#include "common/error.h"
#include "common/parallel.h"

namespace mad::detection {

void detection_map_cpu(const BlockGrid& grid, const double* mask_blocks,
                       ImageView<const double> lmse, ImageView<double> map) {
  if (lmse.width != grid.image_width || lmse.height != grid.image_height ||
      map.width != lmse.width || map.height != lmse.height)
    throw InvalidArgument("detection_map_cpu: shapes differ");
  parallel_for(map.height, [&](int y) {
    const int by = y / kBlockStride;
    const double* l = lmse.row(y);
    double* o = map.row(y);
    for (int x = 0; x < map.width; ++x) {
      const int bx = x / kBlockStride;
      // Outside the tiles the original's ξ is 0 (through 0/0 = NaN failing every comparison).
      const double xi = (by < grid.rows && bx < grid.cols)
                            ? mask_blocks[static_cast<std::size_t>(by) * grid.cols + bx]
                            : 0.0;
      o[x] = xi * l[x];
    }
  });
}

double pool_detection_cpu(ImageView<const double> map) {
  return pool_rms_crop(map);
}

}  // namespace mad::detection
