// The `strip` variant of the 5x5 triangular smoothing (Clip border), registered in
// kernels/variant_tables.cpp: a separable, register-only form aimed at the copy bandwidth.
//
// Floor. An 8-bit image of P samples (pixels x channels) must be read once and written once:
// 2P compulsory bytes (134 MB at 8192x8192, 1 channel: ~45 us at the H100's ~2983 GB/s
// device-to-device copy). The arithmetic is ~25 integer operations per sample here (against 50
// multiply-adds of the direct 25-tap form), i.e. ~1.7 G thread-instructions at 8192x8192, about
// a quarter of the SMs' issue capacity over those 45 us: the kernel is memory-bound, and the
// expected share is 70-85% of the copy bandwidth (the halo re-reads below are L2 hits).
//
// Why this gets there. The filter is box1 + box3 + box5 (kernels/smooth.h), each separable:
// with h1 = v, h3 = v[-C] + v + v[+C] and h5 = h3 + v[-2C] + v[+2C] along a row (C = channels,
// the distance between horizontal neighbours), and per row a = h5, b = h5 + h3, c = b + h1,
//     S(y) = a(y-2) + b(y-1) + c(y) + b(y+1) + a(y+2).
// Each lane owns one 32-bit word (4 adjacent samples) of a column strip and walks DOWN
// kStripRows output rows, keeping the four partial output sums S(y-2..y+1) in registers (a
// vertical sliding window): every input row is loaded once per strip (plus 4 rows of vertical
// halo: 36/32 = 1.125x) as one coalesced 32-bit load per lane; the horizontal halo (4 samples a
// side for C <= 2, 8 for C >= 3) comes from the neighbouring lanes through warp shuffles, and
// only the two edge lanes on each side load one extra word (36 words read per 32 used). The
// output is one coalesced 32-bit store per lane per row. kBatch rows are loaded before any is
// used, so each lane keeps 2 x kBatch loads in flight (memory-level parallelism without shared
// memory or barriers: warps are independent).
//
// Borders (Clip). Samples outside the image read as zero, so S is the sum over the inside
// taps; W is 35 inside (a compile-time divisor: a multiply-high, no division) and the closed
// form smooth_weight_sum_at() within 2 pixels of an edge. Rounding is smooth_round's exact
// (2S + W) / (2W), so the output equals smooth_cpu bit for bit. Any width (a partial last word
// is loaded and stored byte by byte), any channel count 1..4 (a template parameter), any pitch:
// when both images' base addresses and pitches are multiples of 4 the full words are loaded and
// stored as 32-bit words, otherwise byte by byte (the same arithmetic).
//
// Launch shape: CTAs of kWarps warps side by side along x (kWarps x 128 samples), one grid row
// per kStripRows output rows (a CTA-uniform grid-stride loop past 65535 grid rows).
#include <algorithm>
#include <cstdint>

#include "common/cuda_check.h"
#include "common/kernel_launch.cuh"
#include "common/error.h"
#include "kernels/smooth_cuda.h"

namespace mad::kernels {
namespace {

constexpr int kR = kSmoothRadius;
constexpr int kWarps = 4;              // warps per CTA, side by side along x
constexpr int kThreads = 32 * kWarps;  // 128 threads, 512 samples of a row
constexpr int kStripRows = 32;         // output rows per warp (1.125x vertical re-read)
constexpr int kBatch = 8;              // input rows loaded before any is used
constexpr int kMaxGridY = 65535;
constexpr unsigned kFullMask = 0xffffffffu;

// Word k (samples 4k..4k+3) of one row; samples outside 0..samples-1 read as zero. kAligned:
// `row` is 4-byte aligned, so a word wholly inside the row is one 32-bit load.
template <bool kAligned>
__device__ __forceinline__ std::uint32_t load_word(const std::uint8_t* row, int k, int samples) {
  const int s = 4 * k;
  if (k < 0 || s >= samples) return 0;
  if (kAligned && s + 4 <= samples) return __ldg(reinterpret_cast<const unsigned int*>(row + s));
  std::uint32_t word = 0;
#pragma unroll
  for (int j = 0; j < 4; ++j)
    if (s + j < samples) word |= static_cast<std::uint32_t>(__ldg(row + s + j)) << (8 * j);
  return word;
}

// Stores the 4 samples of `word` at samples 4k.. of `row`, the ones inside the row only.
template <bool kAligned>
__device__ __forceinline__ void store_word(std::uint8_t* row, int k, int samples,
                                           std::uint32_t word) {
  const int s = 4 * k;
  if (kAligned && s + 4 <= samples) {
    *reinterpret_cast<unsigned int*>(row + s) = word;
    return;
  }
#pragma unroll
  for (int j = 0; j < 4; ++j)
    if (s + j < samples) row[s + j] = static_cast<std::uint8_t>(word >> (8 * j));
}

__device__ __forceinline__ int byte_of(std::uint32_t word, int j) {
  return static_cast<int>((word >> (8 * j)) & 0xffu);
}

template <int kChannels, bool kAligned>
__global__ void __launch_bounds__(kThreads)
    smooth_strip_kernel(ImageView<const std::uint8_t> src, ImageView<std::uint8_t> dst) {
  constexpr int C = kChannels;
  const int samples = src.width, height = src.height, width = samples / C;
  const int words = (samples + 3) / 4;
  const int lane = threadIdx.x & 31;
  const int k = (blockIdx.x * kWarps + static_cast<int>(threadIdx.x >> 5)) * 32 + lane;
  // A warp wholly past the row's end has nothing to do. The test is uniform over the warp (k -
  // lane is its first word), so the remaining warps keep all 32 lanes for the shuffles; there
  // is no CTA barrier in this kernel.
  if (k - lane >= words) return;
  // The edge lanes' extra word: lanes 0 and 1 also hold word k - 2, lanes 30 and 31 word k + 2.
  const bool has_halo = lane < 2 || lane >= 30;
  const int halo_k = lane < 2 ? k - 2 : k + 2;
  const int s0 = 4 * k;
  const bool lane_writes = s0 < samples;
  // Pixels of this word's first and last sample: the word is horizontally inside when both are
  // at least 2 pixels from the left and right edges (then every sample has W = 35 in the
  // interior rows).
  const bool x_inside = s0 / C >= kR && (s0 + 3) / C <= width - 1 - kR;

  for (int y0 = blockIdx.y * kStripRows; y0 < height; y0 += gridDim.y * kStripRows) {
    const int y_end = min(y0 + kStripRows, height);
    // Input rows y0-2 .. y_end+1 (rows outside the image are zero); output row i-2 is complete
    // once input row i is added.
    const int i_end = y_end + kR;
    // p[0..3][j]: partial sums of output rows i-2 .. i+1 before input row i.
    int p0[4] = {0, 0, 0, 0}, p1[4] = {0, 0, 0, 0}, p2[4] = {0, 0, 0, 0}, p3[4] = {0, 0, 0, 0};
    for (int ib = y0 - kR; ib < i_end; ib += kBatch) {
      std::uint32_t mine[kBatch], extra[kBatch];
#pragma unroll
      for (int b = 0; b < kBatch; ++b) {
        const int i = ib + b;
        const bool row_ok = i >= 0 && i < height && i < i_end;
        const std::uint8_t* row = src.data + static_cast<std::ptrdiff_t>(row_ok ? i : 0) * src.pitch;
        mine[b] = row_ok ? load_word<kAligned>(row, k, samples) : 0u;
        extra[b] = row_ok && has_halo ? load_word<kAligned>(row, halo_k, samples) : 0u;
      }
#pragma unroll
      for (int b = 0; b < kBatch; ++b) {
        const int i = ib + b;
        if (i >= i_end) break;  // uniform over the CTA
        // Neighbouring words from the neighbouring lanes; the edge lanes take the extra words
        // (lane 0's left word is lane 1's extra, lane 31's right word is lane 30's: one xor
        // shuffle serves both).
        const std::uint32_t m = mine[b], e = extra[b];
        const std::uint32_t swapped = __shfl_xor_sync(kFullMask, e, 1);
        std::uint32_t left1 = __shfl_up_sync(kFullMask, m, 1);
        std::uint32_t right1 = __shfl_down_sync(kFullMask, m, 1);
        if (lane == 0) left1 = swapped;
        if (lane == 31) right1 = swapped;
        std::uint32_t left2 = 0, right2 = 0;
        if constexpr (C >= 3) {  // the halo reaches 2C = 6 or 8 samples: two words a side
          left2 = __shfl_up_sync(kFullMask, m, 2);
          right2 = __shfl_down_sync(kFullMask, m, 2);
          if (lane < 2) left2 = e;
          if (lane >= 30) right2 = e;
        }
        // v[t] = sample s0 - 8 + t, t in 0..19.
        int v[20];
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          v[j] = byte_of(left2, j);
          v[4 + j] = byte_of(left1, j);
          v[8 + j] = byte_of(m, j);
          v[12 + j] = byte_of(right1, j);
          v[16 + j] = byte_of(right2, j);
        }
        int out[4];
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          const int t = 8 + j;
          const int h3 = v[t - C] + v[t] + v[t + C];
          const int h5 = h3 + v[t - 2 * C] + v[t + 2 * C];
          const int a = h5, bb = h5 + h3, c = bb + v[t];
          out[j] = p0[j] + a;  // output row i - 2 complete
          p0[j] = p1[j] + bb;
          p1[j] = p2[j] + c;
          p2[j] = p3[j] + bb;
          p3[j] = a;
        }
        const int y = i - kR;  // the output row just completed
        if (y >= y0 && lane_writes) {
          std::uint32_t word = 0;
          if (x_inside && y >= kR && y <= height - 1 - kR) {
#pragma unroll
            for (int j = 0; j < 4; ++j)  // W = 35: a constant divisor
              word |= static_cast<std::uint32_t>(smooth_round(out[j], kSmoothWeightSum))
                      << (8 * j);
          } else {
#pragma unroll
            for (int j = 0; j < 4; ++j) {
              const int x = min(s0 + j, samples - 1) / C;  // samples past the row are not stored
              word |= static_cast<std::uint32_t>(
                          smooth_round(out[j], smooth_weight_sum_at(y, x, height, width)))
                      << (8 * j);
            }
          }
          store_word<kAligned>(dst.data + static_cast<std::ptrdiff_t>(y) * dst.pitch, k, samples,
                               word);
        }
      }
    }
  }
}

template <int kChannels, bool kAligned>
void launch_strip_shape(ImageView<const std::uint8_t> src, ImageView<std::uint8_t> dst,
                        cudaStream_t s) {
  const int words = (src.width + 3) / 4;
  const dim3 grid((words + kThreads - 1) / kThreads,
                  std::min((src.height + kStripRows - 1) / kStripRows, kMaxGridY));
  cuda::launch_kernel(smooth_strip_kernel<kChannels, kAligned>, grid, dim3(kThreads), 0, s, src,
                      dst);
  MAD_CUDA_CHECK_LAUNCH();
}

template <bool kAligned>
void launch_channels(ImageView<const std::uint8_t> src, int channels, ImageView<std::uint8_t> dst,
                     cudaStream_t s) {
  switch (channels) {
    case 1: return launch_strip_shape<1, kAligned>(src, dst, s);
    case 2: return launch_strip_shape<2, kAligned>(src, dst, s);
    case 3: return launch_strip_shape<3, kAligned>(src, dst, s);
    default: return launch_strip_shape<4, kAligned>(src, dst, s);
  }
}

bool word_aligned(const void* p, std::ptrdiff_t pitch) {
  return reinterpret_cast<std::uintptr_t>(p) % 4 == 0 && pitch % 4 == 0;
}

}  // namespace

namespace smooth_detail {

void launch_strip(ImageView<const std::uint8_t> src, int channels, ImageView<std::uint8_t> dst,
                  DeviceScratch, cudaStream_t s) {
  validate_smooth_input(src, channels);
  if (dst.data == nullptr || dst.width != src.width || dst.height != src.height)
    throw InvalidArgument("smooth: device output must have the input's shape");
  if (word_aligned(src.data, src.pitch) && word_aligned(dst.data, dst.pitch))
    launch_channels<true>(src, channels, dst, s);
  else
    launch_channels<false>(src, channels, dst, s);
}

}  // namespace smooth_detail
}  // namespace mad::kernels
