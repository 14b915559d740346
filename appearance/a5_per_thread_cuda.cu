// A5 variant "a5-per-thread": the thesis's per-thread form (thesis Appendix B, "a5-per-thread")
// with the thread-to-block mapping turned round so that global loads coalesce.
//
// Strategy: one thread per 16x16 block. The thread gathers its block's 256 samples into a
// private array (too large for registers, so it lives in local memory), sums them in
// row-major order for the mean, then walks the array again for the central sums S2, S3, S4
// (detail::gather_block / private_block_mean / private_central_sums, shared with a5-original).
// Unlike Appendix B, threadIdx.x walks block COLUMNS: the lanes of a warp read neighbouring
// blocks of one row, 4 samples apart, so a warp's loads of one sample row coalesce.
// Launch shape: 16x8 threads per CTA over the block grid, blockIdx.z = subband.
// Reads every sample 16 times (once per block covering it), and for complex input evaluates
// the modulus each time.
#include "appearance/a5_device_cuda.cuh"
#include "common/kernel_launch.cuh"

namespace mad::appearance {
namespace {

constexpr int kThreadsX = 16;
constexpr int kThreadsY = 8;

template <class Real, class Samples>
__global__ void __launch_bounds__(kThreadsX* kThreadsY)
    a5_per_thread_kernel(A5Input<Real> in, A5Output<Real> out, int rows, int cols) {
  const int bx = blockIdx.x * kThreadsX + threadIdx.x;
  const int by = blockIdx.y * kThreadsY + threadIdx.y;
  const int subband = blockIdx.z;
  if (bx >= cols || by >= rows) return;
  const Samples samples = Samples::make(in, subband);

  Real v[detail::kBlockSamples];
  detail::gather_block(samples, by * kBlockStride, bx * kBlockStride, v);
  Real s2, s3, s4;
  detail::private_central_sums(v, detail::private_block_mean(v), s2, s3, s4);
  detail::store_block_stats(out, subband, by, bx, s2, s3, s4);
}

}  // namespace

template <class Real>
void launch_a5_per_thread(const A5Input<Real>& in, const A5Output<Real>& out, const BlockGrid& grid,
                          cudaStream_t stream) {
  detail::launch_a5_variant(
      in, out, grid, "a5-per-thread", kThreadsX, kThreadsY, [&](auto samples, dim3 cta_grid) {
        cuda::launch_kernel(a5_per_thread_kernel<Real, decltype(samples)>, cta_grid,
                            dim3(kThreadsX, kThreadsY), 0, stream, in, out, grid.rows, grid.cols);
      });
}

MAD_A5_INSTANTIATE_STATS(launch_a5_per_thread);

}  // namespace mad::appearance
