// Nick variant `sliding_columns`: one pass over the image, O(1) work per pixel whatever the
// window (2..101), no scratch.
//
// Floor and goal. The image is read once and the mask written once: 2 x 64 MiB at 8192x8192,
// ~45 us at the H100's ~2990 GB/s copy bandwidth; the goal (issue 12) is 70% of that, flat in w.
// Measured (H100, mad bench, 8192x8192): w = 3 0.410 ms = 10.9%, w = 15 0.443 ms = 10.1%,
// w = 101 0.581 ms = 7.7% of the copy bandwidth; 80 registers (a little spilling under the
// 12-CTA bound), 37.5% theoretical occupancy. Before tuning (128-row strips, no bound: 128-137
// registers, 18.75-25%, and only 576 two-warp CTAs for 132 SMs): 0.80-0.82 / 0.79-0.82 /
// 0.92-0.97 ms = 5.5% / 5.5-5.7% / 4.6-4.9%. Sweeps at 8192x8192: strips of 8, 16, 24, 32, 64,
// 128 rows (16 best overall; 8 about 3% faster at w <= 15 but 16% slower at 101) and
// __launch_bounds__ 1, 12, 16 CTAs per SM (16: 64 registers, more spilling, slower). Far from the
// goal: per row the CTA runs a 2-barrier prefix scan over 1024 columns and ~15 float operations per
// pixel for the decision, and the strip start re-sums w - 1 rows per 16 outputs; reaching the copy
// bandwidth needs a different shape (more outputs per barrier, the prefix done in registers), not
// tuning of this one.
//
// Shape. A CTA of 64 threads owns a column tile of `tile_w` outputs (a multiple of 16) and a
// strip of kStripRows rows. Each thread owns 16 adjacent columns of the tile's span (the tile
// plus its left/right halo: kSpan = 1024 columns, the span starting 16-aligned `lead` >= before
// columns left of the tile), read as one uint4 per row, and walks down the strip keeping the
// per-column vertical window sums of p (packed two per uint32: <= 101 * 255 < 2^16) and p^2
// (uint32): add the row entering at y + after, subtract the row leaving at y - before (both
// exact; the strip's first w - 1 rows are summed before the first output row). Per row, the
// CTA turns the vertical sums into an exclusive prefix over the span (thread-local prefix of
// 16, warp shuffle scan, the other warp's total through shared memory), stores it in shared
// memory (double-buffered: one barrier pair per row), and each thread reads its 16 output
// pixels' window sums as two prefix differences: S = P[a + w] - P[a], S2 likewise. Columns and
// rows outside the image read as zero, so these are the clipped window's sums; NP is the
// clipped count. Uint32 wrap-around of the p^2 prefix is harmless (the difference is exact).
// The input is read ~ (1 + (w - 1) / kStripRows) x (1 + halo / tile_w) times, the leaving and
// centre rows a second and third time from L1/L2.
//
// Decision, bit-identical to the CPU. Each pixel is first decided in float from the exact
// sums: g = p - m + sqrt(k^2 (S2 - m^2) / NP), m = S / NP (g > 0 <=> p > T). S < 2^23 and p
// convert exactly; every other step is one rounding (rsqrtf: 2 ulp), and the relative errors
// are small because S2 - m^2 >= S2 / 2 for NP >= 2 (S^2 <= NP * S2) and is exactly 0 for
// NP = 1. That bounds |g_float - g_real| below 2e-4 (|m| <= 255, sqrt term <= 51); the
// double sequence of nick_threshold.cuh is within 1e-9 of the real T. So when |g_float| >
// kMargin = 1/64 the sign of g_float is the double sequence's decision; otherwise (a tie or
// near-tie: ~1e-4 of the pixels of a random image) the pixel runs nick_decide_device itself. An
// all-zero window (S2 = 0) gives T = 0 = p in double, so 0, without the fallback.
#include <algorithm>

#include "common/cuda_check.h"
#include "common/kernel_launch.cuh"
#include "kernels/nick_launch_cuda.h"
#include "kernels/nick_threshold.cuh"

namespace mad::kernels::nick_detail {
namespace {

constexpr int kThreads = 64;  // two warps
constexpr int kWarps = kThreads / 32;
constexpr int kCols = 16;  // columns per thread: one uint4 of each row
constexpr int kSpan = kThreads * kCols;
// 16-row strips and at least 12 CTAs per SM (80 registers, a little spilling): measured fastest
// at 8192x8192 against 8, 24, 32 and 128 rows and 1 or 16 CTAs per SM (see the banner).
constexpr int kStripRows = 16;
constexpr int kMinBlocks = 12;
constexpr int kMaxGridY = 65535;
constexpr float kMargin = 1.0f / 64;

// Prefix index -> shared-memory slot: one pad slot per 16, so lanes 16 slots apart (a thread's
// own columns when storing, the outputs' windows when reading) fall in different banks.
__device__ __forceinline__ int slot(int i) {
  return i + (i >> 4);
}
constexpr int kSlots = kSpan + kSpan / 16 + 1;

struct SlidingArgs {
  int before, after;       // window rows/columns before and after the pixel
  int tile_w;              // outputs per CTA row, a multiple of 16
  int lead;                // span columns before the tile: before rounded up to 16
  int strips;              // ceil(height / kStripRows)
  bool src_vec, mask_vec;  // rows 16-byte aligned: uint4 loads / stores
  double k;
  float k2;  // k * k in float (the fast decision)
};

// 16 bytes of a row from column x (a multiple of 16, possibly negative); zeros outside
// [0, width).
__device__ __forceinline__ uint4 load_chunk(const std::uint8_t* row, int x, int width, bool vec) {
  if (vec && x >= 0 && x + kCols <= width) return *reinterpret_cast<const uint4*>(row + x);
  unsigned w[4] = {0, 0, 0, 0};
#pragma unroll
  for (int j = 0; j < kCols; ++j)
    if (x + j >= 0 && x + j < width) w[j / 4] |= static_cast<unsigned>(row[x + j]) << (8 * (j % 4));
  return make_uint4(w[0], w[1], w[2], w[3]);
}

__device__ __forceinline__ unsigned word_of(const uint4& c, int i) {
  return i == 0 ? c.x : i == 1 ? c.y : i == 2 ? c.z : c.w;
}

// Adds row `in` to and subtracts row `out` from the vertical sums (vs: columns 2i, 2i + 1 in
// the low/high halves of vs[i]; vq: one column each). Exact modulo 2^32, hence exact: every
// final half and word is in range.
__device__ __forceinline__ void vertical_update(unsigned vs[8], unsigned vq[16], const uint4& in,
                                                const uint4& out) {
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const unsigned e = word_of(in, i), l = word_of(out, i);
    vs[2 * i] += __byte_perm(e, 0, 0x4140) - __byte_perm(l, 0, 0x4140);
    vs[2 * i + 1] += __byte_perm(e, 0, 0x4342) - __byte_perm(l, 0, 0x4342);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const unsigned eb = (e >> (8 * j)) & 0xFFu, lb = (l >> (8 * j)) & 0xFFu;
      vq[4 * i + j] += eb * eb - lb * lb;
    }
  }
}

// The decision for one pixel (see the banner): float when clearly away from the threshold,
// else the exact double sequence. inv ~ 1 / count, k2inv ~ k^2 / count (float).
__device__ __forceinline__ unsigned decide(unsigned p, unsigned sum, unsigned sum_sq,
                                           unsigned count, float inv, float k2inv, double k) {
  if (sum_sq == 0) return 0;  // all-zero window: T = 0 = p exactly
  const float sf = __uint_as_float(0x4B000000u | sum) - 8388608.0f;  // exact: sum < 2^23
  const float pf = __uint_as_float(0x4B000000u | p) - 8388608.0f;
  const float m = sf * inv;
  const float t = fmaf(-m, m, __uint2float_rn(sum_sq));  // S2 - m^2
  const float c = t * k2inv;                             // (k * root)^2
  const float g = fmaf(c, rsqrtf(c + 1e-30f), pf - m);   // p - T; c == 0 gives p - m
  if (fabsf(g) > kMargin) return g > 0.0f ? 255u : 0u;   // NaN falls through
  return nick_decide_device(p, sum, sum_sq, count, k);
}

template <bool kInterior>
__device__ __forceinline__ uint4 decide_chunk(const uint2* P, int a0, int window,
                                              const uint4& centre, int x0, int rows,
                                              const SlidingArgs& g, int width, float inv_full,
                                              float k2inv_full) {
  unsigned out[4] = {0, 0, 0, 0};
#pragma unroll
  for (int j = 0; j < kCols; ++j) {
    const uint2 lo = P[slot(a0 + j)], hi = P[slot(a0 + j + window)];
    const unsigned sum = hi.x - lo.x, sum_sq = hi.y - lo.y;
    const unsigned p = (word_of(centre, j / 4) >> (8 * (j % 4))) & 0xFFu;
    unsigned r;
    if (kInterior) {
      r = decide(p, sum, sum_sq, static_cast<unsigned>(window * window), inv_full, k2inv_full, g.k);
    } else {
      const int x = x0 + j;
      const int cols = min(width - 1, x + g.after) - max(0, x - g.before) + 1;
      const unsigned count = static_cast<unsigned>(rows * cols);
      const float inv = __frcp_rn(static_cast<float>(count));
      r = decide(p, sum, sum_sq, count, inv, g.k2 * inv, g.k);
    }
    out[j / 4] |= r << (8 * (j % 4));
  }
  return make_uint4(out[0], out[1], out[2], out[3]);
}

__global__ void __launch_bounds__(kThreads, kMinBlocks)
    nick_sliding_kernel(ImageView<const std::uint8_t> src, SlidingArgs g,
                        ImageView<std::uint8_t> mask) {
  __shared__ uint2 prefix[2][kSlots];
  __shared__ uint2 warp_total[2][kWarps];
  const int width = src.width, height = src.height;
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int window = g.before + g.after + 1;
  const int x_tile = blockIdx.x * g.tile_w;
  const int x_span = x_tile - g.lead + tid * kCols;  // this thread's span columns
  // Span columns that some output of the tile needs and that lie in the image.
  const bool loads = x_span < min(width, x_tile + g.tile_w + g.after) &&
                     x_span + kCols > max(0, x_tile - g.before);
  // This thread's output columns, and whether their windows never meet the left/right border.
  const int x_out = x_tile + tid * kCols;
  const bool outputs = tid * kCols < g.tile_w && x_out < width;
  const bool cols_full = x_out - g.before >= 0 && x_out + kCols - 1 + g.after <= width - 1;
  const float inv_full = __frcp_rn(static_cast<float>(window * window));
  const float k2inv_full = g.k2 * inv_full;
  const int a0 = tid * kCols + g.lead - g.before;  // prefix index of output 0's window start
  const uint4 zero = make_uint4(0, 0, 0, 0);
  auto row_chunk = [&](int y, int x, bool wanted) {
    return wanted && y >= 0 && y < height
               ? load_chunk(src.data + static_cast<std::ptrdiff_t>(y) * src.pitch, x, width,
                            g.src_vec)
               : zero;
  };
  int buf = 0;
  // Strips are a per-CTA (uniform) loop, so the barriers inside are safe.
  for (int strip = blockIdx.y; strip < g.strips; strip += gridDim.y) {
    const int y_begin = strip * kStripRows, y_end = min(height, y_begin + kStripRows);
    unsigned vs[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    unsigned vq[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (int y = y_begin - g.before; y < y_begin + g.after; ++y)
      vertical_update(vs, vq, row_chunk(y, x_span, loads), zero);
    uint4 next_in = row_chunk(y_begin + g.after, x_span, loads);
    for (int y = y_begin; y < y_end; ++y) {
      vertical_update(vs, vq, next_in, zero);  // the sums now cover rows y - before .. y + after
      next_in = row_chunk(y + 1 + g.after, x_span, loads);
      const uint4 leaving = row_chunk(y - g.before, x_span, loads);
      const uint4 centre = row_chunk(y, x_out, outputs);

      // Exclusive prefix over the span: thread-local, then across the warp, then the warps
      // before this one.
      unsigned s[kCols], q[kCols];
      unsigned ts = 0, tq = 0;
#pragma unroll
      for (int c = 0; c < kCols; ++c) {
        const unsigned vsc = c % 2 == 0 ? vs[c / 2] & 0xFFFFu : vs[c / 2] >> 16;
        s[c] = ts;
        q[c] = tq;
        ts += vsc;
        tq += vq[c];
      }
      unsigned is = ts, iq = tq;
#pragma unroll
      for (int d = 1; d < 32; d *= 2) {
        const unsigned ns = __shfl_up_sync(0xFFFFFFFFu, is, d);
        const unsigned nq = __shfl_up_sync(0xFFFFFFFFu, iq, d);
        if (lane >= d) is += ns, iq += nq;
      }
      if (lane == 31) warp_total[buf][warp] = make_uint2(is, iq);
      __syncthreads();
      unsigned bs = is - ts, bq = iq - tq;
      for (int w = 0; w < warp; ++w) bs += warp_total[buf][w].x, bq += warp_total[buf][w].y;
      uint2* P = prefix[buf];
#pragma unroll
      for (int c = 0; c < kCols; ++c) P[slot(tid * kCols + c)] = make_uint2(bs + s[c], bq + q[c]);
      if (tid == kThreads - 1) P[slot(kSpan)] = make_uint2(bs + ts, bq + tq);
      __syncthreads();

      if (outputs) {
        const int rows = min(height - 1, y + g.after) - max(0, y - g.before) + 1;
        const uint4 r = rows == window && cols_full
                            ? decide_chunk<true>(P, a0, window, centre, x_out, rows, g, width,
                                                 inv_full, k2inv_full)
                            : decide_chunk<false>(P, a0, window, centre, x_out, rows, g, width,
                                                  inv_full, k2inv_full);
        std::uint8_t* mrow = mask.data + static_cast<std::ptrdiff_t>(y) * mask.pitch;
        if (g.mask_vec && x_out + kCols <= width) {
          *reinterpret_cast<uint4*>(mrow + x_out) = r;
        } else {
          for (int j = 0; j < kCols && x_out + j < width; ++j)
            mrow[x_out + j] = static_cast<std::uint8_t>(word_of(r, j / 4) >> (8 * (j % 4)));
        }
      }
      vertical_update(vs, vq, zero, leaving);  // row y - before leaves the window
      buf ^= 1;
    }
  }
}

}  // namespace

// Registered in kernels/variant_tables.cpp; needs no scratch.
void launch_sliding(ImageView<const std::uint8_t> src, const NickParams& params,
                    ImageView<std::uint8_t> mask, DeviceScratch, cudaStream_t s) {
  check_launch(src, params, mask);
  SlidingArgs g{};
  g.before = nick_before(params);
  g.after = nick_after(params);
  g.lead = (g.before + kCols - 1) / kCols * kCols;
  // Widest tile the span allows, then the narrowest multiple of 16 that covers the width with
  // as many tiles (so the last tile is not a sliver).
  const int tile_max = (kSpan - g.lead - g.after) / kCols * kCols;  // >= 896 for w <= 101
  const int tiles = (src.width + tile_max - 1) / tile_max;
  g.tile_w = ((src.width + tiles - 1) / tiles + kCols - 1) / kCols * kCols;
  g.strips = (src.height + kStripRows - 1) / kStripRows;
  g.src_vec = src.rows_aligned(16);
  g.mask_vec = mask.rows_aligned(16);
  g.k = params.k;
  g.k2 = static_cast<float>(params.k * params.k);
  const dim3 grid(static_cast<unsigned>(tiles),
                  static_cast<unsigned>(std::min(g.strips, kMaxGridY)));
  cuda::launch_kernel(nick_sliding_kernel, grid, dim3(kThreads), 0, s, src, g, mask);
  MAD_CUDA_CHECK_LAUNCH();
}

}  // namespace mad::kernels::nick_detail
