#include <algorithm>

#include "common/error.h"
#include "kernels/kernel_bench.h"

namespace mad::kernels {

double median_of(std::vector<double> samples) {
  if (samples.empty()) throw InvalidArgument("median of an empty sample");
  const std::size_t mid = samples.size() / 2;
  std::nth_element(samples.begin(), samples.begin() + mid, samples.end());
  const double upper = samples[mid];
  if (samples.size() % 2 == 1) return upper;
  const double lower = *std::max_element(samples.begin(), samples.begin() + mid);
  return 0.5 * (lower + upper);
}

}  // namespace mad::kernels
