// 256-bin histogram of an 8-bit gray image (issue 4, kernel 2). The histogram of an RGB
// image is the histogram of its MATLAB gray (kernels/gray.h), computed by the caller.
//
// CPU reference and CUDA host entry point side by side; the device-pointer form is in
// kernels/histogram_cuda.h. Counts are exact integers on both backends.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "common/image.h"
#include "kernels/kernel_variant.h"

namespace mad::kernels {

constexpr int kHistogramBins = 256;
using Histogram = std::array<std::uint32_t, kHistogramBins>;

// Throws InputError for an empty image and for one with 2^32 or more pixels (bins are 32-bit).
void validate_histogram_input(ImageView<const std::uint8_t> gray);

// CPU reference: bin v counts the pixels equal to v.
Histogram histogram_cpu(ImageView<const std::uint8_t> gray);

// Runs one CUDA variant on the host image (upload, poison the bins, launch, download);
// synchronous. Throws GpuError without a device or the CUDA backend, InvalidArgument for an
// unknown variant.
Histogram histogram_cuda(ImageView<const std::uint8_t> gray, const CudaRunOptions& options = {});

// A histogram variant (device-pointer form): counts the pixels of `src` (device) into
// bins[0..255] (device). The bins may hold anything beforehand: every variant initializes them
// itself. It enqueues on `stream`, never synchronizes and allocates nothing; `scratch` must
// hold histogram_scratch_bytes() bytes (kernels/histogram_cuda.h).
using HistogramLaunch = void (*)(ImageView<const std::uint8_t> src, std::uint32_t* bins,
                                 DeviceScratch scratch, StreamHandle stream);

// The histogram variant registry (kernels/variant_tables.cpp).
const VariantRegistry<HistogramLaunch>& histogram_variants();

}  // namespace mad::kernels
