// GpuScorer: per-shape pair slots (two per shape, one stream each) behind the CUDA-free API of
// mad/gpu_scorer.h.
#include <deque>
#include <map>
#include <utility>

#include "appearance/a5_variants.h"
#include "common/error.h"
#include "detection/detection_gpu.h"
#include "mad/gpu_pipeline_cuda.h"
#include "mad/gpu_scorer.h"
#include "mad/memory_check.h"

namespace mad {

namespace {

// Two slots per shape: while one pair computes, the next one's upload runs on the other stream.
constexpr int kSlotsPerShape = 2;
// Shapes kept alive at once (datasets of mixed sizes); the least recently used idle one goes.
constexpr std::size_t kMaxShapes = 3;

class SlotBase {
 public:
  virtual ~SlotBase() = default;
  virtual void submit(const GpuInput& ref, const GpuInput& dst, bool u8, bool maps) = 0;
  virtual GpuStageOutputs collect() = 0;
  virtual bool busy() const = 0;
  virtual bool reused_reference() const = 0;
  virtual std::size_t device_bytes() const = 0;
  virtual std::size_t bank_bytes() const = 0;
  virtual std::string a5_variant() const = 0;
};

template <class Real>
class Slot final : public SlotBase {
 public:
  Slot(int w, int h, const std::string& variant, const std::string& det_variant,
       std::shared_ptr<const appearance::LogGaborBankCuda<Real>> bank)
      : slot_(w, h, variant, det_variant, std::move(bank)) {
    slot_.synchronize();  // the bank and the CSF are complete before anyone shares them
  }
  void submit(const GpuInput& r, const GpuInput& d, bool u8, bool maps) override {
    slot_.submit(r, d, u8, maps);
  }
  GpuStageOutputs collect() override { return slot_.collect(); }
  bool busy() const override { return slot_.busy(); }
  bool reused_reference() const override { return slot_.reused_reference(); }
  std::size_t device_bytes() const override { return slot_.device_bytes(); }
  std::size_t bank_bytes() const override { return slot_.bank()->device_bytes(); }
  std::string a5_variant() const override { return slot_.a5_variant(); }
  std::shared_ptr<const appearance::LogGaborBankCuda<Real>> bank() const { return slot_.bank(); }

 private:
  gpu::PairSlot<Real> slot_;
};

struct ShapeSlots {
  std::vector<std::unique_ptr<SlotBase>> slots;
  int capacity = 0;  // slots this shape may have (memory plan), 0 until planned
  int next = 0;
  std::uint64_t last_use = 0;
  bool any_busy() const {
    for (auto& s : slots)
      if (s->busy()) return true;
    return false;
  }
};

}  // namespace

struct GpuScorer::Impl {
  Precision precision;
  std::string a5_requested;
  std::string det_requested;
  std::size_t memory_limit = 0;
  std::string a5_name;
  std::map<std::pair<int, int>, ShapeSlots> shapes;
  std::deque<std::pair<std::uint64_t, SlotBase*>> outstanding;
  std::uint64_t next_ticket = 1;
  std::uint64_t clock = 0;
  bool last_reused = false;
  std::size_t peak_bytes = 0;

  template <class Real>
  std::unique_ptr<SlotBase> make_slot(int w, int h, const ShapeSlots& existing) {
    std::shared_ptr<const appearance::LogGaborBankCuda<Real>> bank;
    if (!existing.slots.empty())
      bank = static_cast<const Slot<Real>*>(existing.slots.front().get())->bank();
    return std::make_unique<Slot<Real>>(w, h, a5_requested, det_requested, std::move(bank));
  }

  void evict_if_needed() {
    while (shapes.size() > kMaxShapes) {
      auto victim = shapes.end();
      for (auto it = shapes.begin(); it != shapes.end(); ++it)
        if (!it->second.any_busy() &&
            (victim == shapes.end() || it->second.last_use < victim->second.last_use))
          victim = it;
      if (victim == shapes.end()) return;
      shapes.erase(victim);
    }
  }

  // Slots of a shape are used in turn and created when first reached (a one-off score builds
  // one; a batch builds two, the second sharing the first's log-Gabor bank).
  ShapeSlots& plan(int w, int h) {
    ShapeSlots& s = shapes[{w, h}];
    if (s.capacity == 0) {
      // Throws GpuError with the need when not even one slot fits; nothing is allocated yet.
      s.capacity = gpu_slots_for_shape(w, h, precision, kSlotsPerShape, memory_limit,
                                       gpu_free_memory_bytes());
    }
    return s;
  }

  SlotBase& slot_for(int w, int h) {
    ShapeSlots& s = plan(w, h);
    s.last_use = ++clock;
    const std::size_t i = static_cast<std::size_t>(s.next);
    s.next = (s.next + 1) % s.capacity;
    if (i >= s.slots.size()) {
      s.slots.push_back(precision == Precision::Double ? make_slot<double>(w, h, s)
                                                       : make_slot<float>(w, h, s));
      a5_name = s.slots.back()->a5_variant();
    }
    SlotBase& slot = *s.slots[i];
    evict_if_needed();
    std::size_t bytes = 0;
    for (auto& [shape, group] : shapes) {
      if (!group.slots.empty()) bytes += group.slots.front()->bank_bytes();
      for (auto& sl : group.slots) bytes += sl->device_bytes();
    }
    peak_bytes = std::max(peak_bytes, bytes);
    return slot;
  }
};

GpuScorer::GpuScorer(Precision precision, const std::string& a5_variant,
                     const std::string& det_variant, std::size_t memory_limit)
    : impl_(std::make_unique<Impl>()) {
  impl_->precision = precision;
  impl_->memory_limit = memory_limit;
  impl_->a5_requested = a5_variant;
  impl_->det_requested = det_variant;
  // Unknown names are refused here, before any device work (InvalidArgument from the registry).
  detection::detection_stats_variants().resolve(det_variant);
  impl_->a5_name = appearance::a5_variants().resolve(a5_variant);
}

GpuScorer::~GpuScorer() = default;

const std::string& GpuScorer::a5_variant() const {
  return impl_->a5_name;
}
int GpuScorer::slots() const {
  return kSlotsPerShape;
}
int GpuScorer::slots_for(int width, int height) {
  return impl_->plan(width, height).capacity;
}
std::size_t GpuScorer::in_flight() const {
  return impl_->outstanding.size();
}
bool GpuScorer::last_reused_reference() const {
  return impl_->last_reused;
}
std::size_t GpuScorer::device_bytes() const {
  return impl_->peak_bytes;
}

std::uint64_t GpuScorer::submit(const GpuInput& ref, const GpuInput& dst, bool uint8_luminance,
                                bool want_maps) {
  if (impl_->outstanding.size() >= static_cast<std::size_t>(kSlotsPerShape))
    throw Error("GpuScorer::submit: collect the oldest pair first");
  SlotBase& slot = impl_->slot_for(ref.pixels.width, ref.pixels.height);
  if (slot.busy()) throw Error("GpuScorer::submit: collect the oldest pair first");
  slot.submit(ref, dst, uint8_luminance, want_maps);
  impl_->last_reused = slot.reused_reference();
  const std::uint64_t ticket = impl_->next_ticket++;
  impl_->outstanding.emplace_back(ticket, &slot);
  return ticket;
}

GpuStageOutputs GpuScorer::collect(std::uint64_t ticket) {
  if (impl_->outstanding.empty() || impl_->outstanding.front().first != ticket)
    throw Error("GpuScorer::collect: tickets must be collected in submission order");
  SlotBase* slot = impl_->outstanding.front().second;
  impl_->outstanding.pop_front();
  return slot->collect();
}

GpuStageOutputs GpuScorer::run(const GpuInput& ref, const GpuInput& dst, bool uint8_luminance,
                               bool want_maps) {
  if (!impl_->outstanding.empty())
    throw Error("GpuScorer::run: batch pairs are still outstanding; collect them first");
  return collect(submit(ref, dst, uint8_luminance, want_maps));
}

}  // namespace mad
