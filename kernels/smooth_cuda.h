// Device-pointer form of the 5x5 smoothing and its variant table. CUDA-only header.
//
// A launch reads `src` and writes every sample of `dst` (device views of samples, same shape,
// `channels` interleaved channels). It enqueues on `stream`, never synchronizes and allocates
// nothing; `scratch` must hold smooth_scratch_bytes() bytes.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "common/image.h"
#include "kernels/smooth.h"
#include "kernels/variant_table.h"

namespace mad::kernels {

using SmoothLaunch = void (*)(ImageView<const std::uint8_t> src, int channels,
                              ImageView<std::uint8_t> dst, DeviceScratch scratch,
                              cudaStream_t stream);

const VariantTable<SmoothLaunch>& smooth_variant_table();

// Scratch that every smoothing variant is satisfied with (the zero-padded copy of `padded`).
std::size_t smooth_scratch_bytes(int width, int height, int channels);

}  // namespace mad::kernels
