// The worked example of shared/stmad-spec.md §11, generated from its integer formulas: 84x60,
// 40 frames, the reference moving 2 px left and 1 px up per frame, the distorted clip with
// 4x4-block offsets of -20..+20. (A shared generator, tests/support/stmad_example_clip.h, is
// planned; this one is the video tests' own until it lands.)
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "common/luma_frame.h"

namespace mad::test {

constexpr int kExampleWidth = 84, kExampleHeight = 60, kExampleFrames = 40;

inline int example_mod(int a, int p) { return ((a % p) + p) % p; }
inline int example_tri(int k, int p) { return std::abs(example_mod(k, p) - p / 2); }
inline int example_pattern(int u, int v) {
  return 60 + 3 * example_tri(u, 24) + 2 * example_tri(v, 18) + 2 * example_tri(u + v, 10) +
         3 * example_mod(7 * u + 13 * v, 5);
}
inline int example_reference_pixel(int t, int y, int x) {
  return example_pattern(x + 2 * t, y + t);
}
inline int example_distorted_pixel(int t, int y, int x) {
  const int offset = 2 * (example_mod(37 * (x / 4) + 91 * (y / 4) + 53 * t, 21) - 10);
  return std::clamp(example_reference_pixel(t, y, x) + offset, 0, 255);
}

// Frame t of either clip as a clip reader delivers it (8-bit luma).
inline LumaFrame example_frame(int t, bool distorted, int width = kExampleWidth,
                               int height = kExampleHeight) {
  LumaFrame f;
  f.width = width;
  f.height = height;
  f.bit_depth = 8;
  f.samples8.resize(f.pixels());
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      f.samples8[static_cast<std::size_t>(y) * width + x] = static_cast<std::uint8_t>(
          distorted ? example_distorted_pixel(t, y, x) : example_reference_pixel(t, y, x));
  return f;
}

// Frame t of the example clips at their own size, as a function of (t, distorted).
inline LumaFrame example_clip(int t, bool distorted) { return example_frame(t, distorted); }

}  // namespace mad::test
