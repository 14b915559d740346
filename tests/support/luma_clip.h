// 8-bit clips made sample by sample, for tests that write clip files of a chosen size and
// content (a clip of seeded noise, a ramp with noise added).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "common/luma_frame.h"

namespace mad::test {

// `frames` 8-bit frames of width x height holding `sample(i)`, i the row-major index within
// the frame. Called frame after frame in index order, so a seeded generator inside `sample`
// gives the same clip on every run.
inline std::vector<LumaFrame> luma_clip8(int width, int height, int frames,
                                         const std::function<std::uint8_t(std::size_t)>& sample) {
  std::vector<LumaFrame> clip(frames);
  for (LumaFrame& f : clip) {
    f.width = width;
    f.height = height;
    f.bit_depth = 8;
    f.samples8.resize(f.pixels());
    for (std::size_t i = 0; i < f.pixels(); ++i) f.samples8[i] = sample(i);
  }
  return clip;
}

}  // namespace mad::test
