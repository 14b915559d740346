// Scratch of the 5x5 smoothing's device-pointer form. CUDA-only header. The variants' launch
// type and registry are in kernels/smooth.h.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "common/image.h"
#include "kernels/smooth.h"

namespace mad::kernels {

// Scratch that every smoothing variant is satisfied with (the zero-padded copy of `padded`).
std::size_t smooth_scratch_bytes(int width, int height, int channels);

}  // namespace mad::kernels
