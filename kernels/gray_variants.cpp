// The gray/darken variant registry (STYLE rule 5), compiled in every build: the launch
// functions are defined in gray_cuda.cu, and MAD_CUDA_LAUNCH leaves them out without CUDA.
// Launch shapes: kThreads = 256 in gray_cuda.cu.
#include "kernels/gray.h"

namespace mad::kernels {

namespace gray_detail {
void launch_pixel_1d(const RgbView8&, GrayWeighting, ImageView<std::uint8_t>, StreamHandle);
template <int kBx, int kBy>
void launch_pixel_2d(const RgbView8&, GrayWeighting, ImageView<std::uint8_t>, StreamHandle);
template <int kPixels>
void launch_grid_stride(const RgbView8&, GrayWeighting, ImageView<std::uint8_t>, StreamHandle);
void launch_grid_stride_fixed(const RgbView8&, GrayWeighting, ImageView<std::uint8_t>,
                              StreamHandle);
void launch_m4(const RgbView8&, GrayWeighting, ImageView<std::uint8_t>, StreamHandle);
template <int kVec>
void launch_vector(const RgbView8&, GrayWeighting, ImageView<std::uint8_t>, StreamHandle);
}  // namespace gray_detail

const VariantRegistry<GrayLaunch>& gray_variants() {
  using namespace gray_detail;
  static const VariantRegistry<GrayLaunch> registry(
      "gray",
      {
          {"pixel_1d", "one pixel per thread, 1-D blocks of 256",
           "256-thread 1-D CTAs, one thread per pixel", MAD_CUDA_LAUNCH(launch_pixel_1d)},
          {"pixel_2d_32x8", "one pixel per thread, 2-D blocks of 32x8",
           "32x8 CTAs, one thread per pixel", MAD_CUDA_LAUNCH(launch_pixel_2d<32, 8>)},
          {"pixel_2d_32x16", "one pixel per thread, 2-D blocks of 32x16",
           "32x16 CTAs, one thread per pixel", MAD_CUDA_LAUNCH(launch_pixel_2d<32, 16>)},
          {"grid_stride_p1", "grid-stride loop, grid sized for 1 pixel per thread",
           "256-thread 1-D CTAs, grid-stride, ~1 pixel per thread",
           MAD_CUDA_LAUNCH(launch_grid_stride<1>)},
          {"grid_stride_p2", "grid-stride loop, 2 pixels per thread",
           "256-thread 1-D CTAs, grid-stride, ~2 pixels per thread",
           MAD_CUDA_LAUNCH(launch_grid_stride<2>)},
          {"grid_stride_p4", "grid-stride loop, 4 pixels per thread",
           "256-thread 1-D CTAs, grid-stride, ~4 pixels per thread",
           MAD_CUDA_LAUNCH(launch_grid_stride<4>)},
          {"grid_stride_p8", "grid-stride loop, 8 pixels per thread",
           "256-thread 1-D CTAs, grid-stride, ~8 pixels per thread",
           MAD_CUDA_LAUNCH(launch_grid_stride<8>)},
          {"grid_stride_p10", "grid-stride loop, 10 pixels per thread (seed 000's best, Table 2)",
           "256-thread 1-D CTAs, grid-stride, ~10 pixels per thread",
           MAD_CUDA_LAUNCH(launch_grid_stride<10>)},
          {"grid_stride_p16", "grid-stride loop, 16 pixels per thread",
           "256-thread 1-D CTAs, grid-stride, ~16 pixels per thread",
           MAD_CUDA_LAUNCH(launch_grid_stride<16>)},
          {"grid_stride_p32", "grid-stride loop, 32 pixels per thread",
           "256-thread 1-D CTAs, grid-stride, ~32 pixels per thread",
           MAD_CUDA_LAUNCH(launch_grid_stride<32>)},
          {"grid_stride_fixed", "grid-stride loop over a fixed grid of 4 blocks per SM",
           "256-thread 1-D CTAs, 4 per SM, grid-stride over every pixel",
           MAD_CUDA_LAUNCH(launch_grid_stride_fixed)},
          // Seed 000's grid configurations (§4): M2 is pixel_1d and M3 is pixel_2d_32x8.
          {"m1", "seed 000 M1: 256x1 blocks, one grid row per image row, idle threads at the right",
           "256x1 CTAs in a ceil(W/256) x H grid, one thread per pixel",
           MAD_CUDA_LAUNCH(launch_pixel_2d<256, 1>)},
          {"m4", "seed 000 M4: M3's 32x8 blocks and grid, threads consecutive over all pixels",
           "32x8 CTAs in a ceil(W/32) x ceil(H/8) grid, thread i takes flat pixel i",
           MAD_CUDA_LAUNCH(launch_m4)},
          {"vector4", "4 pixels per thread, 32-bit loads/stores (scalar on unaligned rows)",
           "256-thread 1-D CTAs, one thread per 4 pixels of a row",
           MAD_CUDA_LAUNCH(launch_vector<4>)},
          {"vector16", "16 pixels per thread, 128-bit loads/stores (scalar on unaligned rows)",
           "256-thread 1-D CTAs, one thread per 16 pixels of a row",
           MAD_CUDA_LAUNCH(launch_vector<16>)},
      },
      "vector4");
  return registry;
}

}  // namespace mad::kernels
