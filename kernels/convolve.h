// General 2-D convolution with an odd NxN filter (issue 11, seed 001 §3): a float matrix or an
// 8-bit gray image, one channel, filter given as weights. The 5x5 triangular smoothing of
// kernels/smooth.h (`mad kernel smooth`) is a separate kernel and is unchanged.
//
// Border rule (seed 001 §3.2, item 1: "the input image is padded" so that the filter never reads
// out of bounds; §3.1 divides by T, the sum of the WHOLE filter): taps outside the image read
// zero and nothing is renormalized. The seed does not say what it pads with; we take zeros.
// This differs from smooth.h, which drops the outside taps and divides by the remaining sum.
//
// Float input: out(y, x) = sum over dy, dx in 0..N-1 of w[dy][dx] * in(y + dy - r, x + dx - r),
// r = (N - 1) / 2, with the weights as given (the caller normalizes; seed_filter_float divides
// the seed's filter by T once, where the seed's formula divides every product by T). The sum is
// accumulated in float from +0, row by row and left to right, each product and each addition
// rounded to nearest (no FMA contraction) and the outside taps skipped; every CUDA variant does
// exactly this (the taps it reads as zeros add +0 or -0 to a sum that is never -0, which
// changes nothing), so CPU and GPU agree bit for bit.
//
// 8-bit input: the weights must be non-negative integers with a positive sum T <= 2^22
// (exactly representable floats); S = the integer weighted sum, out = floor(S / T + 1/2),
// computed exactly as (2S + T) / (2T) (kernels/smooth.h's rounding). Exact on both backends.
//
// Images: ImageView (pitch in elements); `dst` has the shape of `src` and may have its own pitch.
#pragma once

#include <cstdint>
#include <vector>

#include "common/image.h"
#include "kernels/kernel_variant.h"

namespace mad::kernels {

// Largest filter side (the seed's sweep goes to 17, Appendix Table 8); the constant-memory
// buffer of the CUDA variants holds this many taps squared.
constexpr int kConvolveMaxSize = 17;
constexpr int kConvolveMaxTaps = kConvolveMaxSize * kConvolveMaxSize;
constexpr int kConvolveMaxWeightSum = 1 << 22;

struct ConvolveFilter {
  int size = 0;                // N: odd, 1..kConvolveMaxSize
  std::vector<float> weights;  // N * N, row-major, finite
};

// Throws InvalidArgument for an even size, a size outside 1..17, a weight count other than
// N * N or a non-finite weight; with `for_bytes` also for a weight that is not a non-negative
// integer or a sum outside 1..kConvolveMaxWeightSum.
void validate_convolve_filter(const ConvolveFilter& filter, bool for_bytes);
// T of an 8-bit filter (validated).
int convolve_weight_sum(const ConvolveFilter& filter);

// The seed's triangular filter of odd side N (§3.1): a tap's weight is 1 + its distance to the
// filter's nearest edge, 1 + min(i, j, N-1-i, N-1-j); N = 5 gives the figure in §3.1 (centre 3).
// The seed's formula writes this as a min over distances to the centre set C, which for odd N
// does not give the printed 5x5 (it would weigh the centre least); we follow the printed filter.
ConvolveFilter seed_filter(int size);
// The same divided by T once, in float: the weights of the seed's float convolution.
ConvolveFilter seed_filter_float(int size);

// Throws InputError for an empty image, InvalidArgument for a bad filter or a dst of another
// size.
void convolve_cpu(ImageView<const float> src, const ConvolveFilter& filter, ImageView<float> dst);
void convolve_cpu(ImageView<const std::uint8_t> src, const ConvolveFilter& filter,
                  ImageView<std::uint8_t> dst);

// CUDA thread-block shape, a launch argument of every variant (the seed's Table 4 sweeps it).
// x, y >= 1 and x * y <= 1024 (CUDA's limit); the tile variants also need their shared tile
// (x + N - 1) * (y + N - 1) elements to fit in 48 KiB.
struct BlockShape {
  int x = 32, y = 16;  // the seed's choice (§3.2: "We choose the dimension of 32x16")
};
// Throws InvalidArgument naming the limit a shape breaks (`tile`: include the shared tile check
// for a filter of side `size` and `element_bytes`-byte samples).
void validate_block_shape(BlockShape block, bool tile, int size, int element_bytes);

// Runs one CUDA variant on host images, with upload, filter upload and download; synchronous.
// The device output is filled with options.poison bytes first.
void convolve_cuda(ImageView<const float> src, const ConvolveFilter& filter, ImageView<float> dst,
                   const CudaRunOptions& options = {}, BlockShape block = {});
void convolve_cuda(ImageView<const std::uint8_t> src, const ConvolveFilter& filter,
                   ImageView<std::uint8_t> dst, const CudaRunOptions& options = {},
                   BlockShape block = {});

// The filter as the variants read it: `global` is a device array of size * size floats (the
// global-memory variants read it); the constant-memory variants read the copy that
// upload_convolve_filter (kernels/convolve_cuda.h) put in the device's one constant buffer.
struct DeviceFilter {
  const float* global = nullptr;
  int size = 0;
  int weight_sum = 0;  // T, for 8-bit input (0 for a float-only filter)
};

// A variant (device-pointer form): writes every element of `dst` (same shape as `src`),
// enqueues on `stream`, never synchronizes, allocates nothing.
template <class T>
using ConvolveLaunchFn = void (*)(ImageView<const T> src, ImageView<T> dst,
                                  const DeviceFilter& filter, BlockShape block,
                                  StreamHandle stream);
struct ConvolveLaunch {
  ConvolveLaunchFn<float> f32 = nullptr;
  ConvolveLaunchFn<std::uint8_t> u8 = nullptr;
};

// The convolution variant registry (kernels/variant_tables.cpp).
const VariantRegistry<ConvolveLaunch>& convolve_variants();

}  // namespace mad::kernels
