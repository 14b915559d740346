// What scoring one pair returns: the score, its two indices, how it was computed and, when
// asked for, the maps. Its own header so that the batch scorer (mad/batch_scorer.h) and the
// one-pair API (mad/score.h) both take it without including each other.
#pragma once

#include <string>

#include "common/image.h"
#include "mad/options.h"

namespace mad {

struct ScoreResult {
  double mad = 0.0;
  double hi = 0.0;        // d_detect in the chosen version's scaling
  double lo = 0.0;        // d_appear
  double sig = 0.0;       // alpha of the combination
  double d_detect = 0.0;  // unscaled (April-2010) d_detect
  int width = 0, height = 0;
  MadVersion version = MadVersion::V2011;
  InputClass input_class = InputClass::Uint8;  // resolved (never Auto)
  Backend backend = Backend::Cpu;              // resolved (never Auto)
  Precision precision = Precision::Double;     // Double on the CPU backend
  std::string a5_variant;                      // GPU only
  Image<double> map_hi, map_lo;                // map.HI (unscaled) and map.LO when requested
  double seconds = 0.0;                        // wall time of the computation (decode excluded)
};

}  // namespace mad
