// The CUDA backend behind the scoring seam (mad/backends/pair_backend.h): mad::SlotScheduler, the
// CUDA-free host logic (shapes, slot turns, eviction, the memory budget, tickets), over a
// factory of gpu::PairSlot<Real> of the precision chosen at construction.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>

#include "common/error.h"
#include "common/gpu_info.h"
#include "mad/backends/memory_check.h"
#include "mad/backends/memory_estimate.h"
#include "mad/backends/pair_slot_cuda.h"
#include "mad/backends/slot_scheduler.h"
#include "mad/variants.h"

namespace mad {
namespace {

// Up to four slots per shape, each on its own stream: while one pair computes, the next ones
// upload and compute beside it. A small pair leaves most of an H100 idle, so pairs side by side
// raise a batch's rate. Measured (H100, mad bench, 512x384 batches, pairs/s, one run; slots 2 /
// 3 / 4 / 6 / 8): float distinct references 3752 / 4724 / 5522 / 6240 / 6220, shared 7013 /
// 8797 / 10226 / 11469 / 12014; double distinct 2548 / 2943 / 2988 / 2754 / 2594, shared 4751 /
// 5624 / 5676 / 5502 / 5168. Four is double's best and most of float's gain, at 56 MiB for a
// 512x384 float batch. Fewer when the memory budget is short (SlotScheduler::capacity).
constexpr int kSlotsPerShape = 4;
// Shapes kept alive at once (datasets of mixed sizes): the least recently used idle one goes.
// Each holds pinned host staging and cuFFT plans besides its device memory.
constexpr std::size_t kMaxShapes = 3;

// The rows a slot's stages run, as the front door picked them.
struct VariantRows {
  const appearance::A5Row* a5;
  const detection::BlockStatsRow* det;
  std::optional<appearance::SubbandTransform> transform;  // none: the shape's default
};

// One GPU pair slot as the scheduler sees it.
template <class Real>
class CudaSlot final : public PairSlotHandle {
 public:
  // `bank`: a sibling's, or null for a shape's first slot, which builds the bank and counts it.
  CudaSlot(int width, int height, const VariantRows& rows,
           std::shared_ptr<const appearance::LogGaborBankCuda<Real>> bank)
      : counts_bank_(bank == nullptr),
        slot_(width, height, *rows.a5, *rows.det, std::move(bank), rows.transform) {
    slot_.synchronize();  // the bank and the CSF are complete before another slot shares them
  }
  // The slot's pinned staging and device buffers are freed only once its stream has finished
  // reading them (a pair abandoned by a failed drain may still be running).
  ~CudaSlot() override {
    try {
      slot_.synchronize();
    } catch (...) {
    }
  }
  void submit(const PairInput& ref, const PairInput& dst, bool uint8_luminance,
              bool want_maps) override {
    slot_.submit(ref, dst, uint8_luminance, want_maps);
  }
  StageOutputs collect() override { return slot_.collect(); }
  bool reused_reference() const override { return slot_.reused_reference(); }
  std::size_t device_bytes() const override {
    return slot_.device_bytes() + (counts_bank_ ? slot_.bank()->device_bytes() : 0);
  }
  const gpu::PairSlot<Real>& slot() const { return slot_; }

 private:
  bool counts_bank_;
  gpu::PairSlot<Real> slot_;
};

template <class Real>
class CudaSlotFactory final : public SlotFactory {
 public:
  // The variants arrive as registry rows, picked at the front door (mad/variants.h), and the
  // slots are given the rows themselves: nothing below looks a name up.
  CudaSlotFactory(const ScoreOptions& options, GpuMemoryBudget budget)
      : precision_(options.precision),
        rows_{&picked_row(appearance::a5_variants(), options.a5_variant),
              &picked_row(detection::detection_stats_variants(), options.det_variant),
              picked_subband_transform(options.subband_transform)},
        a5_name_(rows_.a5->name),
        budget_(budget) {}
  Backend kind() const override { return Backend::Cuda; }
  const std::string& a5_variant() const override { return a5_name_; }
  SlotCost cost(int width, int height) const override {
    const GpuPairMemory m = estimate_gpu_pair_memory(width, height, precision_);
    return {m.device_total(1), m.slot()};
  }
  std::string too_large(int width, int height, std::size_t) const override {
    return gpu_shape_too_large(width, height, precision_, budget_);
  }
  std::unique_ptr<PairSlotHandle> make(int width, int height,
                                       const PairSlotHandle* sibling) override {
    auto bank = sibling ? static_cast<const CudaSlot<Real>*>(sibling)->slot().bank() : nullptr;
    return std::make_unique<CudaSlot<Real>>(width, height, rows_, std::move(bank));
  }

 private:
  Precision precision_;
  VariantRows rows_;
  std::string a5_name_;
  GpuMemoryBudget budget_;
};

}  // namespace

std::unique_ptr<PairBackend> make_cuda_backend(const ScoreOptions& options) {
  const GpuMemoryBudget budget = gpu_memory_budget(
      options.gpu_memory_limit, gpu_free_memory_bytes(), options.gpu_memory_shares);
  std::unique_ptr<SlotFactory> factory;
  if (options.precision == Precision::Float)
    factory = std::make_unique<CudaSlotFactory<float>>(options, budget);
  else
    factory = std::make_unique<CudaSlotFactory<double>>(options, budget);
  return std::make_unique<SlotScheduler>(std::move(factory),
                                         SchedulerLimits{kSlotsPerShape, kMaxShapes, budget.bytes});
}

}  // namespace mad
