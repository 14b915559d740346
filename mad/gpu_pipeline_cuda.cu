#include "mad/gpu_pipeline_cuda.h"

#include <cmath>
#include <cstring>

#include "common/block_grid.h"
#include "common/cuda_check.h"
#include "detection/detection_gpu.h"

namespace mad::gpu {
namespace {

// Widens the uploaded images (uint8 or double) to the stage precision. One thread per pixel;
// both images in one launch (they are contiguous).
template <class Src, class Real>
__global__ void widen_kernel(const Src* __restrict__ src, Real* __restrict__ dst, std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) dst[i] = static_cast<Real>(src[i]);
}

template <class Src, class Real>
void widen(const Src* src, Real* dst, std::size_t n, cudaStream_t stream) {
  constexpr int kThreads = 256;
  const unsigned blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
  widen_kernel<<<blocks, kThreads, 0, stream>>>(src, dst, n);
  MAD_CUDA_CHECK_LAUNCH();
}

// Copies map planes into a host image.
template <class Real>
Image<double> to_image(const Real* plane, int width, int height) {
  Image<double> img(width, height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      img(y, x) = static_cast<double>(plane[static_cast<std::size_t>(y) * width + x]);
  return img;
}

}  // namespace

template <class Real>
PairSlot<Real>::PairSlot(int width, int height, const std::string& a5_variant,
                         const std::string& det_variant,
                         std::shared_ptr<const appearance::LogGaborBankCuda<Real>> bank)
    : width_(width), height_(height),
      pixels_(static_cast<std::size_t>(width) * height),
      stream_(),
      detection_(width, height, stream_.get(), det_variant),
      appearance_(bank ? appearance::AppearanceStageCuda<Real>(std::move(bank), a5_variant)
                       : appearance::AppearanceStageCuda<Real>(width, height, stream_.get(),
                                                               a5_variant)),
      host_u8_(2 * pixels_), host_f64_(2 * pixels_), dev_u8_(2 * pixels_),
      dev_f64_(2 * pixels_), dev_images_(2 * pixels_), dev_sums_(2), dev_maps_(2 * pixels_),
      host_sums_(2), host_maps_(2 * pixels_), done_(cudaEventDisableTiming) {}

template <class Real>
std::size_t PairSlot<Real>::device_bytes() const {
  return appearance_.device_memory().total() - appearance_.device_memory().bank +
         dev_u8_.bytes() + dev_f64_.bytes() + dev_images_.bytes() + dev_sums_.bytes() +
         dev_maps_.bytes();
}

template <class Real>
bool PairSlot<Real>::pack(ImageView<const double> src, std::uint8_t* u8, double* f64, bool as_u8,
                          bool compare) {
  bool changed = !compare;
  for (int y = 0; y < height_; ++y) {
    const double* row = src.row(y);
    const std::size_t base = static_cast<std::size_t>(y) * width_;
    if (as_u8) {
      for (int x = 0; x < width_; ++x) {
        const auto v = static_cast<std::uint8_t>(row[x]);
        changed |= u8[base + x] != v;
        u8[base + x] = v;
      }
    } else {
      if (compare && !changed)
        changed = std::memcmp(f64 + base, row, sizeof(double) * width_) != 0;
      std::memcpy(f64 + base, row, sizeof(double) * width_);
    }
  }
  return changed;
}

namespace {
// An image travels as uint8 when every value is an integer in 0..255 (8-bit files always are).
bool fits_uint8(ImageView<const double> img) {
  for (int y = 0; y < img.height; ++y) {
    const double* row = img.row(y);
    for (int x = 0; x < img.width; ++x) {
      const double v = row[x];
      if (!(v >= 0.0 && v <= 255.0) || v != std::floor(v)) return false;
    }
  }
  return true;
}
}  // namespace

template <class Real>
void PairSlot<Real>::submit(ImageView<const double> ref, ImageView<const double> dst,
                            bool uint8_luminance, bool want_maps) {
  if (busy_) throw Error("PairSlot::submit on a busy slot");
  if (ref.width != width_ || ref.height != height_ || dst.width != width_ ||
      dst.height != height_)
    throw InvalidArgument("PairSlot: image shape differs from the slot's");
  const bool ref_u8 = fits_uint8(ref);
  const bool dst_u8 = fits_uint8(dst);
  cudaStream_t s = stream_.get();

  // The reference side is reused only when the same pixels travel the same way and the
  // luminance rule is unchanged.
  const bool comparable = have_reference_ && reference_was_u8_ == ref_u8 &&
                          reference_uint8_luminance_ == uint8_luminance;
  const bool ref_changed = pack(ref, host_u8_.get(), host_f64_.get(), ref_u8, comparable);
  pack(dst, host_u8_.get() + pixels_, host_f64_.get() + pixels_, dst_u8, false);
  reused_reference_ = !ref_changed;

  Real* d_ref = dev_images_.get();
  Real* d_dst = dev_images_.get() + pixels_;
  auto upload = [&](std::size_t offset, bool as_u8, Real* target) {
    if (as_u8) {
      MAD_CUDA_CHECK(cudaMemcpyAsync(dev_u8_.get() + offset, host_u8_.get() + offset, pixels_,
                                     cudaMemcpyHostToDevice, s));
      widen(dev_u8_.get() + offset, target, pixels_, s);
    } else {
      MAD_CUDA_CHECK(cudaMemcpyAsync(dev_f64_.get() + offset, host_f64_.get() + offset,
                                     pixels_ * sizeof(double), cudaMemcpyHostToDevice, s));
      widen(dev_f64_.get() + offset, target, pixels_, s);
    }
  };
  if (ref_changed) upload(0, ref_u8, d_ref);
  upload(pixels_, dst_u8, d_dst);

  if (ref_changed) {
    detection_.prepare_reference(d_ref, uint8_luminance, s);
    appearance_.prepare_reference(d_ref, s);
    have_reference_ = true;
    reference_was_u8_ = ref_u8;
    reference_uint8_luminance_ = uint8_luminance;
  }
  Real* map_hi = want_maps ? dev_maps_.get() : nullptr;
  Real* map_lo = want_maps ? dev_maps_.get() + pixels_ : nullptr;
  detection_.run_distorted(d_ref, d_dst, uint8_luminance, dev_sums_.get(), map_hi, s);
  appearance_.run_distorted(d_dst, dev_sums_.get() + 1, map_lo, s);

  MAD_CUDA_CHECK(cudaMemcpyAsync(host_sums_.get(), dev_sums_.get(), 2 * sizeof(double),
                                 cudaMemcpyDeviceToHost, s));
  if (want_maps)
    MAD_CUDA_CHECK(cudaMemcpyAsync(host_maps_.get(), dev_maps_.get(), 2 * pixels_ * sizeof(Real),
                                   cudaMemcpyDeviceToHost, s));
  done_.record(s);
  busy_ = true;
  want_maps_ = want_maps;
}

template <class Real>
GpuStageOutputs PairSlot<Real>::collect() {
  if (!busy_) throw Error("PairSlot::collect without a submitted pair");
  busy_ = false;
  done_.synchronize();
  GpuStageOutputs out;
  out.d_detect = detection::d_detect_from_sum_sq(host_sums_.get()[0], width_, height_);
  out.d_appear = appearance_.d_appear_from_sum(host_sums_.get()[1]);
  if (want_maps_) {
    out.map_hi = to_image(host_maps_.get(), width_, height_);
    out.map_lo = to_image(host_maps_.get() + pixels_, width_, height_);
  }
  return out;
}

template class PairSlot<double>;
template class PairSlot<float>;

}  // namespace mad::gpu
