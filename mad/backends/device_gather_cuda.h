// Device images (mad/device_image.h) into the pipeline's packed Real planes, on the device.
// CUDA-only header.
#pragma once

#include <cuda_runtime.h>

#include "mad/device_image.h"

namespace mad::gpu {

// Writes src.width x src.height values, row-major and tightly packed, to `dst` on the 0..255
// scale, each exactly the double common/ would compute on the host, then cast to Real:
// uint8 as is (colour by kernels/gray_formula.h's fixed-point rgb2gray, proved bit-identical
// to rgb_to_gray_matlab), uint16 as v * 255 / 65535 (correctly rounded, no contraction),
// floats widened. One thread per pixel; enqueues on `stream`, never synchronizes.
template <class Real>
void gather_device_image(const DeviceImage& src, Real* dst, cudaStream_t stream);

}  // namespace mad::gpu
