// The GPU appearance stage (spec §4): construction (bank, plans, scratch) and the per-image
// sequence of FFTs and kernels. See appearance_stage_cuda.h for the data flow.
//
// Memory. The 20 complex subbands of an image would be 80 MB at 512x512 in double; the stage
// holds one scale's 4 at a time (16.8 MB), transforms them with one batched inverse plan and
// reduces them to block statistics before the next scale overwrites them. The forward R2C runs
// in place in the half-spectrum buffer (the raw image is first copied into it with the padded
// row pitch cuFFT expects), and both plans share one work area. Everything but the reference's
// statistics is transient and lives in one region, own or lent (see the header).
#include "appearance/appearance_stage_cuda.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <type_traits>

#include "appearance/appearance_kernels_cuda.h"
#include "appearance/log_gabor.h"
#include "common/cuda_check.h"
#include "common/cufft_ops.h"
#include "common/error.h"

namespace mad::appearance {
namespace {

void check_shape(int width, int height) {
  if (width < kMinImageSide || height < kMinImageSide)
    throw InvalidArgument("GPU appearance stage: images must be at least 34x34 (got " +
                          std::to_string(width) + "x" + std::to_string(height) + ")");
  // cuFFT's 32-bit plan interface takes the padded real plane's size as an int.
  if (static_cast<long long>(height) * 2 * (width / 2 + 1) > INT_MAX)
    throw InvalidArgument("GPU appearance stage: image too large");
}

}  // namespace

template <class Real>
AppearanceStageCuda<Real>::AppearanceStageCuda(int width, int height, cudaStream_t stream,
                                               const A5Row& a5,
                                               std::optional<SubbandTransform> subband_transform)
    : grid_(width, height), variant_(&a5) {
  check_shape(width, height);
  choose_transform(subband_transform);
  bank_ = std::make_shared<const LogGaborBankCuda<Real>>(width, height, stream);
  allocate_and_plan(ScratchMode::Own);
}

template <class Real>
AppearanceStageCuda<Real>::AppearanceStageCuda(std::shared_ptr<const LogGaborBankCuda<Real>> bank,
                                               const A5Row& a5, ScratchMode scratch,
                                               std::optional<SubbandTransform> subband_transform)
    : grid_(bank ? bank->width() : 0, bank ? bank->height() : 0),
      bank_(std::move(bank)),
      variant_(&a5) {
  if (!bank_) throw InvalidArgument("GPU appearance stage: null log-Gabor bank");
  check_shape(width(), height());
  choose_transform(subband_transform);
  allocate_and_plan(scratch);
}

template <class Real>
void AppearanceStageCuda<Real>::choose_transform(std::optional<SubbandTransform> asked) {
  transform_ = resolve_subband_transform(asked, width(), height(), std::is_same_v<Real, double>);
  if (transform_ == SubbandTransform::Fused)
    fused_ = std::make_unique<SubbandFftCuda<Real>>(width(), height());
}

namespace {

// Byte offsets of the transient arrays in their region (common/stage_scratch.h).
struct TransientLayout {
  std::size_t spectrum, subbands, dst_stats, eta, bytes;
};

template <class Real>
TransientLayout transient_layout(int width, int height, std::size_t blocks) {
  using Complex = DeviceComplex<Real>;
  const std::size_t plane = static_cast<std::size_t>(width) * height;
  ScratchLayout l;
  TransientLayout t;
  t.spectrum = l.add<Complex>(static_cast<std::size_t>(height) * (width / 2 + 1));
  t.subbands = l.add<Complex>(kOrientations * plane);
  t.dst_stats = l.add<Real>(3 * kOrientations * blocks);
  t.eta = l.add<Real>(blocks);
  t.bytes = l.bytes();
  return t;
}

}  // namespace

template <class Real>
void AppearanceStageCuda<Real>::allocate_and_plan(ScratchMode scratch) {
  using Ops = cuda::CufftOps<Real>;
  const int w = width(), h = height();
  half_width_ = w / 2 + 1;
  ref_stats_ = cuda::DeviceBuffer<Real>(3 * kSubbands * grid_.count());

  // Forward: one in-place R2C; the real input rows are padded to 2*(N/2+1) values.
  int n[2] = {h, w};
  int real_embed[2] = {h, 2 * half_width_};
  int half_embed[2] = {h, half_width_};
  std::size_t forward_work = 0, inverse_work = 0;
  MAD_CUFFT_CHECK(cufftSetAutoAllocation(forward_plan_.get(), 0));
  MAD_CUFFT_CHECK(cufftSetAutoAllocation(inverse_plan_.get(), 0));
  MAD_CUFFT_CHECK(cufftMakePlanMany(forward_plan_.get(), 2, n, real_embed, 1, h * 2 * half_width_,
                                    half_embed, 1, h * half_width_, Ops::kR2C, 1, &forward_work));
  // Inverse (cufft only): the 4 orientations of one scale in one batched C2C (contiguous
  // planes). The fused transform needs no work area.
  if (transform_ == SubbandTransform::Cufft)
    MAD_CUFFT_CHECK(cufftMakePlanMany(inverse_plan_.get(), 2, n, nullptr, 1, 0, nullptr, 1, 0,
                                      Ops::kC2C, kOrientations, &inverse_work));
  // The plans run one after the other on one stream, so they can share one work area.
  scratch_ = cuda::StageScratch(scratch, transient_layout<Real>(w, h, grid_.count()).bytes,
                                std::max(forward_work, inverse_work));
  if (scratch_.ready()) place_scratch();
}

template <class Real>
void AppearanceStageCuda<Real>::lend_scratch(void* transient, void* fft_work) {
  scratch_.lend(transient, fft_work, "AppearanceStageCuda");
  place_scratch();
}

template <class Real>
void AppearanceStageCuda<Real>::place_scratch() {
  const TransientLayout t = transient_layout<Real>(width(), height(), grid_.count());
  void* region = scratch_.transient();
  spectrum_ = ScratchLayout::at<Complex>(region, t.spectrum);
  subbands_ = ScratchLayout::at<Complex>(region, t.subbands);
  dst_stats_ = ScratchLayout::at<Real>(region, t.dst_stats);
  eta_ = ScratchLayout::at<Real>(region, t.eta);
  if (transform_ == SubbandTransform::Cufft)
    scratch_.attach({forward_plan_.get(), inverse_plan_.get()});
  else
    scratch_.attach({forward_plan_.get()});
}

template <class Real>
typename AppearanceStageCuda<Real>::Memory AppearanceStageCuda<Real>::device_memory() const {
  Memory m;
  m.bank = bank_->device_bytes();
  m.twiddles = fused_ ? fused_->device_bytes() : 0;
  m.reference_stats = ref_stats_.bytes();
  if (scratch_.owned_bytes() != 0) {
    const std::size_t plane = static_cast<std::size_t>(width()) * height();
    const std::size_t blocks = grid_.count();
    m.spectrum = static_cast<std::size_t>(height()) * half_width_ * sizeof(Complex);
    m.subbands = kOrientations * plane * sizeof(Complex);
    m.distorted_stats = 3 * kOrientations * blocks * sizeof(Real);
    m.eta = blocks * sizeof(Real);
    m.fft_work = std::max(scratch_.fft_work_bytes(), cuda::StageScratch::kMinWork);
    // The region's alignment padding, counted with the spectrum it follows.
    m.spectrum +=
        scratch_.owned_bytes() - m.fft_work - (m.spectrum + m.subbands + m.distorted_stats + m.eta);
  }
  return m;
}

template <class Real>
void AppearanceStageCuda<Real>::forward_spectrum(const Real* d_raw, cudaStream_t stream) {
  const std::size_t row_bytes = static_cast<std::size_t>(width()) * sizeof(Real);
  MAD_CUDA_CHECK(cudaMemcpy2DAsync(spectrum_, 2 * half_width_ * sizeof(Real), d_raw, row_bytes,
                                   row_bytes, height(), cudaMemcpyDeviceToDevice, stream));
  MAD_CUFFT_CHECK(cufftSetStream(forward_plan_.get(), stream));
  MAD_CUFFT_CHECK(cuda::CufftOps<Real>::r2c(forward_plan_.get(), reinterpret_cast<Real*>(spectrum_),
                                            spectrum_));
}

template <class Real>
void AppearanceStageCuda<Real>::scale_subbands(int scale, cudaStream_t stream) {
  if (fused_) {
    fused_->run_scale(spectrum_, *bank_, scale, subbands_, stream);
    return;
  }
  detail::launch_filter_scale<Real>(spectrum_, half_width_, *bank_, scale, subbands_, stream);
  MAD_CUFFT_CHECK(cufftSetStream(inverse_plan_.get(), stream));
  MAD_CUFFT_CHECK(
      cuda::CufftOps<Real>::c2c(inverse_plan_.get(), subbands_, subbands_, CUFFT_INVERSE));
}

template <class Real>
A5Input<Real> AppearanceStageCuda<Real>::subband_input() const {
  if (fused_) return fused_->magnitudes(subbands_);
  A5Input<Real> in;
  in.data = reinterpret_cast<const Real*>(subbands_);
  in.complex_modulus = true;
  in.scale = static_cast<Real>(1.0 / (static_cast<double>(width()) * height()));  // §4.3
  in.pitch = width();
  in.subband_stride = static_cast<std::ptrdiff_t>(width()) * height();
  in.count = kOrientations;
  return in;
}

template <class Real>
void AppearanceStageCuda<Real>::prepare_reference(const Real* d_ref_raw, cudaStream_t stream) {
  if (!d_ref_raw) throw InvalidArgument("prepare_reference: null image");
  scratch_.require("AppearanceStageCuda");
  has_reference_ = false;
  const std::ptrdiff_t blocks = static_cast<std::ptrdiff_t>(grid_.count());
  forward_spectrum(d_ref_raw, stream);
  for (int s = 0; s < kScales; ++s) {
    scale_subbands(s, stream);
    const std::ptrdiff_t first = subband_index(s, 0);
    const A5Output<Real> out =
        a5_output_planes(ref_stats_.get() + first * blocks, kSubbands * blocks, grid_.cols, blocks);
    variant_->launch.get<Real>()(subband_input(), out, grid_, stream);
  }
  has_reference_ = true;
}

template <class Real>
void AppearanceStageCuda<Real>::run_distorted(const Real* d_dst_raw, double* d_sum_sq,
                                              Real* d_map_or_null, cudaStream_t stream) {
  if (!has_reference_) throw InvalidArgument("run_distorted: no reference prepared");
  if (!d_dst_raw || !d_sum_sq) throw InvalidArgument("run_distorted: null pointer");
  const std::ptrdiff_t blocks = static_cast<std::ptrdiff_t>(grid_.count());
  const A5Output<Real> out =
      a5_output_planes(dst_stats_, kOrientations * blocks, grid_.cols, blocks);

  forward_spectrum(d_dst_raw, stream);
  for (int s = 0; s < kScales; ++s) {
    scale_subbands(s, stream);
    variant_->launch.get<Real>()(subband_input(), out, grid_, stream);
    detail::launch_accumulate_scale<Real>(ref_stats_.get(), dst_stats_, grid_.count(), s, s == 0,
                                          eta_, stream);
  }
  detail::launch_pool_crop<Real>(eta_, grid_, d_sum_sq, stream);
  if (d_map_or_null) detail::launch_expand_tiles<Real>(eta_, grid_, d_map_or_null, stream);
}

template <class Real>
void AppearanceStageCuda<Real>::run(const Real* d_ref_raw, const Real* d_dst_raw, double* d_sum_sq,
                                    Real* d_map_or_null, cudaStream_t stream) {
  prepare_reference(d_ref_raw, stream);
  run_distorted(d_dst_raw, d_sum_sq, d_map_or_null, stream);
}

template <class Real>
double AppearanceStageCuda<Real>::d_appear_from_sum(double sum_sq) const {
  return std::sqrt(sum_sq / static_cast<double>(grid_.crop_count()));
}

template class AppearanceStageCuda<double>;
template class AppearanceStageCuda<float>;

}  // namespace mad::appearance
