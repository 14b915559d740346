// CPU reference of Nick binarization (kernels/nick.h).
#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "common/error.h"
#include "common/parallel.h"
#include "kernels/nick.h"

namespace mad::kernels {

void validate_nick_params(const NickParams& params) {
  if (params.window < kNickMinWindow || params.window > kNickMaxWindow)
    throw InvalidArgument("nick: window " + std::to_string(params.window) + " is outside [" +
                          std::to_string(kNickMinWindow) + ", " + std::to_string(kNickMaxWindow) +
                          "]");
  if (!(params.k >= kNickMinK && params.k <= kNickMaxK)) {
    std::ostringstream msg;
    msg << "nick: k = " << params.k << " is outside [" << kNickMinK << ", " << kNickMaxK << "]";
    throw InvalidArgument(msg.str());
  }
}

void validate_nick_input(ImageView<const std::uint8_t> gray, const NickParams& params) {
  validate_nick_params(params);
  if (gray.empty() || gray.data == nullptr)
    throw InputError("nick: the image is empty (" + std::to_string(gray.width) + "x" +
                     std::to_string(gray.height) + ")");
  if (params.window > gray.width || params.window > gray.height)
    throw InputError("nick: the " + std::to_string(params.window) + "x" +
                     std::to_string(params.window) + " window is larger than the " +
                     std::to_string(gray.width) + "x" + std::to_string(gray.height) + " image");
}

// Same operations in the same order as nick_decide_device (kernels/nick_threshold.cuh). The
// two products are stored through volatile temporaries: a compiler may otherwise fuse them
// with the following subtraction / addition into an FMA (GCC's C++ default is
// -ffp-contract=fast, which does so across statements wherever the target has FMA, e.g.
// aarch64 or -march=native), and an FMA rounds once where the GPU rounds twice.
std::uint8_t nick_decide(std::uint32_t p, std::uint64_t sum, std::uint64_t sum_sq,
                         std::uint32_t count, double k) {
  const double n = static_cast<double>(count);
  const double mean = static_cast<double>(sum) / n;
  const volatile double mean_sq = mean * mean;
  const double diff = static_cast<double>(sum_sq) - mean_sq;
  const double var = diff / n;
  const double root = std::sqrt(var);
  const volatile double scaled = k * root;
  const double threshold = mean + scaled;
  return static_cast<double>(p) > threshold ? 255 : 0;
}

namespace {

// The checks both CPU forms make before writing `mask`.
void validate_nick_call(ImageView<const std::uint8_t> gray, const NickParams& params,
                        ImageView<std::uint8_t> mask) {
  validate_nick_input(gray, params);
  if (mask.width != gray.width || mask.height != gray.height)
    throw InvalidArgument("nick: mask size differs from the image size");
}

}  // namespace

void nick_cpu(ImageView<const std::uint8_t> gray, const NickParams& params,
              ImageView<std::uint8_t> mask) {
  validate_nick_call(gray, params, mask);
  const int width = gray.width, height = gray.height;
  const std::size_t ip = static_cast<std::size_t>(width) + 1;  // integral pitch
  // I(y, x) = sum over rows < y and columns < x, so a window sum is four lookups.
  std::vector<std::uint64_t> isum(ip * (height + 1), 0), isq(ip * (height + 1), 0);
  for (int y = 0; y < height; ++y) {
    std::uint64_t row_sum = 0, row_sq = 0;
    for (int x = 0; x < width; ++x) {
      const std::uint64_t p = gray(y, x);
      row_sum += p;
      row_sq += p * p;
      isum[(y + 1) * ip + x + 1] = isum[y * ip + x + 1] + row_sum;
      isq[(y + 1) * ip + x + 1] = isq[y * ip + x + 1] + row_sq;
    }
  }
  const int before = nick_before(params), after = nick_after(params);
  parallel_for(height, [&](int y) {
    const int y0 = std::max(0, y - before), y1 = std::min(height - 1, y + after);
    for (int x = 0; x < width; ++x) {
      const int x0 = std::max(0, x - before), x1 = std::min(width - 1, x + after);
      auto window = [&](const std::vector<std::uint64_t>& I) {
        return I[(y1 + 1) * ip + x1 + 1] - I[y0 * ip + x1 + 1] - I[(y1 + 1) * ip + x0] +
               I[y0 * ip + x0];
      };
      const auto count = static_cast<std::uint32_t>((y1 - y0 + 1) * (x1 - x0 + 1));
      mask(y, x) = nick_decide(gray(y, x), window(isum), window(isq), count, params.k);
    }
  });
}

void nick_cpu_window_loop(ImageView<const std::uint8_t> gray, const NickParams& params,
                          ImageView<std::uint8_t> mask) {
  validate_nick_call(gray, params, mask);
  const int width = gray.width, height = gray.height;
  const int before = nick_before(params), after = nick_after(params);
  parallel_for(height, [&](int row) {
    for (int col = 0; col < width; ++col) {
      // The seed's window edges (begin/end row and column), clipped at the border.
      const int y0 = std::max(0, row - before), y1 = std::min(height - 1, row + after);
      const int x0 = std::max(0, col - before), x1 = std::min(width - 1, col + after);
      std::uint64_t sum = 0, sum_sq = 0;  // exact, as the seed's int sums are for w <= 101
      for (int i = y0; i <= y1; ++i)
        for (int j = x0; j <= x1; ++j) {
          const std::uint32_t p = gray(i, j);
          sum += p;
          sum_sq += p * p;
        }
      const auto count = static_cast<std::uint32_t>((y1 - y0 + 1) * (x1 - x0 + 1));
      mask(row, col) = nick_decide(gray(row, col), sum, sum_sq, count, params.k);
    }
  });
}

const char* nick_placement_name(NickPlacement placement) {
  return placement == NickPlacement::Seed ? "seed" : "matlab";
}

NickPlacement parse_nick_placement(const std::string& name) {
  if (name == "matlab") return NickPlacement::Matlab;
  if (name == "seed") return NickPlacement::Seed;
  throw InvalidArgument("unknown even-window placement '" + name + "' (matlab or seed)");
}

Image<std::uint8_t> nick_cpu(ImageView<const std::uint8_t> gray, const NickParams& params) {
  validate_nick_input(gray, params);
  Image<std::uint8_t> out(gray.width, gray.height);
  nick_cpu(gray, params, out.view());
  return out;
}

}  // namespace mad::kernels
