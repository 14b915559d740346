// Every variant registry table of the preprocessing kernels (STYLE rule 5), in one file compiled
// in every build: the launch functions are defined in the families' *_cuda.cu files, and
// MAD_CUDA_LAUNCH leaves them out without CUDA. One file, because the tables are one concept
// (what `--variant`, `--list-variants`, the tests and `mad bench` enumerate) and read best side
// by side; a new variant is its .cu file plus one row here.
#include "kernels/convolve.h"
#include "kernels/gray.h"
#include "kernels/gray_histogram.h"
#include "kernels/histogram.h"
#include "kernels/nick.h"
#include "kernels/smooth.h"

namespace mad::kernels {

// ---- gray/darken (gray_cuda.cu; kThreads = 256 there), shared by both weightings.

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

// ---- histogram (histogram_cuda.cu, histogram_lane_private_cuda.cu).

namespace histogram_detail {
void launch_global_atomic(ImageView<const std::uint8_t>, std::uint32_t*, DeviceScratch,
                          StreamHandle);
void launch_shared_block(ImageView<const std::uint8_t>, std::uint32_t*, DeviceScratch,
                         StreamHandle);
template <bool kMatch>
void launch_shared_warp(ImageView<const std::uint8_t>, std::uint32_t*, DeviceScratch, StreamHandle);
void launch_cub(ImageView<const std::uint8_t>, std::uint32_t*, DeviceScratch, StreamHandle);
void launch_lane_private(ImageView<const std::uint8_t>, std::uint32_t*, DeviceScratch,
                         StreamHandle);
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
          {"lane_private",
           "32 lane-private shared sub-histograms per CTA (bank = lane: conflict-free on any "
           "image), pipelined uint4 loads, equal 16-byte runs counted with one atomic",
           "aligned rows: 1024-thread CTAs, 1 per SM, a band of rows each, 64 pixels per thread "
           "per step; else 256-thread CTAs, 4 per SM, grid-stride over rows, 32 pixels per step",
           MAD_CUDA_LAUNCH(launch_lane_private)},
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

// ---- fused gray+histogram (gray_histogram_cuda.cu). The default is the seed's adopted solution
// (seed 000 §7.3: per-warp shared histograms over a fixed grid, Table 7's "60x45").

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

// ---- 5x5 smoothing, Clip and Wrap borders (smooth_cuda.cu).

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
           "separable box5+box3+box1 sums on packed 16-bit pairs, vertical sliding window in "
           "registers; 16-byte aligned rows staged per warp in shared memory by cp.async, 8 "
           "samples per lane, one-FMA rounding, an unrolled loop away from the borders (else "
           "32-bit words, warp-shuffle halo) (issue 12)",
           "128-thread CTAs (4 warps along x, 1024 samples), each lane 8 samples x 8 rows (32 "
           "rows in the word form), a ring of 8 rows per warp",
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

// ---- Nick (nick_window_cuda.cu, nick_integral_cuda.cu, nick_sliding_cuda.cu,
// nick_warp_scan_cuda.cu).

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
// One pass, O(1) per pixel: per-column sliding sums down row strips, row prefix in shared memory.
void launch_sliding(ImageView<const std::uint8_t>, const NickParams&, ImageView<std::uint8_t>,
                    DeviceScratch, StreamHandle);
// One pass, O(1) per pixel: each warp alone; vertical sums in registers, a warp-shuffle row
// prefix stored in the warp's shared row, from which both ends of each window are read.
void launch_warp_scan(ImageView<const std::uint8_t>, const NickParams&, ImageView<std::uint8_t>,
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
          {"sliding_columns",
           "one pass, O(1) per pixel: per-column sliding sums of p and p^2 down 16-row strips, "
           "window sums as row-prefix differences in shared memory, float pre-decision",
           "64-thread CTAs (at least 12 per SM), 16 columns per thread (uint4 rows), a "
           "~900-column tile x 16-row strip per CTA",
           MAD_CUDA_LAUNCH(launch_sliding)},
          {"warp_scan",
           "one pass, O(1) per pixel: per-column sums down 16-row strips in registers (entering "
           "rows through a cp.async ring), a warp shuffle scan for the row prefix, no block "
           "barrier, float pre-decision without a square root",
           "128-thread CTAs (5 per SM) of 4 independent warps on consecutive strips, 16 columns "
           "per lane, a 512-column span x 16-row strip per warp",
           MAD_CUDA_LAUNCH(launch_warp_scan)},
      },
      // The fastest, and exact like every variant (issue 12: 22x integral at 8192x8192).
      "warp_scan");
  return registry;
}

// ---- odd NxN convolution (convolve_cuda.cu). Every row
// takes the block shape as a launch argument; the row fixes where the filter lives and whether
// the input is staged in shared memory.

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
