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
// Launch shape: 2-D, kGroupX x kGroupY threads, one thread per grid block of a group; the
// group's (kGroupY+3) x (kGroupX+3) tiles are computed cooperatively into shared memory.
// Results differ from the two-pass variants only by rounding (a few ulps of the data scale).
#include "common/block_grid.h"
#include "common/cuda_check.h"
#include "detection/det_device_cuda.h"
#include "detection/det_stats_cuda.h"

namespace mad::detection::gpu {
namespace {

constexpr int kGroupX = 16;  // grid blocks per CUDA block, horizontally
constexpr int kGroupY = 8;   // ... and vertically: 128 threads
constexpr int kTilesPerBlock = kBlockSize / kBlockStride;  // 4 tiles across a block
constexpr int kTilesW = kGroupX + kTilesPerBlock - 1;      // 19 tiles
constexpr int kTilesH = kGroupY + kTilesPerBlock - 1;      // 11 tiles
constexpr int kTilePixels = kBlockStride * kBlockStride;   // 16

// Tile moments of the group: sum and centred sum of squares of each 4x4 tile. Tiles that do not
// fit in the image are zero; no valid block reads them (block (r,c) reads tiles r..r+3 and the
// last one, r = rows-1, ends at pixel 4·rows+11 <= n-1).
template <class Real, class Pixels>
__device__ void tile_moments(const Pixels& px, int width, int height, Real* t_sum, Real* t_m2) {
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  for (int i = tid; i < kTilesW * kTilesH; i += kGroupX * kGroupY) {
    const int ty = blockIdx.y * kGroupY + i / kTilesW, tx = blockIdx.x * kGroupX + i % kTilesW;
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

// Mean and centred sum of squares of the side x side tiles at local tile (ty, tx).
template <class Real>
__device__ inline void combine_tiles(const Real* t_sum, const Real* t_m2, int ty, int tx,
                                     int side, Real& mean, Real& m2) {
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

template <class Real>
__device__ inline Real tiles_std(const Real* t_sum, const Real* t_m2, int ty, int tx, int side) {
  Real mean, m2;
  combine_tiles(t_sum, t_m2, ty, tx, side, mean, m2);
  return unbiased_std(m2, side * side * kTilePixels);
}

template <class Real>
__global__ void det_fast_reference_kernel(const Real* __restrict__ csf_ref, int width,
                                          int height, int grid_rows, int grid_cols,
                                          Real* __restrict__ mean_ref,
                                          Real* __restrict__ std_min_ref) {
  __shared__ Real t_sum[kTilesW * kTilesH];
  __shared__ Real t_m2[kTilesW * kTilesH];
  tile_moments(GlobalPixels<Real>{csf_ref, width}, width, height, t_sum, t_m2);
  __syncthreads();
  const int r = blockIdx.y * kGroupY + threadIdx.y, c = blockIdx.x * kGroupX + threadIdx.x;
  if (r >= grid_rows || c >= grid_cols) return;
  const int ty = threadIdx.y, tx = threadIdx.x;
  const long long b = static_cast<long long>(r) * grid_cols + c;
  Real mean, m2;
  combine_tiles(t_sum, t_m2, ty, tx, kTilesPerBlock, mean, m2);
  mean_ref[b] = mean;
  // σ_mod: 8x8 windows (2x2 tiles) at offsets {0,4}x{0,4}, edge rule of spec §3.5.
  const int w8 = kMinStdWindow / kBlockStride;
  const bool down = next_candidate_available(r * kBlockStride, height);
  const bool right = next_candidate_available(c * kBlockStride, width);
  Real m = tiles_std(t_sum, t_m2, ty, tx, w8);
  if (down) m = min_keep_first(m, tiles_std(t_sum, t_m2, ty + 1, tx, w8));
  if (right) m = min_keep_first(m, tiles_std(t_sum, t_m2, ty, tx + 1, w8));
  if (down && right) m = min_keep_first(m, tiles_std(t_sum, t_m2, ty + 1, tx + 1, w8));
  std_min_ref[b] = m;
}

template <class Real>
__global__ void det_fast_error_kernel(const Real* __restrict__ csf_dst,
                                      const Real* __restrict__ csf_ref, int width, int height,
                                      int grid_rows, int grid_cols,
                                      const Real* __restrict__ mean_ref,
                                      const Real* __restrict__ std_min_ref,
                                      Real* __restrict__ std_err, Real* __restrict__ mask) {
  __shared__ Real t_sum[kTilesW * kTilesH];
  __shared__ Real t_m2[kTilesW * kTilesH];
  tile_moments(GlobalErrorPixels<Real>{csf_dst, csf_ref, width}, width, height, t_sum, t_m2);
  __syncthreads();
  const int r = blockIdx.y * kGroupY + threadIdx.y, c = blockIdx.x * kGroupX + threadIdx.x;
  if (r >= grid_rows || c >= grid_cols) return;
  const long long b = static_cast<long long>(r) * grid_cols + c;
  const Real sd = tiles_std(t_sum, t_m2, static_cast<int>(threadIdx.y),
                            static_cast<int>(threadIdx.x), kTilesPerBlock);
  if (std_err) std_err[b] = sd;
  if (mask)
    mask[b] = static_cast<Real>(visibility_mask_of(static_cast<double>(mean_ref[b]),
                                                   static_cast<double>(std_min_ref[b]),
                                                   static_cast<double>(sd)));
}

dim3 groups_for(const BlockGrid& g) {
  return dim3(static_cast<unsigned>((g.cols + kGroupX - 1) / kGroupX),
              static_cast<unsigned>((g.rows + kGroupY - 1) / kGroupY));
}

}  // namespace

template <class Real>
void det_fast_reference(const Real* d_csf_ref, int width, int height, Real* d_mean_ref,
                        Real* d_std_min_ref, cudaStream_t stream) {
  const BlockGrid g(width, height);
  if (g.count() == 0) return;
  det_fast_reference_kernel<Real><<<groups_for(g), dim3(kGroupX, kGroupY), 0, stream>>>(
      d_csf_ref, width, height, g.rows, g.cols, d_mean_ref, d_std_min_ref);
  MAD_CUDA_CHECK_LAUNCH();
}

template <class Real>
void det_fast_error(const Real* d_csf_dst, const Real* d_csf_ref, int width, int height,
                    const Real* d_mean_ref, const Real* d_std_min_ref, Real* d_std_err,
                    Real* d_mask, cudaStream_t stream) {
  const BlockGrid g(width, height);
  if (g.count() == 0) return;
  det_fast_error_kernel<Real><<<groups_for(g), dim3(kGroupX, kGroupY), 0, stream>>>(
      d_csf_dst, d_csf_ref, width, height, g.rows, g.cols, d_mean_ref, d_std_min_ref, d_std_err,
      d_mask);
  MAD_CUDA_CHECK_LAUNCH();
}

template void det_fast_reference<double>(const double*, int, int, double*, double*,
                                         cudaStream_t);
template void det_fast_reference<float>(const float*, int, int, float*, float*, cudaStream_t);
template void det_fast_error<double>(const double*, const double*, int, int, const double*,
                                     const double*, double*, double*, cudaStream_t);
template void det_fast_error<float>(const float*, const float*, int, int, const float*,
                                    const float*, float*, float*, cudaStream_t);

}  // namespace mad::detection::gpu
