// Device-side helpers of the general convolution (kernels/convolve.h). CUDA-only header.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "common/cuda_resources.h"
#include "common/image.h"
#include "kernels/convolve.h"
#include "kernels/device_image_cuda.h"

namespace mad::kernels {

// The filter in device memory: `buffer` holds the global-memory copy; `ref` is what a launch
// takes.
struct DeviceConvolveFilter {
  cuda::DeviceBuffer<float> buffer;
  DeviceFilter ref;
};

// Validates `filter` (for 8-bit input with `for_bytes`) and copies it, in stream order, into a
// new global buffer and into the device's ONE constant-memory filter buffer, which every
// constant-memory launch reads: launches enqueued after this call on `stream` see this filter.
// Running two different filters concurrently on two streams is not supported. The host
// weights may be freed on return (the copies are from pageable memory, staged before return).
DeviceConvolveFilter upload_convolve_filter(const ConvolveFilter& filter, bool for_bytes,
                                            cudaStream_t stream);

// An image of T (float or bytes) as the byte image its rows are, and back: the float images
// travel through kernels/device_image_cuda.h's byte staging (upload_image8, ...).
template <class T>
auto as_bytes(ImageView<T> v) {
  using B = std::conditional_t<std::is_const_v<T>, const std::uint8_t, std::uint8_t>;
  return ImageView<B>(reinterpret_cast<B*>(v.data), v.width * static_cast<int>(sizeof(T)),
                      v.height, v.pitch * static_cast<std::ptrdiff_t>(sizeof(T)));
}
template <class T, class B>
ImageView<T> from_bytes(ImageView<B> v) {
  return {reinterpret_cast<T*>(v.data), v.width / static_cast<int>(sizeof(T)), v.height,
          v.pitch / static_cast<std::ptrdiff_t>(sizeof(T))};
}

}  // namespace mad::kernels
