// The block statistics of all 20 subbands of one image (spec §4.4): what the appearance stage
// keeps per image. The reference side of a dataset can be computed once and compared with each
// of its distorted versions (spec §11, "dataset trick").
#pragma once

#include <cstddef>
#include <vector>

#include "appearance/log_gabor.h"
#include "common/block_grid.h"

namespace mad::appearance {

struct SubbandStats {
  BlockGrid grid;
  // kSubbands planes of grid.count() values each, plane subband_index(s, o); each plane is
  // grid.rows x grid.cols, row-major.
  std::vector<double> std, skew, kurt;

  SubbandStats() = default;
  explicit SubbandStats(const BlockGrid& g)
      : grid(g), std(plane_size() * kSubbands), skew(std.size()), kurt(std.size()) {}

  std::size_t plane_size() const { return grid.count(); }
  double* std_plane(int subband) { return std.data() + subband * plane_size(); }
  double* skew_plane(int subband) { return skew.data() + subband * plane_size(); }
  double* kurt_plane(int subband) { return kurt.data() + subband * plane_size(); }
  const double* std_plane(int subband) const { return std.data() + subband * plane_size(); }
  const double* skew_plane(int subband) const { return skew.data() + subband * plane_size(); }
  const double* kurt_plane(int subband) const { return kurt.data() + subband * plane_size(); }
};

}  // namespace mad::appearance
