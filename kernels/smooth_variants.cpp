// The smoothing variant registry (STYLE rule 5), compiled in every build: the launch functions
// are defined in smooth_cuda.cu, and MAD_CUDA_LAUNCH leaves them out without CUDA.
#include "kernels/smooth.h"

namespace mad::kernels {

namespace smooth_detail {
template <bool kTile, bool kConstFilter>
void launch_per_pixel(ImageView<const std::uint8_t>, int, ImageView<std::uint8_t>, DeviceScratch,
                      StreamHandle);
template <bool kTile, int kBlockX, int kBlockY, int kRows>
void launch_shape(ImageView<const std::uint8_t>, int, ImageView<std::uint8_t>, DeviceScratch,
                  StreamHandle);
template <bool kWrap>
void launch_padded(ImageView<const std::uint8_t>, int, ImageView<std::uint8_t>, DeviceScratch,
                   StreamHandle);
template <int kStride>
void launch_tile_bank(ImageView<const std::uint8_t>, int, ImageView<std::uint8_t>, DeviceScratch,
                      StreamHandle);
void launch_wrap_direct(ImageView<const std::uint8_t>, int, ImageView<std::uint8_t>, DeviceScratch,
                        StreamHandle);
void launch_strip(ImageView<const std::uint8_t>, int, ImageView<std::uint8_t>, DeviceScratch,
                  StreamHandle);  // kernels/smooth_strip_cuda.cu
}  // namespace smooth_detail

const VariantRegistry<SmoothLaunch>& smooth_variants() {
  using namespace smooth_detail;
  static const VariantRegistry<SmoothLaunch> registry(
      "smooth",
      {
          {"global", "global memory only, clipped loops, filter in constant memory",
           "32x8 CTAs, one thread per output pixel (all its channels)",
           MAD_CUDA_LAUNCH(launch_per_pixel<false, true>)},
          {"global_gmem", "global memory only, filter in global memory",
           "32x8 CTAs, one thread per output pixel (all its channels)",
           MAD_CUDA_LAUNCH(launch_per_pixel<false, false>)},
          {"tile", "shared-memory tile with a 2-pixel halo, filter in constant memory",
           "32x8 CTAs, one thread per output pixel, 36x12-pixel tile in shared memory",
           MAD_CUDA_LAUNCH(launch_per_pixel<true, true>)},
          {"tile_gmem", "shared-memory tile with halo, filter in global memory",
           "32x8 CTAs, one thread per output pixel, 36x12-pixel tile in shared memory",
           MAD_CUDA_LAUNCH(launch_per_pixel<true, false>)},
          // Seed 000 §8: its 16x32 blocks (16 rows of 32; its 8x32 are our 32x8), Figure 26, and
          // P output pixels per thread down a column (Figures 27-28, Table 13's "15px (height)").
          {"global_32x16", "as global, 32x16 blocks (seed 000's adopted 16x32)",
           "32x16 CTAs, one thread per output pixel (all its channels)",
           MAD_CUDA_LAUNCH(launch_shape<false, 32, 16, 1>)},
          {"tile_32x16", "as tile, 32x16 blocks (seed 000's 16x32)",
           "32x16 CTAs, one thread per output pixel, 36x20-pixel tile in shared memory",
           MAD_CUDA_LAUNCH(launch_shape<true, 32, 16, 1>)},
          {"global_32x16_p2", "as global_32x16, 2 output pixels per thread down a column",
           "32x16 CTAs in ceil(H/32) block rows, 2 pixels per thread, rows a grid apart",
           MAD_CUDA_LAUNCH(launch_shape<false, 32, 16, 2>)},
          {"global_32x16_p4", "as global_32x16, 4 output pixels per thread down a column",
           "32x16 CTAs in ceil(H/64) block rows, 4 pixels per thread, rows a grid apart",
           MAD_CUDA_LAUNCH(launch_shape<false, 32, 16, 4>)},
          {"global_32x16_p8", "as global_32x16, 8 output pixels per thread down a column",
           "32x16 CTAs in ceil(H/128) block rows, 8 pixels per thread, rows a grid apart",
           MAD_CUDA_LAUNCH(launch_shape<false, 32, 16, 8>)},
          {"global_32x16_p15", "as global_32x16, 15 output pixels per thread down a column",
           "32x16 CTAs in ceil(H/240) block rows, 15 pixels per thread, rows a grid apart",
           MAD_CUDA_LAUNCH(launch_shape<false, 32, 16, 15>)},
          {"global_32x16_p16", "as global_32x16, 16 output pixels per thread down a column",
           "32x16 CTAs in ceil(H/256) block rows, 16 pixels per thread, rows a grid apart",
           MAD_CUDA_LAUNCH(launch_shape<false, 32, 16, 16>)},
          {"padded", "zero-padded copy, then 25 taps without edge checks (seed 003)",
           "2 kernels of 32x8 CTAs: one thread per padded sample, then per output pixel",
           MAD_CUDA_LAUNCH(launch_padded<false>)},
          {"tile_bank_conflict",
           "transposed 32-bit tile, column stride 32 words: 32-way bank conflicts (seed 003)",
           "32x8 CTAs, one thread per output pixel, one channel at a time, 36x32-word tile",
           MAD_CUDA_LAUNCH(launch_tile_bank<32>)},
          {"tile_bank_free",
           "transposed 32-bit tile, column stride 33 words: conflict-free (seed 003)",
           "32x8 CTAs, one thread per output pixel, one channel at a time, 36x33-word tile",
           MAD_CUDA_LAUNCH(launch_tile_bank<33>)},
          {"strip",
           "separable box5+box3+box1 sums, 32-bit words per lane, warp-shuffle halo, vertical "
           "sliding window in registers (issue 12)",
           "128-thread CTAs (4 warps along x, 512 samples), each lane 4 samples x 32 rows",
           MAD_CUDA_LAUNCH(launch_strip)},
      },
      "tile");
  return registry;
}

const VariantRegistry<SmoothLaunch>& smooth_wrap_variants() {
  using namespace smooth_detail;
  static const VariantRegistry<SmoothLaunch> registry(
      "smooth (wrap border)",
      {
          {"direct", "each tap's row and column taken mod the image size (seed 003)",
           "32x8 CTAs, one thread per output pixel (all its channels)",
           MAD_CUDA_LAUNCH(launch_wrap_direct)},
          {"padded", "wrap-padded copy, then 25 taps without edge checks (seed 003)",
           "2 kernels of 32x8 CTAs: one thread per padded sample, then per output pixel",
           MAD_CUDA_LAUNCH(launch_padded<true>)},
      },
      "padded");
  return registry;
}

const VariantRegistry<SmoothLaunch>& smooth_variants(SmoothBorder border) {
  return border == SmoothBorder::Wrap ? smooth_wrap_variants() : smooth_variants();
}

}  // namespace mad::kernels
