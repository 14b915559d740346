// DetectionStageCuda: the CUDA detection stage, orchestration only (kernels live in
// luminance_csf_cuda.cu, block_stats_*_cuda.cu and local_mse_cuda.cu).
//
// Per distorted image: dst_load (luminance + horizontal Δ² sums) -> r2c -> ·C_s/(MN) -> c2r ->
// σ_err and ξ per block -> map_reduce (vertical box, η, crop partials) -> sum_partials.
// Seven launches, no allocation, no synchronization.
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

}  // namespace

template <class Real>
DetectionStageCuda<Real>::DetectionStageCuda(int width, int height, cudaStream_t stream,
                                             const std::string& stats_variant)
    : width_(width),
      height_(height),
      grid_(checked_grid(width, height)),
      pixels_(static_cast<std::size_t>(width) * height),
      half_bins_(static_cast<std::size_t>(width / 2 + 1) * height),
      variant_(&detection_stats_variants().find(stats_variant)),
      table_(256),
      csf_half_(half_bins_),
      spectrum_(half_bins_),
      lum_(pixels_),
      csf_ref_(pixels_),
      csf_dst_(pixels_),
      mean_ref_(grid_.count()),
      std_min_ref_(grid_.count()),
      std_err_(grid_.count()),
      mask_(grid_.count()),
      row_sums_(pixels_),
      partials_(gpu::map_reduce_partial_count(width, height)),
      table_host_(gpu::luminance_table_host<Real>()) {
  // Plans: rows are the slow axis (nx = height), columns the fast one (ny = width). cuFFT
  // allocates its work area here, so the runs allocate nothing.
  std::size_t work = 0;
  MAD_CUFFT_CHECK(
      cufftMakePlan2d(forward_.get(), height, width, cuda::CufftOps<Real>::kR2C, &work));
  MAD_CUFFT_CHECK(
      cufftMakePlan2d(inverse_.get(), height, width, cuda::CufftOps<Real>::kC2R, &work));
  MAD_CUDA_CHECK(cudaMemcpyAsync(table_.get(), table_host_.data(), 256 * sizeof(Real),
                                 cudaMemcpyHostToDevice, stream));
  gpu::launch_build_csf_half<Real>(width, height, csf_half_.get(), stream);
}

template <class Real>
void DetectionStageCuda<Real>::csf_filter(Real* out, cudaStream_t stream) {
  MAD_CUFFT_CHECK(cufftSetStream(forward_.get(), stream));
  MAD_CUFFT_CHECK(cuda::CufftOps<Real>::r2c(forward_.get(), lum_.get(), spectrum_.get()));
  const Real scale = static_cast<Real>(1.0 / (static_cast<double>(width_) * height_));
  gpu::launch_csf_multiply<Real>(spectrum_.get(), csf_half_.get(), half_bins_, scale, stream);
  // c2r overwrites its input; spectrum_ is scratch.
  MAD_CUFFT_CHECK(cufftSetStream(inverse_.get(), stream));
  MAD_CUFFT_CHECK(cuda::CufftOps<Real>::c2r(inverse_.get(), spectrum_.get(), out));
}

template <class Real>
void DetectionStageCuda<Real>::prepare_reference(const Real* d_ref_raw, bool uint8_luminance,
                                                 cudaStream_t stream) {
  gpu::launch_luminance<Real>(d_ref_raw, pixels_, uint8_luminance, table_.get(), lum_.get(),
                              stream);
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
  gpu::launch_dst_load<Real>(d_ref_raw, d_dst_raw, width_, height_, uint8_luminance, table_.get(),
                             lum_.get(), row_sums_.get(), stream);
  csf_filter(csf_dst_.get(), stream);
  variant_->launch.get<Real>().error(csf_dst_.get(), csf_ref_.get(), width_, height_,
                                     mean_ref_.get(), std_min_ref_.get(), std_err_.get(),
                                     mask_.get(), stream);
  gpu::launch_map_reduce<Real>(row_sums_.get(), mask_.get(), width_, height_, d_map_or_null,
                               partials_.get(), stream);
  gpu::launch_sum_partials(partials_.get(), partials_.size(), d_sum_sq, stream);
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

}  // namespace mad::detection
