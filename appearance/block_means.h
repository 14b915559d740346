// Block means of one subband (spec §4.4's first pass, the quantity the thesis timed in Table 9):
// the CPU reference of the mean-only A5 forms (a5_mean_variants(), appearance/a5_variants.h).
#pragma once

#include <cstddef>

#include "common/block_grid.h"
#include "common/image.h"

namespace mad::appearance {

// mean[by * pitch + bx] = (sum of the 256 samples of block (by, bx)) / 256, the samples summed
// one at a time in row-major order (plain recursive summation in double). `a` may have any
// pitch and must match grid's shape; pitch >= grid.cols. An image smaller than 16 in a
// dimension has an empty grid: nothing is written. Runs on the calling thread.
void subband_block_means_cpu(ImageView<const double> a, const BlockGrid& grid, double* mean,
                             std::ptrdiff_t pitch);

}  // namespace mad::appearance
