// Nick binarization (issue 4, kernel 4; seed 002). For each pixel p, over the w x w window
// clipped at the image border, with NP the number of window pixels, S their sum, S2 the sum
// of their squares and m = S / NP:
//     T = m + k * sqrt((S2 - m^2) / NP)         (the seed's formula as written)
// and the mask is 255 where p > T, else 0.
//
// Window placement (NickPlacement): by default MATLAB's convention for even sizes (nlfilter's
// centre floor((w + 1) / 2)): rows y - floor((w - 1) / 2) .. y + floor(w / 2), same for columns,
// a w x w window. Seed 002 instead takes half = floor(w / 2) rows and columns on each side (its
// CPU loop, lines 289-292, and its kernels, line 398): for an even w that is a (w + 1)-wide
// window centred on the pixel. Odd w is placed the same way by both.
//
// Exactness (CPU and every GPU variant give the same mask, ties included): S and S2 are exact
// integers (uint32 in the windowed kernels, uint64 integral images in the O(1) kernel), so
// the inputs of the decision are identical. The decision itself is a fixed sequence of
// IEEE-754 double operations, one rounding each, in the same order on both sides: on the
// GPU through the __dadd_rn / __dmul_rn / __ddiv_rn / __dsqrt_rn intrinsics, which nvcc
// never fuses into an FMA (kernels/nick_threshold.cuh); on the CPU as one operation per
// statement, with the two products stored through volatile temporaries so that no compiler
// (whatever its -ffp-contract default or target) fuses them into an FMA (nick_cpu.cpp).
// Do not build the CPU path with -ffast-math.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/image.h"
#include "kernels/kernel_variant.h"

namespace mad::kernels {

constexpr int kNickMinWindow = 2;
constexpr int kNickMaxWindow = 101;
constexpr double kNickMinK = -0.2;
constexpr double kNickMaxK = -0.01;

// Where an even window lies around its pixel (odd windows: the same for both).
enum class NickPlacement {
  Matlab,  // w x w: (w - 1) / 2 before, w / 2 after (the default)
  Seed,    // seed 002: w / 2 on each side, (w + 1) x (w + 1) for an even w
};

struct NickParams {
  int window = 15;  // w, in [2, 101] and at most the image's width and height
  double k = -0.1;  // in [-0.2, -0.01]
  NickPlacement placement = NickPlacement::Matlab;
};

// "matlab" / "seed", and back (InvalidArgument naming both for anything else).
const char* nick_placement_name(NickPlacement placement);
NickPlacement parse_nick_placement(const std::string& name);

// Rows (columns) of the window before and after the pixel.
constexpr int nick_before(int window, NickPlacement placement = NickPlacement::Matlab) {
  return placement == NickPlacement::Seed ? window / 2 : (window - 1) / 2;
}
constexpr int nick_after(int window, NickPlacement = NickPlacement::Matlab) {
  return window / 2;
}
constexpr int nick_before(const NickParams& p) {
  return nick_before(p.window, p.placement);
}
constexpr int nick_after(const NickParams& p) {
  return nick_after(p.window, p.placement);
}

// Throws InvalidArgument for a window outside [2, 101] or k outside [-0.2, -0.01] (or NaN).
void validate_nick_params(const NickParams& params);
// validate_nick_params, then InputError for an empty image or a window larger than it.
void validate_nick_input(ImageView<const std::uint8_t> gray, const NickParams& params);

// The decision for one pixel from its window's exact sums: 255 when p > T, else 0.
std::uint8_t nick_decide(std::uint32_t p, std::uint64_t sum, std::uint64_t sum_sq,
                         std::uint32_t count, double k);

// CPU reference (window sums from uint64 integral images).
void nick_cpu(ImageView<const std::uint8_t> gray, const NickParams& params,
              ImageView<std::uint8_t> mask);
Image<std::uint8_t> nick_cpu(ImageView<const std::uint8_t> gray, const NickParams& params);

// Seed 002's CPU form (lines 283-326): every pixel sums its clipped window pixel by pixel,
// O(w^2) per pixel, then the same decision (nick_decide). Rows are spread over the worker
// threads (common/parallel.h); with one thread it is the seed's sequential loop. Gives nick_cpu's
// mask bit for bit for the same params. Timed by `mad bench` (the seed's CPU column) and the oracle
// of the tests on small images.
void nick_cpu_window_loop(ImageView<const std::uint8_t> gray, const NickParams& params,
                          ImageView<std::uint8_t> mask);

// Runs one CUDA variant on the host image, including upload and download; synchronous.
void nick_cuda(ImageView<const std::uint8_t> gray, const NickParams& params,
               ImageView<std::uint8_t> mask, const CudaRunOptions& options = {});
Image<std::uint8_t> nick_cuda(ImageView<const std::uint8_t> gray, const NickParams& params,
                              const CudaRunOptions& options = {});

// A Nick variant (device-pointer form): reads `src` and writes every pixel of `mask` (device,
// same size). It enqueues on `stream`, never synchronizes and allocates nothing; `scratch`
// must hold nick_scratch_bytes() bytes (kernels/nick_cuda.h). The parameters must pass
// validate_nick_input.
using NickLaunch = void (*)(ImageView<const std::uint8_t> src, const NickParams& params,
                            ImageView<std::uint8_t> mask, DeviceScratch scratch,
                            StreamHandle stream);

// The Nick variant registry (kernels/variant_tables.cpp).
const VariantRegistry<NickLaunch>& nick_variants();

}  // namespace mad::kernels
