// The GPU form of ST-MAD's motion accumulation (motion.h): one thread per 8x8 window, in
// double, the window arithmetic of motion_solve.h (the CPU's, bit for bit). CUDA-only header.
#pragma once

#include <cstdint>
#include <vector>

#include "common/cuda_resources.h"
#include "mad/video/motion.h"

namespace mad::video {

class MotionCuda final : public MotionAccumulator {
 public:
  // Buffers for two crops and the window sums on the current device, and its own stream.
  explicit MotionCuda(const MotionGrid& grid);
  // Waits for the stream, so no kernel still reads the buffers being freed.
  ~MotionCuda() override;
  // Uploads the crop (the caller's memory may be reused on return) and, from the second frame,
  // adds each window's V_t to its sum on the stream; does not wait for the kernel.
  void add_frame(const std::vector<double>& crop) override;
  // Copies the crop's rows of native samples into page-locked staging (reused once the previous
  // frame's copy is done), uploads them and widens them to doubles on the stream; then as
  // add_frame. At 1920x1080 8-bit: 2 MB a frame instead of 16 MB of doubles from pageable memory.
  void add_luma(const LumaFrame& frame, const MotionGrid& grid) override;
  // Waits for the stream and copies the sums back.
  std::vector<double> speed_sums() override;
  std::int64_t pairs() const override { return pairs_; }

 private:
  MotionGrid grid_;
  cuda::Stream stream_;
  cuda::DeviceBuffer<double> frames_[2];  // the previous and the current crop, alternating
  cuda::DeviceBuffer<double> sums_;
  // add_luma's staging: the crop's samples, 1 or 2 bytes each (made at the first frame's depth).
  cuda::PinnedBuffer<std::uint8_t> staging_;
  cuda::DeviceBuffer<std::uint8_t> samples_;
  cuda::Event staged_;  // the last upload from staging_ is done
  bool staged_recorded_ = false;
  // From the second frame on: the V_t of (previous, current) added to the sums.
  void accumulate(int next);
  int current_ = 0;
  std::int64_t frames_added_ = 0, pairs_ = 0;
};

}  // namespace mad::video
