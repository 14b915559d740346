// The Nick variant registry (STYLE rule 5), compiled in every build: the launch functions are
// defined in nick_window_cuda.cu and nick_integral_cuda.cu, and MAD_CUDA_LAUNCH leaves them out
// without CUDA.
#include "kernels/nick.h"

namespace mad::kernels {

namespace nick_detail {
// Method 1: window read from global memory, B x B blocks.
template <int B>
void launch_global(ImageView<const std::uint8_t>, const NickParams&, ImageView<std::uint8_t>,
                   DeviceScratch, StreamHandle);
// Method 2 (kTiles 1): the block's own tile in shared memory; method 3 (kTiles 3): the tile and
// its 8 neighbours. B x B blocks.
template <int B, int kTiles>
void launch_shared(ImageView<const std::uint8_t>, const NickParams&, ImageView<std::uint8_t>,
                   DeviceScratch, StreamHandle);
// O(1) per pixel from uint64 integral images of p and p^2.
void launch_integral(ImageView<const std::uint8_t>, const NickParams&, ImageView<std::uint8_t>,
                     DeviceScratch, StreamHandle);

}  // namespace nick_detail

const VariantRegistry<NickLaunch>& nick_variants() {
  using namespace nick_detail;
  static const VariantRegistry<NickLaunch> registry(
      "nick",
      {
          {"method1_16x16", "method 1: window from global memory, 16x16 blocks",
           "16x16 CTAs, one thread per pixel, O(w^2) global reads",
           MAD_CUDA_LAUNCH(launch_global<16>)},
          {"method1_32x32", "method 1: window from global memory, 32x32 blocks",
           "32x32 CTAs, one thread per pixel, O(w^2) global reads",
           MAD_CUDA_LAUNCH(launch_global<32>)},
          {"method2_16x16", "method 2: block tile in shared memory, 16x16 blocks",
           "16x16 CTAs, one thread per pixel, 16x16-pixel tile in shared memory",
           MAD_CUDA_LAUNCH(launch_shared<16, 1>)},
          {"method2_32x32", "method 2: block tile in shared memory, 32x32 blocks",
           "32x32 CTAs, one thread per pixel, 32x32-pixel tile in shared memory",
           MAD_CUDA_LAUNCH(launch_shared<32, 1>)},
          {"method3_16x16", "method 3: tile and its 8 neighbours in shared memory, 16x16",
           "16x16 CTAs, one thread per pixel, 48x48-pixel region in shared memory",
           MAD_CUDA_LAUNCH(launch_shared<16, 3>)},
          {"method3_32x32", "method 3: tile and its 8 neighbours in shared memory, 32x32",
           "32x32 CTAs, one thread per pixel, 96x96-pixel region in shared memory",
           MAD_CUDA_LAUNCH(launch_shared<32, 3>)},
          {"integral", "O(1) per pixel from exact uint64 integral images of p and p^2",
           "3 kernels: a 256-thread CTA per row (scan), a thread per column (scan), 32x8 CTAs "
           "with a thread per pixel (threshold)",
           MAD_CUDA_LAUNCH(launch_integral)},
      },
      "integral");
  return registry;
}

}  // namespace mad::kernels
