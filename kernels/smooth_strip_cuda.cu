// The `strip` variant of the 5x5 triangular smoothing (Clip border), registered in
// kernels/variant_tables.cpp: a separable form aimed at the copy bandwidth.
//
// Floor. An 8-bit image of P samples (pixels x channels) must be read once and written once:
// 2P compulsory bytes (134 MB at 8192x8192, 1 channel: ~45 us at the H100's ~2990 GB/s
// device-to-device copy). The goal (issue 12) is 70% of that, 64 us.
//
// Measured (H100, mad bench, 8192x8192, 1 channel, 16-byte aligned rows: the staged form
// below). The third 2026-11-25 session's form: 0.0871 ms = 51.6% of the copy bandwidth (50.5%
// in later gpu-check runs), bound by instruction issue (ncu: 82% of issue slots busy, DRAM at
// 31% of its peak). Its SASS spent about 145 instructions per input row and lane (8 samples):
// ~42 issuing the next row's copy (the shared window's base rebuilt from the CTA id twice a
// row), ~54 summing, ~30 rounding and packing, ~20 testing and storing, 4 moving the window's
// registers. The sixth session, one step at a time (same-run shares, one run each):
//   - rounding by one fused multiply-add instead of an add and a multiply-add (kernels/smooth.h,
//     smooth_round35_float), the output row as a pointer stepped by the pitch: 53.0-53.8%;
//   - the interior loop (below): 36.1 M warp instructions against 53.8 M, 58.6%; the profile
//     then reads 71% of issue slots busy and mostly long-scoreboard and pipe-throttle stalls;
//   - strip height and ring depth (rows / depth: %): 4/4 55.8, 6/4 61.8, 8/4 60.8-61.3,
//     8/8 63.0, 10/4 61.5-62.8, 12/4 59.7-60.1, 12/8 60.3-60.5, 14/4 59.5, 16/4 56.9-57.5,
//     16/8 55.2, 20/8 51.9-52.1, 24/4 51.7, 28/8 46.4, 32/8 43.8. Kept: 8 rows, a ring of 8.
// Shorter strips win although each re-reads 4 halo rows (1.5x the input rows at 8): the
// shorter a warp's strip, the sooner its rows are all in flight, and the limit is now latency
// (the loads and each row's dependent chain), not instruction count. Not at the goal (70%).
// Tried on the final shape and not kept (same-run shares against 62.3-63.4%): the rounding as
// integer multiply-adds on the FMA-heavy pipe, to unload the ALU pipe whose throttle stalls the
// profile showed (61.1 / 60.5%); 9 / 10 / 12 CTAs per SM (56 / 48 / 40 registers: 61.1 / 61.4 /
// 59.4%); CTAs of 1 / 2 / 8 warps (62.4 / 61.0 / 62.3%); a shared-memory carveout of 50-100%
// (no change: shared memory does not limit residency); a grid of one wave whose CTAs walk
// several strips (35.3% at 132 strips in flight, 55.3% at 528). The seventh session (2026-11-27,
// two runs on one H100) let a row's first and last warps take the interior loop too, their
// lanes within 2 pixels of an edge rounding by their own W: 60.2-60.8% against 62.7-62.9% for
// the kept form in the same runs (1920x1080 3 channels 0.0223 against 0.0203-0.0215 ms), so the
// edge warps stay on the general loop (on top of that form, slot addresses hidden from the
// compiler and the output bytes packed by integer multiply-adds read 59.9-61.3%, no better).
// The profile of the kept shape:
// 69% of issue slots busy, 2.2 warps eligible a cycle, 30% of the SM's warp slots active (the
// 50% allowed by the registers), stalls on the ALU pipe's throttle (23%), waits (12%) and global
// memory (10%).
// Earlier, rejected: 16 samples a lane (80-127 registers at 6-4 CTAs per SM: 42.4-43.5% against
// 46.5% for 8 in the same run); the 2026-11-24 wide form (8 samples a lane from registers,
// warp-shuffle halo): 36-39%.
//
// The filter is box1 + box3 + box5 (kernels/smooth.h), each separable: with h1 = v,
// h3 = v[-C] + v + v[+C] and h5 = h3 + v[-2C] + v[+2C] along a row (C = channels, the distance
// between horizontal neighbours), and per row a = h5, b = h5 + h3, c = b + h1,
//     S(y) = a(y-2) + b(y-1) + c(y) + b(y+1) + a(y+2).
// Each lane owns a few adjacent samples of a column strip and walks DOWN the strip's output
// rows, keeping the four partial output sums S(y-2..y+1) in registers (a vertical sliding
// window): every input row is used once per strip (plus 4 rows of vertical halo).
//
// Two forms of that scheme:
//  * staged (both images' rows 16-byte aligned): each warp owns 256 samples of a row, 8 per
//    lane. Its input rows arrive in a per-warp ring of shared memory through cp.async (16-byte
//    chunks, the warp's 256 samples and one chunk of halo a side), 7 rows ahead of the row being
//    summed, so loads stay in flight with no registers held for them and warps need no CTA
//    barrier. Each lane reads its words and two words of halo a side from the ring, splits each
//    word once into its even and odd samples as packed 16-bit pairs (every sum is at most
//    35 x 255 = 8925 < 2^16, so one 32-bit add serves two samples and no carry crosses), and
//    takes each horizontal neighbour as one of those pairs or one byte permute of two. The
//    interior rounding (2S + 35) / 70 runs on the FMA pipes, which the integer sums leave idle:
//    S enters a float's mantissa by a byte permute and one fused multiply-add by about 1/35
//    rounds it (exact for every S: kernels/smooth.h, smooth_round35_float). 8-row strips;
//    interior warps and strips take an unrolled loop without border tests (the kernel's
//    comment).
//  * word (other alignments): one 32-bit word (4 samples) per lane straight from global
//    memory, the halo from the neighbouring lanes through warp shuffles (4 samples a side for
//    C <= 2, 8 for C >= 3; the edge lanes load extra words), kBatch rows loaded before any is
//    used, 32-row strips, at least 8 CTAs per SM; full words loaded as 32-bit words when both
//    images' addresses and pitches are multiples of 4, otherwise byte by byte (the same
//    arithmetic).
//
// Borders (Clip). Samples outside the image read as zero, so S is the sum over the inside
// taps; W is 35 inside (a compile-time divisor) and the closed form smooth_weight_sum_at()
// within 2 pixels of an edge. Rounding is smooth_round's exact (2S + W) / (2W), so the output
// equals smooth_cpu bit for bit. Any width (a partial last chunk is loaded and stored word by
// word or byte by byte), any channel count 1..4 (a template parameter), any pitch.
//
// Launch shape: CTAs of kWarps = 4 warps side by side along x (1024 samples wide in the staged
// form, 512 in the word form), one grid row per strip (a CTA-uniform grid-stride loop past 65535
// grid rows).
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "common/cuda_check.h"
#include "common/kernel_launch.cuh"
#include "common/error.h"
#include "kernels/async_copy.cuh"
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

// ---- The staged form (see the banner). One warp owns 256 samples of a row (8 per lane, two
// words) and walks down a strip; its rows arrive in a per-warp ring of shared memory through
// cp.async, kDepth - 1 rows ahead of the row being summed.

constexpr int kStagedWords = 2;                              // words per lane
constexpr int kStagedLaneSamples = 4 * kStagedWords;         // 8
constexpr int kStagedWarpSamples = 32 * kStagedLaneSamples;  // 256
// A ring slot: the warp's 256 samples plus one 16-byte chunk of halo on each side (the halo
// reaches 2C <= 8 samples).
constexpr int kSlotBytes = kStagedWarpSamples + 2 * 16;  // 288
constexpr int kSlotChunks = kSlotBytes / 16;             // 18: lanes 0..17 copy one each

__device__ __forceinline__ void store_16_shared(unsigned smem, const std::uint32_t (&w)[4]) {
  asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};\n" ::"r"(smem), "r"(w[0]), "r"(w[1]),
               "r"(w[2]), "r"(w[3])
               : "memory");
}

__device__ __forceinline__ std::uint32_t even_of(std::uint32_t w) {  // samples 0, 2
  return __byte_perm(w, 0, 0x4240);
}
__device__ __forceinline__ std::uint32_t odd_of(std::uint32_t w) {  // samples 1, 3
  return __byte_perm(w, 0, 0x4341);
}

// The packed pair (sample s, sample s + 2) of the lane's stream (words -2..3 split into even
// and odd pairs: ev[t] = samples 4t, 4t+2 and od[t] = 4t+1, 4t+3): one of the split words when
// s mod 4 is 0 or 1, else the high half of one and the low half of the next (one permute).
template <int kS>
__device__ __forceinline__ std::uint32_t pair_at(const std::uint32_t (&ev)[6],
                                                 const std::uint32_t (&od)[6]) {
  static_assert(kS >= 0 && kS / 4 + (kS % 4 >= 2 ? 1 : 0) < 6, "pair outside the stream");
  const std::uint32_t* x = kS % 2 == 0 ? ev : od;
  constexpr int kT = kS / 4;
  if constexpr (kS % 4 < 2)
    return x[kT];
  else
    return __byte_perm(x[kT], x[kT + 1], 0x5432);
}

// Exact round-half-up of S / 35 for 0 <= S <= 8925, from the bits of the float 2^23 + S (the
// caller builds them with one byte permute: S in the mantissa under the exponent of 2^23): one
// fused multiply-add leaves smooth_round(S, 35) in the low mantissa bits (the constants and the
// proof: kernels/smooth.h, smooth_round35_float, whose test checks all 8926 values). Returns the
// float's bits: the result is the low byte. Floats run on the FMA pipes, which the packed
// integer sums (ALU pipe) leave mostly idle.
__device__ __forceinline__ std::uint32_t round35_bits(std::uint32_t biased_bits) {
  return __float_as_uint(
      __fmaf_rn(__uint_as_float(biased_bits), kSmoothRound35Scale, kSmoothRound35Bias));
}

// 8 bytes from the shared-memory address `smem` (8-byte aligned). Volatile, with a memory
// clobber: it must stay after the wait for the copy that wrote them.
__device__ __forceinline__ uint2 load_8_shared(unsigned smem) {
  uint2 v;
  asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];\n" : "=r"(v.x), "=r"(v.y) : "r"(smem) : "memory");
  return v;
}

// The vertical sliding window of the staged form: p[q][j][e] holds the packed partial sums of
// output rows i-2+q (word j of the lane, even (e = 0) / odd (e = 1) samples) before input row i.
template <int C>
struct StagedSums {
  std::uint32_t p[4][kStagedWords][2];

  __device__ __forceinline__ void reset() {
#pragma unroll
    for (int q = 0; q < 4; ++q)
#pragma unroll
      for (int j = 0; j < kStagedWords; ++j) p[q][j][0] = p[q][j][1] = 0;
  }

  // Adds input row i, whose words -2..3 of the lane (two words of halo a side) start at the
  // shared address `lane_words`, and leaves output row i - 2's packed sums in `out`.
  __device__ __forceinline__ void add(unsigned lane_words, std::uint32_t (&out)[kStagedWords][2]) {
    std::uint32_t ev[6], od[6];
    {
      const uint2 w01 = load_8_shared(lane_words);
      const uint2 w23 = load_8_shared(lane_words + 8);
      const uint2 w45 = load_8_shared(lane_words + 16);
      const std::uint32_t st[6] = {w01.x, w01.y, w23.x, w23.y, w45.x, w45.y};
#pragma unroll
      for (int k = 0; k < 6; ++k) ev[k] = even_of(st[k]), od[k] = odd_of(st[k]);
    }
    // Word j's even (e = 0) or odd (e = 1) samples: the pairs at -2C, -C, 0, +C, +2C samples
    // from stream sample kBase = 4 (j + 2) + e.
    const auto add_pairs = [&](auto base, int j, int e) {
      constexpr int kB = decltype(base)::value;
      const std::uint32_t v = pair_at<kB>(ev, od);
      const std::uint32_t l1 = pair_at<kB - C>(ev, od), r1 = pair_at<kB + C>(ev, od);
      const std::uint32_t l2 = pair_at<kB - 2 * C>(ev, od), r2 = pair_at<kB + 2 * C>(ev, od);
      // Every packed sum stays below 35 x 255 < 2^16: no carry crosses into the high half.
      const std::uint32_t h3 = l1 + v + r1, h5 = h3 + l2 + r2, b = h5 + h3;
      out[j][e] = p[0][j][e] + h5;  // output row i - 2 complete
      p[0][j][e] = p[1][j][e] + b;
      p[1][j][e] = p[2][j][e] + b + v;
      p[2][j][e] = p[3][j][e] + b;
      p[3][j][e] = h5;
    };
    static_assert(kStagedWords == 2, "add_pairs below covers two words");
    add_pairs(std::integral_constant<int, 8>{}, 0, 0);
    add_pairs(std::integral_constant<int, 9>{}, 0, 1);
    add_pairs(std::integral_constant<int, 12>{}, 1, 0);
    add_pairs(std::integral_constant<int, 13>{}, 1, 1);
  }
};

// The 4 output bytes of an interior word (W = 35) from its even and odd packed sums.
__device__ __forceinline__ std::uint32_t round_interior_word(std::uint32_t even, std::uint32_t odd,
                                                             std::uint32_t exponent_2p23) {
  const std::uint32_t q0 = round35_bits(__byte_perm(even, exponent_2p23, 0x7610));
  const std::uint32_t q1 = round35_bits(__byte_perm(odd, exponent_2p23, 0x7610));
  const std::uint32_t q2 = round35_bits(__byte_perm(even, exponent_2p23, 0x7632));
  const std::uint32_t q3 = round35_bits(__byte_perm(odd, exponent_2p23, 0x7632));
  return __byte_perm(__byte_perm(q0, q1, 0x0040), __byte_perm(q2, q3, 0x0040), 0x5410);
}

// The staged kernel. Each warp takes, strip by strip, one of two loops:
//  * the interior loop, when every sample it writes has the full 5x5 window (W = 35) and all
//    its input chunks are whole rows' chunks inside the image (strips with y0 >= 2 and
//    y0 + kStripRows <= height - 2: all but the first and the last one or two; warps other than
//    a row's first and last, and than the one before the last where the row ends inside its right
//    halo chunk): the ring is walked kDepth rows at a time, unrolled, so every slot's address is a
//    constant offset and no row needs a border test;
//  * the general loop (everything else): per-row tests, zero fill outside the image, the border
//    weights. Both add the rows and round interior samples by the same functions.
// The interior loop was written after the SASS of the general loop alone showed ~145
// instructions a row and lane: 42 of them issuing the next row's copy (the shared window's base
// rebuilt from the CTA id twice a row), 20 testing and storing, 4 moving the sliding window's
// registers.
template <int kChannels, int kStripRows, int kDepth, int kMinBlocks>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    smooth_staged_kernel(ImageView<const std::uint8_t> src, ImageView<std::uint8_t> dst) {
  constexpr int C = kChannels;
  constexpr int kRowsIn = kStripRows + 2 * kR;  // input rows of a whole strip
  static_assert((kDepth & (kDepth - 1)) == 0, "the ring's depth is a power of two");
  static_assert(kDepth >= 2 * kR && kRowsIn >= kDepth,
                "the interior loop's first kDepth rows hold the 4 that complete no output");
  __shared__ __align__(16) std::uint8_t ring[kWarps][kDepth][kSlotBytes];
  const int samples = src.width, height = src.height, width = samples / C;
  const int lane = threadIdx.x & 31, warp = static_cast<int>(threadIdx.x >> 5);
  const int seg0 = (static_cast<int>(blockIdx.x) * kWarps + warp) * kStagedWarpSamples;
  if (seg0 >= samples) return;  // uniform over the warp; no CTA barrier in this kernel
  // The exponent bits of 2^23 for round35_bits, in a register: with the constant written as an
  // immediate, the SASS moved the byte permute's selector into a register instead, one extra
  // move per sample.
  std::uint32_t exponent_2p23;
  asm volatile("mov.b32 %0, 0x4B000000;" : "=r"(exponent_2p23));
  const unsigned warp_ring = static_cast<unsigned>(__cvta_generic_to_shared(&ring[warp][0][0]));
  const int s0 = seg0 + kStagedLaneSamples * lane;
  const bool lane_writes = s0 < samples;
  const bool x_inside = s0 / C >= kR && (s0 + kStagedLaneSamples - 1) / C <= width - 1 - kR;
  // The chunk this lane copies into each slot (lanes 0..17): row bytes chunk_off .. + 15, of
  // which chunk_bytes lie inside the row. Only whole chunks go through cp.async: the device
  // buffer may end inside the last one (compute-sanitizer counts a 16-byte read there even with
  // a smaller source size), so a partial chunk is read byte by byte and an empty one (the left
  // halo of a row's first warp, anything past its end) is stored as zeros.
  const bool copier = lane < kSlotChunks;
  const int chunk_off = seg0 - 16 + 16 * lane;
  const int chunk_bytes = chunk_off < 0 ? 0 : max(0, min(16, samples - chunk_off));
  const unsigned lane_chunk_smem = warp_ring + 16u * lane;
  // This lane's words -2..3 in a slot (the slot's first 16 bytes are the left halo chunk).
  const unsigned lane_words_smem = warp_ring + 8u + 8u * lane;
  // Whether this warp takes the interior loop in strips away from the top and bottom.
  const bool warp_interior = __all_sync(
      kFullMask, x_inside && s0 + kStagedLaneSamples <= samples && (!copier || chunk_bytes == 16));

  for (int y0 = blockIdx.y * kStripRows; y0 < height; y0 += gridDim.y * kStripRows) {
    StagedSums<C> sums;
    sums.reset();
    std::uint32_t out[kStagedWords][2];
    // Output row y0's first sample of this lane; one pitch further after each output row.
    std::uint8_t* out_row = dst.data + static_cast<std::ptrdiff_t>(y0) * dst.pitch + s0;
    const int i0 = y0 - kR;  // the strip's first input row

    if (warp_interior && y0 >= kR && y0 + kStripRows <= height - kR) {
      // Input rows i0 .. i0 + kRowsIn - 1 all lie in the image, and every output is interior.
      const std::uint8_t* issue_src =
          src.data + static_cast<std::ptrdiff_t>(i0) * src.pitch + chunk_off;
#pragma unroll
      for (int u = 0; u < kDepth - 1; ++u) {
        if (copier) copy_16_async(lane_chunk_smem + u * kSlotBytes, issue_src);
        commit_async_copies();
        issue_src += src.pitch;
      }
      // Row t (slot u = t % kDepth): issue row t + kDepth - 1 into slot u - 1 (read last step),
      // wait for row t, add it, and (store) round and store output row t - 4. Called with
      // constant u and store, so slot addresses are immediate offsets.
      const auto step = [&](int u, int t, bool store) {
        __syncwarp();  // every lane has read the slot that this issue overwrites
        if (copier && t + kDepth - 1 < kRowsIn)
          copy_16_async(lane_chunk_smem + ((u + kDepth - 1) % kDepth) * kSlotBytes, issue_src);
        commit_async_copies();
        issue_src += src.pitch;
        wait_async_copies<kDepth - 1>();  // this lane's copy of row t has landed
        __syncwarp();                     // and every other lane's
        sums.add(lane_words_smem + u * kSlotBytes, out);
        if (store) {
          *reinterpret_cast<uint2*>(out_row) =
              make_uint2(round_interior_word(out[0][0], out[0][1], exponent_2p23),
                         round_interior_word(out[1][0], out[1][1], exponent_2p23));
          out_row += dst.pitch;
        }
      };
      constexpr int kGroups = kRowsIn / kDepth, kTail = kRowsIn % kDepth;
#pragma unroll
      for (int u = 0; u < kDepth; ++u) step(u, u, u >= 2 * kR);  // rows 0..3 complete no output
#pragma unroll 1
      for (int g = 1; g < kGroups; ++g) {
#pragma unroll
        for (int u = 0; u < kDepth; ++u) step(u, g * kDepth + u, true);
      }
#pragma unroll
      for (int u = 0; u < kTail; ++u) step(u, kGroups * kDepth + u, true);
      wait_async_copies<0>();  // no copy may still target the ring when the next strip starts
      __syncwarp();
      continue;
    }

    const int y_end = min(y0 + kStripRows, height);
    const int rows_in = y_end - y0 + 2 * kR;  // input rows i0 .. i0 + rows_in - 1
    // The next row to issue: its index, its chunk's address (dereferenced only inside the
    // image), and its t.
    int issue_i = i0, issue_t = 0;
    const std::uint8_t* issue_src =
        src.data + static_cast<std::ptrdiff_t>(i0) * src.pitch + chunk_off;
    // Issues input row i0 + t into slot t % kDepth (zeros outside the image), then commits a
    // group (an empty one past the strip's last row, so the count of pending groups holds).
    const auto issue_next = [&]() {
      if (copier && issue_t < rows_in) {
        const unsigned dst_smem = lane_chunk_smem + (issue_t & (kDepth - 1)) * kSlotBytes;
        const bool row_ok = static_cast<unsigned>(issue_i) < static_cast<unsigned>(height);
        if (row_ok && chunk_bytes == 16) {
          copy_16_async(dst_smem, issue_src);
        } else {
          std::uint32_t w[4] = {0, 0, 0, 0};
#pragma unroll
          for (int k = 0; k < 16; ++k)  // constant indices: w stays in registers
            if (row_ok && k < chunk_bytes)
              w[k / 4] |= static_cast<std::uint32_t>(__ldg(issue_src + k)) << (8 * (k % 4));
          store_16_shared(dst_smem, w);
        }
      }
      commit_async_copies();
      ++issue_i, ++issue_t, issue_src += src.pitch;
    };
#pragma unroll
    for (int t = 0; t < kDepth - 1; ++t) issue_next();

    for (int t = 0; t < rows_in; ++t) {
      __syncwarp();  // every lane has read the slot that the next issue overwrites
      issue_next();
      wait_async_copies<kDepth - 1>();  // this lane's copy of row t has landed
      __syncwarp();                     // and every other lane's
      sums.add(lane_words_smem + (t & (kDepth - 1)) * kSlotBytes, out);
      // Input row i0 + t completes output row i0 + t - 2 = y0 + t - 4: none before t = 4.
      if (t < 2 * kR || !lane_writes) continue;
      const int y = y0 + t - 2 * kR;
      std::uint32_t word[kStagedWords];
      if (x_inside && y >= kR && y <= height - 1 - kR) {
#pragma unroll
        for (int j = 0; j < kStagedWords; ++j)
          word[j] = round_interior_word(out[j][0], out[j][1], exponent_2p23);
      } else {
#pragma unroll
        for (int j = 0; j < kStagedWords; ++j) {
          word[j] = 0;
#pragma unroll
          for (int k = 0; k < 4; ++k) {
            const std::uint32_t half = out[j][k & 1];
            const int sum = static_cast<int>(k < 2 ? half & 0xFFFFu : half >> 16);
            const int x = min(s0 + 4 * j + k, samples - 1) / C;
            word[j] |= static_cast<std::uint32_t>(
                           smooth_round(sum, smooth_weight_sum_at(y, x, height, width)))
                       << (8 * k);
          }
        }
      }
      std::uint8_t* const orow = out_row - s0;
      out_row += dst.pitch;
      if (s0 + kStagedLaneSamples <= samples) {
        *reinterpret_cast<uint2*>(orow + s0) = make_uint2(word[0], word[1]);
      } else {
#pragma unroll
        for (int j = 0; j < kStagedWords; ++j)
          store_word<true>(orow, kStagedWords * (s0 / kStagedLaneSamples) + j, samples, word[j]);
      }
    }
    wait_async_copies<0>();  // no copy may still target the ring when the next strip starts
    __syncwarp();
  }
}

// The staged form's shape, measured at 8192x8192 (see the banner): 8-row strips, a ring of 8
// rows, 8 CTAs per SM (64 registers).
constexpr int kStagedStripRows = 8;
constexpr int kStagedDepth = 8;
constexpr int kStagedMinBlocks = 8;
// The word form's: 32-row strips, 4 rows per batch, 8 CTAs per SM (64 registers).
constexpr int kWordStripRows = 32;
constexpr int kWordBatch = 4;
constexpr int kWordMinBlocks = 8;

template <int kChannels, int kRows, int kDepth>
void launch_staged_with(ImageView<const std::uint8_t> src, ImageView<std::uint8_t> dst,
                        cudaStream_t s) {
  const int warps = (src.width + kStagedWarpSamples - 1) / kStagedWarpSamples;
  const dim3 grid((warps + kWarps - 1) / kWarps,
                  std::min((src.height + kRows - 1) / kRows, kMaxGridY));
  cuda::launch_kernel(smooth_staged_kernel<kChannels, kRows, kDepth, kStagedMinBlocks>, grid,
                      dim3(kThreads), 0, s, src, dst);
  MAD_CUDA_CHECK_LAUNCH();
}

template <int kChannels>
void launch_staged_shape(ImageView<const std::uint8_t> src, ImageView<std::uint8_t> dst,
                         cudaStream_t s) {
  launch_staged_with<kChannels, kStagedStripRows, kStagedDepth>(src, dst, s);
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

// kForm: 0 = staged, 1 = word-aligned words, 2 = bytes.
template <int kForm>
void launch_form(ImageView<const std::uint8_t> src, int channels, ImageView<std::uint8_t> dst,
                 cudaStream_t s) {
  const auto shape = [&](auto channel_tag) {
    constexpr int kC = decltype(channel_tag)::value;
    if constexpr (kForm == 0)
      launch_staged_shape<kC>(src, dst, s);
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

}  // namespace

namespace smooth_detail {

// Registered in kernels/variant_tables.cpp as `strip`.
void launch_strip(ImageView<const std::uint8_t> src, int channels, ImageView<std::uint8_t> dst,
                  DeviceScratch, cudaStream_t s) {
  validate_smooth_input(src, channels);
  if (dst.data == nullptr || dst.width != src.width || dst.height != src.height)
    throw InvalidArgument("smooth: device output must have the input's shape");
  const auto both = [&](int bytes) { return src.rows_aligned(bytes) && dst.rows_aligned(bytes); };
  if (both(16))
    launch_form<0>(src, channels, dst, s);
  else if (both(4))
    launch_form<1>(src, channels, dst, s);
  else
    launch_form<2>(src, channels, dst, s);
}

}  // namespace smooth_detail
}  // namespace mad::kernels
