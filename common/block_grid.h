// The block grid, tile write-back and crop shared by both MAD stages (spec §3.4, §3.8).
//
// Blocks are 16x16 windows whose top-left corners sit on every multiple of 4 that leaves the
// whole block inside the image. Each block's value is written to the 4x4 tile at its top-left
// corner; pixels covered by no tile are 0. Pooling is the RMS over rows/cols 16..n-18.
#pragma once

#include <cmath>
#include <cstddef>

#include "common/image.h"

namespace mad {

constexpr int kBlockSize = 16;      // block side
constexpr int kBlockStride = 4;     // grid step == tile side
constexpr int kMinImageSide = 34;   // below this the crop is empty and the original gives NaN
constexpr int kCropBegin = 16;      // first pooled row/column
constexpr int kCropEndMargin = 17;  // rows/cols dropped at the bottom/right

struct BlockGrid {
  int image_width = 0;
  int image_height = 0;
  int cols = 0;  // P_c = floor((N-16)/4)+1, 0 when N < 16
  int rows = 0;  // P_r

  BlockGrid() = default;
  BlockGrid(int width, int height)
      : image_width(width),
        image_height(height),
        cols(width >= kBlockSize ? (width - kBlockSize) / kBlockStride + 1 : 0),
        rows(height >= kBlockSize ? (height - kBlockSize) / kBlockStride + 1 : 0) {}

  std::size_t count() const { return static_cast<std::size_t>(rows) * cols; }
  // Pixels in the pooling crop: (M-33)(N-33).
  std::size_t crop_count() const {
    return static_cast<std::size_t>(image_height - 2 * kCropBegin - 1) *
           static_cast<std::size_t>(image_width - 2 * kCropBegin - 1);
  }
};

// Writes block values (grid.rows x grid.cols, row-major, `block_pitch` elements per row) into
// their 4x4 tiles of `out` (image-sized) and zeroes every pixel no tile covers.
template <class T>
void expand_tiles(const T* blocks, std::ptrdiff_t block_pitch, const BlockGrid& grid,
                  ImageView<T> out) {
  for (int y = 0; y < out.height; ++y) {
    T* dst = out.row(y);
    const int by = y / kBlockStride;
    for (int x = 0; x < out.width; ++x) {
      const int bx = x / kBlockStride;
      dst[x] = (by < grid.rows && bx < grid.cols) ? blocks[by * block_pitch + bx] : T{0};
    }
  }
}

// RMS of a full-size map over the pooling crop (spec §3.8): sqrt(sum(map^2)/((M-33)(N-33))).
// Summed row by row, left to right, so the result does not depend on threading.
inline double pool_rms_crop(ImageView<const double> map) {
  double sum = 0.0;
  for (int y = kCropBegin; y <= map.height - 1 - kCropEndMargin; ++y) {
    const double* r = map.row(y);
    for (int x = kCropBegin; x <= map.width - 1 - kCropEndMargin; ++x) sum += r[x] * r[x];
  }
  return std::sqrt(sum / static_cast<double>(BlockGrid(map.width, map.height).crop_count()));
}

}  // namespace mad
