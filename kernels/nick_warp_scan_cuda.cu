// Nick variant `warp_scan`: one pass, O(1) work per pixel whatever the window (2..101), no
// scratch, no block-wide barrier.
//
// Why another one-pass variant. `sliding_columns` (nick_sliding_cuda.cu) reached 10% of the copy
// bandwidth at 8192x8192: ~90 instructions a pixel, two block barriers a row, 24 bytes of shared
// memory traffic a pixel and two conversions a pixel on the slow (16 per SM per clock) pipe.
// This shape was planned at ~28 instructions a pixel, which an H100 issues fast enough for 70%
// (issue 12, goal 1).
//
// Measured (H100, mad bench, 8192x8192, share of the copy bandwidth): w = 3 19.3%, w = 15 18.0%
// (0.249 ms), w = 101 9.4% (0.48 ms), against sliding_columns' 10.9 / 10.1 / 7.7%; 96
// registers, 5 CTAs (20 warps) per SM. Far from 70%. Where the time goes (w = 15, by
// ablation: the same kernel with parts removed):
//   - the decision: half the time (0.295 -> 0.149 ms without it, before the last two changes
//     below); ~18 instructions a pixel in the SASS;
//   - prefix, scan and shared stores 0.021 ms, vertical sums 0.009 ms;
//   - the load/store skeleton alone (0.119 ms, 38%; 47% at w = 3): too few loads in flight.
// The profile (ncu, before the ring): 56% of issue slots busy with 20 warps resident, stalls
// mostly on global loads; each warp-row is one dependent chain (sums, two 16-long prefix
// chains, five dependent shuffles, stores, reads, decisions), and every shape that put more
// warps in flight won, even at a higher instruction count.
// Steps (w = 15): as first written (a CTA's 4 warps on 4 adjacent spans, 64-row strips, 164
// registers) 8.6%, 5.5 warps active per SM; a CTA's warps on one span's consecutive strips,
// one-instruction byte extraction, __grid_constant__ arguments: 12.2%; 16-row strips, 5 CTAs
// per SM, the window's end read back from shared memory instead of 32 registers: 15.3%; the
// window start's address from two per-lane bases, the sign folded into g = d |d| - c: 16.5%;
// the entering rows through a cp.async ring (the strip prologue pipelined too): 18.0%.
// Sweeps (w = 15): strips of 8 / 12 / 16 / 24 / 32 / 48 / 64 rows: 15.2 / 15.5 / 15.3 / 13.9 /
// 12.9 / 10.3 / 9.8% before the ring, 16 / 32 / 64: 17.8 / 14.5 / 10.6% with it (w = 101:
// 16 / 32 rows 9.4 / 9.7%); 4 / 5 / 6 CTAs per SM: 14.9 / 15.3 / 14.4%; a ring of 2 / 4 / 8
// rows: 17.7 / 17.8 / 16.7%.
//
// Shape. Every warp works alone on a span of 32 lanes x 16 columns and a strip of rows (the
// 4 warps of a CTA take 4 consecutive strips of one span). Lane t owns 16 consecutive columns of
// the span and walks down the strip keeping their vertical window sums of p and p^2 in registers
// (exact uint32: add the entering row, subtract the leaving one). Per row:
//   1. the warp turns the sums into an inclusive prefix P over the span (each lane's own
//      prefix from its exclusive base, the base by a 5-step shuffle scan of the lane totals);
//   2. each lane stores its 16 prefix values in the warp's shared row (uint2 {S, Q}), one pad
//      slot per lane so that 16 lanes' uint2 accesses fall in distinct banks; __syncwarp;
//   3. lane t decides the 16 pixels X(t)..X(t)+15 (X 16-aligned: aligned centre loads and mask
//      stores). Their window sums are P(x + after) - P(x - before - 1). The lane's owned columns
//      are chosen as X(t) + after .. + 15, so P(x + after) is the lane's own slot j (read back:
//      see the sweeps) and P(x - before - 1) is at span index 16 t + j - w. That index crosses
//      a lane block at j = w % 16, one slot earlier past the pad, hence `j < lo_shift`.
// The owned columns sit `after` columns right of the outputs, so the entering and leaving rows
// are read as five 4-byte words and byte-funnelled (selector uniform: after % 4). The entering
// rows (the strip's first w - 1 too) come through a per-warp ring of shared memory by cp.async,
// kRing - 1 rows ahead; the leaving rows (read w rows earlier, so in L1 or L2) by plain loads
// one row ahead. Lanes below
// `first_lane` carry only the left part of the windows; a warp outputs 16 x (32 - first_lane)
// columns (496 at w = 15, 400 at w = 101). The strip's first w - 1 rows are summed before its
// first output row.
//
// Decision, bit-identical to the CPU (nick_decide, nick_threshold.cuh). With m = S / n,
// d = m - p and c = k^2 (Q - m^2) / n (k < 0): p > T  <=>  d < 0 or d^2 < c  <=>  g < 0 for
// g = d |d| - c. In float, g from fl(1/n), fl(k^2 / n), the exact S (< 2^23) and p, and fl(Q);
// no square root. |g_float - g_real| < 0.035 for every n and k in range (|d| <= 255,
// c <= 2601, each step one rounding; the double sequence is within 1e-9 of the real T), so the
// float sign is the double decision wherever |g| > kMargin = 1/16 (then |d| > 1/4 or c > 1/16
// + d^2, so a wrong sign of d cannot change the answer). A chunk of 16 with any |g| <= 1/16 (ties,
// near ties, flat windows) decides those pixels again by nick_decide_device, skipping the double
// sequence for all-zero windows (Q = 0: T = 0 = p). The tests' tie patterns and flat images take
// this path.
#include <algorithm>

#include "common/cuda_check.h"
#include "common/kernel_launch.cuh"
#include "kernels/async_copy.cuh"
#include "kernels/nick_launch_cuda.h"
#include "kernels/nick_threshold.cuh"

namespace mad::kernels::nick_detail {
namespace {

constexpr int kLanes = 32;
constexpr int kCols = 16;  // columns per lane
constexpr int kWarps = 4;  // warps per CTA (independent strips of one span)
constexpr int kThreads = kWarps * kLanes;
constexpr int kBlockSlots = kCols + 1;  // a lane's 16 prefix values and one pad slot
// Block -1 in front of the span's blocks: its index 15 (slot -2) holds P(-1) = 0.
constexpr int kFrontSlots = kBlockSlots;
constexpr int kWarpSlots = kFrontSlots + kLanes * kBlockSlots;
// 16-row strips and 5 CTAs (20 warps) per SM: measured fastest at 8192x8192 (see the banner).
constexpr int kStripRows = 16;
constexpr int kMinBlocks = 5;
// The entering rows come through a per-warp ring of shared memory, kRing - 1 rows ahead of the
// row being summed. A lane's slot holds the 20 aligned bytes around its 16 owned ones.
constexpr int kRing = 4;
constexpr int kRawWords = 5;
constexpr int kRingSlotWords = kLanes * kRawWords;
constexpr int kMaxGridY = 65535;
constexpr float kMargin = 1.0f / 16;

struct ScanArgs {
  int before, after, window;  // window rows/columns before and after the pixel, w
  int first_lane;             // ceil((w - 1) / 16): the first lane with outputs
  int tile_w;                 // outputs per warp, 16 * (32 - first_lane)
  int tiles;                  // ceil(width / tile_w)
  int strips;                 // ceil(height / kStripRows)
  int lo_block, lo_shift;     // w / 16, w % 16
  unsigned funnel;            // byte-perm selector taking bytes after % 4 .. + 3
  bool src_words;             // rows 4-byte aligned: owned columns as five word loads
  bool src_vec, mask_vec;     // rows 16-byte aligned: centre loads / mask stores as uint4
  double k;
  float k2;                    // fl(k^2)
  float inv_full, k2inv_full;  // fl(1 / w^2), fl(k2 * inv_full): the interior window
};

__device__ __forceinline__ unsigned prmt(unsigned a, unsigned b, unsigned selector) {
  unsigned d;
  // Generic mode: a selector nibble with its high bit set replicates the chosen byte's sign.
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(selector));
  return d;
}

__device__ __forceinline__ unsigned word_of(const uint4& c, int i) {
  return i == 0 ? c.x : i == 1 ? c.y : i == 2 ? c.z : c.w;
}

__device__ __forceinline__ unsigned byte_of(const uint4& c, int j) {
  return __byte_perm(word_of(c, j / 4), 0u, 0x4440u + static_cast<unsigned>(j % 4));
}

// A lane's owned 16 bytes of a row, from column c0 (any alignment, any position), travel as
// the 5 words from c0 rounded down to a word ("raw words"; owned_from_raw() takes the 16 out).

// Whether row y's raw words lie in the image and can be read as words (4-byte aligned rows).
__device__ __forceinline__ bool raw_words_readable(const ImageView<const std::uint8_t>& src, int y,
                                                   int c0, const ScanArgs& g) {
  const int r = c0 & 3, base = c0 - r;
  return y >= 0 && y < src.height && g.src_words && c0 >= 0 &&
         base + (r != 0 ? 20 : 16) <= src.width;
}

__device__ __forceinline__ const std::uint8_t* raw_words_at(
    const ImageView<const std::uint8_t>& src, int y, int c0) {
  return src.data + static_cast<std::ptrdiff_t>(y) * src.pitch + (c0 - (c0 & 3));
}

// The raw words byte by byte: the owned bytes inside the image, zeros everywhere else.
__device__ __forceinline__ void raw_words_by_bytes(const ImageView<const std::uint8_t>& src, int y,
                                                   int c0, unsigned (&w)[kRawWords]) {
  const int r = c0 & 3, base = c0 - r;
#pragma unroll
  for (int i = 0; i < kRawWords; ++i) w[i] = 0;
  if (y < 0 || y >= src.height) return;
  const std::uint8_t* row = src.data + static_cast<std::ptrdiff_t>(y) * src.pitch;
#pragma unroll
  for (int b = 0; b < 4 * kRawWords; ++b) {
    const int x = base + b;
    if (b >= r && b < r + kCols && x >= 0 && x < src.width)
      w[b / 4] |= static_cast<unsigned>(row[x]) << (8 * (b % 4));
  }
}

// The owned 16 bytes from the raw words. w4 is read only when after % 4 != 0: otherwise the
// funnel ignores it, and a ring slot's fifth word may never have been written.
__device__ __forceinline__ uint4 owned_from_raw(unsigned w0, unsigned w1, unsigned w2, unsigned w3,
                                                const unsigned* w4, const ScanArgs& g) {
  const unsigned last = g.funnel != 0x3210u ? *w4 : 0u;
  return make_uint4(__byte_perm(w0, w1, g.funnel), __byte_perm(w1, w2, g.funnel),
                    __byte_perm(w2, w3, g.funnel), __byte_perm(w3, last, g.funnel));
}

// Row y's owned 16 bytes, loaded now (the leaving rows).
__device__ __forceinline__ uint4 load_owned(const ImageView<const std::uint8_t>& src, int y, int c0,
                                            const ScanArgs& g) {
  unsigned w[kRawWords];
  if (raw_words_readable(src, y, c0, g)) {
    const unsigned* p = reinterpret_cast<const unsigned*>(raw_words_at(src, y, c0));
    return owned_from_raw(p[0], p[1], p[2], p[3], p + 4, g);
  }
  raw_words_by_bytes(src, y, c0, w);
  return owned_from_raw(w[0], w[1], w[2], w[3], &w[4], g);
}

// Stages row y's raw words into this lane's 5 words of a ring slot (the entering rows): by
// cp.async where readable, else byte by byte and stored.
__device__ __forceinline__ void stage_owned(const ImageView<const std::uint8_t>& src, int y, int c0,
                                            const ScanArgs& g, unsigned* dst) {
  if (raw_words_readable(src, y, c0, g)) {
    const std::uint8_t* p = raw_words_at(src, y, c0);
    const unsigned smem = static_cast<unsigned>(__cvta_generic_to_shared(dst));
#pragma unroll
    for (int i = 0; i < 4; ++i) copy_4_async(smem + 4 * i, p + 4 * i);
    if ((c0 & 3) != 0) copy_4_async(smem + 16, p + 16);
    return;
  }
  unsigned w[kRawWords];
  raw_words_by_bytes(src, y, c0, w);
#pragma unroll
  for (int i = 0; i < kRawWords; ++i) dst[i] = w[i];
}

// The owned 16 bytes from a lane's staged words (stage_owned).
__device__ __forceinline__ uint4 read_owned(const unsigned* staged, const ScanArgs& g) {
  return owned_from_raw(staged[0], staged[1], staged[2], staged[3], staged + 4, g);
}

// 16 bytes of row y from the 16-aligned column x (x < width): zeros past the right edge.
__device__ __forceinline__ uint4 load_centre(const ImageView<const std::uint8_t>& src, int y, int x,
                                             const ScanArgs& g) {
  const std::uint8_t* row = src.data + static_cast<std::ptrdiff_t>(y) * src.pitch;
  if (g.src_vec && x + kCols <= src.width) return *reinterpret_cast<const uint4*>(row + x);
  unsigned out[4] = {0, 0, 0, 0};
#pragma unroll
  for (int j = 0; j < kCols; ++j)
    if (x + j < src.width) out[j / 4] |= static_cast<unsigned>(row[x + j]) << (8 * (j % 4));
  return make_uint4(out[0], out[1], out[2], out[3]);
}

// Adds row `in` to and subtracts row `out` from the 16 vertical sums (exact modulo 2^32,
// hence exact: every final value is in range).
template <bool kLeaving>
__device__ __forceinline__ void vertical_update(unsigned vs[kCols], unsigned vq[kCols],
                                                const uint4& in, const uint4& out) {
#pragma unroll
  for (int j = 0; j < kCols; ++j) {
    const unsigned e = byte_of(in, j);
    if (kLeaving) {
      const unsigned l = byte_of(out, j);
      vs[j] += e - l;
      const unsigned t = l * l - vq[j];  // two multiply-adds, no negation
      vq[j] = e * e - t;
    } else {
      vs[j] += e;
      vq[j] += e * e;
    }
  }
}

// g = d |d| - c for one pixel: d^2 - c of the banner where d >= 0, and negative (< -d^2) where
// d < 0, so its sign alone is the decision (negative <=> p > T) and |g| <= kMargin still marks
// every pixel the float sign may get wrong.
__device__ __forceinline__ float fast_g(unsigned p, unsigned s, unsigned q, float inv,
                                        float k2inv) {
  const float sf = __uint2float_rn(s);  // exact: s < 2^23 (one I2FP, a full-rate FMA-pipe op)
  const float pf = __uint2float_rn(p);
  const float m = sf * inv;
  const float d = m - pf;
  const float t = fmaf(-m, m, __uint2float_rn(q));  // Q - m^2
  return fmaf(d, fabsf(d), -(t * k2inv));
}

// Count of pixel (row count `rows`) at column x of the clipped window.
__device__ __forceinline__ unsigned clipped_count(int x, int rows, const ScanArgs& g, int width) {
  const int cols = min(width - 1, x + g.after) - max(0, x - g.before) + 1;
  return static_cast<unsigned>(rows * max(cols, 1));
}

// Where the chunk's window sums come from: the lane's own prefix values (registers in the
// interior path, its shared-memory slots elsewhere) and the start-of-window prefix values.
struct ChunkSums {
  const uint2* own;  // P(16 lane + j), j = 0..15
  // P(16 lane + j - w): lo_early[j] for j < lo_shift, lo_late[j] after (one slot apart: the pad).
  const uint2* lo_early;
  const uint2* lo_late;
  int lo_shift;
  // {S, Q} of pixel j's window: P(x + after) - P(x - before - 1).
  __device__ __forceinline__ uint2 sums(int j) const {
    const uint2 hi = own[j], lo = (j < lo_shift ? lo_early : lo_late)[j];
    return make_uint2(hi.x - lo.x, hi.y - lo.y);
  }
};

// Packs 4 pixels' g into 4 mask bytes: each byte the sign of its value, replicated.
__device__ __forceinline__ unsigned pack_signs(const float v[4]) {
  const unsigned lo2 = prmt(__float_as_uint(v[0]), __float_as_uint(v[1]), 0xFBu);
  const unsigned hi2 = prmt(__float_as_uint(v[2]), __float_as_uint(v[3]), 0xFBu);
  return prmt(lo2, hi2, 0x5410u);
}

// The 16 mask bytes of a chunk from sign_of(j), pixel j's g (negative: 255).
template <class SignOf>
__device__ __forceinline__ uint4 chunk_mask(SignOf sign_of) {
  unsigned out[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    float v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = sign_of(4 * i + u);
    out[i] = pack_signs(v);
  }
  return make_uint4(out[0], out[1], out[2], out[3]);
}

// The general form, out of line (window clipped by a border, or a near tie in the chunk): 16
// decisions with per-pixel counts, each near tie decided again by the exact double sequence.
__device__ __noinline__ uint4 decide16_general(ChunkSums c, uint4 centre, int x0, int rows,
                                               bool clipped, const ScanArgs& g, int width) {
  return chunk_mask([&](int j) {
    const uint2 w = c.sums(j);
    const unsigned count = clipped ? clipped_count(x0 + j, rows, g, width)
                                   : static_cast<unsigned>(g.window * g.window);
    const float inv = clipped ? __frcp_rn(static_cast<float>(count)) : g.inv_full;
    const float k2inv = clipped ? g.k2 * inv : g.k2inv_full;
    const unsigned p = byte_of(centre, j);
    float gg = fast_g(p, w.x, w.y, inv, k2inv);
    if (fabsf(gg) <= kMargin) {
      const unsigned r = w.y == 0 ? 0u : nick_decide_device(p, w.x, w.y, count, g.k);
      gg = r != 0 ? -1.0f : 1.0f;
    }
    return gg;
  });
}

// The interior form: the full w x w window. Sets near_tie when any pixel of the chunk is within
// the margin (the caller then decides the chunk by decide16_general). The window's end comes back
// from the lane's own shared slots (holding it in 32 registers instead cost a CTA per SM and
// measured slower).
__device__ __forceinline__ uint4 decide16_interior(ChunkSums c, const uint4& centre,
                                                   const ScanArgs& g, bool& near_tie) {
  float closest = 1e30f;
  const uint4 mask = chunk_mask([&](int j) {
    const uint2 w = c.sums(j);
    const float gg = fast_g(byte_of(centre, j), w.x, w.y, g.inv_full, g.k2inv_full);
    closest = fminf(closest, fabsf(gg));
    return gg;
  });
  near_tie = closest <= kMargin;
  return mask;
}

__global__ void __launch_bounds__(kThreads, kMinBlocks)
    nick_warp_scan_kernel(ImageView<const std::uint8_t> src, const __grid_constant__ ScanArgs g,
                          ImageView<std::uint8_t> mask) {
  __shared__ uint2 shared_rows[kWarps][kWarpSlots];
  __shared__ unsigned entering_ring[kWarps][kRing * kRingSlotWords];
  const int lane = threadIdx.x % kLanes, warp = threadIdx.x / kLanes;
  const int tile = blockIdx.x;
  const int width = src.width, height = src.height;
  uint2* const slots = shared_rows[warp] + kFrontSlots;  // span index m: (m >> 4) * 17 + (m & 15)
  if (lane == 0) slots[-2] = make_uint2(0, 0);           // P(-1)
  uint2* const own = slots + lane * kBlockSlots;
  // P(16 lane + j - w): block lane - w / 16, index j - w % 16, one slot earlier past the pad.
  const uint2* const lo_base = slots + (lane - g.lo_block) * kBlockSlots - g.lo_shift;
  const int x_out = tile * g.tile_w + kCols * (lane - g.first_lane);  // outputs x_out .. + 15
  const int c_own = x_out + g.after;                                  // owned columns
  const bool outputs = lane >= g.first_lane && x_out < width;
  const bool cols_full = x_out - g.before >= 0 && x_out + kCols - 1 + g.after <= width - 1;
  const uint4 zero = make_uint4(0, 0, 0, 0);
  unsigned* const ring = entering_ring[warp] + lane * kRawWords;  // slot s: + s * kRingSlotWords

  // The CTA's warps take consecutive strips of one span; nothing below synchronizes the CTA.
  for (int strip = blockIdx.y * kWarps + warp; strip < g.strips; strip += gridDim.y * kWarps) {
    const int y_begin = strip * kStripRows, y_end = min(height, y_begin + kStripRows);
    unsigned vs[kCols], vq[kCols];
#pragma unroll
    for (int j = 0; j < kCols; ++j) vs[j] = vq[j] = 0;
    // The entering rows, in order: the strip's first w - 1 (summed before its first output),
    // then one per output row. Row k is y_begin - before + k.
    const int first_row = y_begin - g.before, prologue = g.window - 1;
    const int stream = (y_end - y_begin) + prologue;
#pragma unroll
    for (int k = 0; k < kRing - 1; ++k) {
      if (k < stream) stage_owned(src, first_row + k, c_own, g, ring + k * kRingSlotWords);
      commit_async_copies();
    }
    uint4 leaving = zero;  // row y_begin - before - 1 was never added
    uint4 centre = outputs ? load_centre(src, y_begin, x_out, g) : zero;
    for (int k = 0; k < stream; ++k) {
      // Row k + kRing - 1 into the slot whose row (k - 1) was read and summed last step.
      const int ahead = k + kRing - 1;
      if (ahead < stream)
        stage_owned(src, first_row + ahead, c_own, g, ring + (ahead % kRing) * kRingSlotWords);
      commit_async_copies();
      wait_async_copies<kRing - 1>();  // row k has landed
      const uint4 entering = read_owned(ring + (k % kRing) * kRingSlotWords, g);
      if (k < prologue) {
        vertical_update<false>(vs, vq, entering, zero);
        continue;
      }
      const int y = y_begin + k - prologue;
      vertical_update<true>(vs, vq, entering, leaving);  // rows y - before .. y + after
      const uint4 centre_y = centre;
      if (y + 1 < y_end) {  // the next row's other loads, in flight during this row's work
        leaving = load_owned(src, y - g.before, c_own, g);
        if (outputs) centre = load_centre(src, y + 1, x_out, g);
      }

      // Inclusive prefix over the span: lane totals, their warp scan, then the lane's own.
      unsigned ts = 0, tq = 0;
#pragma unroll
      for (int j = 0; j < kCols; ++j) ts += vs[j], tq += vq[j];
      unsigned is = ts, iq = tq;
#pragma unroll
      for (int d = 1; d < kLanes; d *= 2) {
        const unsigned ns = __shfl_up_sync(0xFFFFFFFFu, is, d);
        const unsigned nq = __shfl_up_sync(0xFFFFFFFFu, iq, d);
        if (lane >= d) is += ns, iq += nq;
      }
      unsigned run_s = is - ts, run_q = iq - tq;
#pragma unroll
      for (int j = 0; j < kCols; ++j) {
        run_s += vs[j];
        run_q += vq[j];
        own[j] = make_uint2(run_s, run_q);
      }
      __syncwarp();

      if (outputs) {
        const int rows = min(height - 1, y + g.after) - max(0, y - g.before) + 1;
        const ChunkSums c{own, lo_base - 1, lo_base, g.lo_shift};
        uint4 r;
        if (rows == g.window && cols_full) {
          bool near_tie;
          r = decide16_interior(c, centre_y, g, near_tie);
          if (near_tie) r = decide16_general(c, centre_y, x_out, rows, false, g, width);
        } else {
          r = decide16_general(c, centre_y, x_out, rows, true, g, width);
        }
        std::uint8_t* mrow = mask.data + static_cast<std::ptrdiff_t>(y) * mask.pitch;
        if (g.mask_vec && x_out + kCols <= width) {
          *reinterpret_cast<uint4*>(mrow + x_out) = r;
        } else {
          for (int j = 0; j < kCols && x_out + j < width; ++j)
            mrow[x_out + j] = static_cast<std::uint8_t>(byte_of(r, j));
        }
      }
      __syncwarp();  // every lane has read the row before the next one overwrites it
    }
  }
}

}  // namespace

// Registered in kernels/variant_tables.cpp; needs no scratch.
void launch_warp_scan(ImageView<const std::uint8_t> src, const NickParams& params,
                      ImageView<std::uint8_t> mask, DeviceScratch, cudaStream_t s) {
  check_launch(src, params, mask);
  ScanArgs g{};
  g.before = nick_before(params);
  g.after = nick_after(params);
  g.window = g.before + g.after + 1;
  g.first_lane = (g.window - 1 + kCols - 1) / kCols;  // 16 first_lane >= w - 1: P(-1) at least
  g.tile_w = kCols * (kLanes - g.first_lane);
  g.tiles = (src.width + g.tile_w - 1) / g.tile_w;
  g.strips = (src.height + kStripRows - 1) / kStripRows;
  g.lo_block = g.window / kCols;
  g.lo_shift = g.window % kCols;
  g.funnel = 0x3210u + 0x1111u * static_cast<unsigned>(g.after % 4);
  g.src_words = src.rows_aligned(4);
  g.src_vec = src.rows_aligned(16);
  g.mask_vec = mask.rows_aligned(16);
  g.k = params.k;
  g.k2 = static_cast<float>(params.k * params.k);
  g.inv_full = 1.0f / static_cast<float>(g.window * g.window);
  g.k2inv_full = g.k2 * g.inv_full;
  const dim3 grid(static_cast<unsigned>(g.tiles),
                  static_cast<unsigned>(std::min((g.strips + kWarps - 1) / kWarps, kMaxGridY)));
  cuda::launch_kernel(nick_warp_scan_kernel, grid, dim3(kThreads), 0, s, src, g, mask);
  MAD_CUDA_CHECK_LAUNCH();
}

}  // namespace mad::kernels::nick_detail
