#include "mad/backends/pair_slot_cuda.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>

#include "common/block_grid.h"
#include "common/cuda_check.h"
#include "common/error.h"
#include "common/kernel_launch.cuh"
#include "detection/detection.h"
#include "kernels/gray.h"
#include "mad/backends/device_gather_cuda.h"
#include "mad/device_image.h"

namespace mad {
namespace {
// The transfer counters of mad/device_image.h, kept beside the copies they count.
std::atomic<std::uint64_t> h2d_total{0}, d2h_total{0};
}  // namespace

void add_gpu_transfer(std::uint64_t h2d_bytes, std::uint64_t d2h_bytes) {
  h2d_total += h2d_bytes;
  d2h_total += d2h_bytes;
}

TransferCounters gpu_transfer_counters() {
  return {h2d_total.load(), d2h_total.load()};
}

}  // namespace mad

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
PairSlot<Real>::PairSlot(int width, int height, const appearance::A5Row& a5,
                         const detection::BlockStatsRow& det,
                         std::shared_ptr<const appearance::LogGaborBankCuda<Real>> bank,
                         std::optional<appearance::SubbandTransform> subband_transform)
    : width_(width),
      height_(height),
      pixels_(static_cast<std::size_t>(width) * height),
      stream_(),
      detection_(width, height, stream_.get(), det, ScratchMode::Lent),
      appearance_(bank ? std::move(bank)
                       : std::make_shared<const appearance::LogGaborBankCuda<Real>>(width, height,
                                                                                    stream_.get()),
                  a5, ScratchMode::Lent, subband_transform),
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
         fft_work_.bytes() + dev_u8_.bytes() + dev_rgb_.bytes() + dev_f64_.bytes() +
         dev_images_.bytes() + dev_sums_.bytes() + dev_maps_.bytes();
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
bool PairSlot<Real>::pack(const PairInput& src, int role, bool compare, Form& form) {
  std::uint8_t* u8 = host_u8_.get() + role * pixels_;
  // Compare before overwriting: the staging still holds the previous image of this role.
  if (role == 1) dst_pinned_ = nullptr;
  if (src.colour) {
    const RawImage8& c = *src.colour;
    if (c.channels != 3 && c.channels != 4) throw InputError("colour images need 3 or 4 channels");
    if (host_rgb_.size() == 0) {
      host_rgb_ = cuda::PinnedBuffer<std::uint8_t>(2 * 4 * pixels_);
      dev_rgb_ = cuda::DeviceBuffer<std::uint8_t>(2 * 4 * pixels_);
    }
    form = c.channels == 3 ? Form::Rgb3 : Form::Rgb4;
    if (role == 1 && src.pinned_colour) {
      dst_pinned_ = src.pinned_colour;  // copied to the device from there, by copy_in
      return true;
    }
    std::uint8_t* rgb = host_rgb_.get() + role * 4 * pixels_;
    const std::size_t bytes = pixels_ * static_cast<std::size_t>(c.channels);
    const bool changed = !compare || std::memcmp(rgb, c.samples.data(), bytes) != 0;
    if (changed) std::memcpy(rgb, c.samples.data(), bytes);
    return changed;
  }
  if (src.gray8) {
    form = Form::Gray8;
    const bool changed = !compare || std::memcmp(u8, src.gray8, pixels_) != 0;
    if (changed) std::memcpy(u8, src.gray8, pixels_);
    return changed;
  }
  if (compare) {
    // No uint8 plane given: narrow into a scratch copy first so the comparison stays possible.
    narrow_scratch_.resize(pixels_);
    if (narrow_to_u8(src.pixels, narrow_scratch_.data())) {
      form = Form::Gray8;
      const bool changed = std::memcmp(u8, narrow_scratch_.data(), pixels_) != 0;
      if (changed) std::memcpy(u8, narrow_scratch_.data(), pixels_);
      return changed;
    }
  } else if (narrow_to_u8(src.pixels, u8)) {
    form = Form::Gray8;
    return true;
  }
  form = Form::F64;
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
std::size_t PairSlot<Real>::copy_in(int role, Form form, cudaStream_t s) {
  const std::size_t offset = role * pixels_;
  if (form == Form::F64) {
    MAD_CUDA_CHECK(cudaMemcpyAsync(dev_f64_.get() + offset, host_f64_.get() + offset,
                                   pixels_ * sizeof(double), cudaMemcpyHostToDevice, s));
    return pixels_ * sizeof(double);
  }
  if (form == Form::Gray8) {
    MAD_CUDA_CHECK(cudaMemcpyAsync(dev_u8_.get() + offset, host_u8_.get() + offset, pixels_,
                                   cudaMemcpyHostToDevice, s));
    return pixels_;
  }
  const std::size_t bytes = pixels_ * (form == Form::Rgb3 ? 3 : 4);
  const std::uint8_t* host =
      role == 1 && dst_pinned_ ? dst_pinned_ : host_rgb_.get() + role * 4 * pixels_;
  MAD_CUDA_CHECK(
      cudaMemcpyAsync(dev_rgb_.get() + role * 4 * pixels_, host, bytes, cudaMemcpyHostToDevice, s));
  return bytes;
}

template <class Real>
void PairSlot<Real>::widen_in(int role, Form form, Real* target, cudaStream_t s) {
  const std::size_t offset = role * pixels_;
  if (form == Form::F64) {
    widen(dev_f64_.get() + offset, target, pixels_, s);
    return;
  }
  if (form != Form::Gray8) {
    // Colour: the samples travel once and the registry's default gray kernel (MATLAB weighting,
    // exact fixed point: bit-identical to the host's rgb2gray) writes the uint8 plane.
    const int channels = form == Form::Rgb3 ? 3 : 4;
    const kernels::RgbView8 view =
        kernels::interleaved_rgb(ImageView<const std::uint8_t>(dev_rgb_.get() + role * 4 * pixels_,
                                                               width_ * channels, height_),
                                 channels);
    kernels::gray_variants().default_row().launch(
        view, kernels::GrayWeighting::Matlab,
        ImageView<std::uint8_t>(dev_u8_.get() + offset, width_, height_), s);
  }
  widen(dev_u8_.get() + offset, target, pixels_, s);
}

template <class Real>
std::size_t PairSlot<Real>::upload(int role, Form form, Real* target, cudaStream_t s) {
  const std::size_t bytes = copy_in(role, form, s);
  widen_in(role, form, target, s);
  return bytes;
}

template <class Real>
template <class Enqueue>
void PairSlot<Real>::enqueue_side(cuda::GraphExec& graph, std::size_t& graph_bytes, bool use_graph,
                                  Enqueue&& enqueue) {
  cudaStream_t s = stream_.get();
  if (use_graph && !graphs_refused_ && graph.empty()) {
    try {
      graph = cuda::GraphExec::capture(s, [&] { graph_bytes = enqueue(); });
    } catch (const GpuError&) {
      // Something in the sequence cannot be captured (e.g. a registered variant that allocates
      // while it runs): clear the error and run this slot without graphs from now on.
      cudaGetLastError();
      graphs_refused_ = true;
    }
  }
  if (use_graph && !graph.empty() && !graphs_refused_) {
    graph.launch(s);
    add_gpu_transfer(graph_bytes, 0);
  } else {
    add_gpu_transfer(enqueue(), 0);
  }
}

template <class Real>
void PairSlot<Real>::submit(const PairInput& ref_in, const PairInput& dst_in, bool uint8_luminance,
                            bool want_maps) {
  if (busy_) throw InternalError("PairSlot::submit on a busy slot");
  if (ref_in.width() != width_ || ref_in.height() != height_ || dst_in.width() != width_ ||
      dst_in.height() != height_)
    throw InternalError("PairSlot: image shape differs from the slot's");
  try {
    enqueue(ref_in, dst_in, uint8_luminance, want_maps);
  } catch (...) {
    // The staging may hold part of a new image: nothing staged may be taken as a known
    // reference by a later pair (it would reuse a side computed from other pixels).
    have_reference_ = false;
    reference_identity_.reset();
    throw;
  }
  busy_ = true;
  want_maps_ = want_maps;
}

template <class Real>
void PairSlot<Real>::enqueue(const PairInput& ref_in, const PairInput& dst_in, bool uint8_luminance,
                             bool want_maps) {
  cudaStream_t s = stream_.get();

  // The reference side is reused only when the same pixels travel the same way and the
  // luminance rule is unchanged. A device reference is never compared (that would cost a
  // pass over both images); it is always prepared anew.
  Form ref_form = Form::F64, dst_form = Form::F64;
  const bool comparable =
      have_reference_ && reference_uint8_luminance_ == uint8_luminance && !ref_in.device;
  // The same immutable object as the staged reference: unchanged, without a pass over it.
  const bool same_object = comparable && ref_in.identity && ref_in.identity == reference_identity_;
  if (same_object) ref_form = reference_form_;
  bool ref_changed = !same_object && (ref_in.device || pack(ref_in, 0, comparable, ref_form));
  // The staging of another form holds other bytes: equal bytes prove nothing then.
  if (comparable && ref_form != reference_form_) ref_changed = true;
  if (!dst_in.device) pack(dst_in, 1, false, dst_form);
  reused_reference_ = !ref_changed;
  // The staging now holds this reference's bytes (copied, or found equal). Recorded here, as
  // pack() has just overwritten the staging; submit() forgets it again if anything below throws.
  reference_identity_ = ref_in.device ? nullptr : ref_in.identity;

  // Device images: work the caller queued on its streams comes before our gather.
  auto caller_stream = [](const PairInput& in) {
    return reinterpret_cast<cudaStream_t>(in.device->stream);
  };
  // The callers' streams, once each: mad.torch's batches give both images of every pair on
  // one stream, and each event record and wait is a host call of its own. (A device reference
  // is always read: it is never taken as unchanged, see above.)
  cudaStream_t callers[2] = {};
  int caller_count = 0;
  for (const PairInput* in : {&ref_in, &dst_in})
    if (in->device && (caller_count == 0 || callers[0] != caller_stream(*in)))
      callers[caller_count++] = caller_stream(*in);
  const bool any_device = caller_count > 0;
  for (int i = 0; i < caller_count; ++i) {
    input_ready_.record(callers[i]);
    MAD_CUDA_CHECK(cudaStreamWaitEvent(s, input_ready_.get(), 0));
  }

  Real* d_ref = dev_images_.get();
  Real* d_dst = dev_images_.get() + pixels_;
  if (want_maps && dev_maps_.size() == 0) {
    dev_maps_ = cuda::DeviceBuffer<Real>(2 * pixels_);
    host_maps_ = cuda::PinnedBuffer<Real>(2 * pixels_);
  }
  auto prepare_reference = [&] {
    detection_.prepare_reference(d_ref, uint8_luminance, s);
    appearance_.prepare_reference(d_ref, s);
  };
  auto run_distorted = [&] {
    Real* map_hi = want_maps ? dev_maps_.get() : nullptr;
    Real* map_lo = want_maps ? dev_maps_.get() + pixels_ : nullptr;
    detection_.run_distorted(d_ref, d_dst, uint8_luminance, dev_sums_.get(), map_hi, s);
    appearance_.run_distorted(d_dst, dev_sums_.get() + 1, map_lo, s);
    MAD_CUDA_CHECK(cudaMemcpyAsync(host_sums_.get(), dev_sums_.get(), 2 * sizeof(double),
                                   cudaMemcpyDeviceToHost, s));
    if (want_maps)
      MAD_CUDA_CHECK(cudaMemcpyAsync(host_maps_.get(), dev_maps_.get(), 2 * pixels_ * sizeof(Real),
                                     cudaMemcpyDeviceToHost, s));
  };

  const int luminance = uint8_luminance ? 1 : 0;
  if (any_device) {
    // Device images are gathered from the caller's memory, whose address differs from call to
    // call, so the gather is enqueued directly; it writes the slot's own planes, and what
    // follows it reads only the slot's memory, so that part replays captured graphs as host
    // pairs do. Without them each side's ~40 launches were made one by one, which held
    // mad.torch.mad to 0.5-0.75x of the C++ batch's rate (issue 26, item 3).
    if (ref_in.device) gather_device_image(*ref_in.device, d_ref, s);
    if (dst_in.device) gather_device_image(*dst_in.device, d_dst, s);
    // ... and the caller's streams wait for the gather before touching the images again.
    input_read_.record(s);
    for (int i = 0; i < caller_count; ++i)
      MAD_CUDA_CHECK(cudaStreamWaitEvent(callers[i], input_read_.get(), 0));
  }
  if (ref_changed) {
    if (ref_in.device) {
      enqueue_side(gathered_reference_graphs_[luminance], gathered_graph_bytes_,
                   cuda::kGraphsAllowed, [&] {
                     prepare_reference();
                     return std::size_t{0};
                   });
    } else {
      const int key = static_cast<int>(ref_form) * 2 + luminance;
      enqueue_side(reference_graphs_[key], reference_graph_bytes_[key], cuda::kGraphsAllowed, [&] {
        const std::size_t bytes = upload(0, ref_form, d_ref, s);
        prepare_reference();
        return bytes;
      });
    }
  }
  // The maps are rare (one pair at a time, --maps): their read-back stays out of the graphs.
  if (dst_in.device) {
    enqueue_side(gathered_distorted_graphs_[luminance], gathered_graph_bytes_,
                 cuda::kGraphsAllowed && !want_maps, [&] {
                   run_distorted();
                   return std::size_t{0};
                 });
  } else {
    const int key = static_cast<int>(dst_form) * 2 + luminance;
    add_gpu_transfer(copy_in(1, dst_form, s), 0);
    enqueue_side(distorted_graphs_[key], distorted_graph_bytes_[key],
                 cuda::kGraphsAllowed && !want_maps, [&] {
                   widen_in(1, dst_form, d_dst, s);
                   run_distorted();
                   return std::size_t{0};
                 });
  }
  add_gpu_transfer(0, 2 * sizeof(double) + (want_maps ? 2 * pixels_ * sizeof(Real) : 0));
  if (ref_changed) {
    // The staging holds the reference only when it came from the host.
    have_reference_ = !ref_in.device;
    reference_form_ = ref_form;
    reference_uint8_luminance_ = uint8_luminance;
  }
  done_.record(s);
}

template <class Real>
StageOutputs PairSlot<Real>::collect() {
  if (!busy_) throw InternalError("PairSlot::collect without a submitted pair");
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
