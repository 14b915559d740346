// The combination of the two indices into MAD (spec §5).
#pragma once

#include "mad/options.h"

namespace mad {

// thresh1 = 2.55, thresh2 = 3.35 are fixed in the original (the argument meant to change them
// is dead code, spec §2). beta1 = exp(-thresh1/thresh2), beta2 = 1/(ln(10)*thresh2), exact.
double combine_beta1();
double combine_beta2();

struct Combined {
  double mad = 0.0;
  double hi = 0.0;   // d_detect after the version's scale (x200 for 2011)
  double lo = 0.0;   // d_appear
  double sig = 0.0;  // alpha
};

// d_detect is the unscaled RMS of map.HI; the version's factor is applied here only.
// alpha = 1/(1 + beta1 * hi^beta2); MAD = lo^(1-alpha) * hi^alpha with pow semantics, so
// hi == 0 gives alpha = 1 and MAD = 0 whatever lo is (0^0 = 1, 0^p = 0).
Combined combine(double d_detect, double d_appear, MadVersion version);

}  // namespace mad
