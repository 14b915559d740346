#include "mad/combine.h"

#include <cmath>

namespace mad {
namespace {
constexpr double kThresh1 = 2.55;
constexpr double kThresh2 = 3.35;
}  // namespace

double combine_beta1() {
  return std::exp(-kThresh1 / kThresh2);
}
double combine_beta2() {
  return 1.0 / (std::log(10.0) * kThresh2);
}

Combined combine(double d_detect, double d_appear, MadVersion version) {
  Combined c;
  c.hi = d_detect * detect_scale(version);
  c.lo = d_appear;
  c.sig = 1.0 / (1.0 + combine_beta1() * std::pow(c.hi, combine_beta2()));
  // std::pow follows IEEE pow: pow(0, 0) = 1 and pow(0, p > 0) = 0, as MATLAB's power does.
  c.mad = std::pow(c.lo, 1.0 - c.sig) * std::pow(c.hi, c.sig);
  return c;
}

}  // namespace mad
