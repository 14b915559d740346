// A5 variant "a5-cta-per-block": a shared-memory form of the block statistics (spec §4.4) with
// one CTA per block and tree reductions; not the thesis's shared-memory form (Appendix C, see
// a5_shared_tile_cuda.cuh), which reuses one 32x32 tile across 4x4 blocks.
//
// Strategy: one 16x16 CTA per block; thread (tx, ty) loads sample (ty, tx) of the block into
// a register and into shared memory as [ty][tx] (consecutive threads, consecutive words: no
// bank conflicts), the CTA tree-reduces the sum (rows first, then row 0's columns, always
// [ty][tx]), every thread subtracts the mean and stores d^2, d^3, d^4, and one more tree
// reduction over the three arrays gives S2, S3, S4.
// Launch shape: 16x16 threads, grid (block columns, block rows, subbands).
#include "appearance/a5_device_cuda.cuh"
#include "common/kernel_launch.cuh"

namespace mad::appearance {
namespace {

constexpr int kSide = kBlockSize;  // 16 threads per block side

// Tree reduction over a 16x16 [ty][tx] layout into [0][0]: rows first ([ty] += [ty + h]),
// then row 0's columns. `step(y, x, src_y, src_x)` adds element (src_y, src_x) into (y, x) of
// every array being reduced. Every thread of the CTA calls it (it synchronises).
template <class Step>
__device__ __forceinline__ void tree_reduce(int ty, int tx, Step step) {
  for (int h = kSide / 2; h >= 1; h /= 2) {
    if (ty < h) step(ty, tx, ty + h, tx);
    __syncthreads();
  }
  for (int h = kSide / 2; h >= 1; h /= 2) {
    if (ty == 0 && tx < h) step(0, tx, 0, tx + h);
    __syncthreads();
  }
}

template <class Real, class Samples>
__global__ void __launch_bounds__(kSide* kSide)
    a5_cta_per_block_kernel(A5Input<Real> in, A5Output<Real> out) {
  __shared__ Real sum[kSide][kSide];
  __shared__ Real m2[kSide][kSide], m3[kSide][kSide], m4[kSide][kSide];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int bx = blockIdx.x, by = blockIdx.y, subband = blockIdx.z;
  const Samples samples = Samples::make(in, subband);

  const Real a = samples(by * kBlockStride + ty, bx * kBlockStride + tx);
  sum[ty][tx] = a;
  __syncthreads();
  tree_reduce(ty, tx, [&](int y, int x, int sy, int sx) { sum[y][x] += sum[sy][sx]; });
  const Real mean = sum[0][0] / Real(kSide * kSide);

  const Real d = a - mean;
  const Real d2 = d * d;
  m2[ty][tx] = d2;
  m3[ty][tx] = d2 * d;
  m4[ty][tx] = d2 * d2;
  __syncthreads();
  tree_reduce(ty, tx, [&](int y, int x, int sy, int sx) {
    m2[y][x] += m2[sy][sx];
    m3[y][x] += m3[sy][sx];
    m4[y][x] += m4[sy][sx];
  });
  if (tx == 0 && ty == 0)
    detail::store_block_stats(out, subband, by, bx, m2[0][0], m3[0][0], m4[0][0]);
}

}  // namespace

template <class Real>
void launch_a5_cta_per_block(const A5Input<Real>& in, const A5Output<Real>& out,
                             const BlockGrid& grid, cudaStream_t stream) {
  detail::launch_a5_variant(in, out, grid, "a5-cta-per-block", 1, 1,
                            [&](auto samples, dim3 cta_grid) {
                              cuda::launch_kernel(a5_cta_per_block_kernel<Real, decltype(samples)>,
                                                  cta_grid, dim3(kSide, kSide), 0, stream, in, out);
                            });
}

MAD_A5_INSTANTIATE_STATS(launch_a5_cta_per_block);

}  // namespace mad::appearance
