// The host logic of the CUDA backend, kept free of CUDA so that a fake slot factory drives it in
// the CPU build (tests/engine, `ctest -L engine`, under ASan in CI): shape planning, slot turns,
// eviction, the device-memory budget and the ticket queue.
//
// A slot holds one pair in flight at a time (on the GPU: one stream, both stages, its staging).
// Each image shape gets up to `slots_per_shape` slots, created when first needed; the shapes'
// slots together stay within `budget_bytes`, counted with the factory's per-slot cost (an upper
// bound of what the slot allocates). Rules, each checked by the engine tests:
//   - a shape with a pair in flight is never evicted; idle shapes go least recently used first,
//     when a new shape needs their memory or there would be more than `max_shapes`;
//   - when nothing can be evicted, can_submit() says so and the caller collects the oldest
//     pair first, rather than over-allocating; with nothing in flight it always says yes;
//   - a shape whose first slot alone exceeds the budget is refused (InputError, its need);
//   - a throw while building a slot, submitting or collecting leaves every list as it was
//     (a collect that throws still finishes its ticket).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "mad/backends/pair_backend.h"

namespace mad {

// One pair in flight at a time. The scheduler never submits to a busy slot.
class PairSlotHandle {
 public:
  virtual ~PairSlotHandle() = default;
  virtual void submit(const PairInput& ref, const PairInput& dst, bool uint8_luminance,
                      bool want_maps) = 0;
  virtual StageOutputs collect() = 0;
  // True when the last submit reused the slot's previous reference side.
  virtual bool reused_reference() const = 0;
  // Device bytes the slot's buffers hold now (some are allocated at a pair's first need); a
  // shape's first slot also counts what its siblings share (the log-Gabor bank).
  virtual std::size_t device_bytes() const = 0;
};

// Device bytes of a shape's slots: the first one carries what they share (the log-Gabor bank).
struct SlotCost {
  std::size_t first = 0, further = 0;
  std::size_t total(int slots) const {
    return slots <= 0 ? 0 : first + static_cast<std::size_t>(slots - 1) * further;
  }
};

class SlotFactory {
 public:
  virtual ~SlotFactory() = default;
  virtual Backend kind() const = 0;
  virtual const std::string& a5_variant() const = 0;
  virtual SlotCost cost(int width, int height) const = 0;
  // Why a shape whose first slot exceeds `budget_bytes` cannot be scored (its need, the budget,
  // what would fit): the InputError message.
  virtual std::string too_large(int width, int height, std::size_t budget_bytes) const = 0;
  // Builds a slot. `sibling`: a slot of the same shape whose shared parts the new one reuses
  // (null for a shape's first slot).
  virtual std::unique_ptr<PairSlotHandle> make(int width, int height,
                                               const PairSlotHandle* sibling) = 0;
};

struct SchedulerLimits {
  int slots_per_shape = 4;      // and pairs in flight in all
  std::size_t max_shapes = 3;   // shapes kept alive at once (idle ones beyond are evicted)
  std::size_t budget_bytes = 0; // device bytes all slots may take together (> 0)
};

class SlotScheduler final : public PairBackend {
 public:
  SlotScheduler(std::unique_ptr<SlotFactory> factory, SchedulerLimits limits);
  ~SlotScheduler() override;

  Backend kind() const override { return factory_->kind(); }
  const std::string& a5_variant() const override { return factory_->a5_variant(); }
  int capacity(int width, int height) override;
  bool can_submit(int width, int height) override;
  std::uint64_t submit(const PairInput& ref, const PairInput& dst, bool uint8_luminance,
                       bool want_maps) override;
  StageOutputs collect(std::uint64_t ticket) override;
  std::size_t in_flight() const override { return outstanding_.size(); }
  bool last_reused_reference() const override { return last_reused_; }
  // The most the live slots' buffers held at once (PairSlotHandle::device_bytes), not what the
  // budget counted for them (used_bytes: the memory model's bound).
  std::size_t device_bytes() const override { return held_peak_bytes_; }

  // For tests and reports: bytes the live slots count against the budget now (the model's
  // bound), shapes alive, and slots built so far for a shape (0 when it is not alive).
  std::size_t used_bytes() const { return used_bytes_; }
  std::size_t peak_used_bytes() const { return peak_bytes_; }
  std::size_t shapes_alive() const { return shapes_.size(); }
  int slots_built(int width, int height) const;
  const SchedulerLimits& limits() const { return limits_; }

 private:
  using Key = std::pair<int, int>;
  struct Shape {
    std::vector<std::unique_ptr<PairSlotHandle>> slots;
    std::vector<bool> busy;  // per slot: a pair in flight
    int capacity = 0;
    std::uint64_t last_use = 0;
    bool any_busy() const;
    int idle_slot() const;  // lowest idle slot, -1 when none
  };
  struct Ticket {
    std::uint64_t id = 0;
    Key shape;
    int slot = 0;
  };
  // What submitting a pair of `key` needs now: an idle slot (index), or a new one (-1), or
  // nothing possible yet (-2). Evicts idle shapes when `evict` is set and that makes room.
  int place(const Key& key, bool evict);
  // Frees idle shapes other than `keep`, least recently used first, until `need` more bytes
  // fit and the shape count leaves room for `keep`; false when that cannot be done.
  bool make_room(const Key& keep, std::size_t need, bool evict);

  std::unique_ptr<SlotFactory> factory_;
  SchedulerLimits limits_;
  std::map<Key, Shape> shapes_;
  std::deque<Ticket> outstanding_;
  std::uint64_t next_ticket_ = 1;
  std::uint64_t clock_ = 0;
  std::size_t used_bytes_ = 0, peak_bytes_ = 0, held_peak_bytes_ = 0;
  void note_held_bytes();
  bool last_reused_ = false;
};

}  // namespace mad
