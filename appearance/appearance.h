// The appearance stage ("lo_index", spec §4): FFT -> 5x4 log-Gabor subbands -> |.| -> block
// std/skew/kurt -> weighted |differences| -> crop -> RMS = d_appear.
#pragma once

#include "common/image.h"

namespace mad::appearance {

struct AppearanceResult {
  double d_appear = 0.0;
  Image<double> map;  // map.LO (M x N); empty unless requested
};

// ref, dst: raw gray values 0..255 as double, same size, >= 34x34.
AppearanceResult appear_cpu(ImageView<const double> ref, ImageView<const double> dst,
                            bool want_map);

}  // namespace mad::appearance
