// Device-pointer form of gray/darken and its variant table (for `mad bench` and tests).
// CUDA-only header.
//
// A launch reads `src` (device memory, any pitch and layout RgbView8 allows) and writes every
// pixel of `dst` (device, src.width x src.height). It enqueues on `stream`, never
// synchronizes and allocates nothing.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/cuda_resources.h"
#include "common/image.h"
#include "kernels/gray.h"
#include "kernels/variant_table.h"

namespace mad::kernels {

using GrayLaunch = void (*)(const RgbView8& src, GrayWeighting weighting,
                            ImageView<std::uint8_t> dst, cudaStream_t stream);

const VariantTable<GrayLaunch>& gray_variant_table();

// Copies a host RGB view to the device with the same layout and pitch; `view` points into
// `buffer`.
struct DeviceRgb8 {
  cuda::DeviceBuffer<std::uint8_t> buffer;
  RgbView8 view;
};
DeviceRgb8 upload_rgb8(const RgbView8& host, cudaStream_t stream);

}  // namespace mad::kernels
