// One in-flight MAD pair on the GPU: the detection and appearance stages for one shape and
// precision, their upload staging, and the read-back of the two pooled sums (and the maps).
//
// submit() packs the images into pinned staging, uploads them once (8-bit images travel as
// uint8, a quarter of the bytes of double, and widen on the device), runs both stages on the
// slot's stream and queues the read-back; collect() waits for that stream and returns the
// indices. Nothing is allocated after construction. When the reference has the same pixels as
// the slot's previous one, its side of both stages is reused (spec §11, "dataset trick").
//
// Memory: both stages run one after the other on the slot's stream and keep nothing in their
// transient scratch or cuFFT work areas between calls, so the slot lends them one region of
// each, sized for the larger stage (common/stage_scratch.h): detection's planes live where the
// appearance stage's subbands are while it is idle, and all four cuFFT plans share one work
// area. What each stage keeps for the reference stays its own.
//
// Images may also come from device memory (PairInput::device): they are gathered on the device,
// ordered against the caller's stream with events, and never pass through the host; the stages
// then replay graphs captured for gathered images.
//
// CUDA-only header.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "appearance/appearance_stage_cuda.h"
#include "common/cuda_resources.h"
#include "common/image.h"
#include "detection/detection_stage_cuda.h"
#include "mad/backends/pair_backend.h"

namespace mad::gpu {

template <class Real>
class PairSlot {
 public:
  // Builds the stages on the slot's own stream. `bank`: a complete log-Gabor bank of this
  // shape to share (null: this slot builds its own; call synchronize() before sharing it).
  // The variants come as the rows the front door picked (mad/variants.h): nothing is looked up.
  PairSlot(int width, int height, const appearance::A5Row& a5,
           const detection::BlockStatsRow& det,
           std::shared_ptr<const appearance::LogGaborBankCuda<Real>> bank,
           std::optional<appearance::SubbandTransform> subband_transform = std::nullopt);
  void synchronize() const { stream_.synchronize(); }

  int width() const { return width_; }
  int height() const { return height_; }
  const char* a5_variant() const { return appearance_.a5_variant(); }
  const std::shared_ptr<const appearance::LogGaborBankCuda<Real>>& bank() const {
    return appearance_.bank();
  }
  bool busy() const { return busy_; }
  // Device bytes owned by this slot: both stages, the shared scratch and cuFFT work area, the
  // staging (the shared log-Gabor bank excluded).
  std::size_t device_bytes() const;

  // Enqueues one pair. The slot must not be busy. Host views are read before returning.
  void submit(const PairInput& ref, const PairInput& dst, bool uint8_luminance, bool want_maps);
  // Waits for the submitted pair and returns its indices (and maps when asked).
  StageOutputs collect();
  // True when the last submit reused the reference side.
  bool reused_reference() const { return reused_reference_; }

 private:
  // How an image travels: as double, as a uint8 gray plane, or as 3- or 4-channel colour
  // samples that the gray kernel turns into the uint8 plane on the device.
  enum class Form { F64, Gray8, Rgb3, Rgb4 };
  // submit()'s work: packs, uploads and enqueues both stages and the read-back.
  void enqueue(const PairInput& ref, const PairInput& dst, bool uint8_luminance, bool want_maps);
  // Packs `src` into staging (colour samples as they are, uint8 when it is 8-bit gray, else
  // double); returns true when it differs from what staging held (or `compare` is false).
  // Sets `form`. role: 0 reference, 1 distorted (their halves of the staging). A distorted
  // image with a page-locked copy of its colour samples (PairInput::pinned_colour) is not
  // staged: the device copies from that copy.
  bool pack(const PairInput& src, int role, bool compare, Form& form);
  // Enqueues the copy of a packed host image to the device; returns its bytes.
  std::size_t copy_in(int role, Form form, cudaStream_t stream);
  // Enqueues the conversion of a copied image to the stage precision into `target` (the gray
  // kernel first for colour).
  void widen_in(int role, Form form, Real* target, cudaStream_t stream);
  // copy_in then widen_in; returns the bytes copied.
  std::size_t upload(int role, Form form, Real* target, cudaStream_t stream);
  // Enqueues `enqueue` (which returns the bytes it uploads) on the slot's stream: the first time
  // for a key through a captured graph that later calls replay (the sequences differ only by
  // their key's form and luminance rule; every address is the slot's own), or directly when
  // graphs cannot be used. Replaying saves the host the cost of ~40 kernel and cuFFT launches
  // a side, which limited dataset runs (issue 12, goal 4).
  template <class Enqueue>
  void enqueue_side(cuda::GraphExec& graph, std::size_t& graph_bytes, bool use_graph,
                    Enqueue&& enqueue);

  int width_, height_;
  std::size_t pixels_;
  cuda::Stream stream_;
  cuda::DeviceBuffer<unsigned char> scratch_;   // both stages' transient scratch (lent)
  cuda::DeviceBuffer<unsigned char> fft_work_;  // the work area of all four cuFFT plans (lent)
  detection::DetectionStageCuda<Real> detection_;
  appearance::AppearanceStageCuda<Real> appearance_;
  cuda::PinnedBuffer<std::uint8_t> host_u8_;  // ref | dst as uint8
  cuda::PinnedBuffer<double> host_f64_;       // ref | dst as double (non-8-bit input)
  cuda::DeviceBuffer<std::uint8_t> dev_u8_;
  cuda::PinnedBuffer<std::uint8_t> host_rgb_;  // ref | dst colour samples, 4 bytes a pixel each
  cuda::DeviceBuffer<std::uint8_t> dev_rgb_;   // (both allocated at the first colour image)
  const std::uint8_t* dst_pinned_ = nullptr;   // the distorted image's page-locked samples
  cuda::DeviceBuffer<double> dev_f64_;
  cuda::DeviceBuffer<Real> dev_images_;  // ref | dst widened to Real
  cuda::DeviceBuffer<double> dev_sums_;  // [sum eta_hi^2, sum eta_lo^2]
  cuda::DeviceBuffer<Real> dev_maps_;    // map.HI | map.LO
  cuda::PinnedBuffer<double> host_sums_;
  cuda::PinnedBuffer<Real> host_maps_;
  cuda::Event done_;
  cuda::Event input_ready_;  // device inputs: the caller's stream, before our gather
  cuda::Event input_read_;   // device inputs: our gather, before the caller's stream goes on
  bool busy_ = false;
  bool want_maps_ = false;
  bool have_reference_ = false;
  Form reference_form_ = Form::F64;
  std::shared_ptr<const void> reference_identity_;  // PairInput::identity of the staged reference
  // Captured sequences, by form x 2 + uint8 luminance: the reference side (upload, widen,
  // prepare_reference of both stages, with the bytes it uploads) and the distorted side
  // (widen, both stages' run_distorted, the read-back of the sums). The distorted image's
  // copy to the device stays outside its graph: its source may be the caller's memory.
  static constexpr int kGraphKeys = 8;
  cuda::GraphExec reference_graphs_[kGraphKeys], distorted_graphs_[kGraphKeys];
  std::size_t reference_graph_bytes_[kGraphKeys] = {}, distorted_graph_bytes_[kGraphKeys] = {};
  // Device images (PairInput::device) are gathered outside any graph (their address changes
  // from call to call); what follows the gather is captured by uint8 luminance: the reference
  // side's prepare_reference of both stages, and the distorted side's run_distorted with the
  // read-back of the sums. They upload nothing (gathered_graph_bytes_ stays 0).
  cuda::GraphExec gathered_reference_graphs_[2], gathered_distorted_graphs_[2];
  std::size_t gathered_graph_bytes_ = 0;
  bool graphs_refused_ = false;  // a capture failed: this slot enqueues directly
  bool reference_uint8_luminance_ = false;
  bool reused_reference_ = false;
  std::vector<std::uint8_t> narrow_scratch_;  // see pack()
};

extern template class PairSlot<double>;
extern template class PairSlot<float>;

}  // namespace mad::gpu
