// The host form of ST-MAD's motion accumulation (motion.h): the reference for the GPU's.
#include <utility>

#include "common/error.h"
#include "mad/video/motion.h"
#include "mad/video/motion_solve.h"

namespace mad::video {

MotionGrid motion_grid(int width, int height) {
  return {height / kMotionWindow, width / kMotionWindow};
}

std::vector<double> motion_crop(const LumaFrame& frame, const MotionGrid& grid) {
  std::vector<double> crop(grid.pixels());
  const int w = grid.width();
  for (int y = 0; y < grid.height(); ++y)
    for (int x = 0; x < w; ++x)
      crop[static_cast<std::size_t>(y) * w + x] =
          frame.value(static_cast<std::size_t>(y) * frame.width + x);
  return crop;
}

namespace {

class MotionCpu final : public MotionAccumulator {
 public:
  explicit MotionCpu(const MotionGrid& grid) : grid_(grid), sums_(grid.windows(), 0.0) {}

  void add_frame(const std::vector<double>& crop) override {
    if (crop.size() != grid_.pixels()) throw InternalError("motion crop of the wrong size");
    if (have_previous_) {
      for (int I = 0; I < grid_.window_rows; ++I)
        for (int J = 0; J < grid_.window_cols; ++J)
          sums_[static_cast<std::size_t>(I) * grid_.window_cols + J] += squared_speed(
              window_flow(window_sums(crop.data(), previous_.data(), grid_.width(), I, J)));
      ++pairs_;
    }
    previous_ = crop;
    have_previous_ = true;
  }
  std::vector<double> speed_sums() override { return sums_; }
  std::int64_t pairs() const override { return pairs_; }

 private:
  MotionGrid grid_;
  std::vector<double> previous_;
  bool have_previous_ = false;
  std::vector<double> sums_;
  std::int64_t pairs_ = 0;
};

}  // namespace

std::unique_ptr<MotionAccumulator> make_motion_accumulator_cpu(const MotionGrid& grid) {
  return std::make_unique<MotionCpu>(grid);
}

std::unique_ptr<MotionAccumulator> make_motion_accumulator(const MotionGrid& grid,
                                                           Backend backend) {
  if (backend == Backend::Cuda) return make_motion_accumulator_cuda(grid);
  if (backend != Backend::Cpu) throw InternalError("motion accumulator on an unresolved backend");
  return make_motion_accumulator_cpu(grid);
}

}  // namespace mad::video
