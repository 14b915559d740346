// DetectionStageCuda: the CUDA detection stage, orchestration only (kernels live in
// luminance_csf_cuda.cu, block_stats_*_cuda.cu and local_mse_cuda.cu).
//
// Per distorted image: dst_load (luminance + horizontal Δ² sums) -> r2c -> ·C_s/(MN) -> c2r ->
// σ_err and ξ per block -> map_reduce (vertical box, η, crop partials) -> sum_partials.
// Seven launches, no allocation, no synchronization. The transient arrays of a call live in one
// region (own, or lent by the pair slot: see the header).
#include <algorithm>
#include <cmath>
#include <string>

#include "common/cuda_check.h"
#include "common/cufft_ops.h"
#include "common/error.h"
#include "detection/local_mse_cuda.h"
#include "detection/detection_stage_cuda.h"

namespace mad::detection {
namespace {

BlockGrid checked_grid(int width, int height) {
  if (width < kMinImageSide || height < kMinImageSide)
    throw InvalidArgument("DetectionStageCuda: images must be at least 34x34, got " +
                          std::to_string(width) + "x" + std::to_string(height));
  return BlockGrid(width, height);
}

// Byte offsets of the transient arrays in their region (common/stage_scratch.h).
struct TransientLayout {
  std::size_t lum, spectrum, csf_dst, std_err, mask, row_sums, partials, bytes;
};

template <class Real>
TransientLayout transient_layout(std::size_t pixels, std::size_t half_bins, std::size_t blocks,
                                 std::size_t partials) {
  using Complex = typename cuda::CufftOps<Real>::Complex;
  ScratchLayout l;
  TransientLayout t;
  t.lum = l.add<Real>(pixels);
  t.spectrum = l.add<Complex>(half_bins);
  t.csf_dst = l.add<Real>(pixels);
  t.std_err = l.add<Real>(blocks);
  t.mask = l.add<Real>(blocks);
  t.row_sums = l.add<double>(pixels);
  t.partials = l.add<double>(partials);
  t.bytes = l.bytes();
  return t;
}

}  // namespace

template <class Real>
DetectionStageCuda<Real>::DetectionStageCuda(int width, int height, cudaStream_t stream,
                                             const BlockStatsRow& stats, ScratchMode scratch)
    : width_(width),
      height_(height),
      grid_(checked_grid(width, height)),
      pixels_(static_cast<std::size_t>(width) * height),
      half_bins_(static_cast<std::size_t>(width / 2 + 1) * height),
      partial_count_(gpu::map_reduce_partial_count(width, height)),
      variant_(&stats),
      table_(256),
      csf_half_(half_bins_),
      csf_ref_(pixels_),
      mean_ref_(grid_.count()),
      std_min_ref_(grid_.count()),
      table_host_(gpu::luminance_table_host<Real>()) {
  // Plans: rows are the slow axis (nx = height), columns the fast one (ny = width). The two
  // plans run one after the other on one stream, so they share one work area (with lent
  // scratch, also with the appearance stage's plans); it is set before any run, so the runs
  // allocate nothing.
  std::size_t forward_work = 0, inverse_work = 0;
  MAD_CUFFT_CHECK(cufftSetAutoAllocation(forward_.get(), 0));
  MAD_CUFFT_CHECK(cufftSetAutoAllocation(inverse_.get(), 0));
  MAD_CUFFT_CHECK(
      cufftMakePlan2d(forward_.get(), height, width, cuda::CufftOps<Real>::kR2C, &forward_work));
  MAD_CUFFT_CHECK(
      cufftMakePlan2d(inverse_.get(), height, width, cuda::CufftOps<Real>::kC2R, &inverse_work));
  scratch_ = cuda::StageScratch(
      scratch, transient_layout<Real>(pixels_, half_bins_, grid_.count(), partial_count_).bytes,
      std::max(forward_work, inverse_work));
  if (scratch_.ready()) place_scratch();
  MAD_CUDA_CHECK(cudaMemcpyAsync(table_.get(), table_host_.data(), 256 * sizeof(Real),
                                 cudaMemcpyHostToDevice, stream));
  gpu::launch_build_csf_half<Real>(width, height, csf_half_.get(), stream);
}

template <class Real>
void DetectionStageCuda<Real>::lend_scratch(void* transient, void* fft_work) {
  scratch_.lend(transient, fft_work, "DetectionStageCuda");
  place_scratch();
}

template <class Real>
void DetectionStageCuda<Real>::place_scratch() {
  const TransientLayout t =
      transient_layout<Real>(pixels_, half_bins_, grid_.count(), partial_count_);
  void* region = scratch_.transient();
  lum_ = ScratchLayout::at<Real>(region, t.lum);
  spectrum_ = ScratchLayout::at<Complex>(region, t.spectrum);
  csf_dst_ = ScratchLayout::at<Real>(region, t.csf_dst);
  std_err_ = ScratchLayout::at<Real>(region, t.std_err);
  mask_ = ScratchLayout::at<Real>(region, t.mask);
  row_sums_ = ScratchLayout::at<double>(region, t.row_sums);
  partials_ = ScratchLayout::at<double>(region, t.partials);
  scratch_.attach({forward_.get(), inverse_.get()});
}

template <class Real>
std::size_t DetectionStageCuda<Real>::device_bytes() const {
  return table_.bytes() + csf_half_.bytes() + csf_ref_.bytes() + mean_ref_.bytes() +
         std_min_ref_.bytes() + scratch_.owned_bytes();
}

template <class Real>
void DetectionStageCuda<Real>::csf_filter(Real* out, cudaStream_t stream) {
  MAD_CUFFT_CHECK(cufftSetStream(forward_.get(), stream));
  MAD_CUFFT_CHECK(cuda::CufftOps<Real>::r2c(forward_.get(), lum_, spectrum_));
  const Real scale = static_cast<Real>(1.0 / (static_cast<double>(width_) * height_));
  gpu::launch_csf_multiply<Real>(spectrum_, csf_half_.get(), half_bins_, scale, stream);
  // c2r overwrites its input; spectrum_ is scratch.
  MAD_CUFFT_CHECK(cufftSetStream(inverse_.get(), stream));
  MAD_CUFFT_CHECK(cuda::CufftOps<Real>::c2r(inverse_.get(), spectrum_, out));
}

template <class Real>
void DetectionStageCuda<Real>::prepare_reference(const Real* d_ref_raw, bool uint8_luminance,
                                                 cudaStream_t stream) {
  scratch_.require("DetectionStageCuda");
  gpu::launch_luminance<Real>(d_ref_raw, pixels_, uint8_luminance, table_.get(), lum_, stream);
  csf_filter(csf_ref_.get(), stream);
  variant_->launch.get<Real>().reference(csf_ref_.get(), width_, height_, mean_ref_.get(),
                                         std_min_ref_.get(), stream);
  reference_ready_ = true;
}

template <class Real>
void DetectionStageCuda<Real>::run_distorted(const Real* d_ref_raw, const Real* d_dst_raw,
                                             bool uint8_luminance, double* d_sum_sq,
                                             Real* d_map_or_null, cudaStream_t stream) {
  if (!reference_ready_)
    throw InvalidArgument("DetectionStageCuda::run_distorted: no reference prepared");
  scratch_.require("DetectionStageCuda");
  gpu::launch_dst_load<Real>(d_ref_raw, d_dst_raw, width_, height_, uint8_luminance, table_.get(),
                             lum_, row_sums_, stream);
  csf_filter(csf_dst_, stream);
  variant_->launch.get<Real>().error(csf_dst_, csf_ref_.get(), width_, height_, mean_ref_.get(),
                                     std_min_ref_.get(), std_err_, mask_, stream);
  gpu::launch_map_reduce<Real>(row_sums_, mask_, width_, height_, d_map_or_null, partials_, stream);
  gpu::launch_sum_partials(partials_, partial_count_, d_sum_sq, stream);
}

template <class Real>
void DetectionStageCuda<Real>::run(const Real* d_ref_raw, const Real* d_dst_raw,
                                   bool uint8_luminance, double* d_sum_sq, Real* d_map_or_null,
                                   cudaStream_t stream) {
  prepare_reference(d_ref_raw, uint8_luminance, stream);
  run_distorted(d_ref_raw, d_dst_raw, uint8_luminance, d_sum_sq, d_map_or_null, stream);
}

template class DetectionStageCuda<double>;
template class DetectionStageCuda<float>;

double d_detect_from_sum_sq(double sum_sq, int width, int height) {
  return std::sqrt(sum_sq / static_cast<double>(BlockGrid(width, height).crop_count()));
}

}  // namespace mad::detection
