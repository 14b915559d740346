// A fake GPU for the scheduler tests: slots that compute nothing but check how they are used.
// Each slot's "outputs" identify the pair it was given (the distorted image's first two pixels
// encode the pair's number), so a test can see every pair come back to its own row; each slot
// records a submit while busy; the factory counts the bytes its live slots hold, independently
// of the scheduler's own accounting; each records the forms its images came in (a double plane,
// or the uint8 plane alone that a GPU worker's decoder keeps); and failures can be injected at
// slot construction, submit and collect, as an InputError (the pair's own failure) or a
// GpuError (the device's).
#pragma once

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/image_io.h"
#include "mad/backends/slot_scheduler.h"

namespace mad::test {

// The number a fake pair carries: written into the distorted image, read back as d_detect.
inline GrayImage numbered_image(int width, int height, int number, double fill = 100.0) {
  Image<double> p(width, height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) p(y, x) = fill;
  p(0, 0) = number % 256;
  p(0, 1) = number / 256 % 256;
  GrayImage g;
  g.pixels = std::move(p);
  g.bit_depth = 8;
  return g;
}
// A 50x40 8-bit gray PNG `dir`/`name` carrying `number` (as numbered_image); returns its path.
inline std::string write_numbered_png(const std::filesystem::path& dir, const std::string& name,
                                      int number, int fill) {
  const GrayImage g = numbered_image(50, 40, number, fill);
  RawImage8 raw{50, 40, 1, std::vector<std::uint8_t>(g.pixels.data(),
                                                     g.pixels.data() + g.pixels.pixel_count())};
  const std::string path = (dir / name).string();
  save_png8(path, raw);
  return path;
}
// Read from the uint8 plane when that is all the input has, as a real slot reads it.
inline int number_of(const PairInput& in) {
  if (in.is_gray8_only()) return in.gray8[0] + 256 * in.gray8[1];
  return static_cast<int>(in.pixels(0, 0)) + 256 * static_cast<int>(in.pixels(0, 1));
}
// The host memory an input's pixels live in (what identifies a reference between pairs).
inline const void* pixels_of(const PairInput& in) {
  return in.is_gray8_only() ? static_cast<const void*>(in.gray8) : in.pixels.data;
}

enum class Fault { None, Input, Gpu };
enum class Where { Make, Submit, Collect };

struct FakeGpu {
  // Which pair (by number; -1 for a slot's construction, keyed by a make counter) fails where.
  std::function<Fault(Where, int)> fault = [](Where, int) { return Fault::None; };
  std::size_t live_bytes = 0, peak_live_bytes = 0;
  int slots_made = 0, makes_attempted = 0;
  int busy_submits = 0;  // submits to a slot that already had a pair: must stay 0
  int gray8_only_inputs = 0, plane_inputs = 0;  // images submitted in each form
  std::set<int> collected;
  // What a slot holds of what the budget counts for it (the memory model is an upper bound).
  double held_fraction = 1.0;

  SlotCost cost(int w, int h) const {
    const std::size_t slot = static_cast<std::size_t>(w) * h * 8;
    return {slot + static_cast<std::size_t>(w) * h * 4, slot};  // first slot: + a shared bank
  }
};

inline void raise(Fault f, const std::string& what) {
  if (f == Fault::Input) throw InputError("injected: " + what);
  if (f == Fault::Gpu) throw GpuError("injected: " + what);
}

class FakeSlot final : public PairSlotHandle {
 public:
  FakeSlot(FakeGpu& gpu, std::size_t bytes) : gpu_(gpu), bytes_(bytes) {
    gpu_.live_bytes += bytes_;
    gpu_.peak_live_bytes = std::max(gpu_.peak_live_bytes, gpu_.live_bytes);
    ++gpu_.slots_made;
  }
  ~FakeSlot() override { gpu_.live_bytes -= bytes_; }
  std::size_t device_bytes() const override { return bytes_; }
  void submit(const PairInput& ref, const PairInput& dst, bool, bool) override {
    if (busy_) ++gpu_.busy_submits;
    const int number = number_of(dst);
    raise(gpu_.fault(Where::Submit, number), "submit of pair " + std::to_string(number));
    for (const PairInput* in : {&ref, &dst}) ++(in->is_gray8_only() ? gpu_.gray8_only_inputs
                                                                     : gpu_.plane_inputs);
    reused_ = last_ref_ == pixels_of(ref);
    last_ref_ = pixels_of(ref);
    number_ = number;
    busy_ = true;
  }
  StageOutputs collect() override {
    busy_ = false;
    raise(gpu_.fault(Where::Collect, number_), "collect of pair " + std::to_string(number_));
    gpu_.collected.insert(number_);
    StageOutputs out;
    out.d_detect = number_;
    out.d_appear = 1.0;
    return out;
  }
  bool reused_reference() const override { return reused_; }

 private:
  FakeGpu& gpu_;
  std::size_t bytes_;
  bool busy_ = false, reused_ = false;
  const void* last_ref_ = nullptr;
  int number_ = -1;
};

class FakeSlotFactory final : public SlotFactory {
 public:
  explicit FakeSlotFactory(FakeGpu& gpu) : gpu_(gpu) {}
  Backend kind() const override { return Backend::Cuda; }
  const std::string& a5_variant() const override { return name_; }
  SlotCost cost(int w, int h) const override { return gpu_.cost(w, h); }
  std::string too_large(int w, int h, std::size_t budget) const override {
    return "a " + std::to_string(w) + "x" + std::to_string(h) + " pair needs " +
           std::to_string(cost(w, h).first) + " bytes; the budget is " + std::to_string(budget);
  }
  std::unique_ptr<PairSlotHandle> make(int w, int h, const PairSlotHandle* sibling) override {
    const int attempt = gpu_.makes_attempted++;
    raise(gpu_.fault(Where::Make, attempt), "slot construction " + std::to_string(attempt));
    const SlotCost c = cost(w, h);
    const std::size_t counted = sibling ? c.further : c.first;
    return std::make_unique<FakeSlot>(
        gpu_, static_cast<std::size_t>(static_cast<double>(counted) * gpu_.held_fraction));
  }

 private:
  FakeGpu& gpu_;
  std::string name_ = "fake";
};

inline std::unique_ptr<SlotScheduler> fake_scheduler(FakeGpu& gpu, SchedulerLimits limits) {
  return std::make_unique<SlotScheduler>(std::make_unique<FakeSlotFactory>(gpu), limits);
}

}  // namespace mad::test
