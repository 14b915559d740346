// Block means (appearance/block_means.h): the plain reference of the mean-only A5 forms; no
// shared column sums or SIMD lanes, since it serves only as the tests' yardstick.
#include "appearance/block_means.h"

#include "common/error.h"

namespace mad::appearance {

void subband_block_means_cpu(ImageView<const double> a, const BlockGrid& grid, double* mean,
                             std::ptrdiff_t pitch) {
  if (a.width != grid.image_width || a.height != grid.image_height)
    throw InvalidArgument("subband_block_means_cpu: image and grid differ in shape");
  if (grid.count() > 0 && pitch < grid.cols)
    throw InvalidArgument("subband_block_means_cpu: pitch shorter than a row");
  for (int by = 0; by < grid.rows; ++by)
    for (int bx = 0; bx < grid.cols; ++bx) {
      double sum = 0;
      for (int i = 0; i < kBlockSize; ++i) {
        const double* row = a.row(by * kBlockStride + i) + bx * kBlockStride;
        for (int j = 0; j < kBlockSize; ++j) sum += row[j];
      }
      mean[by * pitch + bx] = sum / (kBlockSize * kBlockSize);
    }
}

}  // namespace mad::appearance
