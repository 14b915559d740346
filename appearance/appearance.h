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
// The same in a workspace kept across pairs (appearance/appearance_workspace_cpu.h): what a
// CPU worker calls. The same bits as the call above.
class AppearanceWorkspaceCpu;
AppearanceResult appear_cpu(ImageView<const double> ref, ImageView<const double> dst,
                            bool want_map, AppearanceWorkspaceCpu& workspace);

}  // namespace mad::appearance
