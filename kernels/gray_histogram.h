// Seed 000's fused "histogram computation" (§7, Listing 4, Table 7): RGB in, the gray plane
// and its 256-bin histogram out, in one pass over the image. The CPU reference is the two
// kernels in turn (gray_cpu, then histogram_cpu of its output), so each fused CUDA variant is
// judged against gray and histogram exactly.
//
// Not a `mad kernel` kind: it is measured by `mad bench --study seed000-histogram` and tested
// against the reference (tests/kernels/gray_histogram_cuda_test.cpp).
#pragma once

#include <cstdint>

#include "common/image.h"
#include "kernels/gray.h"
#include "kernels/histogram.h"
#include "kernels/kernel_variant.h"

namespace mad::kernels {

// CPU reference: writes gray_cpu(rgb, weighting) into `gray` (rgb.width x rgb.height) and
// returns histogram_cpu of it. Throws as gray_cpu and validate_histogram_input do.
Histogram gray_histogram_cpu(const RgbView8& rgb, GrayWeighting weighting,
                             ImageView<std::uint8_t> gray);

// Runs one fused CUDA variant (options.variant; empty = default) on the host image: uploads,
// poisons the device gray plane and bins with options.poison, launches, downloads `gray` and
// returns the bins; synchronous. Throws GpuError without a device or the CUDA backend,
// InvalidArgument for an unknown variant or a `gray` of another size.
Histogram gray_histogram_cuda(const RgbView8& rgb, GrayWeighting weighting,
                              ImageView<std::uint8_t> gray, const CudaRunOptions& options = {});

// A fused variant (device-pointer form): reads `src` (device), writes every pixel of `gray`
// (device, src.width x src.height) and sets bins[0..255] (device; any prior content) to the
// histogram of `gray`. It enqueues on `stream`, never synchronizes and allocates nothing.
using GrayHistogramLaunch = void (*)(const RgbView8& src, GrayWeighting weighting,
                                     ImageView<std::uint8_t> gray, std::uint32_t* bins,
                                     StreamHandle stream);

// The fused variant registry (kernels/variant_tables.cpp).
const VariantRegistry<GrayHistogramLaunch>& gray_histogram_variants();

}  // namespace mad::kernels
