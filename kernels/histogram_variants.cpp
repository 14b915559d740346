// The histogram variant registry (STYLE rule 5), compiled in every build: the launch functions
// are defined in histogram_cuda.cu, and MAD_CUDA_LAUNCH leaves them out without CUDA.
#include "kernels/histogram.h"

namespace mad::kernels {

namespace histogram_detail {
void launch_global_atomic(ImageView<const std::uint8_t>, std::uint32_t*, DeviceScratch,
                          StreamHandle);
void launch_shared_block(ImageView<const std::uint8_t>, std::uint32_t*, DeviceScratch,
                         StreamHandle);
template <bool kMatch>
void launch_shared_warp(ImageView<const std::uint8_t>, std::uint32_t*, DeviceScratch, StreamHandle);
void launch_cub(ImageView<const std::uint8_t>, std::uint32_t*, DeviceScratch, StreamHandle);
// kPixels = 0: the seed's fixed 60x45 grid.
template <bool kPerWarp, int kPixels>
void launch_flat(ImageView<const std::uint8_t>, std::uint32_t*, DeviceScratch, StreamHandle);
template <int kBx, int kBy>
void launch_shared_block_2d(ImageView<const std::uint8_t>, std::uint32_t*, DeviceScratch,
                            StreamHandle);
}  // namespace histogram_detail

const VariantRegistry<HistogramLaunch>& histogram_variants() {
  using namespace histogram_detail;
  static const VariantRegistry<HistogramLaunch> registry(
      "histogram",
      {
          {"global_atomic", "one pixel per thread, atomics on the global bins",
           "32x8 CTAs, one thread per pixel", MAD_CUDA_LAUNCH(launch_global_atomic)},
          {"shared_block", "per-block shared histogram merged into global",
           "256-thread 1-D CTAs (at most 8 per SM), grid-stride, 4 pixels per thread per step",
           MAD_CUDA_LAUNCH(launch_shared_block)},
          {"shared_warp", "per-warp privatized shared histograms",
           "256-thread 1-D CTAs (at most 8 per SM), grid-stride, 4 pixels per thread per step",
           MAD_CUDA_LAUNCH(launch_shared_warp<false>)},
          {"shared_warp_match",
           "per-warp shared histograms, equal values aggregated with __match_any_sync",
           "256-thread 1-D CTAs (at most 8 per SM), grid-stride, 4 pixels per thread per step",
           MAD_CUDA_LAUNCH(launch_shared_warp<true>)},
          {"cub", "cub::DeviceHistogram::HistogramEven (library anchor)",
           "CUB's own (an init kernel, then its tuned sweep)", MAD_CUDA_LAUNCH(launch_cub)},
          // Seed 000 §7's launch shapes (Figures 15 and 19-22, Table 7): flat pixels i, i + T,
          // ... (T: threads in the grid) into one shared histogram per block or per warp.
          {"shared_block_2d_32x8", "seed 000 2-D blocks: per-block shared histogram, 1 px/thread",
           "32x8 CTAs in a ceil(W/32) x ceil(H/8) grid, one thread per pixel",
           MAD_CUDA_LAUNCH(launch_shared_block_2d<32, 8>)},
          {"shared_block_p1", "per-block shared histogram, 1 flat pixel per thread",
           "256-thread 1-D CTAs, dynamic grid, ~1 flat pixel per thread",
           MAD_CUDA_LAUNCH(launch_flat<false, 1>)},
          {"shared_block_p2", "per-block shared histogram, 2 flat pixels per thread",
           "256-thread 1-D CTAs, dynamic grid, ~2 flat pixels per thread",
           MAD_CUDA_LAUNCH(launch_flat<false, 2>)},
          {"shared_block_p4", "per-block shared histogram, 4 flat pixels per thread",
           "256-thread 1-D CTAs, dynamic grid, ~4 flat pixels per thread",
           MAD_CUDA_LAUNCH(launch_flat<false, 4>)},
          {"shared_block_p8", "per-block shared histogram, 8 flat pixels per thread",
           "256-thread 1-D CTAs, dynamic grid, ~8 flat pixels per thread",
           MAD_CUDA_LAUNCH(launch_flat<false, 8>)},
          {"shared_block_p10", "per-block shared histogram, 10 flat pixels per thread",
           "256-thread 1-D CTAs, dynamic grid, ~10 flat pixels per thread",
           MAD_CUDA_LAUNCH(launch_flat<false, 10>)},
          {"shared_block_p16", "per-block shared histogram, 16 flat pixels per thread",
           "256-thread 1-D CTAs, dynamic grid, ~16 flat pixels per thread",
           MAD_CUDA_LAUNCH(launch_flat<false, 16>)},
          {"shared_block_p30", "per-block shared histogram, 30 flat pixels per thread",
           "256-thread 1-D CTAs, dynamic grid, ~30 flat pixels per thread",
           MAD_CUDA_LAUNCH(launch_flat<false, 30>)},
          {"shared_block_p32", "per-block shared histogram, 32 flat pixels per thread",
           "256-thread 1-D CTAs, dynamic grid, ~32 flat pixels per thread",
           MAD_CUDA_LAUNCH(launch_flat<false, 32>)},
          {"shared_block_fixed_60x45",
           "per-block shared histogram over seed 000's fixed 60x45 grid",
           "256-thread 1-D CTAs in a fixed 60x45 grid, grid-stride over every pixel",
           MAD_CUDA_LAUNCH(launch_flat<false, 0>)},
          {"shared_warp_p1", "per-warp shared histogram, 1 flat pixel per thread",
           "256-thread 1-D CTAs, dynamic grid, ~1 flat pixel per thread",
           MAD_CUDA_LAUNCH(launch_flat<true, 1>)},
          {"shared_warp_p2", "per-warp shared histogram, 2 flat pixels per thread",
           "256-thread 1-D CTAs, dynamic grid, ~2 flat pixels per thread",
           MAD_CUDA_LAUNCH(launch_flat<true, 2>)},
          {"shared_warp_p4", "per-warp shared histogram, 4 flat pixels per thread",
           "256-thread 1-D CTAs, dynamic grid, ~4 flat pixels per thread",
           MAD_CUDA_LAUNCH(launch_flat<true, 4>)},
          {"shared_warp_p8", "per-warp shared histogram, 8 flat pixels per thread",
           "256-thread 1-D CTAs, dynamic grid, ~8 flat pixels per thread",
           MAD_CUDA_LAUNCH(launch_flat<true, 8>)},
          {"shared_warp_p10", "per-warp shared histogram, 10 flat pixels per thread",
           "256-thread 1-D CTAs, dynamic grid, ~10 flat pixels per thread",
           MAD_CUDA_LAUNCH(launch_flat<true, 10>)},
          {"shared_warp_p16", "per-warp shared histogram, 16 flat pixels per thread",
           "256-thread 1-D CTAs, dynamic grid, ~16 flat pixels per thread",
           MAD_CUDA_LAUNCH(launch_flat<true, 16>)},
          {"shared_warp_p30", "per-warp shared histogram, 30 flat pixels per thread",
           "256-thread 1-D CTAs, dynamic grid, ~30 flat pixels per thread",
           MAD_CUDA_LAUNCH(launch_flat<true, 30>)},
          {"shared_warp_p32", "per-warp shared histogram, 32 flat pixels per thread",
           "256-thread 1-D CTAs, dynamic grid, ~32 flat pixels per thread",
           MAD_CUDA_LAUNCH(launch_flat<true, 32>)},
          {"shared_warp_fixed_60x45", "per-warp shared histogram over seed 000's fixed 60x45 grid",
           "256-thread 1-D CTAs in a fixed 60x45 grid, grid-stride over every pixel",
           MAD_CUDA_LAUNCH(launch_flat<true, 0>)},
      },
      "cub");
  return registry;
}

}  // namespace mad::kernels
