// What the CPU detection stage keeps across pairs (common/workspace_cpu.h says why): its
// planes, the CSF filter's FFT scratch per image and the block statistics, sized for the last
// shape scored. One per CPU worker; detect_cpu(..., workspace) uses it from one pair at a time.
#pragma once

#include <memory>
#include <vector>

#include "detection/block_stats.h"
#include "detection/csf.h"

namespace mad::detection {

class DetectionWorkspaceCpu {
 public:
  // Fits every buffer to width x height (reallocating only on a change of shape) and, in the
  // poisoning test mode, fills them with NaN.
  void prepare(int width, int height);
  // Frees every buffer (a pair too large to keep them: common/workspace_cpu.h).
  void release();

  std::shared_ptr<const CsfFilterCpu> csf;  // this shape's filter (the process-wide cache's)
  Image<double> lum[2], filtered[2];        // per image: luminance, then CSF-filtered
  CsfScratchCpu csf_scratch[2];             // per image: the filter's spectrum and FFT copies
  Image<double> error, lmse, lmse_row_sums, map;
  DetectionBlockStats stats;
  std::vector<double> s8, mask;  // the grid's 8x8 stds and ξ
};

}  // namespace mad::detection
