// Block statistics of one subband magnitude image (spec §4.4, the original's ical_stat; the
// "A5" reference every GPU variant is checked against).
//
// For each 16x16 block of the §3.4 grid (top-left corners on multiples of 4, block inside the
// image), with m the block mean and S_k = sum (a - m)^k (two-pass: mean first):
//   std  = sqrt(S2 / 255)                       (unbiased)
//   skew = (S3 / 256) / sigma_b^3,  kurt = (S4 / 256) / sigma_b^4,  sigma_b = sqrt(S2 / 256)
//   (Pearson kurtosis; skew = kurt = 0 when sigma_b == 0 exactly).
#pragma once

#include "common/block_grid.h"
#include "common/image.h"

namespace mad::appearance {

// Fills std, skew and kurt (each grid.rows x grid.cols, row-major). `a` may have any pitch and
// must match grid's shape; images smaller than 16 in a dimension have an empty grid and
// nothing is written. Deterministic: the same input gives the same bits on any machine path
// (SSE2 or AVX2 clone) and thread count. Runs on the calling thread.
void subband_block_stats_cpu(ImageView<const double> a, const BlockGrid& grid, double* std,
                             double* skew, double* kurt);

}  // namespace mad::appearance
