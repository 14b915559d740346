// The rocket pair (333 rows x 257 columns, JPEG q30) whose intermediate maps the original
// dumped (tests/data/reference/maps), plus helpers to compare block-grid arrays with them.
#pragma once

#include <string>
#include <vector>

#include "common/block_grid.h"
#include "common/image.h"
#include "tests/support/png_gray.h"
#include "tests/support/test_support.h"

namespace mad::test {

struct RocketPair {
  Image<double> ref, dst;
};

inline const RocketPair& rocket_pair() {
  static const RocketPair pair{load_reference_image("rocket_333x257.png"),
                               load_reference_image("rocket_333x257__jpeg_q30.png")};
  return pair;
}

// A block-grid array written to its tiles, as the original's full-size maps.
inline Image<double> tiles_of(const std::vector<double>& blocks, const BlockGrid& grid) {
  Image<double> out(grid.image_width, grid.image_height);
  expand_tiles(blocks.data(), grid.cols, grid, out.view());
  return out;
}

}  // namespace mad::test
