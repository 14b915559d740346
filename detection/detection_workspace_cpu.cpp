#include "detection/detection_workspace_cpu.h"

#include "common/block_grid.h"
#include "common/workspace_cpu.h"

namespace mad::detection {

void DetectionWorkspaceCpu::prepare(int width, int height) {
  if (!csf || csf->width() != width || csf->height() != height)
    csf = shared_csf_filter_cpu(width, height);
  for (Image<double>* plane : {&lum[0], &lum[1], &filtered[0], &filtered[1], &error, &lmse,
                               &lmse_row_sums, &map})
    fit_image(*plane, width, height);
  const std::size_t blocks = BlockGrid(width, height).count();
  fit_buffer(mask, blocks);
  // The statistics, s8 and the CSF scratch are fitted where they are filled.
  if (!workspace_poisoning()) return;
  for (Image<double>* plane : {&lum[0], &lum[1], &filtered[0], &filtered[1], &error, &lmse,
                               &lmse_row_sums, &map})
    poison_image(*plane);
  for (CsfScratchCpu& s : csf_scratch) s.poison();
  for (std::vector<double>* v : {&stats.mean_ref, &stats.std_err, &stats.std_min_ref, &s8, &mask})
    poison_buffer(*v);
}

void DetectionWorkspaceCpu::release() { *this = DetectionWorkspaceCpu(); }

}  // namespace mad::detection
