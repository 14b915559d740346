// Local MSE of the raw pixels (spec §3.7; the original's "lmse").
//
// D_loc(y,x) = (1/256)·Σ_{i=-7..8} Σ_{j=-7..8} (R - D)²(y+i, x+j) on the RAW 0..255 values (no
// luminance, no CSF, no uint8 saturation), with symmetric padding (mirror including the edge
// pixel: -1 -> 0, n -> n-1). The window is -7..+8, the 'same' convention of an even kernel;
// it is deliberately offset by ~6 px from the block tiles of ξ (do not "fix" it).
#pragma once

#include "common/image.h"

namespace mad::detection {

constexpr int kLmseWindow = 16;  // box side
constexpr int kLmseBefore = 7;   // samples before the centre; kLmseWindow-1-kLmseBefore after

// Symmetric ('mirror including the edge') index into [0, n), for any integer i.
int symmetric_index(int i, int n);

// out = D_loc of (ref, dst); all three views have the same shape.
// Separable running sums: exact for integer-valued input, because every partial sum of squared
// integer differences is an integer far below 2^53 and 1/256 is a power of two.
void local_mse_cpu(ImageView<const double> ref, ImageView<const double> dst, ImageView<double> out);
// The same with the caller's plane for the horizontal sums (fitted here to the shape), kept
// across pairs by the detection workspace.
void local_mse_cpu(ImageView<const double> ref, ImageView<const double> dst, ImageView<double> out,
                   Image<double>& row_sums);

}  // namespace mad::detection
