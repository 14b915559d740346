// A5 variants "a5-shared-loop", "a5-shared-unrolled" and "a5-shared-unrolled-cf" (both
// registries): the thesis's shared-memory form (Appendix C) in the three versions Table 9
// timed, which differ only in the tile's layout and whether the inner loop is unrolled
// (a5_shared_tile_cuda.cuh: strategy, launch shape and what is generalised). K40 figures of
// Table 9, the mean of one 512x512 float subband:
//   kColumnRow kUnrolled
//   false      false      a5-shared-loop         smem[x][y], nested loops       1.623392 ms
//   false      true       a5-shared-unrolled     smem[x][y], 16 terms unrolled  0.928031 ms
//   true       true       a5-shared-unrolled-cf  smem[y][x]: conflict-free      0.757984 ms
#include "appearance/a5_shared_tile_cuda.cuh"

namespace mad::appearance {

namespace {

constexpr const char* shared_tile_form_name(bool column_row, bool unrolled) {
  if (column_row) return "a5-shared-unrolled-cf";
  return unrolled ? "a5-shared-unrolled" : "a5-shared-loop";
}

}  // namespace

template <bool kColumnRow, bool kUnrolled, class Real, class Output>
void launch_a5_shared_tile_form(const A5Input<Real>& in, const Output& out, const BlockGrid& grid,
                                cudaStream_t stream) {
  using Policy =
      detail::TilePolicy<kColumnRow ? detail::TileLayout::kColumnRow
                                    : detail::TileLayout::kRowColumn,
                         kUnrolled ? detail::TileLoop::kUnrolled : detail::TileLoop::kNested>;
  detail::launch_a5_shared_tile<Policy>(in, out, grid, stream,
                                        shared_tile_form_name(kColumnRow, kUnrolled));
}

MAD_A5_INSTANTIATE_STATS_AND_MEAN(launch_a5_shared_tile_form, false, false, );
MAD_A5_INSTANTIATE_STATS_AND_MEAN(launch_a5_shared_tile_form, false, true, );
MAD_A5_INSTANTIATE_STATS_AND_MEAN(launch_a5_shared_tile_form, true, true, );

}  // namespace mad::appearance
