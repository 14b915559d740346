// Pixel -> "perceived luminance" of the detection stage (spec §3.1).
//
// L = k * J^(2.2/3) with k = 0.02874, where J is the raw gray value. This is the CODE's form,
// not the paper's (k*I)^(2.2/3); the absolute luminance gate of §3.6 depends on it.
// With uint8 semantics the original indexes its table with the saturating uint8 sum I+1, so a
// pixel of 255 takes the luminance of 254 (spec §2); only this step sees that quirk.
#pragma once

#include "common/image.h"

namespace mad::detection {

constexpr double kLuminanceScale = 0.02874;        // k
constexpr double kLuminanceExponent = 2.2 / 3.0;   // display gamma 2.2, then a cube root
constexpr double kUint8LuminanceMaxIndex = 254.0;  // the saturating uint8 table index

// Luminance of one raw value (expected in 0..255; non-integer values use the direct formula,
// the 2011 rule, which equals the table for integer values).
double luminance_value(double raw, bool uint8_luminance);

// out(y,x) = luminance_value(in(y,x)). `out` has the shape of `in`; views may be padded.
// Parallel over rows; the result does not depend on the thread count.
void luminance_cpu(ImageView<const double> in, bool uint8_luminance, ImageView<double> out);

}  // namespace mad::detection
