// The detection stage ("hi_index", spec §3): luminance -> CSF -> block statistics ->
// visibility mask -> x local MSE -> crop -> RMS = d_detect (April-2010 scaling, i.e. WITHOUT
// the 2011 factor of 200, which mad::combine applies).
#pragma once

#include "common/image.h"

namespace mad::detection {

struct DetectionResult {
  double d_detect = 0.0;  // unscaled RMS of map over the crop
  Image<double> map;      // map.HI (M x N); empty unless requested
};

// ref, dst: raw gray values 0..255 (integer-valued for 8-bit input), same size, >= 34x34.
// uint8_luminance: the original's uint8 quirk (a pixel of 255 takes the luminance of 254).
DetectionResult detect_cpu(ImageView<const double> ref, ImageView<const double> dst,
                           bool uint8_luminance, bool want_map);

}  // namespace mad::detection
