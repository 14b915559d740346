#include "detection/visibility_mask.h"

#include <cmath>

namespace mad::detection {

double log_contrast(double sigma, double mean) {
  return std::log(sigma / mean);
}

double visibility_mask_value(double mean_ref, double std_min_ref, double std_err) {
  // The gate comes first: the original sets C_err = -inf there (always ξ = 0), and it also
  // keeps ln of a negative ratio (complex in MATLAB) out of reach, since μ < 0 is gated.
  if (mean_ref < kMaskLuminanceGate) return 0.0;
  const double c_ref = log_contrast(std_min_ref, mean_ref);
  const double c_err = log_contrast(std_err, mean_ref);
  // Evaluation order kept for bitwise agreement: (C_ref - Ci)·slope + Ci, not C_ref.
  const double thr = (c_ref - kMaskRefThreshold) * kMaskSlope + kMaskRefThreshold;
  if (c_ref > kMaskRefThreshold && c_err > thr) return c_err - thr;
  if (c_ref <= kMaskRefThreshold && c_err > kMaskErrThreshold) return c_err - kMaskErrThreshold;
  return 0.0;
}

void visibility_mask_cpu(const double* mean_ref, const double* std_min_ref, const double* std_err,
                         std::size_t count, double* mask) {
  for (std::size_t b = 0; b < count; ++b)
    mask[b] = visibility_mask_value(mean_ref[b], std_min_ref[b], std_err[b]);
}

}  // namespace mad::detection
