// CudaScorer: per-shape pair slots (two per shape, one stream each) behind the CUDA-free API of
// mad/cuda_scorer.h. The slots are gpu::PairSlot<Real> of the precision chosen at construction,
// held in a std::variant of the two precisions' lists, so a call reaches its slot directly.
#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "appearance/a5_variants.h"
#include "common/error.h"
#include "detection/detection.h"
#include "mad/pair_slot_cuda.h"
#include "mad/cuda_scorer.h"
#include "mad/memory_check.h"

namespace mad {

namespace {

// Up to four slots per shape, each on its own stream: while one pair computes, the next ones
// upload and compute beside it. A small pair leaves most of an H100 idle, so pairs side by side
// raise a batch's rate. Measured (H100, mad bench, 512x384 batches, pairs/s, one run; slots 2 /
// 3 / 4 / 6 / 8): float distinct references 3752 / 4724 / 5522 / 6240 / 6220, shared 7013 /
// 8797 / 10226 / 11469 / 12014; double distinct 2548 / 2943 / 2988 / 2754 / 2594, shared 4751 /
// 5624 / 5676 / 5502 / 5168. Four is double's best and most of float's gain, at 56 MiB for a
// 512x384 float batch. Fewer when memory is short (gpu_slots_for_shape).
constexpr int kSlotsPerShape = 4;
// Shapes kept alive at once (datasets of mixed sizes); the least recently used idle one goes.
constexpr std::size_t kMaxShapes = 3;

template <class Real>
using SlotList = std::vector<std::unique_ptr<gpu::PairSlot<Real>>>;
// A slot of either precision, as the ticket queue refers to it.
using SlotRef = std::variant<gpu::PairSlot<double>*, gpu::PairSlot<float>*>;

struct ShapeSlots {
  // The precision is chosen once, by CudaScorer's constructor; each shape holds that list.
  std::variant<SlotList<double>, SlotList<float>> slots;
  int capacity = 0;  // slots this shape may have (memory plan), 0 until planned
  int next = 0;
  std::uint64_t last_use = 0;

  bool any_busy() const {
    return std::visit(
        [](const auto& list) {
          for (const auto& s : list)
            if (s->busy()) return true;
          return false;
        },
        slots);
  }
  // The shared log-Gabor bank once, plus every slot's own buffers.
  std::size_t device_bytes() const {
    return std::visit(
        [](const auto& list) {
          std::size_t bytes = list.empty() ? 0 : list.front()->bank()->device_bytes();
          for (const auto& s : list) bytes += s->device_bytes();
          return bytes;
        },
        slots);
  }
};

}  // namespace

struct CudaScorer::Impl {
  Precision precision;
  std::string a5_requested;
  std::string detection_requested;
  std::size_t memory_limit = 0;
  std::string a5_name;
  std::map<std::pair<int, int>, ShapeSlots> shapes;
  std::deque<std::pair<std::uint64_t, SlotRef>> outstanding;
  std::uint64_t next_ticket = 1;
  std::uint64_t clock = 0;
  bool last_reused = false;
  std::size_t peak_bytes = 0;

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
    auto [it, added] = shapes.try_emplace({w, h});
    ShapeSlots& s = it->second;
    if (added && precision == Precision::Float) s.slots.emplace<SlotList<float>>();
    if (s.capacity == 0) {
      // Throws GpuError with the need when not even one slot fits; nothing is allocated yet.
      s.capacity = gpu_slots_for_shape(w, h, precision, kSlotsPerShape, memory_limit,
                                       gpu_free_memory_bytes());
    }
    return s;
  }

  // `first`: the shape's first slot, out of turn (run(): one pair at a time needs no second).
  SlotRef slot_for(int w, int h, bool first) {
    ShapeSlots& s = plan(w, h);
    s.last_use = ++clock;
    std::size_t i = 0;
    if (!first) {
      i = static_cast<std::size_t>(s.next);
      s.next = (s.next + 1) % s.capacity;
    }
    const SlotRef slot = std::visit(
        [&](auto& list) -> SlotRef {
          using Slot = typename std::decay_t<decltype(list)>::value_type::element_type;
          if (i >= list.size()) {
            auto bank = list.empty() ? nullptr : list.front()->bank();
            list.push_back(
                std::make_unique<Slot>(w, h, a5_requested, detection_requested, std::move(bank)));
            list.back()->synchronize();  // the bank and the CSF are complete before sharing
            a5_name = list.back()->a5_variant();
          }
          return list[i].get();
        },
        s.slots);
    evict_if_needed();
    std::size_t bytes = 0;
    for (const auto& [shape, group] : shapes) bytes += group.device_bytes();
    peak_bytes = std::max(peak_bytes, bytes);
    return slot;
  }

  // CudaScorer::submit, on the shape's first slot when `first_slot`.
  std::uint64_t submit(const CudaInput& ref, const CudaInput& dst, bool uint8_luminance,
                       bool want_maps, bool first_slot);
};

CudaScorer::CudaScorer(Precision precision, const std::string& a5_variant,
                       const std::string& det_variant, std::size_t memory_limit)
    : impl_(std::make_unique<Impl>()) {
  impl_->precision = precision;
  impl_->memory_limit = memory_limit;
  impl_->a5_requested = a5_variant;
  impl_->detection_requested = det_variant;
  // Unknown names are refused here, before any device work (InvalidArgument from the registry).
  detection::detection_stats_variants().resolve(det_variant);
  impl_->a5_name = appearance::a5_variants().resolve(a5_variant);
}

CudaScorer::~CudaScorer() = default;

const std::string& CudaScorer::a5_variant() const {
  return impl_->a5_name;
}
int CudaScorer::slots() const {
  return kSlotsPerShape;
}
int CudaScorer::slots_for(int width, int height) {
  return impl_->plan(width, height).capacity;
}
std::size_t CudaScorer::in_flight() const {
  return impl_->outstanding.size();
}
bool CudaScorer::last_reused_reference() const {
  return impl_->last_reused;
}
std::size_t CudaScorer::device_bytes() const {
  return impl_->peak_bytes;
}

std::uint64_t CudaScorer::submit(const CudaInput& ref, const CudaInput& dst, bool uint8_luminance,
                                 bool want_maps) {
  return impl_->submit(ref, dst, uint8_luminance, want_maps, false);
}

std::uint64_t CudaScorer::Impl::submit(const CudaInput& ref, const CudaInput& dst,
                                       bool uint8_luminance, bool want_maps, bool first_slot) {
  if (outstanding.size() >= static_cast<std::size_t>(kSlotsPerShape))
    throw Error("CudaScorer::submit: collect the oldest pair first");
  const SlotRef slot = slot_for(ref.width(), ref.height(), first_slot);
  last_reused = std::visit(
      [&](auto* s) {
        if (s->busy()) throw Error("CudaScorer::submit: collect the oldest pair first");
        s->submit(ref, dst, uint8_luminance, want_maps);
        return s->reused_reference();
      },
      slot);
  const std::uint64_t ticket = next_ticket++;
  outstanding.emplace_back(ticket, slot);
  return ticket;
}

StageOutputs CudaScorer::collect(std::uint64_t ticket) {
  if (impl_->outstanding.empty() || impl_->outstanding.front().first != ticket)
    throw Error("CudaScorer::collect: tickets must be collected in submission order");
  const SlotRef slot = impl_->outstanding.front().second;
  impl_->outstanding.pop_front();
  return std::visit([](auto* s) { return s->collect(); }, slot);
}

StageOutputs CudaScorer::run(const CudaInput& ref, const CudaInput& dst, bool uint8_luminance,
                             bool want_maps) {
  if (!impl_->outstanding.empty())
    throw Error("CudaScorer::run: batch pairs are still outstanding; collect them first");
  // One pair at a time: always the shape's first slot, so scoring pairs one by one holds one
  // slot's memory (not two) and a repeated reference is reused from the previous call.
  return collect(impl_->submit(ref, dst, uint8_luminance, want_maps, true));
}

}  // namespace mad
