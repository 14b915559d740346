// Device-pointer form of Nick binarization and its variant table. CUDA-only header.
//
// A launch reads `src` and writes every pixel of `mask` (device, same size). It enqueues on
// `stream`, never synchronizes and allocates nothing; `scratch` must hold
// nick_scratch_bytes() bytes. The parameters must pass validate_nick_input.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "common/image.h"
#include "kernels/nick.h"
#include "kernels/variant_table.h"

namespace mad::kernels {

using NickLaunch = void (*)(ImageView<const std::uint8_t> src, const NickParams& params,
                            ImageView<std::uint8_t> mask, DeviceScratch scratch,
                            cudaStream_t stream);

const VariantTable<NickLaunch>& nick_variant_table();

// Scratch that every Nick variant is satisfied with (the two uint64 integral images of
// `integral`, (width + 1) x (height + 1) each).
std::size_t nick_scratch_bytes(int width, int height);

}  // namespace mad::kernels
