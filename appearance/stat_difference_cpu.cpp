// Statistical difference map and pooling (spec §4.5, §4.6).
#include "appearance/stat_difference.h"

#include <cmath>

#include "common/error.h"

namespace mad::appearance {

void stat_difference_cpu(const SubbandStats& ref, const SubbandStats& dst, double* eta) {
  const BlockGrid& g = ref.grid;
  if (g.image_width != dst.grid.image_width || g.image_height != dst.grid.image_height)
    throw InvalidArgument("stat_difference_cpu: the two images' grids differ");
  const std::size_t n = g.count();
  for (std::size_t b = 0; b < n; ++b) eta[b] = 0.0;
  // The original adds full-size tile maps, mp = mp + w_s * (...), scale-outer then
  // orientation-inner. Adding per block in the same order gives the same value on every tile
  // (and 0 + 0 off the tiles).
  for (int s = 0; s < kScales; ++s) {
    const double w = kScaleWeights[s];
    for (int o = 0; o < kOrientations; ++o) {
      const int k = subband_index(s, o);
      const double *sr = ref.std_plane(k), *sd = dst.std_plane(k);
      const double *kr = ref.skew_plane(k), *kd = dst.skew_plane(k);
      const double *ur = ref.kurt_plane(k), *ud = dst.kurt_plane(k);
      for (std::size_t b = 0; b < n; ++b)
        eta[b] += w * (std::fabs(sr[b] - sd[b]) + kSkewWeight * std::fabs(kr[b] - kd[b]) +
                       std::fabs(ur[b] - ud[b]));
    }
  }
}

double pool_appearance_cpu(const double* eta, const BlockGrid& grid, Image<double>* map) {
  Image<double> local;
  Image<double>& out = map ? *map : local;
  out = Image<double>(grid.image_width, grid.image_height);
  return pool_appearance_cpu(eta, grid, out.view());
}

double pool_appearance_cpu(const double* eta, const BlockGrid& grid, ImageView<double> plane) {
  if (plane.width != grid.image_width || plane.height != grid.image_height)
    throw InvalidArgument("pool_appearance_cpu: the plane's shape differs from the grid's");
  expand_tiles(eta, grid.cols, grid, plane);
  if (grid.image_width < kMinImageSide || grid.image_height < kMinImageSide)
    return std::nan("");  // empty crop: 0/0 in the original
  return pool_rms_crop(plane);
}

}  // namespace mad::appearance
