// The `regblock` variant of the general NxN convolution (kernels/convolve.h), registered in
// kernels/variant_tables.cpp: a shared-memory tile read once from global memory, and
// register blocking (each thread computes kOx x kOy = 4 x 4 outputs).
//
// Floor. Compulsory bytes: the image read once and written once, 2 x 4 B per float element and
// 2 x 1 B per 8-bit one (537 MB / 134 MB at 8192x8192: ~180 us / ~45 us at the H100's ~2983
// GB/s copy bandwidth). Arithmetic: N^2 taps per output. Bit-identity fixes the form: the CPU
// adds the float products one by one in row-major filter order with separate roundings (no
// FMA, convolve.h), which rules out separable or FFT forms for float; an arbitrary (not
// separable) integer filter leaves N^2 multiply-adds for 8-bit too. So per output the float path
// issues 2 N^2 FP32 instructions (FMUL + FADD, 128/clk/SM) and the 8-bit path N^2 IMADs
// (64/clk/SM on sm_90): at 8192x8192 on an H100 (132 SMs, ~1.98 GHz)
//     float  N = 3: 36 us,  5: 0.10 ms,  7: 0.20 ms,  17: 1.16 ms  (floor 0.18 ms)
//     8-bit  N = 3: 36 us,  5: 0.10 ms,  7: 0.20 ms,  17: 1.16 ms  (floor 0.045 ms)
// Expected share of the copy bandwidth: float N <= 5 memory-bound (~70%), N = 7 ~60%, N = 17
// ~15%; 8-bit N = 3 ~60-70%, N = 5 ~40%, N = 17 ~4%. The 70% goal is out of reach for large
// N with exact arithmetic of an arbitrary filter: it is an arithmetic floor, not a memory one.
//
// Measured (H100, mad bench's convolve group, 8192x8192, share of the ~2990 GB/s copy
// bandwidth): float N = 3 0.247 ms = 72.5%, 5 0.288 ms = 62.3%, 9 0.549 ms = 32.6%, 17 1.567 ms
// = 11.4%; 8-bit N = 3 0.195 ms = 23.0%, 5 0.267 ms = 16.8%, 9 0.507 ms = 8.8%, 17 1.487 ms =
// 3.0% (39-60 registers, 50-75% occupancy). The float path is where the estimate puts it; the
// 8-bit path is 4-5x slower than its arithmetic floor above (N = 3: 0.195 ms against 36 us),
// for a cause not yet diagnosed (the 4-byte shared loads and the double-precision rounding are
// the first suspects).
//
// Why this design gets to that floor. The CTA (32 x 8 threads) stages its (128 + N-1) x (32 +
// N-1) input tile once (zeros outside the image: the skipped taps of the CPU reference; for
// float they add +-0 to a sum that is never -0, which changes no bit) and the filter (as float,
// or as int for 8-bit) in shared memory. A thread's 4 x 4 outputs are 4 adjacent columns by 4
// adjacent rows. It walks the 4 + N - 1 input rows of its window in order; for each it reads its
// 4 + N - 1 samples with 16-byte (float) or 4-byte (8-bit) conflict-free shared loads and adds
// every tap of that row to the outputs that use it. Input row ir meets output row oy with
// filter row dy = ir - oy, so each output still receives its taps in row-major order (dy
// ascending, then dx ascending) with __fmul_rn / __fadd_rn: the float sums equal the CPU's bit
// for bit, and 8-bit sums are exact integers. Per shared load of a sample ~4 N taps are
// computed, and each weight load (a broadcast) feeds 4 taps, so the FP32/INT pipes, not shared
// memory, bound the loop. Global reads: (128 + N - 1)(32 + N - 1) / (128 x 32) of the image,
// 1.07x for N = 3, 1.69x for N = 17, the excess served by L2.
//
// 8-bit rounding: out = floor((2S + T) / (2T)) as convolve.h defines it; the quotient is taken
// from a double reciprocal and corrected by one step either way (exact: 2S + T < 2^31).
//
// Launch shape: fixed 32 x 8 CTAs (the caller's BlockShape is validated but not used: the
// register blocking fixes the shape), grid ceil(W / 128) x ceil(H / 32) with a CTA-uniform
// grid-stride loop past 65535 grid rows; the filter side is a template parameter (odd 1..17).
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "common/cuda_check.h"
#include "common/kernel_launch.cuh"
#include "kernels/convolve_tile.cuh"
#include "common/error.h"
#include "kernels/convolve.h"

namespace mad::kernels {
namespace {

constexpr int kBlockX = 32, kBlockY = 8;  // threads
constexpr int kOx = 4, kOy = 4;           // outputs per thread
constexpr int kTileOutX = kBlockX * kOx;  // 128 output columns per CTA
constexpr int kTileOutY = kBlockY * kOy;  // 32 output rows per CTA
constexpr int kMaxGridY = 65535;

// The shared tile's row length in elements: at least kTileOutX + N - 1 and a multiple of 4, so
// every thread's window (kVec4(N) groups of 4 elements from column 4 tx) is inside and aligned.
constexpr int tile_row(int n) { return kTileOutX + 4 * ((n + 2) / 4); }
constexpr int window_groups(int n) { return (kOx + n - 1 + 3) / 4; }
constexpr int tile_rows(int n) { return kTileOutY + n - 1; }

template <class T>
using Weight = std::conditional_t<std::is_same_v<T, float>, float, int>;

template <class T>
constexpr std::size_t shared_bytes(int n) {
  return static_cast<std::size_t>(tile_row(n)) * tile_rows(n) * sizeof(T) +
         static_cast<std::size_t>(n) * n * sizeof(Weight<T>);
}

// Reads the thread's 4 * kGroups window elements of one tile row (16-byte or 4-byte aligned).
template <int kGroups>
__device__ __forceinline__ void load_window(const float* row, float (&win)[4 * kGroups]) {
#pragma unroll
  for (int g = 0; g < kGroups; ++g) {
    const float4 q = reinterpret_cast<const float4*>(row)[g];
    win[4 * g] = q.x, win[4 * g + 1] = q.y, win[4 * g + 2] = q.z, win[4 * g + 3] = q.w;
  }
}
template <int kGroups>
__device__ __forceinline__ void load_window(const std::uint8_t* row, int (&win)[4 * kGroups]) {
#pragma unroll
  for (int g = 0; g < kGroups; ++g) {
    const unsigned int q = reinterpret_cast<const unsigned int*>(row)[g];
#pragma unroll
    for (int j = 0; j < 4; ++j) win[4 * g + j] = static_cast<int>((q >> (8 * j)) & 0xffu);
  }
}

__device__ __forceinline__ void add_tap(float& acc, float w, float v) {
  acc = __fadd_rn(acc, __fmul_rn(w, v));  // the CPU's rounding: never contracted
}
__device__ __forceinline__ void add_tap(int& acc, int w, int v) {
  acc += w * v;  // <= 255 * 2^22 < 2^31 (convolve.h bounds T)
}

__device__ __forceinline__ float finish(float acc, int) { return acc; }
// floor((2S + T) / (2T)) for 0 <= S <= 255 T, T <= 2^22: n < 2^31, d <= 2^23.
__device__ __forceinline__ std::uint8_t finish(int acc, int total) {
  const unsigned n = 2u * static_cast<unsigned>(acc) + static_cast<unsigned>(total);
  const unsigned d = 2u * static_cast<unsigned>(total);
  unsigned q = static_cast<unsigned>(static_cast<double>(n) * (1.0 / static_cast<double>(d)));
  if (q * d > n)
    --q;  // the estimate is within one of the quotient
  else if (n - q * d >= d)
    ++q;
  return static_cast<std::uint8_t>(q);
}

template <class T, int N>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    convolve_regblock_kernel(ImageView<const T> src, ImageView<T> dst, DeviceFilter f) {
  using W = Weight<T>;
  using Acc = std::conditional_t<std::is_same_v<T, float>, float, int>;
  constexpr int r = N / 2, kRow = tile_row(N), kRows = tile_rows(N);
  constexpr int kGroups = window_groups(N);
  extern __shared__ __align__(16) unsigned char shared[];
  T* tile = reinterpret_cast<T*>(shared);
  W* weights = reinterpret_cast<W*>(shared + static_cast<std::size_t>(kRow) * kRows * sizeof(T));

  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * kBlockX + tx;
  for (int i = tid; i < N * N; i += kBlockX * kBlockY) weights[i] = static_cast<W>(f.global[i]);
  const int x0 = blockIdx.x * kTileOutX;
  // y0 is uniform over the CTA, so every thread reaches both barriers of every iteration (the
  // first barrier also publishes the weights).
  for (int y0 = blockIdx.y * kTileOutY; y0 < src.height; y0 += gridDim.y * kTileOutY) {
    // Stage the tile: row-major, consecutive threads on consecutive columns (coalesced). The
    // padding columns past kTileOutX + N - 1 are loaded too (zeros or image samples; no output
    // uses them).
    detail::stage_zero_padded_tile(src, y0, x0, r, kRow, kRows, tid, kBlockX * kBlockY, tile);
    __syncthreads();

    Acc acc[kOy][kOx];
#pragma unroll
    for (int oy = 0; oy < kOy; ++oy)
#pragma unroll
      for (int j = 0; j < kOx; ++j) acc[oy][j] = Acc(0);
    // Input row ir of the thread's window is tile row ty * kOy + ir; it meets output row oy
    // with filter row dy = ir - oy, so each output sees dy ascending (the CPU's order).
#pragma unroll 1
    for (int ir = 0; ir < kOy + N - 1; ++ir) {
      Acc win[4 * kGroups];
      load_window<kGroups>(tile + (ty * kOy + ir) * kRow + tx * kOx, win);
#pragma unroll
      for (int oy = 0; oy < kOy; ++oy) {
        const int dy = ir - oy;
        if (dy < 0 || dy >= N) continue;  // uniform over the CTA
        const W* wrow = weights + dy * N;
#pragma unroll
        for (int dx = 0; dx < N; ++dx) {
          const W w = wrow[dx];
#pragma unroll
          for (int j = 0; j < kOx; ++j) add_tap(acc[oy][j], w, win[j + dx]);
        }
      }
    }

#pragma unroll
    for (int oy = 0; oy < kOy; ++oy) {
      const int y = y0 + ty * kOy + oy;
      if (y >= src.height) break;
      T* out = dst.data + static_cast<std::ptrdiff_t>(y) * dst.pitch;
#pragma unroll
      for (int j = 0; j < kOx; ++j) {
        const int x = x0 + tx * kOx + j;
        if (x < src.width) out[x] = finish(acc[oy][j], f.weight_sum);
      }
    }
    __syncthreads();  // the next tile overwrites this one
  }
}

template <class T, int N>
void launch_size(ImageView<const T> src, ImageView<T> dst, const DeviceFilter& f,
                 cudaStream_t s) {
  const dim3 grid((src.width + kTileOutX - 1) / kTileOutX,
                  std::min((src.height + kTileOutY - 1) / kTileOutY, kMaxGridY));
  static_assert(shared_bytes<float>(kConvolveMaxSize) <= 48 * 1024, "tile must fit 48 KiB");
  cuda::launch_kernel(convolve_regblock_kernel<T, N>, grid, dim3(kBlockX, kBlockY),
                      shared_bytes<T>(N), s, src, dst, f);
  MAD_CUDA_CHECK_LAUNCH();
}

}  // namespace

namespace convolve_detail {

template <class T>
void launch_regblock(ImageView<const T> src, ImageView<T> dst, const DeviceFilter& f,
                     BlockShape block, cudaStream_t s) {
  constexpr bool kBytes = std::is_same_v<T, std::uint8_t>;
  if (f.size < 1 || f.size > kConvolveMaxSize || f.size % 2 == 0)
    throw InvalidArgument("convolve: the filter side must be odd and in 1..17, got " +
                          std::to_string(f.size));
  if (f.global == nullptr)
    throw InvalidArgument("convolve (regblock): needs the filter's device copy");
  if (kBytes && (f.weight_sum < 1 || f.weight_sum > kConvolveMaxWeightSum))
    throw InvalidArgument("convolve: 8-bit input needs the filter's weight sum");
  if (src.empty() || src.data == nullptr) throw InputError("convolve: the image is empty");
  if (dst.data == nullptr || dst.width != src.width || dst.height != src.height)
    throw InvalidArgument("convolve: device output must have the input's shape");
  validate_block_shape(block, false, f.size, sizeof(T));  // checked for every row alike; unused
  switch (f.size) {
    case 1: return launch_size<T, 1>(src, dst, f, s);
    case 3: return launch_size<T, 3>(src, dst, f, s);
    case 5: return launch_size<T, 5>(src, dst, f, s);
    case 7: return launch_size<T, 7>(src, dst, f, s);
    case 9: return launch_size<T, 9>(src, dst, f, s);
    case 11: return launch_size<T, 11>(src, dst, f, s);
    case 13: return launch_size<T, 13>(src, dst, f, s);
    case 15: return launch_size<T, 15>(src, dst, f, s);
    default: return launch_size<T, 17>(src, dst, f, s);
  }
}

template void launch_regblock<float>(ImageView<const float>, ImageView<float>, const DeviceFilter&,
                                     BlockShape, cudaStream_t);
template void launch_regblock<std::uint8_t>(ImageView<const std::uint8_t>,
                                            ImageView<std::uint8_t>, const DeviceFilter&,
                                            BlockShape, cudaStream_t);

}  // namespace convolve_detail
}  // namespace mad::kernels
