// Scratch of the histogram's device-pointer form. CUDA-only header. The variants' launch
// type and registry are in kernels/histogram.h.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "common/image.h"
#include "kernels/histogram.h"

namespace mad::kernels {

// Scratch that every histogram variant is satisfied with for this shape (CUB's temporary
// storage; the other variants need none).
std::size_t histogram_scratch_bytes(int width, int height, std::ptrdiff_t pitch);

}  // namespace mad::kernels
