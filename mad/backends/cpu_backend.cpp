// The CPU backend behind the scoring seam (mad/backends/pair_backend.h): the reference implementation of
// both stages, one pair at a time, computed as it is submitted (each stage spreads itself over
// every core). Like a GPU slot, it keeps its work space (planes, spectra, FFT copies, per-thread
// scratch) across pairs of one shape, up to a size (common/workspace_cpu.h says why). Also pair_input(), the
// seam's CUDA-free helper.
#include <deque>
#include <optional>
#include <utility>

#include "appearance/appearance.h"
#include "appearance/appearance_workspace_cpu.h"
#include "common/error.h"
#include "common/parallel.h"
#include "common/workspace_cpu.h"
#include "detection/detection.h"
#include "detection/detection_workspace_cpu.h"
#include "mad/backends/memory_check.h"
#include "mad/backends/pair_backend.h"

namespace mad {
namespace {

class CpuBackend final : public PairBackend {
 public:
  explicit CpuBackend(const ScoreOptions& options) { (void)options; }

  Backend kind() const override { return Backend::Cpu; }
  const std::string& a5_variant() const override { return no_variant_; }
  int capacity(int, int) override { return 1; }
  bool can_submit(int, int) override { return !done_.has_value(); }
  std::uint64_t submit(const PairInput& ref, const PairInput& dst, bool uint8_luminance,
                       bool want_maps) override {
    if (done_) throw InternalError("CpuBackend::submit: collect the previous pair first");
    if (ref.device || dst.device)
      throw GpuError(
          "GPU arrays need the CUDA backend (this scorer uses the CPU backend); copy them to "
          "the host or choose the CUDA backend");
    const int width = ref.width(), height = ref.height();
    // Refuse up front, stating the need, rather than fail in the middle of an allocation.
    require_cpu_memory(width, height, thread_count(), want_maps, host_available_memory_bytes());
    GrayImage ref_gray, dst_gray;  // host conversions of colour inputs
    const ImageView<const double> r = plane(ref, ref_gray), d = plane(dst, dst_gray);
    // A pair too large to keep the workspaces frees each stage's before the next stage (or
    // pair) starts, so the stages' buffers follow each other instead of adding up.
    const bool keep = keep_workspace(width, height);
    auto det = detection::detect_cpu(r, d, uint8_luminance, want_maps, detection_workspace_);
    if (!keep) detection_workspace_.release();
    auto app = appearance::appear_cpu(r, d, want_maps, appearance_workspace_);
    if (!keep) appearance_workspace_.release();
    StageOutputs out;
    out.d_detect = det.d_detect;
    out.d_appear = app.d_appear;
    out.map_hi = std::move(det.map);
    out.map_lo = std::move(app.map);
    done_.emplace(next_ticket_, std::move(out));
    return next_ticket_++;
  }
  StageOutputs collect(std::uint64_t ticket) override {
    if (!done_ || done_->first != ticket)
      throw InternalError("CpuBackend::collect: not the submitted ticket");
    StageOutputs out = std::move(done_->second);
    done_.reset();
    return out;
  }
  std::size_t in_flight() const override { return done_ ? 1 : 0; }
  bool last_reused_reference() const override { return false; }
  std::size_t device_bytes() const override { return 0; }

 private:
  // The gray plane of an input: its own, the host conversion of its colour samples (the
  // MATLAB weighting that load_gray_image applies, bit-identical to the GPU's gray kernel), or
  // its uint8 plane widened (the values load_gray_image would have put beside it).
  static ImageView<const double> plane(const PairInput& in, GrayImage& converted) {
    if (in.is_gray8_only()) {
      converted.pixels = widen_gray8(in.gray8, in.width(), in.height());
      return converted.pixels.cview();
    }
    if (!in.colour) return in.pixels;
    converted = gray_from_samples(in.colour->width, in.colour->height, in.colour->channels,
                                  in.colour->samples, "image");
    return converted.pixels.cview();
  }

  std::string no_variant_;
  // The stages' work space, kept across pairs for the last shape scored.
  detection::DetectionWorkspaceCpu detection_workspace_;
  appearance::AppearanceWorkspaceCpu appearance_workspace_;
  std::optional<std::pair<std::uint64_t, StageOutputs>> done_;
  std::uint64_t next_ticket_ = 1;
};

}  // namespace

std::unique_ptr<PairBackend> make_cpu_backend(const ScoreOptions& options) {
  return std::make_unique<CpuBackend>(options);
}

PairInput pair_input(const GrayImage& image) {
  PairInput in;
  in.pixels = image.pixels.cview();
  if (image.gray8.size() == image.pixels.pixel_count()) in.gray8 = image.gray8.data();
  return in;
}

PairInput pair_input(const SourceImage& image) {
  if (image.gray8_only())
    return PairInput::gray8_only(image.gray.gray8.data(), image.gray8_width, image.gray8_height);
  if (!image.has_colour()) return pair_input(image.gray);
  PairInput in(&image.colour);
  in.pinned_colour = image.pinned_colour.get();
  return in;
}

}  // namespace mad
