// A5 variant "a5-original": the thesis's first GPU form of the block statistics (spec §4.4).
//
// Strategy: one thread per 16x16 block. The thread gathers its block's 256 samples into a
// private array (too large for registers, so it lives in local memory: the baseline the other
// variants are measured against), sums them in row-major order for the mean, then walks the
// array again for the central sums S2, S3, S4.
// Launch shape: 16x8 threads per CTA over the block grid, blockIdx.z = subband.
// Reads every sample 16 times (once per block covering it), and for complex input evaluates
// the modulus each time.
#include "appearance/a5_device_cuda.cuh"

namespace mad::appearance {
namespace {

constexpr int kThreadsX = 16;
constexpr int kThreadsY = 8;
constexpr int kSamples = kBlockSize * kBlockSize;  // 256

template <class Real, class Samples>
__global__ void __launch_bounds__(kThreadsX* kThreadsY)
    a5_original_kernel(A5Input<Real> in, A5Output<Real> out, int rows, int cols) {
  const int bx = blockIdx.x * kThreadsX + threadIdx.x;
  const int by = blockIdx.y * kThreadsY + threadIdx.y;
  const int subband = blockIdx.z;
  if (bx >= cols || by >= rows) return;
  const Samples samples = Samples::make(in, subband);
  const int y0 = by * kBlockStride, x0 = bx * kBlockStride;

  Real v[kSamples];
  for (int i = 0; i < kBlockSize; ++i)
    for (int j = 0; j < kBlockSize; ++j) v[i * kBlockSize + j] = samples(y0 + i, x0 + j);

  Real sum = 0;
  for (int k = 0; k < kSamples; ++k) sum += v[k];
  const Real mean = sum / Real(kSamples);

  Real s2 = 0, s3 = 0, s4 = 0;
  for (int k = 0; k < kSamples; ++k) {
    const Real d = v[k] - mean;
    const Real d2 = d * d;
    s2 += d2;
    s3 = detail::fma_rn(d2, d, s3);
    s4 = detail::fma_rn(d2, d2, s4);
  }
  detail::store_block_stats(out, subband, by, bx, s2, s3, s4);
}

}  // namespace

template <class Real>
void launch_a5_original(const A5Input<Real>& in, const A5Output<Real>& out, const BlockGrid& grid,
                        cudaStream_t stream) {
  detail::launch_a5_variant(
      in, out, grid, "a5-original", kThreadsX, kThreadsY, [&](auto samples, dim3 cta_grid) {
        a5_original_kernel<Real, decltype(samples)>
            <<<cta_grid, dim3(kThreadsX, kThreadsY), 0, stream>>>(in, out, grid.rows, grid.cols);
      });
}

template void launch_a5_original<double>(const A5Input<double>&, const A5Output<double>&,
                                         const BlockGrid&, cudaStream_t);
template void launch_a5_original<float>(const A5Input<float>&, const A5Output<float>&,
                                        const BlockGrid&, cudaStream_t);

}  // namespace mad::appearance
