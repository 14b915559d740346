// How the GPU appearance stage turns an image's half spectrum into one scale's 4 subbands and
// hands them to A5 (spec §4.2-4.4): the registry of the two ways and the choice between them.
// CUDA-free, so the CLI and the tests list and check names without the CUDA backend.
//
//  - "cufft": the product kernel writes the 4 filtered full spectra F(k) H_{s,o}(k), one batched
//    cuFFT inverse C2C transforms them in place, and A5 reads the complex results, forming
//    |z / (MN)| as it loads them.
//  - "fused": our own two-pass inverse (appearance/subband_fft_cuda.h). The column pass forms
//    the product as it loads the spectrum (the filtered spectra are never written), the row pass
//    forms |z / (MN)| as it stores, so A5 reads real magnitudes: per subband about 40% of the
//    cuFFT route's memory traffic. It supports sides whose prime factors are 2, 3 and 5 and
//    whose lines fit in shared memory; other shapes use "cufft".
//
// Both keep the scores within the contract (double within 1e-12 of the CPU, float within 1e-4 of
// double): the transforms differ only in rounding, the product and the modulus are the same
// explicitly rounded operations.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "common/variant_registry.h"

namespace mad::appearance {

enum class SubbandTransform { Cufft, Fused };

// The two rows. The registry's default row is cufft (it runs every shape); without a name the
// stage runs fused where fused_subband_transform_is_faster holds (resolve_subband_transform).
const VariantRegistry<SubbandTransform>& subband_transforms();

// Whether the fused transform runs width x height images in this precision: both sides factor
// into 2, 3 and 5, and each pass's lines fit the shared memory it is given.
bool fused_subband_transform_supports(int width, int height, bool double_precision);

// Where "" picks the fused transform: where it measured no slower than cufft on an H200 in every
// mode, one pair and batches (docs/performance.md, "The fused subband transform"): float, both
// passes' CTAs small enough for 2 or more an SM (kFastSharedBytes). Whole pairs, fused / cufft
// (69a678e plus the column stride and the spans' inverses, one run): float 0.84-0.91x one pair,
// 0.76-1.00x in batches at 512x384, 512x512, 1080x800 and 1920x1080; 3840x2160 float (143 KiB
// column CTAs) 1.34x in an earlier run. Double stays on cufft: 0.95-1.06x one pair, but 1.02-1.05x
// in batches at 512x384 and 512x512 and 1.15x at 1920x1080 (0.91x at 1080x800).
bool fused_subband_transform_is_faster(int width, int height, bool double_precision);

// The transform a stage of this shape runs for the user's pick (a row's transform, the name
// already resolved at the front door): none picks fused where fused_subband_transform_is_faster,
// else cufft; cufft always; fused where supported, else InvalidArgument saying why.
SubbandTransform resolve_subband_transform(std::optional<SubbandTransform> asked, int width,
                                           int height, bool double_precision);

const char* subband_transform_name(SubbandTransform t);

}  // namespace mad::appearance

namespace mad::appearance::subband_fft {

// The plan of one line length n: the radices of its Stockham passes, 8s first, then 4, 2, 3,
// 5 (any order is exact; fewer, wider passes mean fewer trips through shared memory). Empty
// when n has another prime factor.
std::vector<int> radices(int n);

// A line of n complex values in shared memory is padded by one value after every 8 (double) or
// 16 (float), i.e. every 128 bytes: a radix-R pass stores R values a thread at a stride of R,
// which without the padding lands a quarter-warp's stores in the same banks (8-way conflicts at
// radix 8). Padded index of value i, and the padded line length.
// In double the length is then rounded up to 2 mod 8 values: the column pass keeps 4 lines side
// by side, and a quarter warp (the unit of a 16-byte shared access) reaches 2 values of each;
// at 1 mod 8 (577 at n = 512) line l's value i+1 and line l+1's value i share banks, which
// doubled the pass's shared-memory wavefronts (Nsight Compute, 512x512 on the H200). Float's
// 8 lines a CTA cannot be placed so for both its loads and stores; it keeps 1 mod 16.
constexpr int pad_shift(bool double_precision) { return double_precision ? 3 : 4; }
constexpr int padded_length(int n, bool double_precision) {
  const int base = n + (n >> pad_shift(double_precision)) + 1;
  return double_precision ? base + (10 - base % 8) % 8 : base;
}
// Shared memory of a pass over `lines` lines of length n (two ping-pong buffers per line), and
// the most a pass may use: below the 227 KiB a Hopper CTA may opt into.
std::size_t shared_bytes(int n, int lines, bool double_precision);
constexpr std::size_t kMaxSharedBytes = 200 * 1024;
// At most this much a CTA, 2 or more CTAs share an SM: the passes hide their memory latency
// (3840x2160 in float, at 143 KiB a column CTA, measured 1.34x slower than cufft).
constexpr std::size_t kFastSharedBytes = 96 * 1024;
// Lines a CTA transforms side by side. The column pass takes adjacent columns so that each row's
// loads and stores are 64-byte runs (4 complex doubles, 8 complex floats) when that fits in
// kFastSharedBytes, else 32-byte runs (one sector: 2 or 4), else 0: the shape is
// not supported. The row pass takes one row.
int column_lines(int height, bool double_precision);
constexpr int kRowLines = 1;
// Threads that share one line: n / 8 rounded up, between 32 and 256. Not rounded up to a
// warp: a CTA of several lines is what the warps divide, and a 384-value column then keeps 48
// threads busy instead of 64 with 16 idle in its radix-8 passes (512x384 in double: the fused
// stage went from 1.11x cufft's time to 0.99x, each ratio from one H200 run, issue 26).
int threads_per_line(int n);

}  // namespace mad::appearance::subband_fft
