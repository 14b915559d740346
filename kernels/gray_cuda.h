// Device-side helpers of gray/darken (for `mad bench` and tests). CUDA-only header. The
// variants' launch type and registry are in kernels/gray.h.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/cuda_resources.h"
#include "common/image.h"
#include "kernels/gray.h"

namespace mad::kernels {

// Copies a host RGB view to the device with the same layout and pitch; `view` points into
// `buffer`.
struct DeviceRgb8 {
  cuda::DeviceBuffer<std::uint8_t> buffer;
  RgbView8 view;
};
DeviceRgb8 upload_rgb8(const RgbView8& host, cudaStream_t stream);

}  // namespace mad::kernels
