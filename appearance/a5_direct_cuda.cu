// A5 variant "a5-direct": the block statistics (spec §4.4) from a shared-memory tile of
// samples, with register tiling over vertically adjacent blocks. Direct two-pass per block
// (the block's own mean first, then its central sums over the 256 samples), like the CPU
// reference; FP64-bound at about 6 operations per sample and block.
//
// Strategy. A CTA owns 16 x 8 blocks of one subband (blockIdx.z). It first stages the 44 x 76
// samples those blocks cover (tile + 12-sample halo) in shared memory, evaluating the modulus
// of complex input once per sample there instead of once per covering block (16x). Thread
// (tx, ty) then computes the kRun = 2 blocks (bx0 + tx, by0 + 2 ty + k): it walks the 20 tile
// rows the two blocks span, and every sample it reads updates the accumulators of each of its
// blocks that covers that row (register tiling: 20 row reads instead of 32).
//   pass 1: per row a 16-sample sum, added to each covering block's sum -> means;
//   pass 2: d = a - mean_k, S2 += d^2, S3 += d^3, S4 += d^4, split into two interleaved
//           partial sums (even/odd column) for instruction-level parallelism.
// Shared layout. Thread tx reads columns 4 tx + j at the same time as its neighbours, i.e. a
// stride of 4 words: 4-way bank conflicts in a plain row. Each tile row is therefore stored
// de-interleaved by column residue mod 4, column c at (c % 4) * 19 + c / 4, so the 16 threads
// of a row read 16 consecutive words. Rows are 78 words apart (2 words of padding) so that the
// two half-warps, which read rows 8 apart, hit different banks in float.
// Launch shape: 16 x 4 threads, grid (ceil(cols/16), ceil(rows/8), subbands); 27.5 KB of
// shared memory in double, 13.7 KB in float.
#include "appearance/a5_device_cuda.cuh"
#include "common/kernel_launch.cuh"

namespace mad::appearance {
namespace {

constexpr int kThreadsX = 16;
constexpr int kThreadsY = 4;
constexpr int kRun = 2;                                                // blocks per thread
constexpr int kCtaBlocksX = kThreadsX;                                 // 16
constexpr int kCtaBlocksY = kThreadsY * kRun;                          // 8
constexpr int kTileH = kBlockStride * (kCtaBlocksY - 1) + kBlockSize;  // 44
constexpr int kTileW = kBlockStride * (kCtaBlocksX - 1) + kBlockSize;  // 76
constexpr int kQuarterW = kTileW / kBlockStride;                       // 19
constexpr int kRowStride = kBlockStride * kQuarterW + 2;               // 78
constexpr int kRowGroups = kRun + kBlockSize / kBlockStride - 1;       // 5 groups of 4 rows
static_assert(kTileW % kBlockStride == 0, "tile width must split into 4 residue classes");
static_assert(kThreadsX - 1 + (kBlockSize - 1) / kBlockStride < kQuarterW,
              "a thread's reads must stay inside its residue class");

// Offset of tile column c within a tile row (de-interleaved by c mod 4).
__device__ __forceinline__ int tile_column(int c) {
  return (c & 3) * kQuarterW + (c >> 2);
}

template <class Real, class Samples>
__global__ void __launch_bounds__(kThreadsX* kThreadsY)
    a5_direct_kernel(A5Input<Real> in, A5Output<Real> out, int rows, int cols, int height,
                     int width) {
  __shared__ Real tile[kTileH * kRowStride];
  const int subband = blockIdx.z;
  const int bx0 = blockIdx.x * kCtaBlocksX, by0 = blockIdx.y * kCtaBlocksY;
  const int y0 = by0 * kBlockStride, x0 = bx0 * kBlockStride;

  // Stage the tile; samples past the image edge are 0 and only feed blocks that are not
  // written (a valid block lies inside the image).
  {
    const Samples samples = Samples::make(in, subband);
    const int tid = threadIdx.y * kThreadsX + threadIdx.x;
    for (int k = tid; k < kTileH * kTileW; k += kThreadsX * kThreadsY) {
      const int r = k / kTileW, c = k - r * kTileW;
      const int y = y0 + r, x = x0 + c;
      tile[r * kRowStride + tile_column(c)] = (y < height && x < width) ? samples(y, x) : Real(0);
    }
  }
  __syncthreads();

  const int tx = threadIdx.x;
  // This thread's blocks start at tile rows r0 + 4k; block k spans row groups k..k+3.
  const int r0 = threadIdx.y * kRun * kBlockStride;
  const Real* base = tile + r0 * kRowStride + tx;

  Real sum[kRun];
#pragma unroll
  for (int k = 0; k < kRun; ++k) sum[k] = 0;
#pragma unroll
  for (int q = 0; q < kRowGroups; ++q) {
#pragma unroll 1
    for (int rr = 0; rr < kBlockStride; ++rr) {
      const Real* row = base + (q * kBlockStride + rr) * kRowStride;
      Real row_sum = 0;
#pragma unroll
      for (int j = 0; j < kBlockSize; ++j) row_sum += row[(j & 3) * kQuarterW + (j >> 2)];
#pragma unroll
      for (int k = 0; k < kRun; ++k)
        if (q >= k && q <= k + 3) sum[k] += row_sum;
    }
  }
  Real mean[kRun];
#pragma unroll
  for (int k = 0; k < kRun; ++k) mean[k] = sum[k] / Real(kBlockSize * kBlockSize);

  Real s2[kRun][2], s3[kRun][2], s4[kRun][2];
#pragma unroll
  for (int k = 0; k < kRun; ++k)
#pragma unroll
    for (int p = 0; p < 2; ++p) s2[k][p] = s3[k][p] = s4[k][p] = 0;
#pragma unroll
  for (int q = 0; q < kRowGroups; ++q) {
#pragma unroll 1
    for (int rr = 0; rr < kBlockStride; ++rr) {
      const Real* row = base + (q * kBlockStride + rr) * kRowStride;
#pragma unroll
      for (int j = 0; j < kBlockSize; ++j) {
        const Real a = row[(j & 3) * kQuarterW + (j >> 2)];
#pragma unroll
        for (int k = 0; k < kRun; ++k) {
          if (q >= k && q <= k + 3) {
            const Real d = a - mean[k];
            const Real d2 = d * d;
            s2[k][j & 1] += d2;
            s3[k][j & 1] = detail::fma_rn(d2, d, s3[k][j & 1]);
            s4[k][j & 1] = detail::fma_rn(d2, d2, s4[k][j & 1]);
          }
        }
      }
    }
  }

  const int bx = bx0 + tx;
#pragma unroll
  for (int k = 0; k < kRun; ++k) {
    const int by = by0 + threadIdx.y * kRun + k;
    if (bx < cols && by < rows)
      detail::store_block_stats(out, subband, by, bx, s2[k][0] + s2[k][1], s3[k][0] + s3[k][1],
                                s4[k][0] + s4[k][1]);
  }
}

}  // namespace

MAD_A5_IMAGE_KERNEL_LAUNCH(launch_a5_direct, "a5-direct", a5_direct_kernel, kCtaBlocksX,
                           kCtaBlocksY, dim3(kThreadsX, kThreadsY));

}  // namespace mad::appearance
