// Histogram variant `lane_private`: aims at the copy-bandwidth floor on every pattern of
// kernels/histogram_patterns.h.
//
// The floor: the image is read once (W x H bytes) and 256 bins are written; at 8192x8192 on an
// H100 that is 64 MiB, ~22 us at the measured copy bandwidth. Reaching 75% of it leaves ~30 us,
// i.e. about 8.6 pixels per SM per clock. A shared-memory atomic per pixel is affordable only
// if no atomic instruction is ever replayed for bank conflicts or address collisions, whatever
// the image. The design choices, and the pattern each one answers:
//
//   * 32 lane-private sub-histograms per CTA, bin-major: counter (bin, lane) is the 32-bit word
//     bin * 32 + lane, shared by the CTA's warps. Lane L only ever touches bank L, so a warp's
//     atomic instruction hits 32 distinct banks and 32 distinct addresses for ANY 32 values:
//     uniform random (random bank conflicts in a per-warp histogram), stripes_256 (lanes 16
//     bytes apart read values 16 apart: 16-way conflicts in a plain bin-indexed histogram) and
//     monochrome (32 lanes on one address) all cost one wavefront per instruction. Warps of the
//     CTA may add to the same word; the atomics make that exact, and it is not a conflict.
//     32 x 256 x 4 B = 32 KiB per CTA; 32-bit counters cannot overflow (validate_histogram_input
//     caps the image below 2^32 pixels).
//   * Equal runs counted at once: a 16-byte chunk whose bytes are all equal is one atomic of
//     +16, otherwise each 4-byte word whose bytes are equal is one atomic of +4. Monochrome,
//     both gradients (a horizontal ramp changes value every ~32 columns at 8192 wide, a vertical
//     one never along a row) and stripes_20 (8-pixel stripes) then issue 1/16 to 1/4 of an atomic
//     per pixel; random and stripes_256 take the per-byte path (one atomic per pixel), which the
//     conflict-free layout above keeps at full rate.
//   * Wide loads: one uint4 (16 pixels) per thread per step, two steps in flight per thread, on
//     a grid of a few CTAs per SM (grid-stride over rows, so no division per pixel); row heads
//     before the first 16-byte boundary and row tails go through the byte path, so any pitch
//     and alignment is exact (the tests use an odd pitch).
//   * One merge per CTA: thread b sums bin b over the 32 lanes (reading the lanes in a rotated
//     order: conflict-free) and adds it to the global bin with one atomic; 256 global atomics
//     per CTA whatever the image.
// Launch: 256-thread CTAs, 4 per SM (occupancy allows 6 with 33 KiB each), capped at the number
// of rows; bins zeroed with cudaMemsetAsync first (inside the timed run).
//
// Measured (H100, mad bench, 8192x8192, share of the ~2990 GB/s copy bandwidth; three runs):
// uniform_random 0.0326-0.0339 ms = 66-69%, stripes_256 0.033 ms = 66-68%, gradient_horizontal
// 0.032 ms = 70%, stripes_20 0.0305 ms = 73-74%, gradient_vertical 0.0297 ms = 75-76%,
// monochrome 0.0294 ms = 76-77%; 34 registers, 75% theoretical occupancy (cub: 48-72%).
// Short of the 75% goal on random, stripes_256 and the horizontal gradient. Monochrome (almost
// no atomics) at 76% marks what the launch, the memset and the row loop leave; random pays ~4
// us more for one shared atomic per pixel (~16 K warp atomics per SM). Tried and slower: 3 or
// 5 CTAs per SM, two rows per step (more loads in flight, but 60% on random). Ideas not tried:
// folding the bins' zeroing into the kernel (one launch less in the timed run), and fewer
// shared atomics per pixel on random rows.
#include <algorithm>

#include "common/cuda_check.h"
#include "common/kernel_launch.cuh"
#include "kernels/device_image_cuda.h"
#include "kernels/histogram_cuda.h"

namespace mad::kernels::histogram_detail {
namespace {

constexpr int kThreads = 256;
constexpr int kLanes = 32;
constexpr int kCtasPerSm = 4;  // 3 and 5 measured slower on uniform_random (64.4%, 67.3%)
// Rows read together per step: 2 measured slower on uniform_random and stripes_256 (60%; not
// profiled) though a little faster on the run-rich patterns.
constexpr int kRowsPerStep = 1;

// Counts one byte into the calling lane's sub-histogram.
__device__ __forceinline__ void count_byte(unsigned* h, unsigned lane, unsigned value,
                                           unsigned n = 1) {
  atomicAdd(&h[value * kLanes + lane], n);
}

// Counts the 4 bytes of `word`: one atomic when they are equal.
__device__ __forceinline__ void count_word(unsigned* h, unsigned lane, unsigned word) {
  const unsigned first = word & 0xFFu;
  if (word == first * 0x01010101u) {
    count_byte(h, lane, first, 4);
  } else {
    count_byte(h, lane, first);
    count_byte(h, lane, (word >> 8) & 0xFFu);
    count_byte(h, lane, (word >> 16) & 0xFFu);
    count_byte(h, lane, word >> 24);
  }
}

// Counts 16 bytes: one atomic when all are equal, else word by word.
__device__ __forceinline__ void count_chunk(unsigned* h, unsigned lane, uint4 c) {
  const unsigned first = c.x & 0xFFu;
  const unsigned splat = first * 0x01010101u;
  if (c.x == splat && c.y == splat && c.z == splat && c.w == splat) {
    count_byte(h, lane, first, 16);
  } else {
    count_word(h, lane, c.x);
    count_word(h, lane, c.y);
    count_word(h, lane, c.z);
    count_word(h, lane, c.w);
  }
}

// One row's layout: bytes before the first 16-byte boundary, whole aligned chunks, the tail.
struct RowParts {
  const std::uint8_t* row;
  const uint4* body;
  int head, chunks;
};

__device__ __forceinline__ RowParts row_parts(ImageView<const std::uint8_t> src, int y) {
  RowParts r;
  r.row = src.data + static_cast<std::ptrdiff_t>(y) * src.pitch;
  r.head =
      min(src.width, static_cast<int>((16 - (reinterpret_cast<std::uintptr_t>(r.row) & 15)) & 15));
  r.chunks = (src.width - r.head) / 16;
  r.body = reinterpret_cast<const uint4*>(r.row + r.head);
  return r;
}

// kRows rows of the CTA's grid-stride sequence are read together: each thread has 2 x kRows
// uint4 loads in flight before its first atomic of the step.
template <int kRows>
__global__ void __launch_bounds__(kThreads)
    histogram_lane_private_kernel(ImageView<const std::uint8_t> src, unsigned* bins) {
  __shared__ unsigned h[kHistogramBins * kLanes];
  for (int i = threadIdx.x; i < kHistogramBins * kLanes; i += kThreads) h[i] = 0;
  __syncthreads();
  const unsigned lane = threadIdx.x % kLanes;
  const int stride = gridDim.x;
  for (int y0 = blockIdx.x; y0 < src.height; y0 += kRows * stride) {
    RowParts r[kRows];
    bool valid[kRows];
    int most = 0;
#pragma unroll
    for (int j = 0; j < kRows; ++j) {
      const int y = min(y0 + j * stride, src.height - 1);
      r[j] = row_parts(src, y);
      valid[j] = y0 + j * stride < src.height;
      if (!valid[j]) r[j].head = r[j].chunks = 0;  // past the last row: nothing to count
      most = max(most, r[j].chunks);
    }
    // Two chunks per row in flight per thread (a row of 8192 bytes is exactly 2 per thread).
    for (int c = threadIdx.x; c < most; c += 2 * kThreads) {
      uint4 a[kRows], b[kRows];
#pragma unroll
      for (int j = 0; j < kRows; ++j) {
        a[j] = c < r[j].chunks ? r[j].body[c] : make_uint4(0, 0, 0, 0);
        b[j] = c + kThreads < r[j].chunks ? r[j].body[c + kThreads] : make_uint4(0, 0, 0, 0);
      }
#pragma unroll
      for (int j = 0; j < kRows; ++j) {
        if (c < r[j].chunks) count_chunk(h, lane, a[j]);
        if (c + kThreads < r[j].chunks) count_chunk(h, lane, b[j]);
      }
    }
#pragma unroll
    for (int j = 0; j < kRows; ++j) {
      if (!valid[j]) continue;
      for (int x = threadIdx.x; x < r[j].head; x += kThreads) count_byte(h, lane, r[j].row[x]);
      for (int x = r[j].head + r[j].chunks * 16 + threadIdx.x; x < src.width; x += kThreads)
        count_byte(h, lane, r[j].row[x]);
    }
  }
  __syncthreads();
  // Thread b merges bin b; lane order rotated by b so the 32 reads of a warp hit 32 banks.
  for (int b = threadIdx.x; b < kHistogramBins; b += kThreads) {
    unsigned sum = 0;
#pragma unroll 8
    for (int l = 0; l < kLanes; ++l) sum += h[b * kLanes + ((l + b) % kLanes)];
    if (sum != 0) atomicAdd(&bins[b], sum);
  }
}

}  // namespace

// Registered in kernels/variant_tables.cpp.
void launch_lane_private(ImageView<const std::uint8_t> src, std::uint32_t* bins, DeviceScratch,
                         cudaStream_t s) {
  validate_histogram_input(src);  // field checks only; never dereferences device memory
  if (bins == nullptr) throw InvalidArgument("histogram: bins pointer is null");
  MAD_CUDA_CHECK(cudaMemsetAsync(bins, 0, kHistogramBins * sizeof(std::uint32_t), s));
  const int blocks = std::max(1, std::min(src.height, kCtasPerSm * device_sm_count()));
  cuda::launch_kernel(histogram_lane_private_kernel<kRowsPerStep>, dim3(blocks), dim3(kThreads), 0,
                      s, src, bins);
  MAD_CUDA_CHECK_LAUNCH();
}

}  // namespace mad::kernels::histogram_detail
