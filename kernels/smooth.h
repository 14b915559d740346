// The seeds' 5x5 triangular smoothing (issue 4, kernel 3) on each channel of an interleaved
// 8-bit image with 1 to 4 channels.
//
// Filter (sum 35):   1 1 1 1 1
//                    1 2 2 2 1
//                    1 2 3 2 1
//                    1 2 2 2 1
//                    1 1 1 1 1
// At the borders the taps that fall outside the image are dropped and the result is
// normalized by the sum W of the weights that remain. Rounding: with S the weighted sum of
// the remaining samples, out = floor(S / W + 1/2) (half up; everything is non-negative),
// computed exactly in integers as (2S + W) / (2W). Both backends use exactly this.
//
// A second border rule, Wrap (seed 003, line 214: the image read "not as a flat surface but as
// a torus"), is a different output and has its own entry points and registry below; Clip
// stays the default everywhere.
//
// Images are ImageViews of SAMPLES: width = pixel width * channels, pitch in bytes.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <string>
#include <vector>

#include "common/image.h"
#include "kernels/kernel_variant.h"

namespace mad::kernels {

constexpr int kSmoothRadius = 2;
constexpr int kSmoothTaps = 2 * kSmoothRadius + 1;
constexpr int kSmoothWeightSum = 35;

// Weight at offset (dy, dx), |dy|, |dx| <= 2: 3 on the centre, 2 on the first ring, 1 on the
// second.
constexpr int smooth_weight(int dy, int dx) {
  const int ay = dy < 0 ? -dy : dy, ax = dx < 0 ? -dx : dx;
  return 3 - (ay > ax ? ay : ax);
}

// Sum of the weights that fall inside a width x height image around (y, x), in closed form
// (used by the GPU variants that read zero padding instead of checking edges). The filter is
// the sum of three box filters, the 1x1, 3x3 and 5x5 ones (w = sum over r = 0..2 of
// [|dy| <= r][|dx| <= r]), so W = sum over r of rows_inside(r) * cols_inside(r). A test
// checks this against the direct sum at every position of small images.
constexpr int smooth_inside_count(int pos, int r, int size) {
  return (pos < r ? pos : r) + (size - 1 - pos < r ? size - 1 - pos : r) + 1;
}
constexpr int smooth_weight_sum_at(int y, int x, int height, int width) {
  int sum = 0;
  for (int r = 0; r <= kSmoothRadius; ++r)
    sum += smooth_inside_count(y, r, height) * smooth_inside_count(x, r, width);
  return sum;
}

// Rounded normalized value, floor(S / W + 1/2), in exact integer arithmetic.
constexpr std::uint8_t smooth_round(int weighted_sum, int weight_sum) {
  return static_cast<std::uint8_t>((2 * weighted_sum + weight_sum) / (2 * weight_sum));
}

// The same rounding for W = 35 through one float fused multiply-add, as the `strip` variant's
// staged form computes it on the FMA pipes (kernels/smooth_strip_cuda.cu). Its input is the
// float X = 2^23 + S, whose bits are S under the exponent of 2^23 (one byte permute on the
// device). With c = fl(1/35) - 2^-29 = 15339168 x 2^-29, the product 2^23 c = 239674.5 is exact
// and so is B = 2^23 - 2^23 c = 8148933.5 (a float in [2^22, 2^23), whose step is 1/2), so
//     fma(X, c, B) = round(2^23 + S c)
// with a single rounding. Above 2^23 a float's step is 1, so the low mantissa bits hold the
// nearest integer to S c. S c is below S / 35 by less than 8925 x 1.8e-9 < 2e-5, and S / 35 is
// never a half-integer nor within 1/70 of one (35 is odd), so that integer is
// smooth_round(S, 35) for every 0 <= S <= 35 x 255 (a test checks all 8926). Against the
// previous form (subtract the bias, then fma by fl(1/35) onto 1.5 x 2^23) this saves one float
// add per sample. IEEE fma rounds once on both host and device, so this host form proves the
// device's.
constexpr float kSmoothRound35Scale = 15339168.0f / 536870912.0f;  // fl(1/35) - 2^-29
constexpr float kSmoothRound35Bias = 8148933.5f;                   // 2^23 - 2^23 x scale
constexpr float kSmoothRound35Base = 8388608.0f;                   // 2^23
inline std::uint8_t smooth_round35_float(int weighted_sum) {
  const float q = std::fma(kSmoothRound35Base + static_cast<float>(weighted_sum),
                           kSmoothRound35Scale, kSmoothRound35Bias);
  std::uint32_t bits;
  std::memcpy(&bits, &q, sizeof bits);
  return static_cast<std::uint8_t>(bits & 0xFFu);
}

// Clip: the taps outside the image are dropped (the rule above; the default). Wrap: tap
// (y + dy, x + dx) reads pixel ((y + dy) mod height, (x + dx) mod width), so every output
// has all 25 taps and W = 35; an image narrower than 5 pixels wraps more than once. (The
// seed's own code, lines 311-328 and its padImageKernel (291-307), computes the left/top wrap as
// width + i instead of width + x + i; the torus its text describes is what we implement.)
enum class SmoothBorder { Clip, Wrap };
// "clip" / "wrap"; parse_smooth_border throws InvalidArgument naming them.
const char* smooth_border_name(SmoothBorder border);
SmoothBorder parse_smooth_border(const std::string& name);

// i mod n in [0, n) for any int i (n > 0).
constexpr int smooth_wrap_index(int i, int n) {
  const int r = i % n;
  return r < 0 ? r + n : r;
}

// Throws InputError for an empty image or a channel count outside 1..4, InvalidArgument when
// the sample width is not a multiple of `channels`.
void validate_smooth_input(ImageView<const std::uint8_t> samples, int channels);

// validate_smooth_input, then InvalidArgument when `dst` (or its size) differs from `src`'s.
void validate_smooth_output(ImageView<const std::uint8_t> src, int channels,
                            ImageView<std::uint8_t> dst);

// The allocating form of every smoothing entry point: a new image shaped like `src`, written
// by fill(view of it) once the input is checked.
template <class Fill>
Image<std::uint8_t> smooth_image(ImageView<const std::uint8_t> src, int channels, Fill&& fill) {
  validate_smooth_input(src, channels);
  Image<std::uint8_t> out(src.width, src.height);
  fill(out.view());
  return out;
}

// CPU reference under `border`'s rule. `dst` has the shape of `src` (samples).
void smooth_cpu(ImageView<const std::uint8_t> src, int channels, ImageView<std::uint8_t> dst,
                SmoothBorder border = SmoothBorder::Clip);
Image<std::uint8_t> smooth_cpu(ImageView<const std::uint8_t> src, int channels,
                               SmoothBorder border = SmoothBorder::Clip);

// Runs one CUDA variant of `border`'s registry (smooth_variants(border)) on the host image,
// including upload and download; synchronous.
void smooth_cuda(ImageView<const std::uint8_t> src, int channels, ImageView<std::uint8_t> dst,
                 const CudaRunOptions& options = {}, SmoothBorder border = SmoothBorder::Clip);
Image<std::uint8_t> smooth_cuda(ImageView<const std::uint8_t> src, int channels,
                                const CudaRunOptions& options = {},
                                SmoothBorder border = SmoothBorder::Clip);

// A smoothing variant (device-pointer form): reads `src` and writes every sample of `dst`
// (device views of samples, same shape, `channels` interleaved channels). It enqueues on
// `stream`, never synchronizes and allocates nothing; `scratch` must hold
// smooth_scratch_bytes() bytes (kernels/smooth_cuda.h).
using SmoothLaunch = void (*)(ImageView<const std::uint8_t> src, int channels,
                              ImageView<std::uint8_t> dst, DeviceScratch scratch,
                              StreamHandle stream);

// The smoothing variant registries (kernels/variant_tables.cpp): the default Clip rule, the
// Wrap rule, and the one of a given rule.
const VariantRegistry<SmoothLaunch>& smooth_variants();
const VariantRegistry<SmoothLaunch>& smooth_wrap_variants();
const VariantRegistry<SmoothLaunch>& smooth_variants(SmoothBorder border);

}  // namespace mad::kernels
