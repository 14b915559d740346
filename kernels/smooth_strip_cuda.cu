// The `strip` variant of the 5x5 triangular smoothing (Clip border), registered in
// kernels/variant_tables.cpp: a separable, register-only form aimed at the copy bandwidth.
//
// Floor. An 8-bit image of P samples (pixels x channels) must be read once and written once:
// 2P compulsory bytes (134 MB at 8192x8192, 1 channel: ~45 us at the H100's ~2990 GB/s
// device-to-device copy). The goal (issue 12) is 70% of that, 64 us.
//
// Measured (H100, mad bench, 8192x8192, 1 channel, 16-byte aligned rows: the wide form below):
// 0.115 ms = 38.9% of the copy bandwidth, 64 registers, 50% theoretical occupancy; the word form
// alone measured 0.131 ms = 34.4% (64 registers), and the first version of this file (the word
// form with 8-row batches, no register cap) 0.149-0.155 ms = 29-30% (95-105 registers, 25-31%).
// Not at the goal, and the limit is not yet diagnosed (no profile taken). What the sweeps say:
// more occupancy alone gains little (16 samples per lane at 125 registers / 25%: 36.9-38.4%;
// 8 per lane at 64 / 50%: 35.8-38.9%), shorter strips help (16 rows beat 32; 8 lose),
// double-buffered batches lost (128 registers: 26%), and bounds-check-free interior CTAs gain
// ~5%. Next steps: an ncu profile (issue stalls vs DRAM throughput), then fewer instructions per
// sample (the per-sample unpack / multiply / shift / pack of the rounding is now the largest
// part) or TMA/cp.async staging so each warp keeps loads in flight while it computes.
//
// The filter is box1 + box3 + box5 (kernels/smooth.h), each separable: with h1 = v,
// h3 = v[-C] + v + v[+C] and h5 = h3 + v[-2C] + v[+2C] along a row (C = channels, the distance
// between horizontal neighbours), and per row a = h5, b = h5 + h3, c = b + h1,
//     S(y) = a(y-2) + b(y-1) + c(y) + b(y+1) + a(y+2).
// Each lane owns a few adjacent samples of a column strip and walks DOWN the strip's output
// rows, keeping the four partial output sums S(y-2..y+1) in registers (a vertical sliding
// window): every input row is loaded once per strip (plus 4 rows of vertical halo) as one
// coalesced load per lane; the horizontal halo (4 samples a side for C <= 2, 8 for C >= 3)
// comes from the neighbouring lanes through warp shuffles, and only the edge lanes load extra
// words. kBatch rows are loaded before any is used (memory-level parallelism without shared
// memory or barriers: warps are independent).
//
// Two forms of that scheme:
//  * wide (both images' rows 16-byte aligned): 8 samples (two words, one 8-byte load) per lane,
//    16-row strips, 4-row batches, at least 8 CTAs per SM. Every sum is at most 35 x 255 =
//    8925 < 2^16, so the even and odd samples of a word are summed as packed 16-bit pairs (one
//    byte permute splits a word; one 32-bit add serves two samples; no carry can cross), and the
//    rounding (2S + 35) / 70 is ((2S + 35) x 14980) >> 20, exact for every S <= 8925 (checked
//    exhaustively). CTAs whose samples and halo lie inside the row skip every bounds check.
//  * word (other alignments): one 32-bit word (4 samples) per lane, 32-row strips, 4-row
//    batches, at least 8 CTAs per SM; full words loaded as 32-bit words when both images'
//    addresses and pitches are multiples of 4, otherwise byte by byte (the same arithmetic).
//
// Borders (Clip). Samples outside the image read as zero, so S is the sum over the inside
// taps; W is 35 inside (a compile-time divisor) and the closed form smooth_weight_sum_at()
// within 2 pixels of an edge. Rounding is smooth_round's exact (2S + W) / (2W), so the output
// equals smooth_cpu bit for bit. Any width (a partial last chunk is loaded and stored word by
// word or byte by byte), any channel count 1..4 (a template parameter), any pitch.
//
// Launch shape: CTAs of kWarps = 4 warps side by side along x (1024 samples wide, 512 in the
// word form), one grid row per strip (a CTA-uniform grid-stride loop past 65535 grid rows).
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "common/cuda_check.h"
#include "common/kernel_launch.cuh"
#include "common/error.h"
#include "kernels/smooth_cuda.h"

namespace mad::kernels {
namespace {

constexpr int kR = kSmoothRadius;
constexpr int kWarps = 4;              // warps per CTA, side by side along x
constexpr int kThreads = 32 * kWarps;  // 128 threads, 512 samples of a row
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

// Input row i of a strip when it exists (inside the image and before the strip's end i_end),
// else row 0: a valid address whose loads the caller discards (row_ok false).
__device__ __forceinline__ const std::uint8_t* strip_input_row(ImageView<const std::uint8_t> src,
                                                               int i, int i_end, bool& row_ok) {
  row_ok = i >= 0 && i < src.height && i < i_end;
  return src.data + static_cast<std::ptrdiff_t>(row_ok ? i : 0) * src.pitch;
}

__device__ __forceinline__ int byte_of(std::uint32_t word, int j) {
  return static_cast<int>((word >> (8 * j)) & 0xffu);
}

// kStripRows: output rows per warp (1 + 4 / kStripRows vertical re-read); kBatch: input rows
// loaded before any is used; kMinBlocks: CTAs per SM that __launch_bounds__ must allow.
template <int kChannels, bool kAligned, int kStripRows, int kBatch, int kMinBlocks>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
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
        bool row_ok;
        const std::uint8_t* row = strip_input_row(src, i, i_end, row_ok);
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
              word |= static_cast<std::uint32_t>(smooth_round(out[j], kSmoothWeightSum)) << (8 * j);
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

// ---- The wide form (see the banner): kW words per lane, even and odd samples of a word as
// packed 16-bit pairs (E: samples 0 and 2, O: 1 and 3, one byte permute each); the horizontal
// neighbours at distance C and 2C are the same split of the word shifted by C and 2C samples
// (one byte permute across two adjacent words).

constexpr unsigned kRoundMul = 14980;  // ceil(2^20 / 70)

// Bytes d..d+3 of the lane's stream relative to its sample 4j (|d| <= 8): the stream is the
// words st[0..kW+3] = the lane's words -2 .. kW+1.
template <int kD, int kW>
__device__ __forceinline__ std::uint32_t shifted(const std::uint32_t (&st)[kW + 4], int j) {
  constexpr int kFloor = kD >= 0 ? kD / 4 : -((-kD + 3) / 4);
  constexpr int kRem = kD - 4 * kFloor;  // 0..3
  const int b = j + 2 + kFloor;
  if constexpr (kRem == 0) {
    return st[b];
  } else {
    constexpr unsigned kSel = kRem | (kRem + 1) << 4 | (kRem + 2) << 8 | (kRem + 3) << 12;
    return __byte_perm(st[b], st[b + 1], kSel);
  }
}

__device__ __forceinline__ std::uint32_t even_of(std::uint32_t w) {
  return __byte_perm(w, 0, 0x4240);
}
__device__ __forceinline__ std::uint32_t odd_of(std::uint32_t w) {
  return __byte_perm(w, 0, 0x4341);
}

__device__ __forceinline__ unsigned round35(unsigned s) {
  return (s * (2 * kRoundMul) + 35 * kRoundMul) >> 20;
}

// The lane's kW words (chunk k of 4 kW samples): one 8- or 16-byte load when wholly inside.
template <int kW, bool kWhole>  // kWhole: known to lie inside the row
__device__ __forceinline__ void load_chunk(const std::uint8_t* row, int k, int samples,
                                           std::uint32_t (&w)[kW]) {
  const int s = 4 * kW * k;
  if constexpr (!kWhole) {
    if (s + 4 * kW > samples) {  // the row's partial last chunk, word by word
#pragma unroll
      for (int j = 0; j < kW; ++j) w[j] = load_word<true>(row, kW * k + j, samples);
      return;
    }
  }
  if constexpr (kW == 4) {
    const uint4 c = __ldg(reinterpret_cast<const uint4*>(row + s));
    w[0] = c.x, w[1] = c.y, w[2] = c.z, w[3] = c.w;
  } else {
    const uint2 c = __ldg(reinterpret_cast<const uint2*>(row + s));
    w[0] = c.x, w[1] = c.y;
  }
}

// kFast: the CTA's samples and their 8-sample halo lie inside the row, so every load and store
// is a whole 16-byte (or 8-byte) access: no bounds checks in the loop.
template <int kChannels, int kW, int kStripRows, int kBatch, bool kFast>
__device__ __forceinline__ void wide_strips(ImageView<const std::uint8_t> src,
                                            ImageView<std::uint8_t> dst) {
  constexpr int C = kChannels;
  constexpr int kS = 4 * kW;  // samples per lane
  const int samples = src.width, height = src.height, width = samples / C;
  const int chunks = (samples + kS - 1) / kS;
  const int lane = threadIdx.x & 31;
  const int k = (blockIdx.x * kWarps + static_cast<int>(threadIdx.x >> 5)) * 32 + lane;
  if (k - lane >= chunks) return;  // uniform over the warp (see smooth_strip_kernel)
  // Lane 0 also loads words kW k - 2, kW k - 1 (its left halo), lane 31 words kW k + kW, + 1.
  const bool has_halo = lane == 0 || lane == 31;
  const int halo_w = lane == 0 ? kW * k - 2 : kW * k + kW;
  const int s0 = kS * k;
  const bool lane_writes = s0 < samples;
  const bool x_inside = s0 / C >= kR && (s0 + kS - 1) / C <= width - 1 - kR;

  for (int y0 = blockIdx.y * kStripRows; y0 < height; y0 += gridDim.y * kStripRows) {
    const int y_end = min(y0 + kStripRows, height);
    const int i_end = y_end + kR;
    // p[q][j][e]: packed partial sums of output rows i-2+q, word j, even (0) / odd (1) samples.
    std::uint32_t p[4][kW][2];
#pragma unroll
    for (int q = 0; q < 4; ++q)
#pragma unroll
      for (int j = 0; j < kW; ++j) p[q][j][0] = p[q][j][1] = 0;
    struct Batch {
      std::uint32_t w[kBatch][kW], e0[kBatch], e1[kBatch];
    };
    // Input rows ib .. ib + kBatch - 1 (zeros outside the image and past i_end).
    const auto load = [&](int ib, Batch& bt) {
#pragma unroll
      for (int b = 0; b < kBatch; ++b) {
        const int i = ib + b;
        bool row_ok;
        const std::uint8_t* row = strip_input_row(src, i, i_end, row_ok);
        if (row_ok) {
          load_chunk<kW, kFast>(row, k, samples, bt.w[b]);
        } else {
#pragma unroll
          for (int j = 0; j < kW; ++j) bt.w[b][j] = 0;
        }
        if constexpr (kFast) {
          const unsigned* halo = reinterpret_cast<const unsigned*>(row) + halo_w;
          bt.e0[b] = row_ok && has_halo ? __ldg(halo) : 0u;
          bt.e1[b] = row_ok && has_halo ? __ldg(halo + 1) : 0u;
        } else {
          bt.e0[b] = row_ok && has_halo ? load_word<true>(row, halo_w, samples) : 0u;
          bt.e1[b] = row_ok && has_halo ? load_word<true>(row, halo_w + 1, samples) : 0u;
        }
      }
    };
    // Adds input rows ib .. ib + kBatch - 1 to the window; stores the output rows completed.
    const auto process = [&](int ib, const Batch& bt) {
#pragma unroll
      for (int b = 0; b < kBatch; ++b) {
        const int i = ib + b;
        if (i >= i_end) continue;  // uniform over the CTA
        std::uint32_t st[kW + 4];  // words -2 .. kW + 1
#pragma unroll
        for (int j = 0; j < kW; ++j) st[j + 2] = bt.w[b][j];
        st[1] = __shfl_up_sync(kFullMask, bt.w[b][kW - 1], 1);
        st[kW + 2] = __shfl_down_sync(kFullMask, bt.w[b][0], 1);
        if (lane == 0) st[1] = bt.e1[b];
        if (lane == 31) st[kW + 2] = bt.e0[b];
        if constexpr (C >= 3) {
          st[0] = __shfl_up_sync(kFullMask, bt.w[b][kW - 2], 1);
          st[kW + 3] = __shfl_down_sync(kFullMask, bt.w[b][1], 1);
          if (lane == 0) st[0] = bt.e0[b];
          if (lane == 31) st[kW + 3] = bt.e1[b];
        } else {
          st[0] = st[kW + 3] = 0;  // not read: the halo is at most 4 samples
        }
        std::uint32_t out[kW][2];
#pragma unroll
        for (int j = 0; j < kW; ++j) {
          const std::uint32_t w0 = st[j + 2], wm1 = shifted<-C, kW>(st, j),
                              wp1 = shifted<C, kW>(st, j), wm2 = shifted<-2 * C, kW>(st, j),
                              wp2 = shifted<2 * C, kW>(st, j);
#pragma unroll
          for (int e = 0; e < 2; ++e) {
            const auto split = [e](std::uint32_t w) { return e == 0 ? even_of(w) : odd_of(w); };
            const std::uint32_t v = split(w0);
            const std::uint32_t h3 = split(wm1) + v + split(wp1);
            const std::uint32_t h5 = h3 + split(wm2) + split(wp2);
            const std::uint32_t a = h5, bb = h5 + h3, c = bb + v;
            out[j][e] = p[0][j][e] + a;  // output row i - 2 complete
            p[0][j][e] = p[1][j][e] + bb;
            p[1][j][e] = p[2][j][e] + c;
            p[2][j][e] = p[3][j][e] + bb;
            p[3][j][e] = a;
          }
        }
        const int y = i - kR;
        if (y >= y0 && lane_writes) {
          std::uint32_t word[kW];
          if (x_inside && y >= kR && y <= height - 1 - kR) {
#pragma unroll
            for (int j = 0; j < kW; ++j) {
              const unsigned q0 = round35(out[j][0] & 0xFFFFu), q2 = round35(out[j][0] >> 16);
              const unsigned q1 = round35(out[j][1] & 0xFFFFu), q3 = round35(out[j][1] >> 16);
              word[j] =
                  __byte_perm(__byte_perm(q0, q1, 0x0040), __byte_perm(q2, q3, 0x0040), 0x5410);
            }
          } else {
#pragma unroll
            for (int j = 0; j < kW; ++j) {
              word[j] = 0;
#pragma unroll
              for (int t = 0; t < 4; ++t) {
                const std::uint32_t half = out[j][t & 1];
                const int sum = static_cast<int>(t < 2 ? half & 0xFFFFu : half >> 16);
                const int x = min(s0 + 4 * j + t, samples - 1) / C;
                word[j] |= static_cast<std::uint32_t>(
                               smooth_round(sum, smooth_weight_sum_at(y, x, height, width)))
                           << (8 * t);
              }
            }
          }
          std::uint8_t* orow = dst.data + static_cast<std::ptrdiff_t>(y) * dst.pitch;
          if (kFast || s0 + kS <= samples) {
            if constexpr (kW == 4)
              *reinterpret_cast<uint4*>(orow + s0) = make_uint4(word[0], word[1], word[2], word[3]);
            else
              *reinterpret_cast<uint2*>(orow + s0) = make_uint2(word[0], word[1]);
          } else {
#pragma unroll
            for (int j = 0; j < kW; ++j) store_word<true>(orow, kW * k + j, samples, word[j]);
          }
        }
      }
    };
    {
      for (int ib = y0 - kR; ib < i_end; ib += kBatch) {
        Batch a;
        load(ib, a);
        process(ib, a);
      }
    }
  }
}

// CTAs wholly inside the row (with their 8-sample halo: all but the first and last CTA of a
// row) take the unchecked form.
template <int kChannels, int kW, int kStripRows, int kBatch, int kMinBlocks>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    smooth_strip_wide_kernel(ImageView<const std::uint8_t> src, ImageView<std::uint8_t> dst) {
  constexpr int kCtaSamples = kThreads * 4 * kW;
  const int first = static_cast<int>(blockIdx.x) * kCtaSamples;
  if (first >= 8 && first + kCtaSamples + 8 <= src.width)  // uniform over the CTA
    wide_strips<kChannels, kW, kStripRows, kBatch, true>(src, dst);
  else
    wide_strips<kChannels, kW, kStripRows, kBatch, false>(src, dst);
}

// The wide form's shape, measured at 8192x8192 (see the banner): 8 samples per lane, 16-row
// strips, 4 rows per batch, 8 CTAs per SM (64 registers, 50% occupancy).
constexpr int kWideWords = 2;
constexpr int kWideStripRows = 16;
constexpr int kWideBatch = 4;
constexpr int kWideMinBlocks = 8;
// The word form's: 32-row strips, 4 rows per batch, 8 CTAs per SM (64 registers).
constexpr int kWordStripRows = 32;
constexpr int kWordBatch = 4;
constexpr int kWordMinBlocks = 8;

template <int kChannels>
void launch_wide_shape(ImageView<const std::uint8_t> src, ImageView<std::uint8_t> dst,
                       cudaStream_t s) {
  const int chunks = (src.width + 4 * kWideWords - 1) / (4 * kWideWords);
  const dim3 grid((chunks + kThreads - 1) / kThreads,
                  std::min((src.height + kWideStripRows - 1) / kWideStripRows, kMaxGridY));
  cuda::launch_kernel(
      smooth_strip_wide_kernel<kChannels, kWideWords, kWideStripRows, kWideBatch, kWideMinBlocks>,
      grid, dim3(kThreads), 0, s, src, dst);
  MAD_CUDA_CHECK_LAUNCH();
}

template <int kChannels, bool kAligned>
void launch_word_shape(ImageView<const std::uint8_t> src, ImageView<std::uint8_t> dst,
                       cudaStream_t s) {
  const int words = (src.width + 3) / 4;
  const dim3 grid((words + kThreads - 1) / kThreads,
                  std::min((src.height + kWordStripRows - 1) / kWordStripRows, kMaxGridY));
  cuda::launch_kernel(
      smooth_strip_kernel<kChannels, kAligned, kWordStripRows, kWordBatch, kWordMinBlocks>, grid,
      dim3(kThreads), 0, s, src, dst);
  MAD_CUDA_CHECK_LAUNCH();
}

// kForm: 0 = wide, 1 = word-aligned words, 2 = bytes.
template <int kForm>
void launch_form(ImageView<const std::uint8_t> src, int channels, ImageView<std::uint8_t> dst,
                 cudaStream_t s) {
  const auto shape = [&](auto channel_tag) {
    constexpr int kC = decltype(channel_tag)::value;
    if constexpr (kForm == 0)
      launch_wide_shape<kC>(src, dst, s);
    else
      launch_word_shape<kC, kForm == 1>(src, dst, s);
  };
  switch (channels) {
    case 1: return shape(std::integral_constant<int, 1>{});
    case 2: return shape(std::integral_constant<int, 2>{});
    case 3: return shape(std::integral_constant<int, 3>{});
    default: return shape(std::integral_constant<int, 4>{});
  }
}

bool aligned_to(const void* p, std::ptrdiff_t pitch, int bytes) {
  return reinterpret_cast<std::uintptr_t>(p) % bytes == 0 && pitch % bytes == 0;
}

}  // namespace

namespace smooth_detail {

// Registered in kernels/variant_tables.cpp as `strip`.
void launch_strip(ImageView<const std::uint8_t> src, int channels, ImageView<std::uint8_t> dst,
                  DeviceScratch, cudaStream_t s) {
  validate_smooth_input(src, channels);
  if (dst.data == nullptr || dst.width != src.width || dst.height != src.height)
    throw InvalidArgument("smooth: device output must have the input's shape");
  const auto both = [&](int bytes) {
    return aligned_to(src.data, src.pitch, bytes) && aligned_to(dst.data, dst.pitch, bytes);
  };
  if (both(16))
    launch_form<0>(src, channels, dst, s);
  else if (both(4))
    launch_form<1>(src, channels, dst, s);
  else
    launch_form<2>(src, channels, dst, s);
}

}  // namespace smooth_detail
}  // namespace mad::kernels
