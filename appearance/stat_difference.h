// Per-tile statistical difference and pooling of the appearance stage (spec §4.5, §4.6).
//
// eta_lo(b) = sum_s sum_o w_s * (|std_r - std_d| + 2 |skew_r - skew_d| + |kurt_r - kurt_d|),
// accumulated with scale as the outer and orientation as the inner loop (the original's order),
// then written to 4x4 tiles (map.LO) and pooled by RMS over the crop: d_appear.
#pragma once

#include "appearance/log_gabor.h"
#include "appearance/subband_stats.h"
#include "common/block_grid.h"
#include "common/image.h"

namespace mad::appearance {

// w = [0.5, 0.75, 1, 5, 6] / 13.25, indexed by scale, finest (lambda = 3) first.
constexpr double kScaleWeights[kScales] = {0.5 / 13.25, 0.75 / 13.25, 1.0 / 13.25, 5.0 / 13.25,
                                           6.0 / 13.25};
// Weight of the skewness term relative to std and kurtosis.
constexpr double kSkewWeight = 2.0;

// eta_lo per block (grid.rows x grid.cols, row-major) from the two images' statistics, which
// must share one grid. Single-threaded; the order of additions is fixed.
void stat_difference_cpu(const SubbandStats& ref, const SubbandStats& dst, double* eta);

// Expands eta (per block) to its tiles and pools it (§4.6). Writes map.LO to *map when map is
// non-null (it is resized to the grid's image shape). Returns d_appear; NaN when the image is
// smaller than 34x34 (empty crop), as in the original.
double pool_appearance_cpu(const double* eta, const BlockGrid& grid, Image<double>* map);
// The same into the caller's image-sized plane (every pixel written), which then holds map.LO.
double pool_appearance_cpu(const double* eta, const BlockGrid& grid, ImageView<double> plane);

}  // namespace mad::appearance
