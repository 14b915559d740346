// The detection stage ("hi_index", spec §3), its CPU form (detect_cpu, detection_cpu.cpp) and
// what CPU-only code sees of the CUDA form (its variants; the device-level API is
// detection/detection_stage_cuda.h). No CUDA types cross this header.
//
// The stage: luminance -> CSF -> block statistics -> visibility mask -> x local MSE -> crop ->
// RMS = d_detect (April-2010 scaling, i.e. WITHOUT the 2011 factor of 200, which mad::combine
// applies).
#pragma once

#include <string>

#include "common/image.h"
#include "common/variant_registry.h"

namespace mad::detection {

struct DetectionResult {
  double d_detect = 0.0;  // unscaled RMS of map over the crop
  Image<double> map;      // map.HI (M x N); empty unless requested
};

// ref, dst: raw gray values 0..255 (integer-valued for 8-bit input), same size, >= 34x34.
// uint8_luminance: the original's uint8 quirk (a pixel of 255 takes the luminance of 254).
DetectionResult detect_cpu(ImageView<const double> ref, ImageView<const double> dst,
                           bool uint8_luminance, bool want_map);
// The same in a workspace kept across pairs (detection/detection_workspace_cpu.h): what a CPU
// worker calls, allocating nothing while the shape stays the same (bar a requested map, which
// the result takes with it). The same bits as the call above.
class DetectionWorkspaceCpu;
DetectionResult detect_cpu(ImageView<const double> ref, ImageView<const double> dst,
                           bool uint8_luminance, bool want_map, DetectionWorkspaceCpu& workspace);

namespace gpu {

// The two launches of a block-statistics variant (contract: detection/block_stats_cuda.h).
//
// Reference side: μ(b) = mean of L'_ref over block b (÷256) and σ_mod(b) = min of the
// available unbiased 8x8 stds at offsets {0,4}x{0,4} (edge rule of spec §3.5).
template <class Real>
using RefStatsLaunch = void (*)(const Real* d_csf_ref, int width, int height, Real* d_mean_ref,
                                Real* d_std_min_ref, StreamHandle stream);

// Error side: σ_err(b) = unbiased std (÷255) of E = d_csf_dst - d_csf_ref over block b, E
// formed on the fly exactly as error_image_cpu does. Outputs are optional: d_std_err may be
// null; when d_mask is non-null the block's ξ (spec §3.6) is written there, which needs
// d_mean_ref and d_std_min_ref from the reference launch.
template <class Real>
using ErrStatsLaunch = void (*)(const Real* d_csf_dst, const Real* d_csf_ref, int width, int height,
                                const Real* d_mean_ref, const Real* d_std_min_ref, Real* d_std_err,
                                Real* d_mask, StreamHandle stream);

template <class Real>
struct BlockStatsLaunch {
  RefStatsLaunch<Real> reference = nullptr;
  ErrStatsLaunch<Real> error = nullptr;
};
// Both precisions of one variant (double: the faithful mode; float: the fast mode).
using BlockStatsLaunches = PerPrecision<BlockStatsLaunch>;

}  // namespace gpu

// The block-statistics variant registry (`--det-variant`), one row per variant for both
// precisions. Listed and validated in every build; launchable with the CUDA backend.
const VariantRegistry<gpu::BlockStatsLaunches>& detection_stats_variants();
// One row of it: what the GPU stage is given (never a name: the front door picked the row).
using BlockStatsRow = VariantRow<gpu::BlockStatsLaunches>;

}  // namespace mad::detection
