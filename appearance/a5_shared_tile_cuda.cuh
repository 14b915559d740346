// The thesis's shared-memory form of A5 (thesis Appendix C, Chapter 3 "Global memory access
// pattern", Tables 7-9), shared by its three registered forms, which differ only in a small
// policy: the shared layout and whether the inner loop is unrolled.
//   a5-shared-loop         nested loops over the window, smem[x][y]  (Table 9: 1.623 ms)
//   a5-shared-unrolled     inner loop of 16 unrolled, smem[x][y]     (Table 9: 0.928 ms)
//   a5-shared-unrolled-cf  the same, smem[y][x]: no bank conflicts   (Table 9: 0.758 ms)
//
// Strategy (Appendix C). A CTA of 16x16 threads loads a 32x32 tile of samples into shared
// memory, four samples per thread: thread (tx, ty) loads tile rows tx and tx + 16 of tile
// columns ty and ty + 16, where, as in the thesis, threadIdx.x / blockIdx.x walk image ROWS
// (global_idx = tx + 16 bx is the row of xVal[global_idx * N + global_idy]) and threadIdx.y /
// blockIdx.y walk columns; the lanes of a warp therefore load down a column (the thesis's
// strided, uncoalesced pattern, kept on purpose). After one barrier the 16 threads with
// tx % 4 == 0 and ty % 4 == 0 each compute block (4 bx + tx / 4, 4 by + ty / 4), whose window
// is tile rows tx..tx+15, columns ty..ty+15: 4x4 overlapping blocks reuse one tile. The other
// 240 threads only load.
//
// Shared layout. In the thesis the tile is stored either as smem[x][y] = [row][column] (Table
// 7: lanes, which differ in tx, store 32 words apart, all in one bank: 16-way conflicts, and
// the 4 computing lanes of a warp read one bank too) or as smem[y][x] = [column][row]
// (Appendix C: consecutive lanes, consecutive words, conflict-free). TileLayout selects one.
//
// Loops. The mean is summed as in the thesis: for each window row, the row's 16 samples
// (inner loop, or Table 8's unrolled 16-term sum, evaluated left to right into a row sum that
// is then added to the mean); the outer loop over the 16 rows stays a loop. The thesis stops
// at the mean; the all-statistics forms add the second pass (central sums S2, S3, S4 about that
// mean) with the same loop structure, in the accumulation order of every A5 variant.
//
// Generalised from the thesis, which assumes N = 512 exactly (a 32x32 grid of CTAs, row pitch
// N, input and output both N x N): any width and height >= 16, any pitch and subband count
// (blockIdx.z = subband), ceil(rows / 4) x ceil(cols / 4) CTAs. The thesis's tile loads read
// past the image for the last CTA row and column (global_idx + 16 >= N) and its guard
// (blockIdx != 31) then drops those CTAs' blocks, valid ones included; here loads outside the
// image store 0 into the tile (only windows of blocks that are not written can reach them:
// a valid block lies inside the image) and exactly the blocks of the grid are written.
// Launch shape: 16x16 threads, grid (ceil(rows/4), ceil(cols/4), subbands); 4 KB (float) or
// 8 KB (double) of shared memory.
#pragma once

#include "appearance/a5_device_cuda.cuh"
#include "common/kernel_launch.cuh"

namespace mad::appearance::detail {

constexpr int kTileThreads = 16;                          // CTA side (threads)
constexpr int kTileSide = 2 * kTileThreads;               // 32: the tile side (samples)
constexpr int kTileBlocks = kTileThreads / kBlockStride;  // 4 blocks per CTA side
static_assert(kBlockStride * (kTileBlocks - 1) + kBlockSize <= kTileSide,
              "a CTA's windows must lie inside its tile");

enum class TileLayout {
  kRowColumn,  // smem[row][column]: the thesis's smem[x][y], bank-conflicted
  kColumnRow,  // smem[column][row]: the thesis's smem[y][x], conflict-free
};
enum class TileLoop {
  kNested,    // inner loop over a window row's 16 samples kept a loop
  kUnrolled,  // inner loop unrolled (Table 8)
};

template <TileLayout L, TileLoop P>
struct TilePolicy {
  static constexpr TileLayout layout = L;
  static constexpr TileLoop loop = P;
};

// Tile sample (row r, column c) in the policy's layout.
template <TileLayout L, class Real>
__device__ __forceinline__ Real& tile_at(Real (&tile)[kTileSide][kTileSide], int r, int c) {
  if constexpr (L == TileLayout::kRowColumn)
    return tile[r][c];
  else
    return tile[c][r];
}

// Sum over one window row (16 samples from column c0 of tile row r), left to right: kept a
// loop (kNested), or the 16-term sum of Table 8 (kUnrolled). The nested form adds straight
// into `acc`, the unrolled one forms the row sum first, as the thesis's expression does.
template <class Policy, class Real>
__device__ __forceinline__ void add_window_row(Real (&tile)[kTileSide][kTileSide], int r, int c0,
                                               Real& acc) {
  if constexpr (Policy::loop == TileLoop::kNested) {
#pragma unroll 1
    for (int c = c0; c < c0 + kBlockSize; ++c) acc += tile_at<Policy::layout>(tile, r, c);
  } else {
    Real row = tile_at<Policy::layout>(tile, r, c0);
#pragma unroll
    for (int k = 1; k < kBlockSize; ++k) row += tile_at<Policy::layout>(tile, r, c0 + k);
    acc += row;
  }
}

// Central sums of one window row about `mean`, in the policy's loop form.
template <class Policy, class Real>
__device__ __forceinline__ void add_window_row_moments(Real (&tile)[kTileSide][kTileSide], int r,
                                                       int c0, Real mean, Real& s2, Real& s3,
                                                       Real& s4) {
  auto step = [&](int c) {
    const Real d = tile_at<Policy::layout>(tile, r, c) - mean;
    const Real d2 = d * d;
    s2 += d2;
    s3 = fma_rn(d2, d, s3);
    s4 = fma_rn(d2, d2, s4);
  };
  if constexpr (Policy::loop == TileLoop::kNested) {
#pragma unroll 1
    for (int c = c0; c < c0 + kBlockSize; ++c) step(c);
  } else {
#pragma unroll
    for (int k = 0; k < kBlockSize; ++k) step(c0 + k);
  }
}

// Output is A5Output (all statistics) or A5MeanOutput (the mean alone, the thesis's kernel).
template <class Policy, class Real, class Samples, class Output>
__global__ void __launch_bounds__(kTileThreads* kTileThreads)
    a5_shared_tile_kernel(A5Input<Real> in, Output out, int rows, int cols, int height, int width) {
  __shared__ Real tile[kTileSide][kTileSide];
  const int tx = threadIdx.x, ty = threadIdx.y, subband = blockIdx.z;
  const int y0 = blockIdx.x * kTileThreads, x0 = blockIdx.y * kTileThreads;  // tile origin

  // Appendix C's four loads per thread: (tx, ty), (tx, ty + 16), (tx + 16, ty), (tx + 16,
  // ty + 16) in (row, column), bounds-checked (see the banner).
  {
    const Samples samples = Samples::make(in, subband);
#pragma unroll
    for (int dr = 0; dr < kTileSide; dr += kTileThreads)
#pragma unroll
      for (int dc = 0; dc < kTileSide; dc += kTileThreads) {
        const int r = tx + dr, c = ty + dc;
        const int y = y0 + r, x = x0 + c;
        tile_at<Policy::layout>(tile, r, c) = (y < height && x < width) ? samples(y, x) : Real(0);
      }
  }
  __syncthreads();  // the only barrier: every thread reaches it; none waits after it

  if (tx % kBlockStride != 0 || ty % kBlockStride != 0) return;
  const int by = blockIdx.x * kTileBlocks + tx / kBlockStride;
  const int bx = blockIdx.y * kTileBlocks + ty / kBlockStride;
  if (by >= rows || bx >= cols) return;

  // Window: tile rows tx..tx+15, columns ty..ty+15. Outer loop over rows kept a loop.
  Real sum = 0;
#pragma unroll 1
  for (int r = tx; r < tx + kBlockSize; ++r) add_window_row<Policy>(tile, r, ty, sum);
  const Real mean = sum / Real(kBlockSamples);

  if constexpr (std::is_same_v<Output, A5MeanOutput<Real>>) {
    store_block_mean(out, subband, by, bx, mean);
  } else {
    Real s2 = 0, s3 = 0, s4 = 0;
#pragma unroll 1
    for (int r = tx; r < tx + kBlockSize; ++r)
      add_window_row_moments<Policy>(tile, r, ty, mean, s2, s3, s4);
    store_block_stats(out, subband, by, bx, s2, s3, s4);
  }
}

// The launch of one policy; `who` names the variant in error messages.
template <class Policy, class Real, class Output>
void launch_a5_shared_tile(const A5Input<Real>& in, const Output& out, const BlockGrid& grid,
                           cudaStream_t stream, const char* who) {
  launch_a5_thesis_variant(
      in, out, grid, who, kTileBlocks, kTileBlocks, [&](auto samples, dim3 cta_grid) {
        cuda::launch_kernel(a5_shared_tile_kernel<Policy, Real, decltype(samples), Output>,
                            cta_grid, dim3(kTileThreads, kTileThreads), 0, stream, in, out,
                            grid.rows, grid.cols, grid.image_height, grid.image_width);
      });
}

}  // namespace mad::appearance::detail
