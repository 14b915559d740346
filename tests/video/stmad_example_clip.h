// The worked example of shared/stmad-spec.md §11 in the shape the ST-MAD tests take it: frame t
// of either clip as a function of (t, distorted). The frames come from the one generator of the
// example, tests/support/stmad_example_clip.h (whose files the clip reader tests check against
// the spec's md5 sums).
#pragma once

#include "common/luma_frame.h"
#include "tests/support/stmad_example_clip.h"

namespace mad::test {

constexpr int kExampleWidth = StmadExampleClip::kWidth;
constexpr int kExampleHeight = StmadExampleClip::kHeight;
constexpr int kExampleFrames = StmadExampleClip::kFrames;

inline LumaFrame example_frame(int t, bool distorted) {
  return distorted ? stmad_example_dist_frame(t) : stmad_example_ref_frame(t);
}

// Frame t of the example clips, as a function of (t, distorted).
inline LumaFrame example_clip(int t, bool distorted) {
  return example_frame(t, distorted);
}

}  // namespace mad::test
