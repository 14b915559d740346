// Local MSE (two fused box passes), map.HI and the crop reduction of the CUDA detection stage
// (spec §3.7-3.8). See local_mse_cuda.h for the split of the work.
#include "common/block_grid.h"
#include "common/cuda_check.h"
#include "common/kernel_launch.cuh"
#include "detection/detection_device.cuh"
#include "detection/local_mse_cuda.h"
#include "detection/local_mse.h"

namespace mad::detection::gpu {
namespace {

constexpr int kLmseAfter = kLmseWindow - 1 - kLmseBefore;  // +8
constexpr int kTileX = 32;                         // threads (and output columns) per CUDA block
constexpr int kTileY = 8;                          // thread rows per CUDA block: 256 threads
constexpr int kRowsPerThread = 4;                  // map_reduce: each thread covers 4 rows, 8 apart
constexpr int kMapRows = kTileY * kRowsPerThread;  // 32 output rows per CUDA block
constexpr int kReduceThreads = kTileX * kTileY;    // 256, a power of two for the tree
constexpr double kBoxArea = kLmseWindow * kLmseWindow;

// Fixed-order tree sum of one value per thread of a block of kReduceThreads threads; the
// result is in red[0] after the last barrier. Every thread must call it.
__device__ inline void block_tree_sum(double* red, int tid, double value) {
  red[tid] = value;
  __syncthreads();
  for (int s = kReduceThreads / 2; s > 0; s /= 2) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
}

// Pass 1, 2-D blocks of kTileX x kTileY threads, one pixel each. The block stages Δ² of its
// rows over kTileX + 15 mirrored columns in shared memory, then each thread sums its 16.
template <class Real>
__global__ void dst_load_kernel(const Real* __restrict__ ref, const Real* __restrict__ dst,
                                int width, int height, bool uint8_luminance,
                                const Real* __restrict__ table, Real* __restrict__ lum_dst,
                                double* __restrict__ row_sums) {
  __shared__ Real table_s[256];
  __shared__ double sq[kTileY][kTileX + kLmseWindow - 1];
  const int tid = threadIdx.y * kTileX + threadIdx.x;
  table_s[tid] = table[tid];
  const int y = blockIdx.y * kTileY + threadIdx.y;
  const int x0 = blockIdx.x * kTileX;
  for (int j = threadIdx.x; j < kTileX + kLmseWindow - 1; j += kTileX) {
    const int xi = x0 - kLmseBefore + j;
    double v = 0.0;
    // Columns past width-1+8 feed no output column; skipping them keeps mirror_index in range.
    if (y < height && xi <= width - 1 + kLmseAfter) {
      const long long k = static_cast<long long>(y) * width + mirror_index(xi, width);
      const double d = static_cast<double>(ref[k]) - static_cast<double>(dst[k]);
      v = d * d;
    }
    sq[threadIdx.y][j] = v;
  }
  __syncthreads();
  const int x = x0 + threadIdx.x;
  if (y >= height || x >= width) return;
  const long long k = static_cast<long long>(y) * width + x;
  lum_dst[k] = luminance_of(dst[k], uint8_luminance, table_s);
  double h = 0.0;
  for (int t = 0; t < kLmseWindow; ++t) h += sq[threadIdx.y][threadIdx.x + t];
  row_sums[k] = h;
}

// Pass 2 + map + crop partials, 2-D blocks of kTileX x kTileY threads covering kTileX columns
// x kMapRows rows (4 rows per thread, 8 apart so a warp always works on one row). The block
// stages the row sums of its rows plus the 15-row mirrored halo in shared memory.
template <class Real>
__global__ void map_reduce_kernel(const double* __restrict__ row_sums,
                                  const Real* __restrict__ mask, int width, int height,
                                  int grid_rows, int grid_cols, Real* __restrict__ map,
                                  double* __restrict__ partials) {
  __shared__ double hs[kMapRows + kLmseWindow - 1][kTileX];
  __shared__ double red[kReduceThreads];
  const int tid = threadIdx.y * kTileX + threadIdx.x;
  const int x = blockIdx.x * kTileX + threadIdx.x;
  const int y0 = blockIdx.y * kMapRows;
  for (int j = threadIdx.y; j < kMapRows + kLmseWindow - 1; j += kTileY) {
    const int yi = y0 - kLmseBefore + j;
    double v = 0.0;
    if (x < width && yi <= height - 1 + kLmseAfter)
      v = row_sums[static_cast<long long>(mirror_index(yi, height)) * width + x];
    hs[j][threadIdx.x] = v;
  }
  __syncthreads();
  double acc = 0.0;  // Σ η² of this thread's crop pixels, in row order
  for (int r = 0; r < kRowsPerThread; ++r) {
    const int ly = threadIdx.y + r * kTileY;
    const int y = y0 + ly;
    if (y >= height || x >= width) continue;
    double box = 0.0;
    for (int i = 0; i < kLmseWindow; ++i) box += hs[ly + i][threadIdx.x];
    const double lmse = box / kBoxArea;
    const int by = y / kBlockStride, bx = x / kBlockStride;
    // Outside the tiles ξ = 0 (spec §3.4): the original's 0/0 = NaN fails every comparison.
    const double xi = (by < grid_rows && bx < grid_cols)
                          ? static_cast<double>(mask[static_cast<long long>(by) * grid_cols + bx])
                          : 0.0;
    const double eta = xi * lmse;
    if (map) map[static_cast<long long>(y) * width + x] = static_cast<Real>(eta);
    if (y >= kCropBegin && y <= height - 1 - kCropEndMargin && x >= kCropBegin &&
        x <= width - 1 - kCropEndMargin)
      acc += eta * eta;
  }
  block_tree_sum(red, tid, acc);
  if (tid == 0) partials[blockIdx.y * gridDim.x + blockIdx.x] = red[0];
}

// One CUDA block of kReduceThreads threads: strided sequential sums, then the tree.
__global__ void sum_partials_kernel(const double* __restrict__ partials, std::size_t count,
                                    double* __restrict__ sum) {
  __shared__ double red[kReduceThreads];
  const int tid = threadIdx.x;
  double acc = 0.0;
  for (std::size_t i = tid; i < count; i += kReduceThreads) acc += partials[i];
  block_tree_sum(red, tid, acc);
  if (tid == 0) *sum = red[0];
}

dim3 map_grid(int width, int height) {
  return dim3(static_cast<unsigned>((width + kTileX - 1) / kTileX),
              static_cast<unsigned>((height + kMapRows - 1) / kMapRows));
}

}  // namespace

template <class Real>
void launch_dst_load(const Real* d_ref_raw, const Real* d_dst_raw, int width, int height,
                     bool uint8_luminance, const Real* d_table, Real* d_lum_dst, double* d_row_sums,
                     cudaStream_t stream) {
  if (width <= 0 || height <= 0) return;
  const dim3 grid((width + kTileX - 1) / kTileX, (height + kTileY - 1) / kTileY);
  cuda::launch_kernel(dst_load_kernel<Real>, grid, dim3(kTileX, kTileY), 0, stream, d_ref_raw,
                      d_dst_raw, width, height, uint8_luminance, d_table, d_lum_dst, d_row_sums);
  MAD_CUDA_CHECK_LAUNCH();
}

std::size_t map_reduce_partial_count(int width, int height) {
  if (width <= 0 || height <= 0) return 0;
  const dim3 g = map_grid(width, height);
  return static_cast<std::size_t>(g.x) * g.y;
}

template <class Real>
void launch_map_reduce(const double* d_row_sums, const Real* d_mask, int width, int height,
                       Real* d_map_or_null, double* d_partials, cudaStream_t stream) {
  if (width <= 0 || height <= 0) return;
  const BlockGrid g(width, height);
  cuda::launch_kernel(map_reduce_kernel<Real>, map_grid(width, height), dim3(kTileX, kTileY), 0,
                      stream, d_row_sums, d_mask, width, height, g.rows, g.cols, d_map_or_null,
                      d_partials);
  MAD_CUDA_CHECK_LAUNCH();
}

void launch_sum_partials(const double* d_partials, std::size_t count, double* d_sum,
                         cudaStream_t stream) {
  cuda::launch_kernel(sum_partials_kernel, 1, kReduceThreads, 0, stream, d_partials, count, d_sum);
  MAD_CUDA_CHECK_LAUNCH();
}

template void launch_dst_load<double>(const double*, const double*, int, int, bool, const double*,
                                      double*, double*, cudaStream_t);
template void launch_dst_load<float>(const float*, const float*, int, int, bool, const float*,
                                     float*, double*, cudaStream_t);
template void launch_map_reduce<double>(const double*, const double*, int, int, double*, double*,
                                        cudaStream_t);
template void launch_map_reduce<float>(const double*, const float*, int, int, float*, double*,
                                       cudaStream_t);

}  // namespace mad::detection::gpu
