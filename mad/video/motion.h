// ST-MAD's motion from the reference clip (shared/stmad-spec.md §4.1-4.4): Lucas-Kanade on 8x8
// windows of the top-left 8*floor(H/8) x 8*floor(W/8) crop of every consecutive pair of frames,
// summed per window over the pairs. The accumulator keeps only the previous (cropped) frame.
// The weights that follow from the sums are motion_weights.h's.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "common/compute_target.h"
#include "common/luma_frame.h"

namespace mad::video {

// The crop's shape: r0 x c0 windows of 8x8 pixels.
struct MotionGrid {
  int window_rows = 0, window_cols = 0;  // r0 = floor(H/8), c0 = floor(W/8)
  int height() const { return 8 * window_rows; }
  int width() const { return 8 * window_cols; }
  std::size_t windows() const {
    return static_cast<std::size_t>(window_rows) * static_cast<std::size_t>(window_cols);
  }
  std::size_t pixels() const {
    return static_cast<std::size_t>(height()) * static_cast<std::size_t>(width());
  }
};
MotionGrid motion_grid(int width, int height);

// The frame's top-left crop as doubles on the 0..255 scale (LumaFrame::value), row-major.
std::vector<double> motion_crop(const LumaFrame& frame, const MotionGrid& grid);

// Adds the squared speed V_t of every window of each consecutive pair of reference frames.
class MotionAccumulator {
 public:
  virtual ~MotionAccumulator() = default;
  // The next reference frame's crop (grid.pixels() values); from the second frame on, adds
  // V_t(I, J) of (previous, this) to each window's sum, in frame order.
  virtual void add_frame(const std::vector<double>& crop) = 0;
  // The next reference frame as read: its crop by motion_crop, then add_frame. The GPU form
  // overrides it to upload the crop's native samples (a quarter of the doubles' bytes at 8 bits)
  // and widen them on the device by LumaFrame::value's rule, with the same bits.
  virtual void add_luma(const LumaFrame& frame, const MotionGrid& grid) {
    add_frame(motion_crop(frame, grid));
  }
  // Sum over t = 1..T-1 of V_t(I, J), window (I, J) at I * c0 + J; waits for the device.
  virtual std::vector<double> speed_sums() = 0;
  // Frame pairs added so far (T - 1 once T frames came).
  virtual std::int64_t pairs() const = 0;
};

// On the host, or (Backend::Cuda) in a kernel on the current device, with the same bits.
// Backend::Cuda in a build without CUDA throws GpuError (common/error.h).
std::unique_ptr<MotionAccumulator> make_motion_accumulator(const MotionGrid& grid, Backend backend);
// The two implementations (motion_cpu.cpp, motion_cuda.cu).
std::unique_ptr<MotionAccumulator> make_motion_accumulator_cpu(const MotionGrid& grid);
std::unique_ptr<MotionAccumulator> make_motion_accumulator_cuda(const MotionGrid& grid);

}  // namespace mad::video
