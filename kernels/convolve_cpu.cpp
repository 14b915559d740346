// CPU reference of the general convolution (kernels/convolve.h): the seed's loops (§3.1), one
// output element at a time, outside taps skipped (zero padding). This file is compiled with
// -ffp-contract=off (kernels/CMakeLists.txt), so w * v and the addition round separately, as
// the CUDA variants' __fmul_rn / __fadd_rn do.
#include <algorithm>
#include <cmath>
#include <string>

#include "common/error.h"
#include "common/parallel.h"
#include "kernels/convolve.h"

namespace mad::kernels {

void validate_convolve_filter(const ConvolveFilter& filter, bool for_bytes) {
  const int n = filter.size;
  if (n < 1 || n > kConvolveMaxSize || n % 2 == 0)
    throw InvalidArgument("convolve: the filter side must be odd and in 1.." +
                          std::to_string(kConvolveMaxSize) + ", got " + std::to_string(n));
  if (filter.weights.size() != static_cast<std::size_t>(n) * n)
    throw InvalidArgument("convolve: a " + std::to_string(n) + "x" + std::to_string(n) +
                          " filter needs " + std::to_string(n * n) + " weights, got " +
                          std::to_string(filter.weights.size()));
  long long sum = 0;
  for (const float w : filter.weights) {
    if (!std::isfinite(w)) throw InvalidArgument("convolve: a filter weight is not finite");
    if (!for_bytes) continue;
    if (w < 0 || w != std::floor(w) || w > kConvolveMaxWeightSum)
      throw InvalidArgument("convolve: 8-bit input needs non-negative integer weights");
    sum += static_cast<long long>(w);
  }
  if (for_bytes && (sum < 1 || sum > kConvolveMaxWeightSum))
    throw InvalidArgument("convolve: 8-bit input needs a weight sum in 1.." +
                          std::to_string(kConvolveMaxWeightSum) + ", got " + std::to_string(sum));
}

int convolve_weight_sum(const ConvolveFilter& filter) {
  validate_convolve_filter(filter, true);
  long long sum = 0;
  for (const float w : filter.weights) sum += static_cast<long long>(w);
  return static_cast<int>(sum);
}

ConvolveFilter seed_filter(int size) {
  ConvolveFilter f;
  f.size = size;
  if (size < 1 || size > kConvolveMaxSize || size % 2 == 0) {
    validate_convolve_filter(f, false);  // throws, naming the rule
  }
  for (int i = 0; i < size; ++i)
    for (int j = 0; j < size; ++j)
      f.weights.push_back(static_cast<float>(1 + std::min({i, j, size - 1 - i, size - 1 - j})));
  return f;
}

ConvolveFilter seed_filter_float(int size) {
  ConvolveFilter f = seed_filter(size);
  const float total = static_cast<float>(convolve_weight_sum(f));
  for (float& w : f.weights) w = w / total;
  return f;
}

namespace {

template <class T>
void check_images(ImageView<const T> src, const ConvolveFilter& filter, ImageView<T> dst,
                  bool for_bytes) {
  validate_convolve_filter(filter, for_bytes);
  if (src.empty() || src.data == nullptr)
    throw InputError("convolve: the image is empty (" + std::to_string(src.width) + "x" +
                     std::to_string(src.height) + ")");
  if (dst.data == nullptr || dst.width != src.width || dst.height != src.height)
    throw InvalidArgument("convolve: output size differs from the input size");
}

// Calls tap(weight index, y + dy - r, x + dx - r) for the taps inside the image, in row-major
// filter order (the order every backend accumulates in).
template <class Tap>
void for_inside_taps(int y, int x, int n, int width, int height, Tap&& tap) {
  const int r = n / 2;
  const int dy0 = std::max(0, r - y), dy1 = std::min(n - 1, height - 1 - y + r);
  const int dx0 = std::max(0, r - x), dx1 = std::min(n - 1, width - 1 - x + r);
  for (int dy = dy0; dy <= dy1; ++dy)
    for (int dx = dx0; dx <= dx1; ++dx) tap(dy * n + dx, y + dy - r, x + dx - r);
}

}  // namespace

void convolve_cpu(ImageView<const float> src, const ConvolveFilter& filter, ImageView<float> dst) {
  check_images(src, filter, dst, false);
  const float* w = filter.weights.data();
  parallel_for(src.height, [&](int y) {
    for (int x = 0; x < src.width; ++x) {
      float acc = 0.0f;
      for_inside_taps(y, x, filter.size, src.width, src.height,
                      [&](int i, int sy, int sx) { acc = acc + w[i] * src(sy, sx); });
      dst(y, x) = acc;
    }
  });
}

void convolve_cpu(ImageView<const std::uint8_t> src, const ConvolveFilter& filter,
                  ImageView<std::uint8_t> dst) {
  check_images(src, filter, dst, true);
  const int total = convolve_weight_sum(filter);
  std::vector<int> w(filter.weights.begin(), filter.weights.end());
  parallel_for(src.height, [&](int y) {
    for (int x = 0; x < src.width; ++x) {
      long long sum = 0;
      for_inside_taps(y, x, filter.size, src.width, src.height,
                      [&](int i, int sy, int sx) { sum += w[i] * src(sy, sx); });
      dst(y, x) = static_cast<std::uint8_t>((2 * sum + total) / (2 * total));
    }
  });
}

}  // namespace mad::kernels

namespace mad::kernels {

void validate_block_shape(BlockShape block, bool tile, int size, int element_bytes) {
  const std::string name = std::to_string(block.x) + "x" + std::to_string(block.y);
  if (block.x < 1 || block.y < 1 || static_cast<long long>(block.x) * block.y > 1024)
    throw InvalidArgument("convolve: block shape " + name +
                          " needs 1 to 1024 threads (x, y >= 1, x * y <= 1024)");
  if (!tile) return;
  const long long tile_bytes =
      static_cast<long long>(block.x + size - 1) * (block.y + size - 1) * element_bytes;
  if (tile_bytes > 48 * 1024)
    throw InvalidArgument("convolve: block shape " + name + " with a " + std::to_string(size) +
                          "x" + std::to_string(size) + " filter needs a " +
                          std::to_string(tile_bytes) + "-byte shared tile (limit 49152)");
}

}  // namespace mad::kernels
