// The fused gray+histogram variant registry (STYLE rule 5), compiled in every build: the
// launch functions are defined in gray_histogram_cuda.cu, and MAD_CUDA_LAUNCH leaves them out
// without CUDA. The default is the seed's adopted solution (seed 000 §7.3: per-warp shared
// histograms over a fixed grid, Table 7's "60x45").
#include "kernels/gray_histogram.h"

namespace mad::kernels {

namespace gray_histogram_detail {
// kPixels = 0: the seed's fixed 60x45 grid.
template <bool kPerWarp, int kPixels>
void launch_fused(const RgbView8&, GrayWeighting, ImageView<std::uint8_t>, std::uint32_t*,
                  StreamHandle);
}  // namespace gray_histogram_detail

const VariantRegistry<GrayHistogramLaunch>& gray_histogram_variants() {
  using namespace gray_histogram_detail;
  static const VariantRegistry<GrayHistogramLaunch> registry(
      "gray+histogram",
      {
          {"shared_block_p1", "fused; per-block shared histogram, 1 flat pixel per thread",
           "256-thread 1-D CTAs, dynamic grid, one thread per pixel",
           MAD_CUDA_LAUNCH(launch_fused<false, 1>)},
          {"shared_warp_p1", "fused; per-warp shared histograms, 1 flat pixel per thread",
           "256-thread 1-D CTAs, dynamic grid, one thread per pixel",
           MAD_CUDA_LAUNCH(launch_fused<true, 1>)},
          {"shared_block_p10", "fused; per-block shared histogram, 10 flat pixels per thread",
           "256-thread 1-D CTAs, dynamic grid, ~10 flat pixels per thread",
           MAD_CUDA_LAUNCH(launch_fused<false, 10>)},
          {"shared_warp_p10", "fused; per-warp shared histograms, 10 flat pixels per thread",
           "256-thread 1-D CTAs, dynamic grid, ~10 flat pixels per thread",
           MAD_CUDA_LAUNCH(launch_fused<true, 10>)},
          {"shared_block_p30", "fused; per-block shared histogram, 30 flat pixels per thread",
           "256-thread 1-D CTAs, dynamic grid, ~30 flat pixels per thread (Table 7's 30px)",
           MAD_CUDA_LAUNCH(launch_fused<false, 30>)},
          {"shared_warp_p30", "fused; per-warp shared histograms, 30 flat pixels per thread",
           "256-thread 1-D CTAs, dynamic grid, ~30 flat pixels per thread (Table 7's 30px)",
           MAD_CUDA_LAUNCH(launch_fused<true, 30>)},
          {"shared_block_fixed_60x45", "fused; per-block shared histogram, fixed 60x45 grid",
           "256-thread 1-D CTAs in a fixed 60x45 grid, grid-stride over every pixel",
           MAD_CUDA_LAUNCH(launch_fused<false, 0>)},
          {"shared_warp_fixed_60x45",
           "fused; per-warp shared histograms, fixed 60x45 grid (the seed's adopted solution)",
           "256-thread 1-D CTAs in a fixed 60x45 grid, grid-stride over every pixel",
           MAD_CUDA_LAUNCH(launch_fused<true, 0>)},
      },
      "shared_warp_fixed_60x45");
  return registry;
}

}  // namespace mad::kernels
