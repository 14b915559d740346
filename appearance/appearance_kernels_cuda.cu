// The appearance stage's kernels other than the FFTs and the A5 statistics (spec §4.3-§4.6).
#include "appearance/appearance_kernels_cuda.h"

#include "appearance/a5_device_cuda.cuh"
#include "appearance/log_gabor.h"
#include "appearance/stat_difference.h"
#include "common/cuda_check.h"
#include "common/error.h"
#include "common/kernel_launch.cuh"

namespace mad::appearance::detail {
namespace {

// Filter multiply of one scale (spec §4.3), fused so that each bin's spectrum value and radial
// factor are read once for the 4 orientations: h = G_s * A_o, then F * h part by part, the CPU
// path's order (no FMA is possible here: products only). The half spectrum holds columns
// 0..N/2; column kc > N/2 is conj(F((M - kr) mod M, N - kc)). The radial factor comes from the
// bank's quadrant (log_gabor_radial_at: the same bits as a full plane, a quarter of the reads'
// footprint).
// Launch shape: 32 x 8 threads over (columns, rows) of the M x N spectrum.
template <class Real>
__global__ void filter_scale_kernel(const DeviceComplex<Real>* half, int half_width,
                                    const Real* radial, const Real* angular0,
                                    DeviceComplex<Real>* out, int width, int height) {
  const int kc = blockIdx.x * blockDim.x + threadIdx.x;
  const int kr = blockIdx.y * blockDim.y + threadIdx.y;
  if (kc >= width || kr >= height) return;
  DeviceComplex<Real> f;
  if (kc < half_width) {
    f = half[static_cast<std::size_t>(kr) * half_width + kc];
  } else {
    const int mr = kr == 0 ? 0 : height - kr;
    f = half[static_cast<std::size_t>(mr) * half_width + (width - kc)];
    f.y = -f.y;
  }
  const std::size_t plane = static_cast<std::size_t>(width) * height;
  const std::size_t idx = static_cast<std::size_t>(kr) * width + kc;
  const Real g = log_gabor_radial_at(radial, kr, kc, width, height);
#pragma unroll
  for (int o = 0; o < kOrientations; ++o) {
    const Real h = mul_rn(g, angular0[o * plane + idx]);
    DeviceComplex<Real> v;
    v.x = mul_rn(f.x, h);
    v.y = mul_rn(f.y, h);
    out[o * plane + idx] = v;
  }
}

// Difference accumulation of one scale (spec §4.5): one thread per block, the 4 orientations
// in order, each term (|dstd| + 2|dskew|) + |dkurt| scaled by w_s and added to eta exactly as
// the CPU path rounds it (explicit roundings, no contraction).
// Launch shape: 256 threads per CTA over the blocks.
template <class Real>
__global__ void accumulate_scale_kernel(const Real* ref_stats, const Real* dst_stats,
                                        std::size_t blocks, int scale, bool first, Real weight,
                                        Real skew_weight, Real* eta) {
  const std::size_t b = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= blocks) return;
  Real e = first ? Real(0) : eta[b];
#pragma unroll
  for (int o = 0; o < kOrientations; ++o) {
    const std::size_t k = static_cast<std::size_t>(subband_index(scale, o));
    const Real d_std = fabs(ref_stats[k * blocks + b] - dst_stats[o * blocks + b]);
    const Real d_skew =
        fabs(ref_stats[(kSubbands + k) * blocks + b] - dst_stats[(kOrientations + o) * blocks + b]);
    const Real d_kurt = fabs(ref_stats[(2 * kSubbands + k) * blocks + b] -
                             dst_stats[(2 * kOrientations + o) * blocks + b]);
    const Real term = add_rn(add_rn(d_std, mul_rn(skew_weight, d_skew)), d_kurt);
    e = add_rn(e, mul_rn(weight, term));
  }
  eta[b] = e;
}

// Crop pooling (spec §4.6): one CTA; thread t takes blocks t, t + T, ... and adds
// eta^2 * (crop pixels of the block's tile); then a fixed shared-memory tree. The same input
// gives the same bits on every run (no atomics).
constexpr int kPoolThreads = 1024;

template <class Real>
__global__ void __launch_bounds__(kPoolThreads)
    pool_crop_kernel(const Real* eta, int rows, int cols, int height, int width, double* sum_sq) {
  __shared__ double partial[kPoolThreads];
  const int t = threadIdx.x;
  const int last_row = height - 1 - kCropEndMargin, last_col = width - 1 - kCropEndMargin;
  const std::size_t n = static_cast<std::size_t>(rows) * cols;
  double acc = 0.0;
  for (std::size_t b = t; b < n; b += kPoolThreads) {
    const int by = static_cast<int>(b / cols), bx = static_cast<int>(b % cols);
    const int y0 = by * kBlockStride, x0 = bx * kBlockStride;
    const int nr = min(y0 + kBlockStride - 1, last_row) - max(y0, kCropBegin) + 1;
    const int nc = min(x0 + kBlockStride - 1, last_col) - max(x0, kCropBegin) + 1;
    if (nr > 0 && nc > 0) {
      const double e = static_cast<double>(eta[b]);
      acc += (e * e) * static_cast<double>(nr * nc);
    }
  }
  partial[t] = acc;
  __syncthreads();
  for (int h = kPoolThreads / 2; h >= 1; h /= 2) {
    if (t < h) partial[t] += partial[t + h];
    __syncthreads();
  }
  if (t == 0) *sum_sq = partial[0];
}

// Tile expansion of map.LO (spec §3.4): one thread per pixel.
// Launch shape: 32 x 8 threads over (columns, rows).
template <class Real>
__global__ void expand_tiles_kernel(const Real* eta, int rows, int cols, Real* map, int width,
                                    int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const int by = y / kBlockStride, bx = x / kBlockStride;
  map[static_cast<std::size_t>(y) * width + x] =
      (by < rows && bx < cols) ? eta[static_cast<std::size_t>(by) * cols + bx] : Real(0);
}

dim3 pixel_grid(int width, int height, dim3 block) {
  const dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
  if (grid.y > 65535) throw InputError("appearance stage: image too tall for the GPU kernels");
  return grid;
}

}  // namespace

template <class Real>
void launch_filter_scale(const DeviceComplex<Real>* half_spectrum, int half_width,
                         const LogGaborBankCuda<Real>& bank, int scale,
                         DeviceComplex<Real>* subbands, cudaStream_t stream) {
  const dim3 block(32, 8);
  const dim3 grid = pixel_grid(bank.width(), bank.height(), block);
  cuda::launch_kernel(filter_scale_kernel<Real>, grid, block, 0, stream, half_spectrum, half_width,
                      bank.radial(scale), bank.angular(0), subbands, bank.width(), bank.height());
  MAD_CUDA_CHECK_LAUNCH();
}

template <class Real>
void launch_accumulate_scale(const Real* ref_stats, const Real* dst_stats, std::size_t blocks,
                             int scale, bool first, Real* eta, cudaStream_t stream) {
  if (blocks == 0) return;
  constexpr unsigned kThreads = 256;
  const dim3 grid(static_cast<unsigned>((blocks + kThreads - 1) / kThreads));
  cuda::launch_kernel(accumulate_scale_kernel<Real>, grid, kThreads, 0, stream, ref_stats,
                      dst_stats, blocks, scale, first, static_cast<Real>(kScaleWeights[scale]),
                      static_cast<Real>(kSkewWeight), eta);
  MAD_CUDA_CHECK_LAUNCH();
}

template <class Real>
void launch_pool_crop(const Real* eta, const BlockGrid& grid, double* sum_sq, cudaStream_t stream) {
  cuda::launch_kernel(pool_crop_kernel<Real>, 1, kPoolThreads, 0, stream, eta, grid.rows, grid.cols,
                      grid.image_height, grid.image_width, sum_sq);
  MAD_CUDA_CHECK_LAUNCH();
}

template <class Real>
void launch_expand_tiles(const Real* eta, const BlockGrid& grid, Real* map, cudaStream_t stream) {
  const dim3 block(32, 8);
  const dim3 cta_grid = pixel_grid(grid.image_width, grid.image_height, block);
  cuda::launch_kernel(expand_tiles_kernel<Real>, cta_grid, block, 0, stream, eta, grid.rows,
                      grid.cols, map, grid.image_width, grid.image_height);
  MAD_CUDA_CHECK_LAUNCH();
}

#define MAD_INSTANTIATE(Real)                                                                   \
  template void launch_filter_scale<Real>(const DeviceComplex<Real>*, int,                      \
                                          const LogGaborBankCuda<Real>&, int,                   \
                                          DeviceComplex<Real>*, cudaStream_t);                  \
  template void launch_accumulate_scale<Real>(const Real*, const Real*, std::size_t, int, bool, \
                                              Real*, cudaStream_t);                             \
  template void launch_pool_crop<Real>(const Real*, const BlockGrid&, double*, cudaStream_t);   \
  template void launch_expand_tiles<Real>(const Real*, const BlockGrid&, Real*, cudaStream_t);
MAD_INSTANTIATE(double)
MAD_INSTANTIATE(float)
#undef MAD_INSTANTIATE

}  // namespace mad::appearance::detail
