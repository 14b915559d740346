// Helpers of the CUDA detection tests: host <-> device copies on an explicit stream, NaN
// poisoning of outputs, Real conversion of images, and real image content at any size.
// Include only from *_cuda_test.cpp (CUDA-enabled builds).
#pragma once

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "common/cuda_check.h"
#include "common/cuda_resources.h"
#include "common/image.h"
#include "detection/local_mse.h"
#include "tests/detection/rocket_pair.h"

namespace mad::test {

template <class T>
cuda::DeviceBuffer<T> upload(const std::vector<T>& host, cudaStream_t stream) {
  cuda::DeviceBuffer<T> d(host.size());
  MAD_CUDA_CHECK(cudaMemcpyAsync(d.get(), host.data(), host.size() * sizeof(T),
                                 cudaMemcpyHostToDevice, stream));
  MAD_CUDA_CHECK(cudaStreamSynchronize(stream));  // `host` may go away after the return
  return d;
}

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

// A view's pixels, packed row-major and converted to Real.
template <class Real>
std::vector<Real> packed(ImageView<const double> v) {
  std::vector<Real> out(v.pixel_count());
  for (int y = 0; y < v.height; ++y)
    for (int x = 0; x < v.width; ++x)
      out[static_cast<std::size_t>(y) * v.width + x] = static_cast<Real>(v(y, x));
  return out;
}

inline Image<double> unpacked(const std::vector<double>& data, int width, int height) {
  Image<double> img(width, height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) img(y, x) = data[static_cast<std::size_t>(y) * width + x];
  return img;
}

// Real photographic content at any size: the reference image `file` mirrored (with the local
// MSE's symmetric rule) to width x height, so sizes beyond the 512x512 originals still hold
// edges, textures and flat areas rather than noise.
inline Image<double> real_image(const std::string& file, int width, int height) {
  const Image<double> src = load_reference_image(file);
  Image<double> out(width, height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      out(y, x) = src(detection::symmetric_index(y, src.height()),
                      detection::symmetric_index(x, src.width()));
  return out;
}

// Largest |v| of a vector (the data scale of relative tolerances with a floor).
inline double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::fmax(m, std::fabs(x));
  return m;
}

}  // namespace mad::test
