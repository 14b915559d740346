// A5 variant "a5-shared-loop" (both registries): the thesis's shared-memory form (Appendix C)
// with the nested loops over the window, samples stored smem[x][y] = [row][column] as in Table 7
// (the layout the thesis had until it resolved the bank conflicts, after unrolling). Table
// 9: 1.623392 ms for the mean of one 512x512 float subband on a K40. Strategy, launch shape and
// what is generalised: appearance/a5_shared_tile_cuda.cuh.
#include "appearance/a5_shared_tile_cuda.cuh"

namespace mad::appearance {

template <class Real, class Output>
void launch_a5_shared_loop(const A5Input<Real>& in, const Output& out, const BlockGrid& grid,
                           cudaStream_t stream) {
  using Policy = detail::TilePolicy<detail::TileLayout::kRowColumn, detail::TileLoop::kNested>;
  detail::launch_a5_shared_tile<Policy>(in, out, grid, stream, "a5-shared-loop");
}

MAD_A5_INSTANTIATE_STATS_AND_MEAN(launch_a5_shared_loop);

}  // namespace mad::appearance
