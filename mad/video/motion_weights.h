// From the motion accumulator's window sums to ST-MAD's slice weights (shared/stmad-spec.md
// §4.4): the mean squared speed per window, its row and column means, squared and shaped by
// MATLAB's gausswin(L, 1.2), so a slice near the frame's centre with fast motion counts most.
#pragma once

#include <cstdint>
#include <vector>

#include "mad/video/motion.h"

namespace mad::video {

// gausswin(L, 1.2): exp(-(1.2 (n - (L-1)/2) / ((L-1)/2))^2 / 2), n = 0..L-1; [1] for L = 1.
std::vector<double> gausswin(int length);

struct MotionWeights {
  std::vector<double> mean_speed;  // S̄(I, J) at I * c0 + J: sum / (T - 1)
  std::vector<double> m_ver;       // row means of S̄ (r0)
  std::vector<double> m_hor;       // column means of S̄ (c0)
  std::vector<double> w_row, w_col;  // m² x g / sum(g), one per row / column slice
  double m_row = 0, m_col = 0;       // their sums
  // Every window speed was 0 (a static reference): the original errors here (its zero-motion
  // branch names an undefined variable); we take what that branch intends, uniform weights
  // 1/n summing to m = 1 (spec §9).
  bool static_reference = false;
};

// `pairs` frame pairs were summed (T - 1); with none the means are NaN.
MotionWeights motion_weights(const std::vector<double>& speed_sums, std::int64_t pairs,
                             const MotionGrid& grid);

}  // namespace mad::video
