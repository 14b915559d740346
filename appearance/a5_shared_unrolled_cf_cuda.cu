// A5 variant "a5-shared-unrolled-cf" (both registries): the thesis's shared-memory form (Appendix
// C) with the inner loop of 16 unrolled, samples stored smem[y][x] = [column][row] as in Appendix
// C: conflict-free. Table 9: 0.757984 ms for the mean of one 512x512 float subband on a K40.
// Strategy, launch shape and what is generalised: appearance/a5_shared_tile_cuda.cuh.
#include "appearance/a5_shared_tile_cuda.cuh"

namespace mad::appearance {

template <class Real, class Output>
void launch_a5_shared_unrolled_cf(const A5Input<Real>& in, const Output& out, const BlockGrid& grid,
                                  cudaStream_t stream) {
  using Policy = detail::TilePolicy<detail::TileLayout::kColumnRow, detail::TileLoop::kUnrolled>;
  detail::launch_a5_shared_tile<Policy>(in, out, grid, stream, "a5-shared-unrolled-cf");
}

MAD_A5_INSTANTIATE_STATS_AND_MEAN(launch_a5_shared_unrolled_cf);

}  // namespace mad::appearance
