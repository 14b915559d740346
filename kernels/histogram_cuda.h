// Device-pointer form of the histogram and its variant table. CUDA-only header.
//
// A launch counts the pixels of `src` (device) into bins[0..255] (device). The bins may hold
// anything beforehand: every variant initializes them itself. It enqueues on `stream`, never
// synchronizes and allocates nothing; `scratch` must hold histogram_scratch_bytes() bytes.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "common/image.h"
#include "kernels/histogram.h"
#include "kernels/variant_table.h"

namespace mad::kernels {

using HistogramLaunch = void (*)(ImageView<const std::uint8_t> src, std::uint32_t* bins,
                                 DeviceScratch scratch, cudaStream_t stream);

const VariantTable<HistogramLaunch>& histogram_variant_table();

// Scratch that every histogram variant is satisfied with for this shape (CUB's temporary
// storage; the other variants need none).
std::size_t histogram_scratch_bytes(int width, int height, std::ptrdiff_t pitch);

}  // namespace mad::kernels
