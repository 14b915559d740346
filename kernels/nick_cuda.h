// Scratch of Nick binarization's device-pointer form. CUDA-only header. The variants' launch
// type and registry are in kernels/nick.h.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "common/image.h"
#include "kernels/nick.h"

namespace mad::kernels {

// Scratch that every Nick variant is satisfied with (the two uint64 integral images of
// `integral`, (width + 1) x (height + 1) each).
std::size_t nick_scratch_bytes(int width, int height);

}  // namespace mad::kernels
