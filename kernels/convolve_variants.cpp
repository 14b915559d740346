// The convolution variant registry (STYLE rule 5), compiled in every build: the launch functions
// are defined in convolve_cuda.cu, and MAD_CUDA_LAUNCH leaves them out without CUDA. Every row
// takes the block shape as a launch argument; the row fixes where the filter lives and whether
// the input is staged in shared memory.
#include "kernels/convolve.h"

namespace mad::kernels {

namespace convolve_detail {
template <class T, bool kTile, bool kConstFilter>
void launch(ImageView<const T>, ImageView<T>, const DeviceFilter&, BlockShape, StreamHandle);
template <class T>  // kernels/convolve_regblock_cuda.cu
void launch_regblock(ImageView<const T>, ImageView<T>, const DeviceFilter&, BlockShape,
                     StreamHandle);
}  // namespace convolve_detail

const VariantRegistry<ConvolveLaunch>& convolve_variants() {
  using convolve_detail::launch;
  using convolve_detail::launch_regblock;
  using u8 = std::uint8_t;
  static const VariantRegistry<ConvolveLaunch> registry(
      "convolve",
      {
          {"global_cmem",
           "input from global memory, clipped tap loops, filter in constant memory (the seed's "
           "'constant')",
           "2-D CTAs of the given block shape (default 32x16), one thread per output element",
           MAD_CUDA_LAUNCH({launch<float, false, true>, launch<u8, false, true>})},
          {"global_gmem",
           "input from global memory, clipped tap loops, filter in global memory (the seed's "
           "'global')",
           "2-D CTAs of the given block shape (default 32x16), one thread per output element",
           MAD_CUDA_LAUNCH({launch<float, false, false>, launch<u8, false, false>})},
          {"tile_cmem",
           "shared-memory tile with an (N-1)/2 halo of zeros outside the image, filter in "
           "constant memory",
           "2-D CTAs of the given block shape, one thread per output element, "
           "(bx+N-1)x(by+N-1) tile in dynamic shared memory",
           MAD_CUDA_LAUNCH({launch<float, true, true>, launch<u8, true, true>})},
          {"tile_gmem", "shared-memory tile with halo, filter in global memory",
           "2-D CTAs of the given block shape, one thread per output element, "
           "(bx+N-1)x(by+N-1) tile in dynamic shared memory",
           MAD_CUDA_LAUNCH({launch<float, true, false>, launch<u8, true, false>})},
          {"regblock",
           "shared-memory tile read once and filter in shared memory, 4x4 outputs per thread in "
           "registers (issue 12)",
           "fixed 32x8 CTAs (the block shape is checked, not used), 128x32 outputs per CTA, "
           "filter side a template parameter",
           MAD_CUDA_LAUNCH({launch_regblock<float>, launch_regblock<u8>})},
      },
      "global_cmem");
  return registry;
}

}  // namespace mad::kernels
