// "det-fast": block statistics combined from 4x4 tile moments.
//
// Every 16x16 block and every 8x8 window of the detection stage is a union of whole 4x4 tiles
// of the stride-4 grid (a block: 4x4 tiles; an 8x8 window at a grid point: 2x2 tiles). So each
// pixel is read ONCE per group into per-tile (sum, centred sum of squares), and a block's
// statistics are combined from its tiles with the pairwise-update formula
//   M2 = Σ_t M2_t + Σ_t n_t·(mean_t - mean)²,
// which sums only non-negative terms (no raw-moment cancellation, spec §11), instead of
// visiting 256 + 4·2·64 samples per block.
//
// Launch shape: 2-D, GX x GY threads, one thread per grid block of a GX x GY group; the
// group's (GY+3) x (GX+3) tiles are computed cooperatively into shared memory (the halo of 3
// tiles is recomputed by neighbouring groups: larger groups waste less, smaller ones spread a
// small grid over more SMs; both shapes are registered). Results differ from the two-pass
// variants only by rounding (a few ulps of the data scale).
#include "common/block_grid.h"
#include "common/cuda_check.h"
#include "common/kernel_launch.cuh"
#include "detection/detection_device.cuh"
#include "detection/block_stats_cuda.h"

namespace mad::detection::gpu {
namespace {

constexpr int kTilesPerBlock = kBlockSize / kBlockStride;  // 4 tiles across a block
constexpr int kTilePixels = kBlockStride * kBlockStride;   // 16

// Tiles a group of GX x GY grid blocks covers, per row / column.
template <int G>
constexpr int tiles_across() {
  return G + kTilesPerBlock - 1;
}

// Tile moments of the group: sum and centred sum of squares of each 4x4 tile. Tiles that do not
// fit in the image are zero; no valid block reads them (block (r,c) reads tiles r..r+3 and the
// last one, r = rows-1, ends at pixel 4·rows+11 <= n-1).
template <int GX, int GY, class Real, class Pixels>
__device__ void tile_moments(const Pixels& px, int width, int height, Real* t_sum, Real* t_m2) {
  constexpr int kTilesW = tiles_across<GX>(), kTilesH = tiles_across<GY>();
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  for (int i = tid; i < kTilesW * kTilesH; i += GX * GY) {
    const int ty = blockIdx.y * GY + i / kTilesW, tx = blockIdx.x * GX + i % kTilesW;
    const int y0 = ty * kBlockStride, x0 = tx * kBlockStride;
    Real sum = 0, m2 = 0;
    if (y0 + kBlockStride <= height && x0 + kBlockStride <= width) {
      Real v[kTilePixels];
#pragma unroll
      for (int k = 0; k < kTilePixels; ++k) v[k] = px(y0 + k / kBlockStride, x0 + k % kBlockStride);
#pragma unroll
      for (int k = 0; k < kTilePixels; ++k) sum += v[k];
      const Real mean = sum / static_cast<Real>(kTilePixels);
#pragma unroll
      for (int k = 0; k < kTilePixels; ++k) {
        const Real d = v[k] - mean;
        m2 += d * d;
      }
    }
    t_sum[i] = sum;
    t_m2[i] = m2;
  }
}

// Mean and centred sum of squares of the side x side tiles at local tile (ty, tx) of a tile
// array kTilesW wide.
template <int kTilesW, class Real>
__device__ inline void combine_tiles(const Real* t_sum, const Real* t_m2, int ty, int tx, int side,
                                     Real& mean, Real& m2) {
  Real sum = 0;
  for (int a = 0; a < side; ++a)
    for (int b = 0; b < side; ++b) sum += t_sum[(ty + a) * kTilesW + tx + b];
  mean = sum / static_cast<Real>(side * side * kTilePixels);
  Real within = 0, between = 0;
  for (int a = 0; a < side; ++a)
    for (int b = 0; b < side; ++b) {
      const int i = (ty + a) * kTilesW + tx + b;
      within += t_m2[i];
      const Real d = t_sum[i] / static_cast<Real>(kTilePixels) - mean;
      between += d * d;
    }
  m2 = within + static_cast<Real>(kTilePixels) * between;
}

template <int kTilesW, class Real>
__device__ inline Real tiles_std(const Real* t_sum, const Real* t_m2, int ty, int tx, int side) {
  Real mean, m2;
  combine_tiles<kTilesW>(t_sum, t_m2, ty, tx, side, mean, m2);
  return unbiased_std(m2, side * side * kTilePixels);
}

template <class Real, int GX, int GY>
__global__ void block_stats_fast_reference_kernel(const Real* __restrict__ csf_ref, int width,
                                                  int height, int grid_rows, int grid_cols,
                                                  Real* __restrict__ mean_ref,
                                                  Real* __restrict__ std_min_ref) {
  constexpr int kTilesW = tiles_across<GX>(), kTilesH = tiles_across<GY>();
  __shared__ Real t_sum[kTilesW * kTilesH];
  __shared__ Real t_m2[kTilesW * kTilesH];
  tile_moments<GX, GY>(GlobalPixels<Real>{csf_ref, width}, width, height, t_sum, t_m2);
  __syncthreads();
  const int r = blockIdx.y * GY + threadIdx.y, c = blockIdx.x * GX + threadIdx.x;
  if (r >= grid_rows || c >= grid_cols) return;
  const int ty = threadIdx.y, tx = threadIdx.x;
  const long long b = static_cast<long long>(r) * grid_cols + c;
  Real mean, m2;
  combine_tiles<kTilesW>(t_sum, t_m2, ty, tx, kTilesPerBlock, mean, m2);
  mean_ref[b] = mean;
  // σ_mod: 8x8 windows (2x2 tiles) at offsets {0,4}x{0,4}, edge rule of spec §3.5.
  constexpr int w8 = kMinStdWindow / kBlockStride;
  const bool down = next_candidate_available(r * kBlockStride, height);
  const bool right = next_candidate_available(c * kBlockStride, width);
  Real m = tiles_std<kTilesW>(t_sum, t_m2, ty, tx, w8);
  if (down) m = min_keep_first(m, tiles_std<kTilesW>(t_sum, t_m2, ty + 1, tx, w8));
  if (right) m = min_keep_first(m, tiles_std<kTilesW>(t_sum, t_m2, ty, tx + 1, w8));
  if (down && right) m = min_keep_first(m, tiles_std<kTilesW>(t_sum, t_m2, ty + 1, tx + 1, w8));
  std_min_ref[b] = m;
}

template <class Real, int GX, int GY>
__global__ void block_stats_fast_error_kernel(const Real* __restrict__ csf_dst,
                                              const Real* __restrict__ csf_ref, int width,
                                              int height, int grid_rows, int grid_cols,
                                              const Real* __restrict__ mean_ref,
                                              const Real* __restrict__ std_min_ref,
                                              Real* __restrict__ std_err, Real* __restrict__ mask) {
  constexpr int kTilesW = tiles_across<GX>(), kTilesH = tiles_across<GY>();
  __shared__ Real t_sum[kTilesW * kTilesH];
  __shared__ Real t_m2[kTilesW * kTilesH];
  tile_moments<GX, GY>(GlobalErrorPixels<Real>{csf_dst, csf_ref, width}, width, height, t_sum,
                       t_m2);
  __syncthreads();
  const int r = blockIdx.y * GY + threadIdx.y, c = blockIdx.x * GX + threadIdx.x;
  if (r >= grid_rows || c >= grid_cols) return;
  const long long b = static_cast<long long>(r) * grid_cols + c;
  const Real sd = tiles_std<kTilesW>(t_sum, t_m2, static_cast<int>(threadIdx.y),
                                     static_cast<int>(threadIdx.x), kTilesPerBlock);
  if (std_err) std_err[b] = sd;
  if (mask)
    mask[b] = static_cast<Real>(visibility_mask_of(static_cast<double>(mean_ref[b]),
                                                   static_cast<double>(std_min_ref[b]),
                                                   static_cast<double>(sd)));
}

template <int GX, int GY>
dim3 groups_for(const BlockGrid& g) {
  return dim3(static_cast<unsigned>((g.cols + GX - 1) / GX),
              static_cast<unsigned>((g.rows + GY - 1) / GY));
}

}  // namespace

template <class Real, int GX, int GY>
void block_stats_fast_reference(const Real* d_csf_ref, int width, int height, Real* d_mean_ref,
                                Real* d_std_min_ref, cudaStream_t stream) {
  const BlockGrid g(width, height);
  if (g.count() == 0) return;
  cuda::launch_kernel(block_stats_fast_reference_kernel<Real, GX, GY>, groups_for<GX, GY>(g),
                      dim3(GX, GY), 0, stream, d_csf_ref, width, height, g.rows, g.cols, d_mean_ref,
                      d_std_min_ref);
  MAD_CUDA_CHECK_LAUNCH();
}

template <class Real, int GX, int GY>
void block_stats_fast_error(const Real* d_csf_dst, const Real* d_csf_ref, int width, int height,
                            const Real* d_mean_ref, const Real* d_std_min_ref, Real* d_std_err,
                            Real* d_mask, cudaStream_t stream) {
  const BlockGrid g(width, height);
  if (g.count() == 0) return;
  cuda::launch_kernel(block_stats_fast_error_kernel<Real, GX, GY>, groups_for<GX, GY>(g),
                      dim3(GX, GY), 0, stream, d_csf_dst, d_csf_ref, width, height, g.rows, g.cols,
                      d_mean_ref, d_std_min_ref, d_std_err, d_mask);
  MAD_CUDA_CHECK_LAUNCH();
}

MAD_DET_INSTANTIATE_STATS(double, block_stats_fast_reference, block_stats_fast_error, double, 16,
                          8);
MAD_DET_INSTANTIATE_STATS(float, block_stats_fast_reference, block_stats_fast_error, float, 16, 8);
MAD_DET_INSTANTIATE_STATS(double, block_stats_fast_reference, block_stats_fast_error, double, 8, 8);
MAD_DET_INSTANTIATE_STATS(float, block_stats_fast_reference, block_stats_fast_error, float, 8, 8);

}  // namespace mad::detection::gpu
