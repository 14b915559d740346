// The CUDA backend as seen from CPU-only code: no CUDA types cross this header. Implemented in
// mad/gpu_scorer_cuda.cu when the backend is built; without it, constructing one throws.
#pragma once

#include <memory>
#include <string>

#include "common/image.h"
#include "mad/options.h"

namespace mad {

struct GpuStageOutputs {
  double d_detect = 0.0;  // unscaled
  double d_appear = 0.0;
  Image<double> map_hi, map_lo;
};

class GpuScorer {
 public:
  // a5_variant: registry name, empty for the default. Throws InvalidArgument for unknown names.
  GpuScorer(Precision precision, const std::string& a5_variant);
  ~GpuScorer();
  GpuScorer(const GpuScorer&) = delete;
  GpuScorer& operator=(const GpuScorer&) = delete;

  // Uploads both images once, runs both stages on the device and reads back the two indices
  // (and the maps when asked). Stages are cached per shape. The reference side is reused when
  // `ref` is the same image (same pixels) as in the previous call.
  GpuStageOutputs run(ImageView<const double> ref, ImageView<const double> dst,
                      bool uint8_luminance, bool want_maps);
  const std::string& a5_variant() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mad
