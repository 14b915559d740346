// The CUDA detection stage as seen from CPU-only code: no CUDA types cross this header.
// Everything declared here is implemented in *_cuda.cu files, i.e. only in builds with the
// CUDA backend (MAD_HAVE_CUDA); the device-level API is detection/detection_stage_cuda.h.
#pragma once

#include <string>
#include <vector>

#include "common/image.h"
#include "detection/detection.h"

namespace mad::detection {

enum class GpuPrecision { kDouble, kFloat };  // faithful mode / fast mode

// One row of the block-statistics variant registry (det_stats_cuda.h).
struct DetStatsVariantInfo {
  std::string name;
  std::string note;
  bool is_default = false;
};
// The registered variants, in registry order (the same for both precisions).
std::vector<DetStatsVariantInfo> detection_stats_variants();
std::string default_detection_stats_variant();

// d_detect (unscaled, spec §3.8) from the device's Σ η² over the crop: sqrt(sum / (M-33)(N-33)).
double d_detect_from_sum_sq(double sum_sq, int width, int height);

// The whole detection stage on the GPU for one pair, synchronously: uploads both images (as
// Real), builds a stage for the shape, runs it on a private stream and reads back d_detect and,
// when want_map, map.HI. The counterpart of detect_cpu (same arguments and meaning), for tests
// and one-off use; pipelines keep a DetectionStageCuda per shape instead. Throws
// InvalidArgument for mismatched or too small images or an unknown variant, GpuError for
// CUDA failures.
DetectionResult detect_cuda(ImageView<const double> ref, ImageView<const double> dst,
                            bool uint8_luminance, bool want_map,
                            GpuPrecision precision = GpuPrecision::kDouble,
                            const std::string& stats_variant = "");

}  // namespace mad::detection
