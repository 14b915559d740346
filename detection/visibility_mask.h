// Log-contrast visibility mask ξ of the detection stage (spec §3.6; the original's "msk").
//
// Per block: a distortion counts only where its RMS contrast ln(σ_err/μ) exceeds the
// reference's modified RMS contrast ln(σ_mod/μ), or exceeds e^-5 in very flat regions; blocks
// darker than the luminance gate (μ < 0.5) never count. ln 0 = -inf is kept (IEEE).
#pragma once

#include <cstddef>

namespace mad::detection {

constexpr double kMaskLuminanceGate = 0.5;  // G, in the code's luminance units
constexpr double kMaskSlope = 1.0;          // C_slope
constexpr double kMaskRefThreshold = -5.0;  // Ci_thrsh
constexpr double kMaskErrThreshold = -5.0;  // Cd_thrsh

// ln(σ/μ): a log RMS contrast. -inf for σ = 0; NaN for 0/0.
double log_contrast(double sigma, double mean);

// ξ of one block from μ = mean_ref, σ_mod = std_min_ref and σ_err = std_err. ξ >= 0.
double visibility_mask_value(double mean_ref, double std_min_ref, double std_err);

// ξ for `count` blocks (any layout; element b of each array is one block).
void visibility_mask_cpu(const double* mean_ref, const double* std_min_ref, const double* std_err,
                         std::size_t count, double* mask);

}  // namespace mad::detection
