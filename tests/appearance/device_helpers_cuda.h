// Helpers of the GPU appearance tests: host <-> device copies (tests may synchronise), NaN
// poisoning so an unwritten output shows, and real test images of any size.
// CUDA-only header (cuda_runtime.h; no nvcc syntax), for *_cuda_test.cpp.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "common/cuda_resources.h"
#include "common/image.h"
#include "tests/appearance/png_gray.h"
#include "tests/support/test_support.h"

namespace mad::appearance::gpu_test {

// Copies `img` to a new device buffer of Real with rows `pitch` elements apart (0: width).
template <class Real>
cuda::DeviceBuffer<Real> upload(ImageView<const double> img, cudaStream_t stream,
                                std::ptrdiff_t pitch = 0) {
  if (pitch == 0) pitch = img.width;
  std::vector<Real> host(static_cast<std::size_t>(pitch) * img.height, Real(0));
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x)
      host[static_cast<std::size_t>(y) * pitch + x] = static_cast<Real>(img(y, x));
  cuda::DeviceBuffer<Real> d(host.size());
  MAD_CUDA_CHECK(cudaMemcpyAsync(d.get(), host.data(), host.size() * sizeof(Real),
                                 cudaMemcpyHostToDevice, stream));
  MAD_CUDA_CHECK(cudaStreamSynchronize(stream));
  return d;
}

template <class Real>
cuda::DeviceBuffer<Real> upload(const std::vector<Real>& host, cudaStream_t stream) {
  cuda::DeviceBuffer<Real> d(host.size());
  MAD_CUDA_CHECK(cudaMemcpyAsync(d.get(), host.data(), host.size() * sizeof(Real),
                                 cudaMemcpyHostToDevice, stream));
  MAD_CUDA_CHECK(cudaStreamSynchronize(stream));
  return d;
}

// Waits for `stream`, then copies n elements back.
template <class T>
std::vector<T> download(const T* d, std::size_t n, cudaStream_t stream) {
  std::vector<T> host(n);
  MAD_CUDA_CHECK(cudaMemcpyAsync(host.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost, stream));
  MAD_CUDA_CHECK(cudaStreamSynchronize(stream));
  return host;
}

// All bytes 0xFF: a NaN in both float and double.
template <class T>
void poison(T* d, std::size_t n, cudaStream_t stream) {
  MAD_CUDA_CHECK(cudaMemsetAsync(d, 0xFF, n * sizeof(T), stream));
}

// A real photograph at any size: the reference PNG tests/data/reference/images/<name>,
// mirror-tiled (period 2n, edge pixels repeated) so every size has natural content.
inline Image<double> real_image(const std::string& name, int width, int height) {
  const Image<double> src =
      appearance_test::read_gray8_png(test::data_path("reference/images/" + name));
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

// `img` plus seeded uniform integer noise in [-amplitude, amplitude], clipped to 0..255.
inline Image<double> add_noise(ImageView<const double> img, std::uint32_t seed, int amplitude) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> noise(-amplitude, amplitude);
  Image<double> out(img.width, img.height);
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x) {
      const double v = img(y, x) + noise(rng);
      out(y, x) = v < 0 ? 0 : (v > 255 ? 255 : v);
    }
  return out;
}

}  // namespace mad::appearance::gpu_test
