#include "mad/video/stmad_pooling.h"

#include <cmath>
#include <cstddef>

#include "common/error.h"
#include "mad/combine.h"

namespace mad::video {
namespace {

constexpr double kAlphaT = 3.0 / 7.0;  // α_T of §5.3

double mean_of(const std::vector<double>& v) {
  double s = 0;
  for (const double x : v) s += x;
  return s / static_cast<double>(v.size());
}

}  // namespace

SpatialFigures pool_spatial(const std::vector<double>& hi, const std::vector<double>& lo) {
  if (hi.size() != lo.size() || hi.empty()) throw InternalError("SMAD of mismatched indices");
  SpatialFigures f;
  f.mad_hi = mean_of(hi);
  f.mad_lo = mean_of(lo);
  // MAD's β1, β2 (mad/combine.h), applied to the mean HI after ST-MAD's x10.
  f.sigma = 1.0 / (1.0 + combine_beta1() * std::pow(f.mad_hi, combine_beta2()));
  f.smad = std::pow(f.mad_hi, f.sigma / 4.0) + std::pow(f.mad_lo, 1.0 - f.sigma);
  return f;
}

double slice_term(const std::vector<double>& weights, const std::vector<double>& lo, double m) {
  if (weights.size() != lo.size()) throw InternalError("slice weights and indices differ");
  double weighted = 0;
  for (std::size_t k = 0; k < lo.size(); ++k) weighted += weights[k] * lo[k];
  return std::log10(1000.0 * kAlphaT + m) * weighted / m;
}

double pool_temporal(double sts_row, double sts_col) {
  return std::pow(sts_row, kAlphaT) + std::pow(sts_col, 1.0 - kAlphaT);
}

Combination combine_stmad(double smad, double tmad, double m_row, double m_col) {
  Combination c;
  c.mov_index = m_row / (m_row + m_col);
  c.beta = std::log10(1.0 + c.mov_index);
  c.stmad = 2.5 * std::log10(c.beta * smad) + tmad;
  return c;
}

}  // namespace mad::video
