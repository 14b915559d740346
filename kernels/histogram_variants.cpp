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
      },
      "cub");
  return registry;
}

}  // namespace mad::kernels
