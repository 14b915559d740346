// Device-side helpers of gray/darken (for `mad bench` and tests). CUDA-only header. The
// variants' launch type and registry are in kernels/gray.h.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/cuda_resources.h"
#include "common/image.h"
#include "kernels/device_image_cuda.h"
#include "kernels/gray.h"

namespace mad::kernels {

// Copies a host RGB view to the device with the same layout and pitch; `view` points into
// `buffer`.
struct DeviceRgb8 {
  cuda::DeviceBuffer<std::uint8_t> buffer;
  RgbView8 view;
};
DeviceRgb8 upload_rgb8(const RgbView8& host, cudaStream_t stream);

// The body of the RGB -> gray host entry points (gray_cuda, gray_histogram_cuda): uploads
// `rgb`, fills a device plane shaped like `out` (same pitch) with `poison`, calls
// launch(src, dst, stream) (which may enqueue more, such as a read-back), downloads `out` and
// synchronizes.
template <class Launch>
void run_gray_kernel(const RgbView8& rgb, ImageView<std::uint8_t> out, std::uint8_t poison,
                     Launch&& launch) {
  cuda::Stream stream;
  const DeviceRgb8 src = upload_rgb8(rgb, stream.get());
  const DeviceImage8 dst = make_device_image8(out.width, out.height, out.pitch);
  fill_image8(dst.view, poison, stream.get());
  launch(src.view, dst.view, stream.get());
  download_image8(dst.view, out, stream.get());
  stream.synchronize();
}

}  // namespace mad::kernels
