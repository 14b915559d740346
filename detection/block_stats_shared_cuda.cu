// "det-shared": the original's direct two-pass statistics, read from a shared-memory tile.
//
// Launch shape: 2-D, kGroupX x kGroupY threads, one thread per block of a kGroupX x kGroupY
// group of grid blocks. The group's pixels, (4·kGroupY+12) x (4·kGroupX+12), are staged once
// in shared memory (E = dst - ref formed while staging), so global memory is read ~1.3 times
// per pixel instead of ~25. Each thread then runs exactly det-original's arithmetic on its
// block (same samples, same row-major order), only reading shared memory.
#include "common/block_grid.h"
#include "common/cuda_check.h"
#include "common/kernel_launch.cuh"
#include "detection/detection_device.cuh"
#include "detection/block_stats_cuda.h"

namespace mad::detection::gpu {
namespace {

constexpr int kGroupX = 16;  // grid blocks per CUDA block, horizontally
constexpr int kGroupY = 8;   // ... and vertically: 128 threads
constexpr int kTileW = kGroupX * kBlockStride + kBlockSize - kBlockStride;  // 76 pixels
constexpr int kTileH = kGroupY * kBlockStride + kBlockSize - kBlockStride;  // 44 pixels

// Stages the group's pixels (zero beyond the image: no valid block reads them).
template <class Real, class Pixels>
__device__ void stage_tile(const Pixels& px, int width, int height, Real* tile) {
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  const int y_base = blockIdx.y * kGroupY * kBlockStride;
  const int x_base = blockIdx.x * kGroupX * kBlockStride;
  for (int i = tid; i < kTileW * kTileH; i += kGroupX * kGroupY) {
    const int y = y_base + i / kTileW, x = x_base + i % kTileW;
    tile[i] = (y < height && x < width) ? px(y, x) : Real(0);
  }
}

// This thread's grid block, once the group's pixels are staged in `tile` (every thread of the
// CUDA block calls this, it synchronizes): row r, column c, top-left (ly, lx) inside the tile,
// index b in the grid arrays; inside is false past the grid's edge (the thread then returns).
struct GroupBlock {
  int r, c, ly, lx;
  long long b;
  bool inside;
};

template <class Real, class Pixels>
__device__ __forceinline__ GroupBlock stage_group(const Pixels& px, int width, int height,
                                                  int grid_rows, int grid_cols, Real* tile) {
  stage_tile(px, width, height, tile);
  __syncthreads();
  const int r = blockIdx.y * kGroupY + threadIdx.y, c = blockIdx.x * kGroupX + threadIdx.x;
  const int ly = threadIdx.y * kBlockStride, lx = threadIdx.x * kBlockStride;
  const long long b = static_cast<long long>(r) * grid_cols + c;
  return {r, c, ly, lx, b, r < grid_rows && c < grid_cols};
}

template <class Real>
__global__ void block_stats_shared_reference_kernel(const Real* __restrict__ csf_ref, int width,
                                                    int height, int grid_rows, int grid_cols,
                                                    Real* __restrict__ mean_ref,
                                                    Real* __restrict__ std_min_ref) {
  __shared__ Real tile[kTileW * kTileH];
  const GroupBlock g =
      stage_group(GlobalPixels<Real>{csf_ref, width}, width, height, grid_rows, grid_cols, tile);
  if (!g.inside) return;
  const SharedPixels<Real> px{tile, kTileW};
  mean_ref[g.b] = window_mean<Real>(px, g.ly, g.lx, kBlockSize);
  std_min_ref[g.b] =
      min_window8_std<Real>(px, g.r * kBlockStride, g.c * kBlockStride, g.ly, g.lx, width, height);
}

template <class Real>
__global__ void block_stats_shared_error_kernel(
    const Real* __restrict__ csf_dst, const Real* __restrict__ csf_ref, int width, int height,
    int grid_rows, int grid_cols, const Real* __restrict__ mean_ref,
    const Real* __restrict__ std_min_ref, Real* __restrict__ std_err, Real* __restrict__ mask) {
  __shared__ Real tile[kTileW * kTileH];
  const GroupBlock g = stage_group(GlobalErrorPixels<Real>{csf_dst, csf_ref, width}, width, height,
                                   grid_rows, grid_cols, tile);
  if (!g.inside) return;
  const SharedPixels<Real> px{tile, kTileW};
  const Real mean = window_mean<Real>(px, g.ly, g.lx, kBlockSize);
  const Real sd = window_std<Real>(px, g.ly, g.lx, kBlockSize, mean);
  if (std_err) std_err[g.b] = sd;
  if (mask)
    mask[g.b] = static_cast<Real>(visibility_mask_of(static_cast<double>(mean_ref[g.b]),
                                                     static_cast<double>(std_min_ref[g.b]),
                                                     static_cast<double>(sd)));
}

dim3 groups_for(const BlockGrid& g) {
  return dim3(static_cast<unsigned>((g.cols + kGroupX - 1) / kGroupX),
              static_cast<unsigned>((g.rows + kGroupY - 1) / kGroupY));
}

}  // namespace

template <class Real>
void block_stats_shared_reference(const Real* d_csf_ref, int width, int height, Real* d_mean_ref,
                                  Real* d_std_min_ref, cudaStream_t stream) {
  const BlockGrid g(width, height);
  if (g.count() == 0) return;
  cuda::launch_kernel(block_stats_shared_reference_kernel<Real>, groups_for(g),
                      dim3(kGroupX, kGroupY), 0, stream, d_csf_ref, width, height, g.rows, g.cols,
                      d_mean_ref, d_std_min_ref);
  MAD_CUDA_CHECK_LAUNCH();
}

template <class Real>
void block_stats_shared_error(const Real* d_csf_dst, const Real* d_csf_ref, int width, int height,
                              const Real* d_mean_ref, const Real* d_std_min_ref, Real* d_std_err,
                              Real* d_mask, cudaStream_t stream) {
  const BlockGrid g(width, height);
  if (g.count() == 0) return;
  cuda::launch_kernel(block_stats_shared_error_kernel<Real>, groups_for(g), dim3(kGroupX, kGroupY),
                      0, stream, d_csf_dst, d_csf_ref, width, height, g.rows, g.cols, d_mean_ref,
                      d_std_min_ref, d_std_err, d_mask);
  MAD_CUDA_CHECK_LAUNCH();
}

MAD_DET_INSTANTIATE_STATS(double, block_stats_shared_reference, block_stats_shared_error, double);
MAD_DET_INSTANTIATE_STATS(float, block_stats_shared_reference, block_stats_shared_error, float);

}  // namespace mad::detection::gpu
