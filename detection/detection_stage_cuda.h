// The detection stage on the GPU ("hi_index", spec §3), one object per image shape
// (STYLE rule 3). Real = double is the faithful mode, Real = float the fast mode (luminance,
// FFTs and block statistics in float; the mask, the local-MSE box sums, η and the pooled sum
// stay in double, spec §7).
//
//   DetectionStageCuda<double> stage(width, height, stream);   // plans, C_s, scratch
//   stage.prepare_reference(d_ref, uint8, stream);             // once per reference (§11)
//   stage.run_distorted(d_ref, d_dst, uint8, d_sum_sq, d_map_or_null, stream);  // per image
//   ... read *d_sum_sq back; d_detect = d_detect_from_sum_sq(sum_sq, width, height).
//
// Raw images are device arrays of width·height values on the 0..255 scale, row-major and
// tightly packed (integer-valued for 8-bit input). Every call is asynchronous on its stream,
// allocates nothing and never synchronizes. One object runs one image pair at a time: the
// calls share its scratch, so issue them on one stream (or order the streams yourself).
//
// Memory: what the reference side keeps between calls (L'_ref, μ, σ_mod) and the shape's
// constants (luminance table, C_s) are owned. The rest (luminance, spectrum, L'_dst, row sums,
// σ_err, ξ, partials) and the cuFFT work area are needed only during a call: with
// ScratchMode::Lent they are borrowed from the owner (common/stage_scratch.h), who may use
// them for other work on the same stream between this stage's calls.
//
// No CUDA syntax: host C++ of a CUDA-enabled build may include this header.
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <string>

#include "common/block_grid.h"
#include "common/cuda_resources.h"
#include "common/stage_scratch_cuda.h"
#include "detection/luminance_csf_cuda.h"
#include "detection/block_stats_cuda.h"

namespace mad::detection {

template <class Real>
class DetectionStageCuda {
 public:
  using Complex = typename cuda::CufftOps<Real>::Complex;

  // Builds the cuFFT plans (one r2c, one c2r, height x width), C_s on the device (enqueued on
  // `stream`: later calls must be on the same stream or ordered after it) and, with
  // ScratchMode::Own, all scratch. stats: the block-statistics row to run
  // (detection/detection.h; it must outlive the stage), taken as given: names were resolved at
  // the front door. Throws InvalidArgument for images smaller than 34x34, GpuError for CUDA/cuFFT failures.
  DetectionStageCuda(int width, int height, cudaStream_t stream,
                     const BlockStatsRow& stats = detection_stats_variants().default_row(),
                     ScratchMode scratch = ScratchMode::Own);
  DetectionStageCuda(const DetectionStageCuda&) = delete;
  DetectionStageCuda& operator=(const DetectionStageCuda&) = delete;

  int width() const { return width_; }
  int height() const { return height_; }
  const BlockGrid& grid() const { return grid_; }
  const char* stats_variant() const { return variant_->name; }

  // Bytes of the transient scratch and of the cuFFT work area (the larger of the two plans').
  std::size_t transient_bytes() const { return scratch_.transient_bytes(); }
  std::size_t fft_work_bytes() const { return scratch_.fft_work_bytes(); }
  // ScratchMode::Lent: lends the transient region (>= transient_bytes(), 256-byte aligned, as
  // from cudaMalloc) and the cuFFT work area (>= fft_work_bytes()); both must outlive the stage.
  // Required before the first call. Throws InvalidArgument for an owning stage or a null region.
  void lend_scratch(void* transient, void* fft_work);
  // Device bytes the stage owns (lent scratch excluded).
  std::size_t device_bytes() const;

  // Reference side, kept for every later run_distorted (spec §11 "dataset trick"): luminance,
  // CSF, L'_ref, and per block μ and σ_mod.
  void prepare_reference(const Real* d_ref_raw, bool uint8_luminance, cudaStream_t stream);

  // Distorted side against the prepared reference: luminance + CSF of dst, σ_err and ξ per
  // block, local MSE of the raw pixels, η = ξ·D_loc, and Σ η² over the crop written to
  // *d_sum_sq (device memory) by a fixed-order reduction. When d_map_or_null is non-null, map.HI
  // (width x height, 0 outside the tiles) is written there. d_ref_raw must hold the reference
  // passed to prepare_reference (its raw pixels enter the local MSE). uint8_luminance applies to
  // dst's luminance. Throws InvalidArgument when no reference has been prepared.
  void run_distorted(const Real* d_ref_raw, const Real* d_dst_raw, bool uint8_luminance,
                     double* d_sum_sq, Real* d_map_or_null, cudaStream_t stream);

  // prepare_reference followed by run_distorted.
  void run(const Real* d_ref_raw, const Real* d_dst_raw, bool uint8_luminance, double* d_sum_sq,
           Real* d_map_or_null, cudaStream_t stream);

  // Intermediates on the device, for tests and diagnostics; valid once the call that writes
  // them has completed (and, for csf_dst, std_err and mask with lent scratch, until the
  // lender reuses it). Images are width x height, block arrays grid().rows x grid().cols.
  const Real* csf_half() const { return csf_half_.get(); }  // C_s, height x (width/2+1)
  const Real* csf_ref() const { return csf_ref_.get(); }    // L'_ref (prepare_reference)
  const Real* csf_dst() const { return csf_dst_; }          // L'_dst (run_distorted)
  const Real* mean_ref() const { return mean_ref_.get(); }
  const Real* std_min_ref() const { return std_min_ref_.get(); }
  const Real* std_err() const { return std_err_; }
  const Real* mask() const { return mask_; }

 private:
  // Points the transient arrays into scratch_'s region and the plans at its work area.
  void place_scratch();
  // Luminance already in lum_ -> L' in `out` (r2c, C_s·1/(MN), c2r).
  void csf_filter(Real* out, cudaStream_t stream);

  int width_, height_;
  BlockGrid grid_;
  std::size_t pixels_, half_bins_, partial_count_;
  const BlockStatsRow* variant_;  // the row it was given
  cuda::FftPlan forward_, inverse_;
  // Owned: the shape's constants and what the reference side keeps between calls.
  cuda::DeviceBuffer<Real> table_;     // luminance table, 256 entries
  cuda::DeviceBuffer<Real> csf_half_;  // C_s
  cuda::DeviceBuffer<Real> csf_ref_, mean_ref_, std_min_ref_;
  // Transient (needed only during a call): arrays of one region, own or lent.
  cuda::StageScratch scratch_;
  Complex* spectrum_ = nullptr;
  Real *lum_ = nullptr, *csf_dst_ = nullptr, *std_err_ = nullptr, *mask_ = nullptr;
  double *row_sums_ = nullptr, *partials_ = nullptr;
  std::array<Real, 256> table_host_;  // source of the table upload, alive for its duration
  bool reference_ready_ = false;
};

extern template class DetectionStageCuda<double>;
extern template class DetectionStageCuda<float>;

// d_detect (unscaled, spec §3.8) from the Σ η² over the crop that run_distorted leaves on the
// device: sqrt(sum / (M-33)(N-33)). Host arithmetic of the GPU path alone (the CPU pools its
// map, pool_detection_cpu), as AppearanceStageCuda::d_appear_from_sum is appearance's.
double d_detect_from_sum_sq(double sum_sq, int width, int height);

}  // namespace mad::detection
