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
//     +16 (monochrome, both gradients). Everything else takes one atomic per byte, which the
//     conflict-free layout keeps at full rate: a byte permute, a shift-and-add and the atomic.
//     (The 2026-11-24 form also counted each equal 4-byte word at once; on uniform random data
//     that test and its branches cost more instructions than the atomics they save.)
//   * Loads pipelined across rows: the next step's loads are issued before the current step's
//     atomics. The profile of the 2026-11-24 form (issue a row's loads, then wait for them) was
//     dominated by long-scoreboard stalls with 46% of the SM's warps active.
//   * Two forms. Dense (base and pitch multiples of 16, so every row is whole 16-byte chunks
//     plus the same tail): CTA b takes a band of consecutive rows, and its threads walk the
//     band's chunks as one flattened sequence, 4 uint4 a step and 4 more in flight, whatever
//     the width; the tails are counted byte by byte after the band. General (any alignment:
//     row heads before the first 16-byte boundary and tails go through the byte path): CTAs
//     stride over rows, two uint4 a step.
//   * One merge per CTA: thread b sums bin b over the 32 lanes (reading the lanes in a rotated
//     order: conflict-free) and adds it to the global bin with one atomic; 256 global atomics
//     per CTA whatever the image.
// Launch: dense, one 1024-thread CTA per SM; general, 256-thread CTAs, 4 per SM (occupancy
// allows 6 with 33 KiB each); both capped at the number of rows; bins zeroed with
// cudaMemsetAsync first (inside the timed run).
//
// Measured (H100, mad bench, 8192x8192, share of the 2996 GB/s copy bandwidth, one run, issue
// 12's goal 75%): uniform_random 0.0293 ms = 76.5%, stripes_256 76.5%, gradient_horizontal
// 76.6%, stripes_20 76.9%, gradient_vertical 78.2%, monochrome 78.4%; 60 registers, 50%
// theoretical occupancy. The 2026-11-24 form measured 66-69% on random in three runs
// (0.0326-0.0339 ms); the pipelined loads alone gave 71.4%, the dense form's shapes (CTA
// threads x CTAs per SM, chunks a step): 256 x 4, 4: 73.0%; 512 x 2, 4: 76.3%; 1024 x 1, 4:
// 76.5%. Monochrome (almost no atomics) at 78% marks what the launch, the memset and the
// merge leave. An ncu profile of the pipelined general form: 79% of issue slots busy, DRAM at
// 62% of its peak.
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
// The dense form (aligned rows): one 1024-thread CTA per SM, 4 chunks a step. Measured at
// 8192x8192, uniform_random, share of the copy bandwidth (one run): 256 threads x 4 CTAs, 4
// chunks 73.0%; 256 x 4, 2 chunks 71.4%; 512 x 2, 4 chunks 76.3%; 1024 x 1, 4 chunks 76.5%.
constexpr int kDenseThreads = 1024;
constexpr int kDenseUnroll = 4;
constexpr int kDenseCtasPerSm = 1;

// Counts one byte into the calling lane's sub-histogram. `lane_base` is the shared-memory
// address of counter (0, lane), so counter (value, lane) is one shift-and-add away (words
// bin * 32 + lane: 128 bytes per bin). Written as PTX so that the address stays one LEA from
// the 32-bit shared address (nvcc otherwise rebuilt it from the generic pointer with two
// multiply-adds per byte).
__device__ __forceinline__ void count_byte(unsigned lane_base, unsigned value, unsigned n = 1) {
  asm volatile("red.shared.add.u32 [%0], %1;\n" ::"r"(lane_base + (value << 7)), "r"(n) : "memory");
}

// Byte j of `word`, zero-extended (one byte permute).
template <int kJ>
__device__ __forceinline__ unsigned byte_at(unsigned word) {
  return __byte_perm(word, 0u, 0x4440u + kJ);
}

__device__ __forceinline__ void count_word(unsigned lane_base, unsigned word) {
  count_byte(lane_base, byte_at<0>(word));
  count_byte(lane_base, byte_at<1>(word));
  count_byte(lane_base, byte_at<2>(word));
  count_byte(lane_base, byte_at<3>(word));
}

// Counts 16 bytes: one atomic when all are equal (runs: monochrome, gradients), else one per
// byte. (The 2026-11-24 form also counted each equal 4-byte word at once; on uniform random
// data that test and its branches cost more instructions than the atomics they save, and this
// kernel is bound by instruction issue once its loads are pipelined.)
__device__ __forceinline__ void count_chunk(unsigned lane_base, uint4 c) {
  if (c.x == c.y && c.y == c.z && c.z == c.w && c.x == __funnelshift_l(c.x, c.x, 8)) {
    count_byte(lane_base, byte_at<0>(c.x), 16);
  } else {
    count_word(lane_base, c.x);
    count_word(lane_base, c.y);
    count_word(lane_base, c.z);
    count_word(lane_base, c.w);
  }
}

// Zeroes the CTA's 32 sub-histograms (then a barrier) and returns the calling lane's base
// address for count_byte.
template <int kCtaThreads>
__device__ __forceinline__ unsigned zero_sub_histograms(unsigned* h) {
  for (int i = threadIdx.x; i < kHistogramBins * kLanes; i += kCtaThreads) h[i] = 0;
  __syncthreads();
  return static_cast<unsigned>(__cvta_generic_to_shared(h)) + 4u * (threadIdx.x % kLanes);
}

// After a barrier, thread b merges bin b over the 32 lanes into the global bins (lane order
// rotated by b, so the 32 reads of a warp hit 32 banks): 256 global atomics per CTA.
template <int kCtaThreads>
__device__ __forceinline__ void merge_sub_histograms(const unsigned* h, unsigned* bins) {
  __syncthreads();
  for (int b = threadIdx.x; b < kHistogramBins; b += kCtaThreads) {
    unsigned sum = 0;
#pragma unroll 8
    for (int l = 0; l < kLanes; ++l) sum += h[b * kLanes + ((l + b) % kLanes)];
    if (sum != 0) atomicAdd(&bins[b], sum);
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

// General form. The thread's chunks, in order: row y (the CTA's grid-stride rows), chunks c, c +
// kThreads of the row's aligned body (c = threadIdx.x + 2 kThreads j). One step = those two chunks.
struct Step {
  int y, c;
};

// The two uint4 of a step (zeros for chunks past the row's body).
struct StepData {
  uint4 a, b;
};

__device__ __forceinline__ StepData load_step(const RowParts& r, int c) {
  StepData d;
  d.a = c < r.chunks ? __ldg(r.body + c) : make_uint4(0, 0, 0, 0);
  d.b = c + kThreads < r.chunks ? __ldg(r.body + c + kThreads) : make_uint4(0, 0, 0, 0);
  return d;
}

// Counts the bytes of row r outside its aligned body (the head before the first 16-byte
// boundary and the tail after the last whole chunk).
__device__ __forceinline__ void count_row_edges(unsigned hl, const RowParts& r, int width) {
  for (int x = threadIdx.x; x < r.head; x += kThreads) count_byte(hl, r.row[x]);
  for (int x = r.head + r.chunks * 16 + threadIdx.x; x < width; x += kThreads)
    count_byte(hl, r.row[x]);
}

// Software-pipelined over the thread's steps: the next step's two loads are issued before the
// current step's atomics, so each thread keeps up to 4 uint4 (64 bytes) in flight across rows.
__global__ void __launch_bounds__(kThreads)
    histogram_lane_private_kernel(ImageView<const std::uint8_t> src, unsigned* bins) {
  __shared__ unsigned h[kHistogramBins * kLanes];
  const unsigned hl = zero_sub_histograms<kThreads>(h);
  const int stride = gridDim.x;
  int y = blockIdx.x;
  if (y < src.height) {
    RowParts r = row_parts(src, y);
    int c = threadIdx.x;
    StepData cur = load_step(r, c);
    for (;;) {
      // The next step: further along this row, else the first step of the CTA's next row.
      int next_y = y, next_c = c + 2 * kThreads;
      RowParts next_r = r;
      if (next_c >= r.chunks) {
        next_y = y + stride;
        next_c = threadIdx.x;
        if (next_y < src.height) next_r = row_parts(src, next_y);
      }
      const bool more = next_y < src.height;
      StepData nxt;
      if (more) nxt = load_step(next_r, next_c);
      if (c < r.chunks) count_chunk(hl, cur.a);
      if (c + kThreads < r.chunks) count_chunk(hl, cur.b);
      if (next_y != y) count_row_edges(hl, r, src.width);
      if (!more) break;
      y = next_y, c = next_c, r = next_r, cur = nxt;
    }
  }
  merge_sub_histograms<kThreads>(h, bins);
}

// Dense form: both the base and the pitch are multiples of 16, so every row is whole chunks
// plus the same tail of width % 16 bytes. CTA b takes a band of consecutive rows (bands differ
// by at most one row) and its threads walk the band's chunks as one flattened sequence, kUnroll
// chunks a step, the next step's loads issued before the current step's atomics: each thread
// keeps 2 kUnroll uint4 in flight whatever the image's width, with no per-row bookkeeping
// beyond a wrap test. The one merge per CTA is as above.
template <int kCtaThreads, int kUnroll>
__global__ void __launch_bounds__(kCtaThreads)
    histogram_lane_private_dense_kernel(ImageView<const std::uint8_t> src, unsigned* bins) {
  __shared__ unsigned h[kHistogramBins * kLanes];
  const unsigned hl = zero_sub_histograms<kCtaThreads>(h);
  const int row_begin =
      static_cast<int>(static_cast<long long>(src.height) * blockIdx.x / gridDim.x);
  const int row_end =
      static_cast<int>(static_cast<long long>(src.height) * (blockIdx.x + 1) / gridDim.x);
  const int chunks = src.width / 16;
  if (chunks > 0) {
    // Chunk k of the thread's sequence: (row, c) with c < chunks; `next` advances by kCtaThreads
    // chunks, wrapping into the following rows.
    struct Cursor {
      int row, c;
      const uint4* p;
    };
    const auto start = [&](int q) {
      Cursor k;
      k.row = row_begin + q / chunks;
      k.c = q % chunks;
      k.p = reinterpret_cast<const uint4*>(src.data +
                                           static_cast<std::ptrdiff_t>(k.row) * src.pitch) +
            k.c;
      return k;
    };
    const std::ptrdiff_t wrap_step =
        src.pitch / 16 - chunks;  // uint4s from a row's end to the next row
    const auto advance = [&](Cursor& k) {
      k.c += kCtaThreads;
      k.p += kCtaThreads;
      while (k.c >= chunks) {
        k.c -= chunks;
        ++k.row;
        k.p += wrap_step;
      }
    };
    Cursor k = start(threadIdx.x);
    // The thread's next kUnroll chunks (zeros, not ok, past the band), k moved past them. One
    // group is loaded while the previous one is counted.
    const auto load = [&](uint4(&v)[kUnroll], bool(&ok)[kUnroll]) {
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        ok[u] = k.row < row_end;
        v[u] = ok[u] ? __ldg(k.p) : make_uint4(0, 0, 0, 0);
        advance(k);
      }
    };
    uint4 cur[kUnroll];
    bool cur_ok[kUnroll];
    load(cur, cur_ok);
    while (cur_ok[0]) {
      uint4 nxt[kUnroll];
      bool nxt_ok[kUnroll];
      load(nxt, nxt_ok);
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        if (cur_ok[u]) count_chunk(hl, cur[u]);
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) cur[u] = nxt[u], cur_ok[u] = nxt_ok[u];
    }
  }
  // The tails (width % 16 bytes of every row of the band).
  const int tail = src.width - 16 * chunks;
  for (int e = threadIdx.x; e < (row_end - row_begin) * tail; e += kCtaThreads) {
    const int row = row_begin + e / tail, x = 16 * chunks + e % tail;
    count_byte(hl, src.data[static_cast<std::ptrdiff_t>(row) * src.pitch + x]);
  }
  merge_sub_histograms<kCtaThreads>(h, bins);
}

template <int kCtaThreads, int kUnroll>
void launch_dense(ImageView<const std::uint8_t> src, unsigned* bins, int ctas_per_sm,
                  cudaStream_t s) {
  const int blocks = std::max(1, std::min(src.height, ctas_per_sm * device_sm_count()));
  cuda::launch_kernel(histogram_lane_private_dense_kernel<kCtaThreads, kUnroll>, dim3(blocks),
                      dim3(kCtaThreads), 0, s, src, bins);
  MAD_CUDA_CHECK_LAUNCH();
}

}  // namespace

// Registered in kernels/variant_tables.cpp.
void launch_lane_private(ImageView<const std::uint8_t> src, std::uint32_t* bins, DeviceScratch,
                         cudaStream_t s) {
  validate_histogram_input(src);  // field checks only; never dereferences device memory
  if (bins == nullptr) throw InvalidArgument("histogram: bins pointer is null");
  MAD_CUDA_CHECK(cudaMemsetAsync(bins, 0, kHistogramBins * sizeof(std::uint32_t), s));
  if (src.rows_aligned(16))
    return launch_dense<kDenseThreads, kDenseUnroll>(src, bins, kDenseCtasPerSm, s);
  const int blocks = std::max(1, std::min(src.height, kCtasPerSm * device_sm_count()));
  cuda::launch_kernel(histogram_lane_private_kernel, dim3(blocks), dim3(kThreads), 0, s, src, bins);
  MAD_CUDA_CHECK_LAUNCH();
}

}  // namespace mad::kernels::histogram_detail
