// Error image and block statistics of the detection stage (spec §3.3-§3.5; the original's
// `ical_std(E, L'_ref)`).
//
// All per-block arrays live on the BLOCK GRID: grid.rows x grid.cols, row-major, one value per
// 16x16 block whose top-left corner is (4·i, 4·j). mad::expand_tiles turns them into the
// original's full-size tile maps.
#pragma once

#include <vector>

#include "common/block_grid.h"
#include "common/image.h"

namespace mad::detection {

constexpr int kMinStdWindow = 8;  // side of the windows of the modified reference std
constexpr int kMinStdProbe = 5;   // the original probes its tile buffer at +5 ...
// ... which lands on the next grid point (+4) when that probe row/column p+5 still lies on a
// valid block position (p+5 <= n-16). Near the bottom/right edges the candidate is dropped.
constexpr bool min_std_next_available(int p, int n) {
  return p + kMinStdProbe <= n - kBlockSize;
}

struct DetectionBlockStats {
  BlockGrid grid;
  std::vector<double> mean_ref;     // μ: mean of L'_ref over the block (÷256)
  std::vector<double> std_err;      // σ_err: unbiased std of E over the block (÷255)
  std::vector<double> std_min_ref;  // σ_mod: min of the available 8x8 stds at {0,4}x{0,4}
};

// E = L'_dst - L'_ref (spec §3.3). All three views have the same shape.
void error_image_cpu(ImageView<const double> csf_ref, ImageView<const double> csf_dst,
                     ImageView<double> error);

// s8 at every grid point: the unbiased std (÷63) of the 8x8 window whose top-left corner is
// (4·i, 4·j). grid.rows x grid.cols, row-major.
std::vector<double> window8_std_cpu(ImageView<const double> image, const BlockGrid& grid);
// The same into the caller's vector (fitted here to grid.count()).
void window8_std_cpu(ImageView<const double> image, const BlockGrid& grid, std::vector<double>& s8);

// σ_mod of block (i, j) from the grid of 8x8 stds (spec §3.5 edge availability rule).
double min_std_of_block(const std::vector<double>& s8, const BlockGrid& grid, int i, int j);

// μ, σ_err and σ_mod for every block of the grid of `csf_ref`'s shape. Images smaller than
// 16 in either side give an empty grid. Parallel over block rows; thread-count independent.
DetectionBlockStats detection_block_stats_cpu(ImageView<const double> csf_ref,
                                              ImageView<const double> error);
// The same into the caller's statistics and 8x8-std grid (kept across pairs by the detection
// workspace; fitted here to the shape, every element written).
void detection_block_stats_cpu(ImageView<const double> csf_ref, ImageView<const double> error,
                               DetectionBlockStats& out, std::vector<double>& s8);

}  // namespace mad::detection
