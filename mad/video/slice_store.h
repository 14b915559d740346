// One clip's spatiotemporal slices (shared/stmad-spec.md §5.1), gathered while the clip streams:
// rows and columns 8k+4 (0-based) of every frame, kept as the frames' native samples (uint8 or
// uint16), so a clip costs about a quarter of its luma. Column slice k is an H x T image (rows
// are space, columns time), row slice k a T x W image (rows are time): not transposed.
#pragma once

#include <cstdint>
#include <vector>

#include "common/luma_frame.h"

namespace mad::video {

// The 0-based position of slice k: 8k + 4 (the release's 1-based 8k - 3, k = 1..n).
constexpr int slice_position(int k) { return 8 * k + 4; }

class SliceStore {
 public:
  // Frames of width x height: floor(W/8) column slices and floor(H/8) row slices.
  SliceStore(int width, int height);

  // Keeps frame t's slice rows and columns (frames in order). Every frame must have the
  // store's size and the first frame's bit depth (InputError otherwise).
  void add(const LumaFrame& frame);

  int frames() const { return frames_; }
  int column_slices() const { return width_ / 8; }
  int row_slices() const { return height_ / 8; }
  // Column slice k: H x T, element (y, t) = frame t's pixel (y, 8k+4).
  LumaFrame column_slice(int k) const;
  // Row slice k: T x W, element (t, x) = frame t's pixel (8k+4, x).
  LumaFrame row_slice(int k) const;

 private:
  int width_, height_;
  int bit_depth_ = 0;  // the first frame's
  int frames_ = 0;
  // Frame after frame: for frame t, the H samples of each column slice in k order
  // (columns8_/16_), and the W samples of each row slice (rows8_/16_); one pair is used.
  std::vector<std::uint8_t> columns8_, rows8_;
  std::vector<std::uint16_t> columns16_, rows16_;
};

}  // namespace mad::video
