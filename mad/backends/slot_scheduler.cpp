#include "mad/backends/slot_scheduler.h"

#include <algorithm>

#include "common/error.h"

namespace mad {

bool SlotScheduler::Shape::any_busy() const {
  return std::find(busy.begin(), busy.end(), true) != busy.end();
}

int SlotScheduler::Shape::idle_slot() const {
  for (std::size_t i = 0; i < busy.size(); ++i)
    if (!busy[i]) return static_cast<int>(i);
  return -1;
}

SlotScheduler::SlotScheduler(std::unique_ptr<SlotFactory> factory, SchedulerLimits limits)
    : factory_(std::move(factory)), limits_(limits) {
  if (!factory_ || limits_.slots_per_shape < 1 || limits_.max_shapes < 1 ||
      limits_.budget_bytes == 0)
    throw InternalError("SlotScheduler: a factory, a slot, a shape and a budget are needed");
}

// Slots go before the factory that made them (a CUDA slot's stream belongs to its device).
SlotScheduler::~SlotScheduler() {
  shapes_.clear();
}

int SlotScheduler::slots_built(int width, int height) const {
  const auto it = shapes_.find({width, height});
  return it == shapes_.end() ? 0 : static_cast<int>(it->second.slots.size());
}

int SlotScheduler::capacity(int width, int height) {
  const auto it = shapes_.find({width, height});
  if (it != shapes_.end()) return it->second.capacity;
  // Planned against the whole budget, so that a shape alone always gets its slots once the
  // others are idle and evicted (can_submit is never false with nothing in flight).
  const SlotCost cost = factory_->cost(width, height);
  int slots = limits_.slots_per_shape;
  while (slots > 0 && cost.total(slots) > limits_.budget_bytes) --slots;
  if (slots == 0) throw InputError(factory_->too_large(width, height, limits_.budget_bytes));
  return slots;
}

bool SlotScheduler::make_room(const Key& keep, std::size_t need, bool evict) {
  const bool adds_shape = shapes_.find(keep) == shapes_.end();
  std::vector<std::map<Key, Shape>::iterator> idle;
  for (auto it = shapes_.begin(); it != shapes_.end(); ++it)
    if (it->first != keep && !it->second.any_busy()) idle.push_back(it);
  std::sort(idle.begin(), idle.end(),
            [](const auto& a, const auto& b) { return a->second.last_use < b->second.last_use; });
  std::size_t used = used_bytes_, shapes = shapes_.size(), victims = 0;
  auto fits = [&] {
    return used + need <= limits_.budget_bytes &&
           (!adds_shape || shapes + 1 <= limits_.max_shapes);
  };
  while (!fits() && victims < idle.size()) {
    const Shape& s = idle[victims++]->second;
    used -= factory_->cost(idle[victims - 1]->first.first, idle[victims - 1]->first.second)
                .total(static_cast<int>(s.slots.size()));
    --shapes;
  }
  if (!fits()) return false;
  if (evict) {
    for (std::size_t v = 0; v < victims; ++v) shapes_.erase(idle[v]);
    used_bytes_ = used;
  }
  return true;
}

int SlotScheduler::place(const Key& key, bool evict) {
  const auto it = shapes_.find(key);
  const SlotCost cost = factory_->cost(key.first, key.second);
  if (it == shapes_.end()) return make_room(key, cost.first, evict) ? -1 : -2;
  const Shape& s = it->second;
  if (const int idle = s.idle_slot(); idle >= 0) return idle;
  if (static_cast<int>(s.slots.size()) >= s.capacity) return -2;
  return make_room(key, cost.further, evict) ? -1 : -2;
}

bool SlotScheduler::can_submit(int width, int height) {
  capacity(width, height);  // refuses a shape that can never fit
  if (outstanding_.size() >= static_cast<std::size_t>(limits_.slots_per_shape)) return false;
  return place({width, height}, false) != -2;
}

std::uint64_t SlotScheduler::submit(const PairInput& ref, const PairInput& dst,
                                    bool uint8_luminance, bool want_maps) {
  const Key key{ref.width(), ref.height()};
  if (dst.width() != key.first || dst.height() != key.second)
    throw InternalError("SlotScheduler::submit: the two images differ in shape");
  const int planned = capacity(key.first, key.second);
  if (outstanding_.size() >= static_cast<std::size_t>(limits_.slots_per_shape))
    throw InternalError("SlotScheduler::submit: too many pairs in flight; collect first");
  int index = place(key, true);
  if (index == -2) throw InternalError("SlotScheduler::submit: no room; check can_submit first");
  if (index == -1) {
    // Built before anything is recorded: a throw here leaves the lists as they were.
    auto found = shapes_.find(key);
    const PairSlotHandle* sibling =
        found == shapes_.end() ? nullptr : found->second.slots.front().get();
    std::unique_ptr<PairSlotHandle> slot = factory_->make(key.first, key.second, sibling);
    const SlotCost cost = factory_->cost(key.first, key.second);
    if (found == shapes_.end()) {
      found = shapes_.try_emplace(key).first;
      found->second.capacity = planned;
      used_bytes_ += cost.first;
    } else {
      used_bytes_ += cost.further;
    }
    found->second.slots.push_back(std::move(slot));
    found->second.busy.push_back(false);
    index = static_cast<int>(found->second.slots.size()) - 1;
    peak_bytes_ = std::max(peak_bytes_, used_bytes_);
  }
  Shape& shape = shapes_.at(key);
  PairSlotHandle& slot = *shape.slots[static_cast<std::size_t>(index)];
  slot.submit(ref, dst, uint8_luminance, want_maps);  // a throw: the slot stays idle
  note_held_bytes();  // after the submit: a pair may allocate a slot's lazy buffers
  shape.busy[static_cast<std::size_t>(index)] = true;
  shape.last_use = ++clock_;
  last_reused_ = slot.reused_reference();
  outstanding_.push_back({next_ticket_, key, index});
  return next_ticket_++;
}

void SlotScheduler::note_held_bytes() {
  std::size_t held = 0;
  for (const auto& [key, shape] : shapes_)
    for (const auto& slot : shape.slots) held += slot->device_bytes();
  held_peak_bytes_ = std::max(held_peak_bytes_, held);
}

StageOutputs SlotScheduler::collect(std::uint64_t ticket) {
  if (outstanding_.empty() || outstanding_.front().id != ticket)
    throw InternalError("SlotScheduler::collect: tickets must be collected in submission order");
  const Ticket t = outstanding_.front();
  outstanding_.pop_front();
  const auto it = shapes_.find(t.shape);
  if (it == shapes_.end() || static_cast<std::size_t>(t.slot) >= it->second.slots.size() ||
      !it->second.busy[static_cast<std::size_t>(t.slot)])
    throw InternalError("SlotScheduler::collect: the ticket's slot is gone or idle");
  // Idle again whatever collect() does: a slot that failed is free for the next pair.
  it->second.busy[static_cast<std::size_t>(t.slot)] = false;
  return it->second.slots[static_cast<std::size_t>(t.slot)]->collect();
}

}  // namespace mad
