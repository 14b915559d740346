// Helpers of the GPU tests of every folder: host <-> device copies on an explicit stream (tests
// may synchronise), NaN poisoning so an unwritten output shows, and real test images of any
// size. CUDA-only header (cuda_runtime.h; no nvcc syntax), for *_cuda_test.cpp.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

#include "common/cuda_check.h"
#include "common/cuda_resources.h"
#include "common/image.h"
#include "tests/support/png_gray.h"

namespace mad::test {

// Copies `img` to a new device buffer of Real with rows `pitch` elements apart (0: width).
template <class Real>
cuda::DeviceBuffer<Real> upload(ImageView<const double> img, cudaStream_t stream,
                                std::ptrdiff_t pitch = 0) {
  if (pitch == 0) pitch = img.width;
  std::vector<Real> host(static_cast<std::size_t>(pitch) * img.height, Real(0));
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x)
      host[static_cast<std::size_t>(y) * pitch + x] = static_cast<Real>(img(y, x));
  return cuda::upload(host, stream);
}

using cuda::upload;  // a vector, copied and synchronized (common/cuda_resources.h)

// Copies n elements back; synchronizes the stream (the test's read-back).
template <class T>
std::vector<T> download(const T* d, std::size_t n, cudaStream_t stream) {
  std::vector<T> host(n);
  MAD_CUDA_CHECK(cudaMemcpyAsync(host.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost, stream));
  MAD_CUDA_CHECK(cudaStreamSynchronize(stream));
  return host;
}

// All-ones bytes are a NaN in both float and double: an output element a kernel forgets to
// write stays NaN and fails every comparison.
template <class T>
void poison(T* d, std::size_t n, cudaStream_t stream) {
  MAD_CUDA_CHECK(cudaMemsetAsync(d, 0xFF, n * sizeof(T), stream));
}

// Real photographic content at any size: the reference image `file` mirror-tiled to width x
// height (period 2n, edge pixels repeated: for i >= 0 the local MSE's symmetric rule,
// detection::symmetric_index), so sizes beyond the originals still hold edges, textures and
// flat areas rather than noise.
inline Image<double> real_image(const std::string& file, int width, int height) {
  const Image<double> src = load_reference_image(file);
  auto mirror = [](int i, int n) {
    i %= 2 * n;
    return i < n ? i : 2 * n - 1 - i;
  };
  Image<double> out(width, height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      out(y, x) = src(mirror(y, src.height()), mirror(x, src.width()));
  return out;
}

}  // namespace mad::test
