// "det-original": the block statistics as the original's ical_std computes them, one thread
// per 16x16 block gathering its samples straight from global memory.
//
// Launch shape: 1-D, kThreads threads, one thread per block of the grid (grid.count()
// threads). Every statistic is the direct two-pass form in row-major order, the same
// arithmetic as block_stats_cpu.cpp, so this variant is the GPU's readable reference. It
// re-reads each pixel up to 16 times (plus 4 overlapping 8x8 windows) through L1/L2.
#include "common/block_grid.h"
#include "common/cuda_check.h"
#include "common/kernel_launch.cuh"
#include "detection/detection_device.cuh"
#include "detection/block_stats_cuda.h"

namespace mad::detection::gpu {
namespace {

constexpr int kThreads = 128;

template <class Real>
__global__ void block_stats_original_reference_kernel(const Real* __restrict__ csf_ref, int width,
                                                      int height, int grid_rows, int grid_cols,
                                                      Real* __restrict__ mean_ref,
                                                      Real* __restrict__ std_min_ref) {
  const long long b = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= static_cast<long long>(grid_rows) * grid_cols) return;
  const int y0 = static_cast<int>(b / grid_cols) * kBlockStride;
  const int x0 = static_cast<int>(b % grid_cols) * kBlockStride;
  const GlobalPixels<Real> px{csf_ref, width};
  mean_ref[b] = window_mean<Real>(px, y0, x0, kBlockSize);
  std_min_ref[b] = min_window8_std<Real>(px, y0, x0, y0, x0, width, height);
}

template <class Real>
__global__ void block_stats_original_error_kernel(
    const Real* __restrict__ csf_dst, const Real* __restrict__ csf_ref, int width, int grid_rows,
    int grid_cols, const Real* __restrict__ mean_ref, const Real* __restrict__ std_min_ref,
    Real* __restrict__ std_err, Real* __restrict__ mask) {
  const long long b = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= static_cast<long long>(grid_rows) * grid_cols) return;
  const int y0 = static_cast<int>(b / grid_cols) * kBlockStride;
  const int x0 = static_cast<int>(b % grid_cols) * kBlockStride;
  const GlobalErrorPixels<Real> px{csf_dst, csf_ref, width};
  const Real mean = window_mean<Real>(px, y0, x0, kBlockSize);
  const Real sd = window_std<Real>(px, y0, x0, kBlockSize, mean);
  if (std_err) std_err[b] = sd;
  if (mask)
    mask[b] = static_cast<Real>(visibility_mask_of(static_cast<double>(mean_ref[b]),
                                                   static_cast<double>(std_min_ref[b]),
                                                   static_cast<double>(sd)));
}

unsigned blocks_for(const BlockGrid& g) {
  return static_cast<unsigned>((g.count() + kThreads - 1) / kThreads);
}

}  // namespace

template <class Real>
void block_stats_original_reference(const Real* d_csf_ref, int width, int height, Real* d_mean_ref,
                                    Real* d_std_min_ref, cudaStream_t stream) {
  const BlockGrid g(width, height);
  if (g.count() == 0) return;
  cuda::launch_kernel(block_stats_original_reference_kernel<Real>, blocks_for(g), kThreads, 0,
                      stream, d_csf_ref, width, height, g.rows, g.cols, d_mean_ref, d_std_min_ref);
  MAD_CUDA_CHECK_LAUNCH();
}

template <class Real>
void block_stats_original_error(const Real* d_csf_dst, const Real* d_csf_ref, int width, int height,
                                const Real* d_mean_ref, const Real* d_std_min_ref, Real* d_std_err,
                                Real* d_mask, cudaStream_t stream) {
  const BlockGrid g(width, height);
  if (g.count() == 0) return;
  cuda::launch_kernel(block_stats_original_error_kernel<Real>, blocks_for(g), kThreads, 0, stream,
                      d_csf_dst, d_csf_ref, width, g.rows, g.cols, d_mean_ref, d_std_min_ref,
                      d_std_err, d_mask);
  MAD_CUDA_CHECK_LAUNCH();
}

MAD_DET_INSTANTIATE_STATS(double, block_stats_original_reference, block_stats_original_error,
                          double);
MAD_DET_INSTANTIATE_STATS(float, block_stats_original_reference, block_stats_original_error, float);

}  // namespace mad::detection::gpu
