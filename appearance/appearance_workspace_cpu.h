// What the CPU appearance stage keeps across pairs (common/workspace_cpu.h says why): the
// images' spectra and FFT copies, their subband statistics, each subband thread's scratch and
// magnitude plane, and the pooling plane, sized for the last shape scored. One per CPU worker;
// AppearanceCpu's workspace overloads use it from one pair at a time.
#pragma once

#include <memory>
#include <vector>

#include "appearance/subband_magnitude.h"
#include "appearance/subband_stats.h"
#include "common/block_grid.h"
#include "common/fft_cpu.h"
#include "common/image.h"

namespace mad::appearance {

class AppearanceWorkspaceCpu {
 public:
  // Fits the buffers of `images` images and `workers` subband threads to width x height
  // (reallocating only on a change of shape or count) and, in the poisoning test mode, fills
  // them with NaN.
  void prepare(int width, int height, int images, int workers);
  // Frees every buffer (a pair too large to keep them: common/workspace_cpu.h).
  void release();

  std::vector<std::vector<Complex>> spectra;  // per image: the full unshifted spectrum
  std::vector<CpuFftBuffers> fft;             // per image: the forward transform's copies
  std::vector<SubbandStats> stats;            // per image: the 20 subbands' block statistics
  std::vector<std::unique_ptr<SubbandScratch>> scratch;  // per subband thread
  std::vector<Image<double>> magnitude;                  // per subband thread
  std::vector<double> eta;  // per block (§4.5)
  Image<double> plane;      // map.LO as pooled (§4.6)
};

}  // namespace mad::appearance
