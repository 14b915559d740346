// detect_cpu: the whole detection stage on the CPU, one spec step per call (spec §3).
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/block_grid.h"
#include "common/error.h"
#include "common/parallel.h"
#include "detection/block_stats.h"
#include "detection/csf.h"
#include "detection/detection.h"
#include "detection/detection_map.h"
#include "detection/detection_workspace_cpu.h"
#include "detection/local_mse.h"
#include "detection/luminance.h"
#include "detection/visibility_mask.h"

namespace mad::detection {

DetectionResult detect_cpu(ImageView<const double> ref, ImageView<const double> dst,
                           bool uint8_luminance, bool want_map) {
  DetectionWorkspaceCpu workspace;
  return detect_cpu(ref, dst, uint8_luminance, want_map, workspace);
}

DetectionResult detect_cpu(ImageView<const double> ref, ImageView<const double> dst,
                           bool uint8_luminance, bool want_map, DetectionWorkspaceCpu& ws) {
  const int w = ref.width, h = ref.height;
  if (dst.width != w || dst.height != h)
    throw InvalidArgument("detect_cpu: reference " + std::to_string(w) + "x" + std::to_string(h) +
                          " and distorted " + std::to_string(dst.width) + "x" +
                          std::to_string(dst.height) + " differ in size");
  if (w < kMinImageSide || h < kMinImageSide)
    throw InvalidArgument("detect_cpu: images must be at least 34x34 (the pooling crop is empty)");
  ws.prepare(w, h);

  // §3.1-3.2: luminance and CSF filtering, the two images in parallel (FFTW plans may be
  // executed concurrently; each task writes only its own image and scratch).
  const CsfFilterCpu& csf = *ws.csf;
  const ImageView<const double> raw[2] = {ref, dst};
  parallel_for(2, [&](int k) {
    // Serial per image (luminance_value, not luminance_cpu): the parallelism is the two images.
    ImageView<double> l = ws.lum[k].view();
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) l(y, x) = luminance_value(raw[k](y, x), uint8_luminance);
    csf.apply(ws.lum[k].cview(), ws.filtered[k].view(), ws.csf_scratch[k]);
  });

  // §3.3-3.5: error image and block statistics on the block grid.
  error_image_cpu(ws.filtered[0].cview(), ws.filtered[1].cview(), ws.error.view());
  detection_block_stats_cpu(ws.filtered[0].cview(), ws.error.cview(), ws.stats, ws.s8);
  const DetectionBlockStats& st = ws.stats;

  // §3.6: ξ per block.
  visibility_mask_cpu(st.mean_ref.data(), st.std_min_ref.data(), st.std_err.data(),
                      ws.mask.size(), ws.mask.data());

  // §3.7-3.8: local MSE of the raw pixels, map and RMS over the crop.
  local_mse_cpu(ref, dst, ws.lmse.view(), ws.lmse_row_sums);
  DetectionResult result;
  detection_map_cpu(st.grid, ws.mask.data(), ws.lmse.cview(), ws.map.view());
  result.d_detect = pool_detection_cpu(ws.map.cview());
  // The result takes the map's memory (a moved-from Image keeps its shape, so the workspace's
  // plane is reset: the next pair of the shape allocates a new one).
  if (want_map) result.map = std::exchange(ws.map, Image<double>());
  return result;
}

}  // namespace mad::detection
