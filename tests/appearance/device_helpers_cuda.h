// Helpers of the GPU appearance tests: the shared host <-> device copies, NaN poisoning and real
// test images of any size (tests/support/cuda_test_util.h), plus seeded noise.
// CUDA-only header (cuda_runtime.h; no nvcc syntax), for *_cuda_test.cpp.
#pragma once

#include <cstdint>
#include <random>

#include "appearance/a5_variants_cuda.h"
#include "common/image.h"
#include "tests/support/cuda_test_util.h"

namespace mad::appearance::gpu_test {

// The shared GPU test helpers (tests/support/cuda_test_util.h), under the names these tests use.
using test::download;
using test::poison;
using test::real_image;
using test::upload;

// The A5 input of `count` subbands at `data`, rows `pitch` elements apart and subbands
// `subband_stride` apart; with `complex_modulus`, interleaved complex samples whose modulus is
// scaled by `scale`.
template <class Real>
A5Input<Real> a5_input(const Real* data, std::ptrdiff_t pitch, std::ptrdiff_t subband_stride,
                       int count, bool complex_modulus = false, Real scale = 1) {
  return {data, complex_modulus, scale, pitch, subband_stride, count};
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
