// Visibility-weighted map and pooling of the detection stage (spec §3.8).
//
// map.HI = η(y,x) = ξ(tile of (y,x)) · D_loc(y,x); pixels outside every tile have ξ = 0.
// d_detect = RMS of η over the crop rows/cols 16..n-18 (mad::pool_rms_crop), April-2010
// scaling: the 2011 factor of 200 is applied by the combination step, not here.
#pragma once

#include "common/block_grid.h"
#include "common/image.h"

namespace mad::detection {

// η from per-block ξ (grid.rows x grid.cols, row-major) and the full-size local MSE.
// `map` has the image's shape. Parallel over rows; thread-count independent.
void detection_map_cpu(const BlockGrid& grid, const double* mask_blocks,
                       ImageView<const double> lmse, ImageView<double> map);

// d_detect (unscaled) of a full-size map.HI.
double pool_detection_cpu(ImageView<const double> map);

}  // namespace mad::detection
