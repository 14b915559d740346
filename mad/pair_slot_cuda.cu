#include "mad/pair_slot_cuda.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "common/block_grid.h"
#include "common/cuda_check.h"
#include "common/kernel_launch.cuh"
#include "detection/detection.h"
#include "mad/device_gather_cuda.h"
#include "mad/device_image.h"

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
  cuda::launch_kernel(widen_kernel<Src, Real>, blocks, kThreads, 0, stream, src, dst, n);
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
    : width_(width),
      height_(height),
      pixels_(static_cast<std::size_t>(width) * height),
      stream_(),
      detection_(width, height, stream_.get(), det_variant, ScratchMode::Lent),
      appearance_(bank ? std::move(bank)
                       : std::make_shared<const appearance::LogGaborBankCuda<Real>>(width, height,
                                                                                    stream_.get()),
                  a5_variant, ScratchMode::Lent),
      host_u8_(2 * pixels_),
      dev_u8_(2 * pixels_),
      dev_images_(2 * pixels_),
      dev_sums_(2),
      host_sums_(2),
      done_(cudaEventDisableTiming),
      input_ready_(cudaEventDisableTiming),
      input_read_(cudaEventDisableTiming) {
  // One region of each kind serves both stages (see the header).
  scratch_ = cuda::DeviceBuffer<unsigned char>(
      std::max(detection_.transient_bytes(), appearance_.transient_bytes()));
  fft_work_ = cuda::DeviceBuffer<unsigned char>(std::max(
      {detection_.fft_work_bytes(), appearance_.fft_work_bytes(), cuda::StageScratch::kMinWork}));
  detection_.lend_scratch(scratch_.get(), fft_work_.get());
  appearance_.lend_scratch(scratch_.get(), fft_work_.get());
}
// The double staging (images of more than 8 bits) and the map buffers are allocated the first
// time they are needed: most pairs need neither, and they would double the slot's memory.

template <class Real>
std::size_t PairSlot<Real>::device_bytes() const {
  const auto appearance = appearance_.device_memory();
  return detection_.device_bytes() + appearance.total() - appearance.bank + scratch_.bytes() +
         fft_work_.bytes() + dev_u8_.bytes() + dev_f64_.bytes() + dev_images_.bytes() +
         dev_sums_.bytes() + dev_maps_.bytes();
}

namespace {
// Writes `img` into `u8` when every value is an integer in 0..255 (8-bit files always are);
// returns false (u8 partly written) otherwise. Casting and comparing back avoids floor(),
// which is a libm call on baseline x86-64.
bool narrow_to_u8(ImageView<const double> img, std::uint8_t* u8) {
  for (int y = 0; y < img.height; ++y) {
    const double* row = img.row(y);
    std::uint8_t* out = u8 + static_cast<std::size_t>(y) * img.width;
    for (int x = 0; x < img.width; ++x) {
      const double v = row[x];
      const auto b = static_cast<std::uint8_t>(v >= 0.0 && v <= 255.0 ? v : 0.0);
      if (static_cast<double>(b) != v) return false;
      out[x] = b;
    }
  }
  return true;
}
}  // namespace

template <class Real>
bool PairSlot<Real>::pack(const CudaInput& src, int role, bool compare, bool& as_u8) {
  std::uint8_t* u8 = host_u8_.get() + role * pixels_;
  // Compare before overwriting: the staging still holds the previous image of this role.
  if (src.gray8) {
    as_u8 = true;
    const bool changed = !compare || std::memcmp(u8, src.gray8, pixels_) != 0;
    if (changed) std::memcpy(u8, src.gray8, pixels_);
    return changed;
  }
  if (compare) {
    // No uint8 plane given: narrow into a scratch copy first so the comparison stays possible.
    narrow_scratch_.resize(pixels_);
    if (narrow_to_u8(src.pixels, narrow_scratch_.data())) {
      as_u8 = true;
      const bool changed = std::memcmp(u8, narrow_scratch_.data(), pixels_) != 0;
      if (changed) std::memcpy(u8, narrow_scratch_.data(), pixels_);
      return changed;
    }
  } else if (narrow_to_u8(src.pixels, u8)) {
    as_u8 = true;
    return true;
  }
  as_u8 = false;
  if (host_f64_.size() == 0) {
    host_f64_ = cuda::PinnedBuffer<double>(2 * pixels_);
    dev_f64_ = cuda::DeviceBuffer<double>(2 * pixels_);
  }
  double* f64 = host_f64_.get() + role * pixels_;
  bool changed = !compare;
  for (int y = 0; y < height_; ++y) {
    const double* row = src.pixels.row(y);
    double* out = f64 + static_cast<std::size_t>(y) * width_;
    if (!changed) changed = std::memcmp(out, row, sizeof(double) * width_) != 0;
    std::memcpy(out, row, sizeof(double) * width_);
  }
  return changed;
}

template <class Real>
void PairSlot<Real>::submit(const CudaInput& ref_in, const CudaInput& dst_in, bool uint8_luminance,
                            bool want_maps) {
  if (busy_) throw Error("PairSlot::submit on a busy slot");
  if (ref_in.width() != width_ || ref_in.height() != height_ || dst_in.width() != width_ ||
      dst_in.height() != height_)
    throw InvalidArgument("PairSlot: image shape differs from the slot's");
  cudaStream_t s = stream_.get();

  // The reference side is reused only when the same pixels travel the same way and the
  // luminance rule is unchanged. A device reference is never compared (that would cost a
  // pass over both images); it is always prepared anew.
  bool ref_u8 = false, dst_u8 = false;
  const bool comparable =
      have_reference_ && reference_uint8_luminance_ == uint8_luminance && !ref_in.device;
  bool ref_changed = ref_in.device || pack(ref_in, 0, comparable, ref_u8);
  if (comparable && ref_u8 != reference_was_u8_) ref_changed = true;
  if (!dst_in.device) pack(dst_in, 1, false, dst_u8);
  reused_reference_ = !ref_changed;

  // Device images: work the caller queued on its streams comes before our gather.
  auto caller_stream = [](const CudaInput& in) {
    return reinterpret_cast<cudaStream_t>(in.device->stream);
  };
  const bool any_device = (ref_changed && ref_in.device) || dst_in.device;
  for (const CudaInput* in : {&ref_in, &dst_in})
    if (in->device && (in == &dst_in || ref_changed)) {
      input_ready_.record(caller_stream(*in));
      MAD_CUDA_CHECK(cudaStreamWaitEvent(s, input_ready_.get(), 0));
    }

  Real* d_ref = dev_images_.get();
  Real* d_dst = dev_images_.get() + pixels_;
  auto upload = [&](const CudaInput& in, std::size_t offset, bool as_u8, Real* target) {
    if (in.device) {
      gather_device_image(*in.device, target, s);
    } else if (as_u8) {
      MAD_CUDA_CHECK(cudaMemcpyAsync(dev_u8_.get() + offset, host_u8_.get() + offset, pixels_,
                                     cudaMemcpyHostToDevice, s));
      add_gpu_transfer(pixels_, 0);
      widen(dev_u8_.get() + offset, target, pixels_, s);
    } else {
      MAD_CUDA_CHECK(cudaMemcpyAsync(dev_f64_.get() + offset, host_f64_.get() + offset,
                                     pixels_ * sizeof(double), cudaMemcpyHostToDevice, s));
      add_gpu_transfer(pixels_ * sizeof(double), 0);
      widen(dev_f64_.get() + offset, target, pixels_, s);
    }
  };
  if (ref_changed) upload(ref_in, 0, ref_u8, d_ref);
  upload(dst_in, pixels_, dst_u8, d_dst);

  // ... and the caller's streams wait for the gather before touching the images again.
  if (any_device) {
    input_read_.record(s);
    for (const CudaInput* in : {&ref_in, &dst_in})
      if (in->device) MAD_CUDA_CHECK(cudaStreamWaitEvent(caller_stream(*in), input_read_.get(), 0));
  }

  if (ref_changed) {
    detection_.prepare_reference(d_ref, uint8_luminance, s);
    appearance_.prepare_reference(d_ref, s);
    // The staging holds the reference only when it came from the host.
    have_reference_ = !ref_in.device;
    reference_was_u8_ = ref_u8;
    reference_uint8_luminance_ = uint8_luminance;
  }
  if (want_maps && dev_maps_.size() == 0) {
    dev_maps_ = cuda::DeviceBuffer<Real>(2 * pixels_);
    host_maps_ = cuda::PinnedBuffer<Real>(2 * pixels_);
  }
  Real* map_hi = want_maps ? dev_maps_.get() : nullptr;
  Real* map_lo = want_maps ? dev_maps_.get() + pixels_ : nullptr;
  detection_.run_distorted(d_ref, d_dst, uint8_luminance, dev_sums_.get(), map_hi, s);
  appearance_.run_distorted(d_dst, dev_sums_.get() + 1, map_lo, s);

  MAD_CUDA_CHECK(cudaMemcpyAsync(host_sums_.get(), dev_sums_.get(), 2 * sizeof(double),
                                 cudaMemcpyDeviceToHost, s));
  add_gpu_transfer(0, 2 * sizeof(double));
  if (want_maps) {
    MAD_CUDA_CHECK(cudaMemcpyAsync(host_maps_.get(), dev_maps_.get(), 2 * pixels_ * sizeof(Real),
                                   cudaMemcpyDeviceToHost, s));
    add_gpu_transfer(0, 2 * pixels_ * sizeof(Real));
  }
  done_.record(s);
  busy_ = true;
  want_maps_ = want_maps;
}

template <class Real>
StageOutputs PairSlot<Real>::collect() {
  if (!busy_) throw Error("PairSlot::collect without a submitted pair");
  busy_ = false;
  done_.synchronize();
  StageOutputs out;
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
