// A5 variant "a5-original" (both registries): the thesis's first GPU form, faithful to thesis
// Appendix B (A5_fast_lo_stats_kernel; Table 9: 1.000512 ms for the mean of one 512x512 float
// subband on a K40).
//
// Strategy: one thread per 16x16 block in a 16x16-thread CTA. As in Appendix B, threadIdx.x /
// blockIdx.x walk block ROWS (i = 4 * (threadIdx.x + blockIdx.x * blockDim.x) is the row of
// xVal[iB * N + jB]) and threadIdx.y / blockIdx.y block columns, so the lanes of a warp read
// blocks 4 rows apart: the strided gather of Chapter 3 (Table 6, Figure 21). The thread copies
// its block's 256 samples row by row into a private array (local memory), sums them in that
// order for the mean, and (the all-statistics form; the thesis stops at the mean) walks the
// array again for the central sums S2, S3, S4 (detail::gather_block and friends, shared with
// a5-per-thread, which is this form with the mapping turned round).
//
// Generalised from the thesis, which assumes N = 512 (grid and pitch from the #define N):
// any width, height >= 16, pitch and subband count (blockIdx.z = subband). The thesis's guard
// (i < N - WIN_SIZE) leaves out the last valid block row and column (i = N - 16 is a block
// inside the image), and its else branch copies input samples into out, whose N x N layout
// holds the means at [global_idx * N + global_idy]; here the guard is the block grid and
// only blocks are written, into the planes of A5Output / A5MeanOutput.
// Launch shape: 16x16 threads, grid (ceil(rows/16), ceil(cols/16), subbands).
#include "appearance/a5_device_cuda.cuh"
#include "common/kernel_launch.cuh"

namespace mad::appearance {
namespace {

constexpr int kThreads = 16;  // CTA side: blockDim.x == blockDim.y == 16, as in the thesis

template <class Real, class Samples, class Output>
__global__ void __launch_bounds__(kThreads* kThreads)
    a5_original_kernel(A5Input<Real> in, Output out, int rows, int cols) {
  const int by = blockIdx.x * kThreads + threadIdx.x;  // Appendix B's i / 4: the block row
  const int bx = blockIdx.y * kThreads + threadIdx.y;  // Appendix B's j / 4: the block column
  const int subband = blockIdx.z;
  if (by >= rows || bx >= cols) return;
  const Samples samples = Samples::make(in, subband);

  Real v[detail::kBlockSamples];
  detail::gather_block(samples, by * kBlockStride, bx * kBlockStride, v);
  const Real mean = detail::private_block_mean(v);
  if constexpr (std::is_same_v<Output, A5MeanOutput<Real>>) {
    detail::store_block_mean(out, subband, by, bx, mean);
  } else {
    Real s2, s3, s4;
    detail::private_central_sums(v, mean, s2, s3, s4);
    detail::store_block_stats(out, subband, by, bx, s2, s3, s4);
  }
}

}  // namespace

template <class Real, class Output>
void launch_a5_original(const A5Input<Real>& in, const Output& out, const BlockGrid& grid,
                        cudaStream_t stream) {
  detail::launch_a5_thesis_variant(
      in, out, grid, "a5-original", kThreads, kThreads, [&](auto samples, dim3 cta_grid) {
        cuda::launch_kernel(a5_original_kernel<Real, decltype(samples), Output>, cta_grid,
                            dim3(kThreads, kThreads), 0, stream, in, out, grid.rows, grid.cols);
      });
}

MAD_A5_INSTANTIATE_STATS_AND_MEAN(launch_a5_original, );

}  // namespace mad::appearance
