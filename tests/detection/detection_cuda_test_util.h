// Helpers of the CUDA detection tests: Real conversion of images, plus the shared host <-> device
// copies, NaN poisoning and real image content at any size (tests/support/cuda_test_util.h).
// Include only from *_cuda_test.cpp (CUDA-enabled builds).
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "common/image.h"
#include "tests/detection/rocket_pair.h"
#include "tests/support/cuda_test_util.h"

namespace mad::test {

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

// The two images of a pair packed as Real and uploaded on a stream of their own: the inputs of a
// stage or a statistics launch.
template <class Real>
struct DevicePair {
  DevicePair(ImageView<const double> ref_image, ImageView<const double> dst_image)
      : ref(upload(packed<Real>(ref_image), stream.get())),
        dst(upload(packed<Real>(dst_image), stream.get())) {}

  cuda::Stream stream;  // declared first: the uploads run on it
  cuda::DeviceBuffer<Real> ref, dst;
};

// Largest |v| of a vector (the data scale of relative tolerances with a floor).
inline double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::fmax(m, std::fabs(x));
  return m;
}

}  // namespace mad::test
